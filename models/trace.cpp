#include "trace.h"

#include "runconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace idem {

namespace {

QJsonValue paramToJson(const QVariant& v) {
    if (v.isNull())
        return QJsonValue::Null;
    switch (v.typeId()) {
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong:
            return QJsonValue(v.toLongLong());
        case QMetaType::Double:
            return QJsonValue(v.toDouble());
        case QMetaType::Bool:
            return QJsonValue(v.toBool());
        default:
            return QJsonValue(v.toString());
    }
}

}  // namespace

QJsonObject TraceEvent::toJson() const {
    QJsonObject o = QJsonObject::fromVariantMap(data);
    o.insert("seq", seq);
    o.insert("t_ms", tMs);
    o.insert("intent", intent);
    o.insert("attempt", attempt);
    o.insert("actor", actor);
    o.insert("kind", kind);
    if (kind == QLatin1String("sql")) {
        QJsonArray p;
        for (const QVariant& v : params) p.append(paramToJson(v));
        o.insert("connection", connection);
        o.insert("sql", sql);
        o.insert("params", p);
        o.insert("rows", rows);
        o.insert("error", error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error));
    }
    return o;
}

bool TraceEvent::fromJson(const QJsonObject& json, TraceEvent* out, QString* error) {
    static const QStringList kCommon{"seq", "t_ms", "intent", "attempt", "actor", "kind"};
    for (const QString& key : kCommon) {
        if (!json.contains(key)) {
            *error = QStringLiteral("an event lacks the field \"%1\"").arg(key);
            return false;
        }
    }
    TraceEvent e;
    e.seq = json.value("seq").toInteger();
    e.tMs = json.value("t_ms").toInteger();
    e.intent = json.value("intent").toInt();
    e.attempt = json.value("attempt").toInt();
    e.actor = json.value("actor").toString();
    e.kind = json.value("kind").toString();
    QJsonObject rest = json;
    for (const QString& key : kCommon) rest.remove(key);
    if (e.kind == QLatin1String("sql")) {
        e.connection = rest.take("connection").toString();
        e.sql = rest.take("sql").toString();
        e.params = rest.take("params").toArray().toVariantList();
        e.rows = rest.take("rows").toInteger(-1);
        e.error = rest.take("error").toString();
    }
    e.data = rest.toVariantMap();
    *out = e;
    return true;
}

TraceEvent& Trace::append(TraceEvent event) {
    event.seq = events_.size() + 1;
    events_.append(std::move(event));
    return events_.last();
}

QByteArray Trace::toJson(const RunConfig& config, const QJsonObject& summary) const {
    QJsonArray events;
    for (const TraceEvent& e : events_) events.append(e.toJson());
    const QJsonObject root{
        {"format", kFormat}, {"version", kVersion}, {"config", config.toJson()},
        {"events", events},  {"summary", summary},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool Trace::save(const QString& path, const RunConfig& config, const QJsonObject& summary,
                 QString* error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write the trace to %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(toJson(config, summary));
    if (!file.commit()) {
        *error = QStringLiteral("cannot write the trace to %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool Trace::load(const QString& path, Loaded* out, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open the trace %1: %2").arg(path, file.errorString());
        return false;
    }
    if (!parse(file.readAll(), out, error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    return true;
}

bool Trace::parse(const QByteArray& bytes, Loaded* out, QString* error) {
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (doc.isNull()) {
        *error = QStringLiteral("not a readable trace (corrupt or truncated JSON at byte %1: %2)")
                     .arg(parseError.offset)
                     .arg(parseError.errorString());
        return false;
    }
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != QLatin1String(kFormat)) {
        *error = QStringLiteral("not an idemlab trace (format is not \"%1\")").arg(kFormat);
        return false;
    }
    const int version = root.value("version").toInt(-1);
    if (version > kVersion) {
        *error = QStringLiteral(
                     "trace format version %1 is newer than this program reads (%2); "
                     "update Idempotency Lab to open it")
                     .arg(version)
                     .arg(kVersion);
        return false;
    }
    if (version < 1) {
        *error = QStringLiteral("trace has no valid format version");
        return false;
    }
    if (!root.value("config").isObject() || !root.value("events").isArray()) {
        *error = QStringLiteral("trace lacks its config or its events");
        return false;
    }
    Loaded loaded;
    loaded.config = root.value("config").toObject();
    loaded.summary = root.value("summary").toObject();
    const QJsonArray events = root.value("events").toArray();
    loaded.events.reserve(events.size());
    for (const QJsonValue& v : events) {
        TraceEvent e;
        if (!v.isObject() || !TraceEvent::fromJson(v.toObject(), &e, error)) {
            if (!v.isObject())
                *error = QStringLiteral("an event is not a JSON object");
            return false;
        }
        loaded.events.append(e);
    }
    *out = loaded;
    return true;
}

}  // namespace idem
