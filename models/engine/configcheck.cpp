#include "configcheck.h"

#include "runconfig.h"
#include "runredis.h"
#include "scenario.h"
#include "serverbackend.h"

#include <QLocale>

#include <algorithm>
#include <limits>

namespace idem {

std::optional<NumberProblem> checkNumbers(const RunConfig& c, const ScenarioInfo& info) {
    for (NumberField field : kNumberFields) {
        const qint64 v = numberOf(c, field);
        // -1: the timing's own spacing.
        if (field == NumberField::IntervalMs && v == -1)
            continue;
        const NumberRange allowed = allowedRange(field, c);
        if (!allowed.contains(v)) {
            return NumberProblem{NumberProblem::Kind::OutOfRange, optionName(field), false,
                                 QString::number(v), allowed};
        }
    }
    for (auto it = c.params.cbegin(); it != c.params.cend(); ++it) {
        const ParamInfo* p = info.param(it.key());
        if (!p || !p->allowed.isEmpty())
            continue;  // checkChoices' part
        bool tooLarge = false;
        const std::optional<qint64> n = parseWholeNumber(it.value(), &tooLarge);
        if (!n || *n < p->min || *n > p->max) {
            const bool whole = n || tooLarge;
            return NumberProblem{
                whole ? NumberProblem::Kind::OutOfRange : NumberProblem::Kind::NotWholeNumber,
                it.key(), true, it.value(), NumberRange{p->min, p->max}};
        }
    }
    return std::nullopt;
}

std::optional<ChoiceProblem> findChoiceProblem(const RunConfig& c, const ScenarioInfo& info) {
    using Kind = ChoiceProblem::Kind;
    const VariantInfo* variant = info.variant(c.variant);
    if (!variant) {
        QStringList ids;
        for (const VariantInfo& v : info.variants) ids << v.id;
        return ChoiceProblem{Kind::Variant, c.variant, {}, ids};
    }
    if (!info.sources.contains(c.source)) {
        QStringList ids;
        for (Source s : info.sources) ids << toId(s);
        return ChoiceProblem{Kind::Source, toId(c.source), {}, ids};
    }
    if (c.crash != CrashPoint::None && !variant->crashPoints.contains(c.crash)) {
        QStringList ids;
        for (CrashPoint p : variant->crashPoints) ids << toId(p);
        return ChoiceProblem{Kind::CrashPoint, toId(c.crash), {}, ids};
    }
    for (auto it = c.params.cbegin(); it != c.params.cend(); ++it) {
        const ParamInfo* p = info.param(it.key());
        if (!p) {
            QStringList keys;
            for (const ParamInfo& known : info.params) keys << known.key;
            return ChoiceProblem{Kind::Param, it.key(), {}, keys};
        }
        if (!p->allowed.isEmpty() && !p->allowed.contains(it.value()))
            return ChoiceProblem{Kind::ParamValue, it.value(), it.key(), p->allowed};
    }
    return std::nullopt;
}

QString optionMessage(const ChoiceProblem& p, const RunConfig& c, const ScenarioInfo& info) {
    const QString allowed = p.allowed.join(QStringLiteral(", "));
    const QString allowedOrNone = p.allowed.isEmpty() ? QStringLiteral("none") : allowed;
    switch (p.kind) {
        case ChoiceProblem::Kind::Variant:
            return QStringLiteral("unknown variant \"%1\" for scenario %2 (allowed: %3)")
                .arg(p.value, info.id, allowed);
        case ChoiceProblem::Kind::Source:
            return QStringLiteral("source %1 does not occur in scenario %2 (allowed: %3)")
                .arg(p.value, info.id, allowed);
        case ChoiceProblem::Kind::CrashPoint:
            return QStringLiteral("crash point %1 does not exist in %2/%3 (allowed: %4)")
                .arg(p.value, info.id, c.variant, allowedOrNone);
        case ChoiceProblem::Kind::Param:
            return QStringLiteral("unknown --param %1 for scenario %2 (allowed: %3)")
                .arg(p.value, info.id, allowedOrNone);
        case ChoiceProblem::Kind::ParamValue:
            return QStringLiteral("--param %1=%2 is not allowed (allowed: %3)")
                .arg(p.param, shownValue(p.value), allowed);
    }
    return {};
}

QString checkChoices(const RunConfig& c, const ScenarioInfo& info) {
    const std::optional<ChoiceProblem> problem = findChoiceProblem(c, info);
    return problem ? optionMessage(*problem, c, info) : QString();
}

QString shownValue(const QString& value) {
    bool plain = !value.isEmpty();
    for (QChar ch : value) {
        if (ch.isSpace() || !ch.isPrint() || ch == QLatin1Char('"'))
            plain = false;
    }
    if (plain)
        return value;
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""))
        .replace(QLatin1Char('\n'), QLatin1String("\\n"))
        .replace(QLatin1Char('\r'), QLatin1String("\\r"))
        .replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString optionMessage(const NumberProblem& p) {
    const QString what = p.param ? QStringLiteral("--param %1=%2").arg(p.field, shownValue(p.value))
                                 : QStringLiteral("--%1 %2").arg(p.field, shownValue(p.value));
    const QString problem = p.kind == NumberProblem::Kind::NotWholeNumber
                                ? QStringLiteral("is not a whole number")
                                : QStringLiteral("is out of range");
    return QStringLiteral("%1 %2 (allowed: %3 to %4)")
        .arg(what, problem)
        .arg(p.allowed.min)
        .arg(p.allowed.max);
}

// Live mode's choices (SPEC section 8): a backend the lab has, a level that
// backend has, and a variant whose SQL is written for it.
QString checkBackend(const RunConfig& c, const ScenarioInfo& info) {
    const QStringList backends = backendIds();
    if (!backends.contains(c.backend)) {
        return QStringLiteral("unknown backend \"%1\" (allowed: %2)")
            .arg(c.backend, backends.join(QStringLiteral(", ")));
    }
    const QStringList levels = isolationIds(c.backend);
    if (!c.isolation.isEmpty() && !levels.contains(c.isolation)) {
        if (c.backend == QLatin1String("sqlite")) {
            return QStringLiteral(
                       "--isolation %1: SQLite has one level, serializable (one writer at a "
                       "time); choose --backend mariadb or postgres for the others")
                .arg(c.isolation);
        }
        return QStringLiteral("unknown isolation level \"%1\" (allowed: %2)")
            .arg(c.isolation, levels.join(QStringLiteral(", ")));
    }
    if (c.lockTimeoutMs > 0 && c.backend == QLatin1String("sqlite"))
        return QStringLiteral(
            "--lock-timeout-ms cancels a server's lock wait; on SQLite the second writer "
            "waits for the first one's whole transaction: choose --backend mariadb or postgres");
    const VariantInfo* v = info.variant(c.variant);
    if (!v)
        return {};
    if (c.backend == QLatin1String("sqlite")) {
        if (v->serverOnly) {
            return QStringLiteral(
                       "variant %1 of %2 locks rows with SELECT ... FOR UPDATE, which SQLite does "
                       "not have (it locks the whole database instead): run it with --backend "
                       "mariadb or --backend postgres")
                .arg(v->id, info.id);
        }
        return {};
    }
    // Each attempt in flight is a connection of the server's.
    if (c.duplicates > kMaxServerDuplicates) {
        return QStringLiteral(
                   "--duplicates %1: on %2 each attempt is a connection of its own; at "
                   "most %3 (on --backend sqlite up to %4)")
            .arg(c.duplicates)
            .arg(c.backend)
            .arg(kMaxServerDuplicates)
            .arg(kMaxDuplicates);
    }
    if (!v->servers.contains(c.backend)) {
        QStringList written;
        for (const VariantInfo& other : info.variants) {
            if (other.servers.contains(c.backend))
                written << other.id;
        }
        return QStringLiteral(
                   "variant %1 of %2 has no %3 form of its SQL yet (on %3: %4); it runs on "
                   "--backend sqlite")
            .arg(v->id, info.id, c.backend,
                 written.isEmpty() ? QStringLiteral("no variant of this scenario")
                                   : written.join(QStringLiteral(", ")));
    }
    return {};
}

// SPEC section 10: off, private or a URL, for a variant whose guard has a
// Redis form.
QString checkRedis(const RunConfig& c, const ScenarioInfo& info) {
    if (c.redis == QLatin1String("off"))
        return {};
    if (c.redis != QLatin1String("private") && c.redis != QLatin1String("url")) {
        QString problem;
        if (!parseRedisUrl(c.redis, &problem))
            return problem;
    }
    const VariantInfo* v = info.variant(c.variant);
    if (v && !v->redis) {
        QStringList withRedis;
        for (const VariantInfo& other : info.variants) {
            if (other.redis)
                withRedis << other.id;
        }
        // No list of other scenarios' variants here: the registry is above
        // this room, and a list written out goes stale as variants are added.
        if (withRedis.isEmpty()) {
            return QStringLiteral(
                       "variant %1 of %2 keeps nothing in Redis, and no other variant "
                       "of %2 does")
                .arg(v->id, info.id);
        }
        return QStringLiteral("variant %1 of %2 keeps nothing in Redis; --redis applies to %3")
            .arg(v->id, info.id, info.id + QLatin1Char(' ') + withRedis.join(QStringLiteral(", ")));
    }
    return {};
}

QString checkConfig(const RunConfig& c, const ScenarioInfo& info) {
    const QString choice = checkChoices(c, info);
    if (!choice.isEmpty())
        return choice;
    const QString backend = checkBackend(c, info);
    if (!backend.isEmpty())
        return backend;
    if (const QString redis = checkRedis(c, info); !redis.isEmpty())
        return redis;
    if (const std::optional<NumberProblem> p = checkNumbers(c, info))
        return optionMessage(*p);
    return {};
}

bool CostEstimate::overLimit() const {
    return statements() > kMaxEstimatedStatements || keptBytes() > kMaxKeptBytes;
}

CostEstimate estimateCost(const RunConfig& c, const ScenarioInfo& info, Keeps keeps) {
    // Each factor is at most 100 000, 1 001, 21 and a scenario's few million
    // once checked; clamp anyway, so that an unchecked configuration cannot
    // overflow.
    CostEstimate e;
    e.keeps = keeps;
    e.intents = std::clamp<qint64>(c.intents, 0, kMaxIntents);
    e.deliveries = std::clamp<qint64>(c.duplicates, 0, kMaxDuplicates) + 1;
    e.tries = std::clamp<qint64>(c.maxRetries, 0, kMaxRetries) + 1;
    if (info.statementsPerAttempt)
        e.perAttempt = std::clamp<qint64>(info.statementsPerAttempt(c), 1, 1LL << 32);
    return e;
}

qint64 estimatedStatements(const RunConfig& c, const ScenarioInfo& info) {
    return estimateCost(c, info).statements();
}

QString costText(const CostEstimate& e) {
    const QLocale english(QLocale::English);
    const QString estimate =
        QStringLiteral(
            "about %1 SQL statements estimated (%2 intents x %3 deliveries x %4 tries x %5 "
            "statements)")
            .arg(english.toString(e.statements()), english.toString(e.intents),
                 english.toString(e.deliveries), english.toString(e.tries),
                 english.toString(e.perAttempt));
    if (e.statements() <= kMaxEstimatedStatements && e.keptBytes() > kMaxKeptBytes) {
        constexpr qint64 mb = 1024 * 1024;
        return QStringLiteral(
                   "%1, whose events kept in memory would take about %2 MB, above "
                   "the limit of %3 MB")
            .arg(estimate, english.toString(e.keptBytes() / mb),
                 english.toString(kMaxKeptBytes / mb));
    }
    return QStringLiteral("%1, above the limit of %2")
        .arg(estimate, english.toString(kMaxEstimatedStatements));
}

}  // namespace idem
