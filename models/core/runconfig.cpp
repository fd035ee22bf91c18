#include "runconfig.h"

#include "backendnames.h"
#include "numberfields.h"

#include <QJsonValue>
#include <QVariant>

#include <cmath>

namespace idem {

QJsonObject RunConfig::toJson() const {
    QJsonObject p;
    for (auto it = params.cbegin(); it != params.cend(); ++it) p.insert(it.key(), it.value());
    QJsonObject json{
        {"scenario", scenario},
        {"variant", variant},
        {"duplicates", duplicates},
        {"timing", toId(timing)},
        {"source", toId(source)},
        {"crash", toId(crash)},
        {"crash_attempt", crashAttempt},
        {"interval_ms", effectiveIntervalMs()},
        {"max_retries", maxRetries},
        {"params", p},
        {"intents", intents},
        {"seed", static_cast<qint64>(seed)},
        {"expiry_ms", expiryMs},
        {"retention_ms", retentionMs},
        {"ttl_ms", ttlMs},
        {"lease_ms", leaseMs},
        {"visibility_ms", visibilityMs},
    };
    // A run on SQLite says nothing of backends, as every trace before live
    // mode did.
    if (backend != QLatin1String("sqlite")) {
        json.insert("backend", backend);
        json.insert("isolation", isolation);
        if (lockTimeoutMs > 0)
            json.insert("lock_timeout_ms", lockTimeoutMs);
    }
    if (!workbench.isEmpty())
        json.insert("workbench", workbench);
    // Likewise a run without Redis.
    if (redis != QLatin1String("off"))
        json.insert("redis", redis == QLatin1String("private") ? redis : QStringLiteral("url"));
    return json;
}

namespace {

// A JSON value that is not a number, in a student's words.
QString jsonKind(const QJsonValue& v) {
    switch (v.type()) {
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Bool:
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::String:
            return QStringLiteral("the text \"%1\"").arg(v.toString());
        case QJsonValue::Array:
            return QStringLiteral("a list");
        case QJsonValue::Object:
            return QStringLiteral("an object");
        default:
            return QStringLiteral("something else");
    }
}

}  // namespace

bool RunConfig::fromJson(const QJsonObject& json, RunConfig* out, QString* error) {
    RunConfig c;
    auto fail = [error](const QString& field) {
        *error = QStringLiteral("config field \"%1\" is missing or invalid").arg(field);
        return false;
    };
    c.scenario = json.value("scenario").toString();
    c.variant = json.value("variant").toString();
    if (c.scenario.isEmpty())
        return fail("scenario");
    if (c.variant.isEmpty())
        return fail("variant");
    const auto timing = timingFromId(json.value("timing").toString());
    if (!timing)
        return fail("timing");
    c.timing = *timing;
    const auto source = sourceFromId(json.value("source").toString());
    if (!source)
        return fail("source");
    c.source = *source;
    const auto crash = crashPointFromId(json.value("crash").toString());
    if (!crash)
        return fail("crash");
    c.crash = *crash;
    // Qt's JSON parser keeps a number that is whole and fits in 64 bits as an
    // integer (1e3 and 1.0 included) and any other as a double; each value is
    // range-checked as a 64-bit integer before it is narrowed. Every range
    // lies far below 2^53, so no allowed value can have been rounded.
    for (NumberField field : kNumberFields) {
        const QString key = jsonKey(field);
        const QJsonValue v = json.value(key);
        if (v.isUndefined()) {
            *error = QStringLiteral("config field \"%1\" is missing").arg(key);
            return false;
        }
        if (!v.isDouble()) {
            *error = QStringLiteral("config field \"%1\" is %2, not a whole number")
                         .arg(key, jsonKind(v));
            return false;
        }
        const NumberRange allowed = allowedRange(field, c);
        const bool integer = v.toVariant().typeId() == QMetaType::LongLong;
        const double d = v.toDouble();
        const bool whole = integer || std::trunc(d) == d;
        if (!integer || !allowed.contains(v.toInteger())) {
            *error =
                QStringLiteral("config field \"%1\" is %2, %3 (allowed: %4 to %5)")
                    .arg(key,
                         integer ? QString::number(v.toInteger()) : QString::number(d, 'g', 16),
                         whole ? QStringLiteral("out of range")
                               : QStringLiteral("not a whole number"))
                    .arg(allowed.min)
                    .arg(allowed.max);
            return false;
        }
        setNumber(&c, field, v.toInteger());
    }
    const QJsonValue params = json.value("params");
    if (!params.isUndefined() && !params.isObject()) {
        *error =
            QStringLiteral("config field \"params\" is %1, not an object").arg(jsonKind(params));
        return false;
    }
    const QJsonObject p = params.toObject();
    for (auto it = p.begin(); it != p.end(); ++it) {
        if (!it.value().isString()) {
            *error = QStringLiteral("config param \"%1\" is %2, not a text")
                         .arg(it.key(), it.value().isDouble() ? QStringLiteral("a number")
                                                              : jsonKind(it.value()));
            return false;
        }
        c.params.insert(it.key(), it.value().toString());
    }
    if (json.contains("backend")) {
        c.backend = json.value("backend").toString();
        if (c.backend != QLatin1String("sqlite") && c.backend != QLatin1String("mariadb") &&
            c.backend != QLatin1String("postgres"))
            return fail("backend");
        if (json.contains("lock_timeout_ms")) {
            const QJsonValue v = json.value("lock_timeout_ms");
            if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() > 3'600'000)
                return fail("lock_timeout_ms");
            c.lockTimeoutMs = qint64(v.toDouble());
        }
    }
    if (json.contains("redis")) {
        c.redis = json.value("redis").toString();
        if (c.redis != QLatin1String("private") && c.redis != QLatin1String("url"))
            return fail("redis");
    }
    // A level the backend has, as --isolation names it (empty: the
    // database's own): the trace's text never reaches a server unread.
    if (json.contains("isolation")) {
        const QJsonValue v = json.value("isolation");
        const QStringList levels = isolationIds(c.backend);
        c.isolation = v.toString();
        if (!v.isString() || (!c.isolation.isEmpty() && !levels.contains(c.isolation))) {
            *error = QStringLiteral(
                         "config field \"isolation\" is %1, not a level of %2 "
                         "(allowed: %3)")
                         .arg(jsonKind(v), c.backend, levels.join(QStringLiteral(", ")));
            return false;
        }
    }
    if (json.contains("workbench")) {
        if (!json.value("workbench").isObject())
            return fail("workbench");
        c.workbench = json.value("workbench").toObject();
    }
    *out = c;
    return true;
}

}  // namespace idem
