#include "runoptions.h"

#include "configcheck.h"
#include "registry.h"
#include "serverbackend.h"

#include <QLocale>

namespace idem::cli {

namespace {

struct NumberOption {
    NumberField field;
    const char* valueName;
    const char* help;
};

const NumberOption kNumbers[] = {
    {NumberField::Duplicates, "N", "How many duplicates of each intent arrive (0 to 1000)."},
    {NumberField::CrashAttempt, "K",
     "Which attempt crashes (1 = the original; at after-publish, which pass of the relay: R1, "
     "R2 ...)."},
    {NumberField::IntervalMs, "MS", "Spacing between duplicates, overriding the timing's default."},
    {NumberField::MaxRetries, "R",
     "How often a caller retries an attempt without a definite answer (0 to 20)."},
    {NumberField::Intents, "N", "How many independent intents run together (1 to 100000)."},
    {NumberField::Seed, "N", "Seed of the run's random choices (0 to 4294967295)."},
    {NumberField::ExpiryMs, "MS", "In-progress expiry of a dedup claim (default 5000)."},
    {NumberField::RetentionMs, "MS", "How long dedup records are kept (default 7 days)."},
    {NumberField::TtlMs, "MS", "TTL of a cache key (default 60000)."},
    {NumberField::LeaseMs, "MS", "Lease of a distributed lock (default 30000)."},
    {NumberField::VisibilityMs, "MS", "Broker visibility timeout (default 10000)."},
};

QString grouped(qint64 n) {
    return QLocale(QLocale::English).toString(n);
}

}  // namespace

void addBackendOptions(QCommandLineParser& parser) {
    parser.addOption({"backend",
                      "The database: sqlite (default), mariadb or postgres (a private server "
                      "the lab starts, unless --connect names the user's own).",
                      "B"});
    parser.addOption({"connect",
                      "Run on a server the user runs, in a database the run makes and drops: "
                      "postgres://USER[:PASSWORD]@HOST[:PORT]/[DATABASE] (a socket: "
                      "postgres://USER@/?host=/SOCKET/FOLDER) or "
                      "mariadb://USER[:PASSWORD]@HOST[:PORT]/ (a socket: "
                      "mariadb://USER@localhost/?socket=/PATH/mysqld.sock); the password may "
                      "come from PGPASSWORD or MYSQL_PWD instead.",
                      "URL"});
    parser.addOption({"isolation",
                      "Isolation level on a server: read-committed, repeatable-read or "
                      "serializable (default: the server's own).",
                      "L"});
    parser.addOption({"lock-timeout-ms",
                      "On a server, cancel a statement that has waited this many virtual ms "
                      "for a lock (a lock timeout; default 0: wait until the lock is free).",
                      "N"});
}

bool readConnect(const QCommandLineParser& p, QString* backend, QString* connect, QString* error) {
    if (!p.isSet("connect"))
        return true;
    const QString url = p.value("connect");
    const QString named = connectBackend(url, error);
    if (named.isEmpty())
        return false;
    if (!backend->isEmpty() && *backend != named) {
        *error = QStringLiteral("--connect names a %1 server, and the run is on %2")
                     .arg(named, *backend);
        return false;
    }
    *backend = named;
    *connect = url;
    return true;
}

void addRunOptions(QCommandLineParser& parser) {
    parser.addOption({"scenario", "Scenario id (see `idemlab list`).", "S"});
    parser.addOption({"variant", "Variant id; default: the recommended one.", "V"});
    parser.addOption({"timing", "concurrent, retry, compensation or cross-day.", "T"});
    parser.addOption({"source", "Where duplicates come from (see `idemlab list`).", "X"});
    parser.addOption({"crash", "Crash point of the variant.", "P"});
    parser.addOption({"param", "Scenario parameter key=value (repeatable).", "k=v"});
    addBackendOptions(parser);
    parser.addOption(
        {"redis",
         "Keep a guard's keys (a TTL key, a lease lock) in a real Redis: off (default, the "
         "simulation), private (a redis-server of the lab's own on a unix socket) or "
         "a user's server, redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or "
         "unix:///PATH/redis.sock (the run's keys under a prefix of their own, "
         "deleted afterwards unless --keep).",
         "R"});
    for (const NumberOption& n : kNumbers) {
        parser.addOption({optionName(n.field), QLatin1String(n.help), QLatin1String(n.valueName)});
    }
    parser.addOption({"allow-large",
                      QStringLiteral("Run even when the estimated cost is above %1 SQL statements.")
                          .arg(grouped(kMaxEstimatedStatements))});
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
    if (p.isSet("backend"))
        c.backend = p.value("backend");
    if (p.isSet("connect")) {
        QString backend = p.isSet("backend") ? c.backend : QString();
        if (!readConnect(p, &backend, &c.connect, error))
            return false;
        c.backend = backend;
    }
    if (p.isSet("isolation"))
        c.isolation = p.value("isolation");
    if (p.isSet("redis"))
        c.redis = p.value("redis");
    if (p.isSet("lock-timeout-ms")) {
        bool ok = false;
        const qint64 ms = p.value("lock-timeout-ms").toLongLong(&ok);
        if (!ok || ms < 0 || ms > 3'600'000) {
            *error = QStringLiteral(
                         "--lock-timeout-ms %1 is not a number of ms from 0 to "
                         "3,600,000")
                         .arg(p.value("lock-timeout-ms"));
            return false;
        }
        c.lockTimeoutMs = ms;
    }
    for (const QString& kv : p.values("param")) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            *error = QStringLiteral("--param %1 is not of the form key=value").arg(kv);
            return false;
        }
        c.params.insert(kv.left(eq), kv.mid(eq + 1));
    }
    // One value for one setting: a parameter in seconds and the option in
    // milliseconds would otherwise quietly override each other.
    for (const ParamInfo& param : scenario->info().params) {
        if (!param.sets.isEmpty() && c.params.contains(param.key) && p.isSet(param.sets)) {
            *error =
                QStringLiteral("--param %1=%2 and --%3 %4 set the same thing: give one of them")
                    .arg(param.key, c.params.value(param.key), param.sets, p.value(param.sets));
            return false;
        }
    }
    // Whole numbers are checked as 64-bit values before they are narrowed,
    // each against its range; the parameters' numbers in checkConfig.
    for (NumberField field : kNumberFields) {
        const QString name = optionName(field);
        if (!p.isSet(name))
            continue;
        if (const std::optional<NumberProblem> problem = readNumber(field, p.value(name), &c)) {
            *error = optionMessage(*problem);
            return false;
        }
    }
    const QString problem = checkConfig(c, scenario->info());
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    if (!p.isSet("allow-large")) {
        *error = costProblem(c);
        if (!error->isEmpty())
            return false;
    }
    *config = c;
    return true;
}

QString costProblem(const RunConfig& c, Keeps keeps) {
    const Scenario* scenario = findScenario(c.scenario);
    if (!scenario)
        return {};  // an unknown scenario is refused before it is estimated
    const CostEstimate cost = estimateCost(c, scenario->info(), keeps);
    if (!cost.overLimit())
        return {};
    return QStringLiteral(
               "this run is too large: %1; lower %2, or add --allow-large to run it "
               "anyway")
        .arg(costText(cost), scenario->info().statementsPerAttempt
                                 ? QStringLiteral("--intents, --duplicates, --max-retries or "
                                                  "the --param values")
                                 : QStringLiteral("--intents, --duplicates or --max-retries"));
}

}  // namespace idem::cli
