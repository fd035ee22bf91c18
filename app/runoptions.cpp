#include "runoptions.h"

#include "configcheck.h"
#include "registry.h"

namespace idem::cli {

namespace {

struct NumberOption {
    const char* name;
    const char* valueName;
    const char* help;
};

const NumberOption kNumbers[] = {
    {"duplicates", "N", "How many duplicates of each intent arrive."},
    {"crash-attempt", "K", "Which attempt crashes (1 = the original)."},
    {"interval-ms", "MS", "Spacing between duplicates, overriding the timing's default."},
    {"max-retries", "R", "How often a caller retries an attempt without a definite answer."},
    {"intents", "N", "How many independent intents run together."},
    {"seed", "N", "Seed of the run's random choices."},
    {"expiry-ms", "MS", "In-progress expiry of a dedup claim (default 5000)."},
    {"retention-ms", "MS", "How long dedup records are kept (default 7 days)."},
    {"ttl-ms", "MS", "TTL of a cache key (default 60000)."},
    {"lease-ms", "MS", "Lease of a distributed lock (default 30000)."},
    {"visibility-ms", "MS", "Broker visibility timeout (default 10000)."},
};

bool readNumber(const QCommandLineParser& p, const char* name, qint64* into, QString* error) {
    if (!p.isSet(QLatin1String(name)))
        return true;
    bool ok = false;
    const QString text = p.value(QLatin1String(name));
    const qint64 v = text.toLongLong(&ok);
    if (!ok) {
        *error = QStringLiteral("--%1 %2 is not a whole number").arg(QLatin1String(name), text);
        return false;
    }
    *into = v;
    return true;
}

}  // namespace

void addRunOptions(QCommandLineParser& parser) {
    parser.addOption({"scenario", "Scenario id (see `idemlab list`).", "S"});
    parser.addOption({"variant", "Variant id; default: the recommended one.", "V"});
    parser.addOption({"timing", "concurrent, retry, compensation or cross-day.", "T"});
    parser.addOption({"source", "Where duplicates come from (see `idemlab list`).", "X"});
    parser.addOption({"crash", "Crash point of the variant.", "P"});
    parser.addOption({"param", "Scenario parameter key=value (repeatable).", "k=v"});
    for (const NumberOption& n : kNumbers) {
        parser.addOption(
            {QLatin1String(n.name), QLatin1String(n.help), QLatin1String(n.valueName)});
    }
}

bool readRunOptions(const QCommandLineParser& p, RunConfig* config, QString* error) {
    if (!p.isSet("scenario")) {
        *error = QStringLiteral("--scenario is required");
        return false;
    }
    const Scenario* scenario = findScenario(p.value("scenario"));
    if (!scenario) {
        QStringList ids;
        for (const Scenario* s : allScenarios()) ids << s->info().id;
        *error = QStringLiteral("unknown scenario \"%1\" (allowed: %2)")
                     .arg(p.value("scenario"), ids.join(QStringLiteral(", ")));
        return false;
    }
    RunConfig c = defaultConfig(*scenario);
    if (p.isSet("variant"))
        c.variant = p.value("variant");
    if (p.isSet("timing")) {
        const auto t = timingFromId(p.value("timing"));
        if (!t) {
            *error = QStringLiteral("unknown timing \"%1\" (allowed: %2)")
                         .arg(p.value("timing"), timingIds().join(QStringLiteral(", ")));
            return false;
        }
        c.timing = *t;
    }
    if (p.isSet("source")) {
        const auto s = sourceFromId(p.value("source"));
        if (!s) {
            *error = QStringLiteral("unknown source \"%1\" (allowed: %2)")
                         .arg(p.value("source"), sourceIds().join(QStringLiteral(", ")));
            return false;
        }
        c.source = *s;
    }
    if (p.isSet("crash")) {
        const auto cp = crashPointFromId(p.value("crash"));
        if (!cp) {
            *error = QStringLiteral("unknown crash point \"%1\" (allowed: none, %2)")
                         .arg(p.value("crash"), crashPointIds().join(QStringLiteral(", ")));
            return false;
        }
        c.crash = *cp;
    }
    for (const QString& kv : p.values("param")) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            *error = QStringLiteral("--param %1 is not of the form key=value").arg(kv);
            return false;
        }
        c.params.insert(kv.left(eq), kv.mid(eq + 1));
    }
    qint64 duplicates = c.duplicates, crashAttempt = c.crashAttempt, maxRetries = c.maxRetries,
           intents = c.intents, seed = c.seed;
    if (!readNumber(p, "duplicates", &duplicates, error) ||
        !readNumber(p, "crash-attempt", &crashAttempt, error) ||
        !readNumber(p, "interval-ms", &c.intervalMs, error) ||
        !readNumber(p, "max-retries", &maxRetries, error) ||
        !readNumber(p, "intents", &intents, error) || !readNumber(p, "seed", &seed, error) ||
        !readNumber(p, "expiry-ms", &c.expiryMs, error) ||
        !readNumber(p, "retention-ms", &c.retentionMs, error) ||
        !readNumber(p, "ttl-ms", &c.ttlMs, error) ||
        !readNumber(p, "lease-ms", &c.leaseMs, error) ||
        !readNumber(p, "visibility-ms", &c.visibilityMs, error)) {
        return false;
    }
    if (p.isSet("interval-ms") && c.intervalMs < 0) {
        *error = QStringLiteral("--interval-ms %1 is out of range (allowed: 0 to %2)")
                     .arg(c.intervalMs)
                     .arg(kMaxIntervalMs);
        return false;
    }
    if (seed < 0 || seed > 0xFFFFFFFFLL) {
        *error = QStringLiteral("--seed %1 is out of range (allowed: 0 to 4294967295)").arg(seed);
        return false;
    }
    auto clampInt = [](qint64 v) {
        return int(std::clamp<qint64>(v, -1, 1'000'000'000));
    };
    c.duplicates = clampInt(duplicates);
    c.crashAttempt = clampInt(crashAttempt);
    c.maxRetries = clampInt(maxRetries);
    c.intents = clampInt(intents);
    c.seed = quint32(seed);
    const QString problem = checkConfig(c, scenario->info());
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    *config = c;
    return true;
}

}  // namespace idem::cli
