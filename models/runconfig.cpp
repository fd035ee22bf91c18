#include "runconfig.h"

#include <QJsonValue>

namespace idem {

QJsonObject RunConfig::toJson() const {
    QJsonObject p;
    for (auto it = params.cbegin(); it != params.cend(); ++it) p.insert(it.key(), it.value());
    return QJsonObject{
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
}

bool RunConfig::fromJson(const QJsonObject& json, RunConfig* out, QString* error) {
    RunConfig c;
    auto fail = [error](const QString& field) {
        *error = QStringLiteral("config field \"%1\" is missing or invalid").arg(field);
        return false;
    };
    auto integer = [&json](const char* key, qint64* into) {
        const QJsonValue v = json.value(QLatin1String(key));
        if (!v.isDouble())
            return false;
        *into = v.toInteger();
        return true;
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
    qint64 n = 0;
    if (!integer("duplicates", &n))
        return fail("duplicates");
    c.duplicates = int(n);
    if (!integer("crash_attempt", &n))
        return fail("crash_attempt");
    c.crashAttempt = int(n);
    if (!integer("interval_ms", &c.intervalMs))
        return fail("interval_ms");
    if (!integer("max_retries", &n))
        return fail("max_retries");
    c.maxRetries = int(n);
    if (!integer("intents", &n))
        return fail("intents");
    c.intents = int(n);
    if (!integer("seed", &n))
        return fail("seed");
    c.seed = quint32(n);
    if (!integer("expiry_ms", &c.expiryMs))
        return fail("expiry_ms");
    if (!integer("retention_ms", &c.retentionMs))
        return fail("retention_ms");
    if (!integer("ttl_ms", &c.ttlMs))
        return fail("ttl_ms");
    if (!integer("lease_ms", &c.leaseMs))
        return fail("lease_ms");
    if (!integer("visibility_ms", &c.visibilityMs))
        return fail("visibility_ms");
    const QJsonObject p = json.value("params").toObject();
    for (auto it = p.begin(); it != p.end(); ++it) c.params.insert(it.key(), it.value().toString());
    *out = c;
    return true;
}

}  // namespace idem
