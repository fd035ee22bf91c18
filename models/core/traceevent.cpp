#include "traceevent.h"

#include "sqlstatement.h"

#include "jsonbytes.h"
#include "sqlitecodes.h"

#include <QHash>
#include <QJsonArray>
#include <QMutex>
#include <QSet>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <limits>

namespace idem {

// --- kinds --------------------------------------------------------------------

namespace {

constexpr std::array kKindIds{"fire",   "retry",   "sql",        "lock-wait", "work",     "pause",
                              "resume", "guard",   "transition", "crash",     "response", "alert",
                              "effect", "verdict", "locks",      "tables",    "note"};
static_assert(kKindIds.size() == std::size_t(EventKind::Note) + 1);

}  // namespace

QString toId(EventKind kind) {
    return QString::fromLatin1(kKindIds[std::size_t(kind)]);
}

EventKind eventKindFromId(QStringView id) {
    for (std::size_t i = 0; i + 1 < kKindIds.size(); ++i) {
        if (id == QLatin1String(kKindIds[i]))
            return EventKind(i);
    }
    return EventKind::Note;
}

// --- names ----------------------------------------------------------------------

namespace {

// Append-only: a name's slot is written before the count that makes it
// visible, so readers need no lock.
struct NameTable {
    QMutex mutex;
    std::array<QString, kMaxNames> names;
    std::atomic<int> count{1};  // 0 is the empty name
    QHash<QString, NameId> ids;
};

NameTable& names() {
    static NameTable table;
    return table;
}

struct KeyTable {
    QMutex mutex;
    QSet<QByteArray> keys;  // each key's bytes never move once inserted
};

KeyTable& keys() {
    static KeyTable table;
    return table;
}

}  // namespace

NameId nameId(QStringView name) {
    if (name.isEmpty())
        return 0;
    NameTable& t = names();
    QMutexLocker lock(&t.mutex);
    const QString key = name.toString();
    const auto it = t.ids.constFind(key);
    if (it != t.ids.cend())
        return *it;
    const int id = t.count.load(std::memory_order_relaxed);
    if (id >= kMaxNames)
        return 0;
    t.names[std::size_t(id)] = key;
    t.ids.insert(key, NameId(id));
    t.count.store(id + 1, std::memory_order_release);
    return NameId(id);
}

QString nameOf(NameId id) {
    NameTable& t = names();
    return id < t.count.load(std::memory_order_acquire) ? t.names[id] : QString();
}

bool Key::operator==(const Key& other) const {
    return name == other.name || std::strcmp(name, other.name) == 0;
}

Key internKey(QStringView name) {
    KeyTable& t = keys();
    QMutexLocker lock(&t.mutex);
    const QByteArray bytes = name.toUtf8();
    auto it = t.keys.constFind(bytes);
    if (it == t.keys.cend())
        it = t.keys.insert(bytes);
    return Key(it->constData());
}

// --- fields ---------------------------------------------------------------------

const QVariant* Fields::find(Key key) const {
    for (const Field& f : items_) {
        if (f.key == key)
            return &f.value;
    }
    return nullptr;
}

QVariant Fields::value(Key key) const {
    const QVariant* v = find(key);
    return v ? *v : QVariant();
}

void Fields::set(Key key, QVariant value) {
    for (Field& f : items_) {
        if (f.key == key) {
            f.value = std::move(value);
            return;
        }
    }
    items_.push_back(Field{key, std::move(value)});
}

// --- the event ------------------------------------------------------------------

QString TraceEvent::connectionName() const {
    return connection < 0 ? QString() : QStringLiteral("c%1").arg(connection);
}

QString TraceEvent::errorText() const {
    if (code == 0)
        return {};
    return QStringLiteral("%1 (%2)").arg(error).arg(code);
}

bool TraceEvent::isSetup() const {
    return kind == EventKind::Sql && fields.text("phase") == QLatin1String("setup");
}

const char* TraceEvent::rowsKey() const {
    if (kind != EventKind::Sql)
        return nullptr;
    switch (counts) {
        case RowCount::Returned:
            return "rows_returned";
        case RowCount::Changed:
            return "rows_changed";
        case RowCount::None:
            break;
    }
    return nullptr;
}

QByteArray TraceEvent::toJsonBytes() const {
    QByteArray out;
    out.reserve(kind == EventKind::Sql ? 256 + sql.size() : 160);
    out += "{\"seq\":";
    json::appendInteger(out, seq);
    out += ",\"t_ms\":";
    json::appendInteger(out, tMs);
    out += ",\"intent\":";
    json::appendInteger(out, intent);
    out += ",\"attempt\":";
    json::appendInteger(out, attempt);
    out += ",\"actor\":";
    json::appendString(out, actorName());
    out += ",\"kind\":";
    json::appendString(out, kindId());
    if (kind == EventKind::Sql) {
        out += ",\"connection\":";
        if (connection < 0) {
            out += "\"\"";
        } else {
            out += "\"c";
            json::appendInteger(out, connection);
            out += '"';
        }
        out += ",\"sql\":";
        json::appendString(out, sql);
        out += ",\"params\":";
        json::appendValue(out, params);
        if (const char* key = rowsKey()) {
            out += ",\"";
            out += key;
            out += "\":";
            json::appendInteger(out, rows);
        }
        out += ",\"code\":";
        json::appendInteger(out, code);
        out += ",\"error\":";
        if (code == 0)
            out += "null";
        else
            json::appendString(out, errorText());
    }
    for (const Field& f : fields) {
        out += ',';
        json::appendLatin1String(out, f.key.name);
        out += ':';
        json::appendValue(out, f.value);
    }
    out += '}';
    return out;
}

namespace {

// Version 1 spelled a message's ends and a transition's states the same way
// ("from", "to"), and wrote a guard's SQLite message as "error"; version 2
// gives each its own name. Fire payloads were spliced into the event.
const char* v1Name(EventKind kind, const char* v2) {
    const auto is = [v2](const char* n) {
        return std::strcmp(v2, n) == 0;
    };
    if (is("sender") || is("from_state") || is("previous_owner"))
        return "from";
    if (is("receiver") || is("to_state"))
        return "to";
    if (kind == EventKind::Guard && is("conflict"))
        return "error";
    if (kind == EventKind::Response && is("reason"))
        return "result";
    return v2;
}

QString v2Name(EventKind kind, const QString& v1) {
    if (v1 == QLatin1String("from")) {
        if (kind == EventKind::Transition)
            return QStringLiteral("from_state");
        if (kind == EventKind::Guard)
            return QStringLiteral("previous_owner");
        return QStringLiteral("sender");
    }
    if (v1 == QLatin1String("to"))
        return kind == EventKind::Transition ? QStringLiteral("to_state")
                                             : QStringLiteral("receiver");
    if (kind == EventKind::Guard && v1 == QLatin1String("error"))
        return QStringLiteral("conflict");
    return v1;
}

const QStringList kCommonKeys{"seq", "t_ms", "intent", "attempt", "actor", "kind"};
// An sql event's own fields, before version 3 and from it on.
const QStringList kSqlKeysV2{"connection", "sql", "params", "rows", "code", "error"};
const QStringList kSqlKeys{"connection",   "sql",  "params", "rows_returned",
                           "rows_changed", "code", "error"};

// What an sql event's "rows" counts in a trace of version 1 or 2, which wrote
// only the number: read from the statement's words, all such a trace says.
// A pragma counts the rows it answered, if any.
RowCount countOfStatement(QStringView sql, qint64 rows) {
    const QStringList words = outerWords(sql);
    if (words.isEmpty())
        return RowCount::None;
    if (words.contains(QLatin1String("RETURNING")))
        return RowCount::Returned;
    static const QStringList verbs{"SELECT", "VALUES", "INSERT", "REPLACE", "UPDATE", "DELETE"};
    QString verb = words.first();
    if (verb == QLatin1String("WITH")) {
        const auto it = std::find_if(words.cbegin() + 1, words.cend(),
                                     [](const QString& w) { return verbs.contains(w); });
        verb = it == words.cend() ? QString() : *it;
    }
    if (verb == QLatin1String("SELECT") || verb == QLatin1String("VALUES"))
        return RowCount::Returned;
    if (verbs.contains(verb))
        return RowCount::Changed;
    if (verb == QLatin1String("PRAGMA") && rows > 0)
        return RowCount::Returned;
    return RowCount::None;
}

const QStringList kFireKeys{"from", "to", "attempt_kind", "source"};

// A whole number that fits the field, or false with a message.
bool integerField(const QJsonObject& json, const char* key, qint64 min, qint64 max, qint64* out,
                  QString* error) {
    const QJsonValue v = json.value(QLatin1String(key));
    const QVariant n = v.toVariant();
    if (n.typeId() != QMetaType::LongLong || n.toLongLong() < min || n.toLongLong() > max) {
        *error = QStringLiteral("an event's \"%1\" is not a whole number from %2 to %3 (it is %4)")
                     .arg(QLatin1String(key))
                     .arg(min)
                     .arg(max)
                     .arg(v.isString() ? QLatin1Char('"') + v.toString() + QLatin1Char('"')
                                       : v.toVariant().toString());
        return false;
    }
    *out = n.toLongLong();
    return true;
}

}  // namespace

QJsonObject TraceEvent::toJson(int version) const {
    QJsonObject o;
    for (const Field& f : fields) {
        // Version 4 says what answer a retry follows; earlier ones did not.
        if (version < 4 && kind == EventKind::Retry && std::strcmp(f.key.name, "after") == 0)
            continue;
        // Version 7 says what a server received; earlier ones did not.
        if (version < 7 && kind == EventKind::Sql && std::strcmp(f.key.name, "sent") == 0)
            continue;
        const char* name = version == 1 ? v1Name(kind, f.key.name) : f.key.name;
        if (version == 1 && kind == EventKind::Fire && std::strcmp(name, "payload") == 0) {
            const QVariantMap payload = f.value.toMap();
            for (auto it = payload.cbegin(); it != payload.cend(); ++it)
                o.insert(it.key(), QJsonValue::fromVariant(it.value()));
            continue;
        }
        o.insert(QLatin1String(name), QJsonValue::fromVariant(f.value));
    }
    o.insert("seq", seq);
    o.insert("t_ms", tMs);
    o.insert("intent", intent);
    // A numbered helper's own number (negative) is version 5's; before it,
    // every helper was 0.
    o.insert("attempt", version < 5 ? std::max(attempt, 0) : attempt);
    o.insert("actor", actorName());
    o.insert("kind", kindId());
    if (kind == EventKind::Sql) {
        QJsonArray p;
        for (const QVariant& v : params) p.append(QJsonValue::fromVariant(v));
        o.insert("connection", connectionName());
        o.insert("sql", sql);
        o.insert("params", p);
        if (version <= 2)
            o.insert("rows", rows);
        else if (const char* key = rowsKey())
            o.insert(QLatin1String(key), rows);
        if (version >= 2)
            o.insert("code", code);
        o.insert("error", code == 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(errorText()));
    }
    return o;
}

bool TraceEvent::fromJson(const QJsonObject& json, int version, TraceEvent* out, QString* error) {
    for (const QString& key : kCommonKeys) {
        if (!json.contains(key)) {
            *error = QStringLiteral("an event lacks the field \"%1\"").arg(key);
            return false;
        }
    }
    TraceEvent e;
    qint64 n = 0;
    if (!integerField(json, "seq", 0, std::numeric_limits<qint64>::max(), &e.seq, error) ||
        !integerField(json, "t_ms", 0, std::numeric_limits<qint64>::max(), &e.tMs, error))
        return false;
    if (!integerField(json, "intent", -1, std::numeric_limits<qint32>::max(), &n, error))
        return false;
    e.intent = qint32(n);
    // From version 5 on, a helper numbered apart from the requests is
    // negative (AttemptSpec::numbered).
    const qint64 lowest = version >= 5 ? std::numeric_limits<qint32>::min() + 1 : 0;
    if (!integerField(json, "attempt", lowest, std::numeric_limits<qint32>::max(), &n, error))
        return false;
    e.attempt = qint32(n);
    if (!json.value("actor").isString() || !json.value("kind").isString()) {
        *error = QStringLiteral("an event's actor and kind must be text");
        return false;
    }
    const QString actor = json.value("actor").toString();
    const QString kind = json.value("kind").toString();
    e.actor = nameId(actor);
    e.kind = eventKindFromId(kind);
    if (e.kind == EventKind::Note)
        e.note = nameId(kind);
    if ((!actor.isEmpty() && e.actor == 0) || (e.kind == EventKind::Note && e.note == 0)) {
        *error =
            QStringLiteral("the trace names more actors and event kinds than %1").arg(kMaxNames);
        return false;
    }
    const QStringList& sqlKeys = version <= 2 ? kSqlKeysV2 : kSqlKeys;
    QVariantMap payload;
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString& key = it.key();
        if (kCommonKeys.contains(key) || (e.kind == EventKind::Sql && sqlKeys.contains(key)))
            continue;
        if (version == 1 && e.kind == EventKind::Fire && !kFireKeys.contains(key)) {
            payload.insert(key, it.value().toVariant());
            continue;
        }
        const QString name = version == 1 ? v2Name(e.kind, key) : key;
        e.fields.set(internKey(name), it.value().toVariant());
    }
    if (!payload.isEmpty())
        e.fields.set("payload", payload);
    if (e.kind == EventKind::Sql) {
        const QString connection = json.value("connection").toString();
        bool ok = connection.startsWith(QLatin1Char('c'));
        const int c = connection.mid(1).toInt(&ok);
        if (!connection.isEmpty() && (!ok || c < 0 || c > std::numeric_limits<qint16>::max())) {
            *error = QStringLiteral("an sql event's connection \"%1\" is not c0, c1 ...")
                         .arg(connection);
            return false;
        }
        e.connection = connection.isEmpty() ? qint16(-1) : qint16(c);
        e.sql = json.value("sql").toString();
        e.params = json.value("params").toArray().toVariantList();
        if (version <= 2) {
            if (!integerField(json, "rows", std::numeric_limits<qint64>::min(),
                              std::numeric_limits<qint64>::max(), &e.rows, error))
                return false;
            e.counts = countOfStatement(e.sql, e.rows);
        } else {
            if (json.contains(QLatin1String("rows"))) {
                *error = QStringLiteral(
                    "an sql event of version 3 names its count rows_returned or "
                    "rows_changed, not rows");
                return false;
            }
            const bool returned = json.contains(QLatin1String("rows_returned"));
            const bool changed = json.contains(QLatin1String("rows_changed"));
            if (returned && changed) {
                *error = QStringLiteral(
                    "an sql event has both rows_returned and rows_changed: a statement "
                    "either returns rows or changes them");
                return false;
            }
            if ((returned || changed) &&
                !integerField(json, returned ? "rows_returned" : "rows_changed", 0,
                              std::numeric_limits<qint64>::max(), &e.rows, error))
                return false;
            e.counts = returned ? RowCount::Returned : changed ? RowCount::Changed : RowCount::None;
        }
        const QJsonValue err = json.value("error");
        if (!err.isNull() && !err.isString()) {
            *error = QStringLiteral("an sql event's error must be null or text");
            return false;
        }
        if (err.isString()) {
            // "message (code)": the code is also its own field from version 2 on.
            const QString text = err.toString();
            const qsizetype open = text.lastIndexOf(QLatin1String(" ("));
            e.error = open > 0 ? text.left(open) : text;
            e.code = open > 0 ? text.mid(open + 2).chopped(1).toInt() : 1;
            if (e.code == 0)
                e.code = 1;
        }
        if (version >= 2) {
            if (!integerField(json, "code", 0, std::numeric_limits<int>::max(), &n, error))
                return false;
            if ((n == 0) != err.isNull()) {
                *error = QStringLiteral("an sql event's code and error disagree");
                return false;
            }
            e.code = int(n);
        }
    }
    *out = std::move(e);
    return true;
}

SqlOutcome TraceEvent::outcome() const {
    // A server's run names the outcome; SQLite's codes say it themselves.
    if (const QString named = fields.text("outcome"); !named.isEmpty()) {
        if (const std::optional<SqlOutcome> o = outcomeFromId(named))
            return *o;
    }
    return sqliteOutcome(code);
}

}  // namespace idem
