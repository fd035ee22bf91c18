#include "configcheck.h"

#include "runconfig.h"
#include "scenario.h"

namespace idem {

namespace {

QString range(const char* what, qint64 value, qint64 min, qint64 max) {
    if (value >= min && value <= max)
        return {};
    return QStringLiteral("%1 %2 is out of range (allowed: %3 to %4)")
        .arg(QLatin1String(what))
        .arg(value)
        .arg(min)
        .arg(max);
}

}  // namespace

QString checkConfig(const RunConfig& c, const ScenarioInfo& info) {
    const VariantInfo* variant = info.variant(c.variant);
    if (!variant) {
        QStringList ids;
        for (const VariantInfo& v : info.variants) ids << v.id;
        return QStringLiteral("unknown variant \"%1\" for scenario %2 (allowed: %3)")
            .arg(c.variant, info.id, ids.join(QStringLiteral(", ")));
    }
    if (!info.sources.contains(c.source)) {
        QStringList ids;
        for (Source s : info.sources) ids << toId(s);
        return QStringLiteral("source %1 does not occur in scenario %2 (allowed: %3)")
            .arg(toId(c.source), info.id, ids.join(QStringLiteral(", ")));
    }
    if (c.crash != CrashPoint::None && !variant->crashPoints.contains(c.crash)) {
        QStringList ids;
        for (CrashPoint p : variant->crashPoints) ids << toId(p);
        return QStringLiteral("crash point %1 does not exist in %2/%3 (allowed: %4)")
            .arg(toId(c.crash), info.id, variant->id,
                 ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")));
    }
    for (const QString& s :
         {range("--duplicates", c.duplicates, 0, kMaxDuplicates),
          range("--max-retries", c.maxRetries, 0, kMaxRetries),
          range("--crash-attempt", c.crashAttempt, 1, c.duplicates + 1 + c.maxRetries),
          range("--intents", c.intents, 1, kMaxIntents),
          c.intervalMs < 0 ? QString() : range("--interval-ms", c.intervalMs, 0, kMaxIntervalMs),
          range("--expiry-ms", c.expiryMs, 1, kMaxIntervalMs),
          range("--retention-ms", c.retentionMs, 1, 10 * kMaxIntervalMs),
          range("--ttl-ms", c.ttlMs, 1, kMaxIntervalMs),
          range("--lease-ms", c.leaseMs, 1, kMaxIntervalMs),
          range("--visibility-ms", c.visibilityMs, 1, kMaxIntervalMs)}) {
        if (!s.isEmpty())
            return s;
    }
    for (auto it = c.params.cbegin(); it != c.params.cend(); ++it) {
        const ParamInfo* p = info.param(it.key());
        if (!p) {
            QStringList keys;
            for (const ParamInfo& known : info.params) keys << known.key;
            return QStringLiteral("unknown --param %1 for scenario %2 (allowed: %3)")
                .arg(it.key(), info.id,
                     keys.isEmpty() ? QStringLiteral("none") : keys.join(QStringLiteral(", ")));
        }
        if (!p->allowed.isEmpty()) {
            if (!p->allowed.contains(it.value())) {
                return QStringLiteral("--param %1=%2 is not allowed (allowed: %3)")
                    .arg(it.key(), it.value(), p->allowed.join(QStringLiteral(", ")));
            }
            continue;
        }
        bool ok = false;
        const qint64 n = it.value().toLongLong(&ok);
        if (!ok || n < p->min || n > p->max) {
            return QStringLiteral("--param %1=%2 is not a number from %3 to %4")
                .arg(it.key(), it.value())
                .arg(p->min)
                .arg(p->max);
        }
    }
    return {};
}

}  // namespace idem
