// `idemlab experiment`: many intents of every variant of a scenario, and
// the verdicts and the cost each variant came to.
#include "cli.h"

#include "backendnames.h"
#include "configcheck.h"
#include "experiment.h"
#include "interruption.h"
#include "privateredis.h"
#include "registry.h"
#include "runoptions.h"
#include "runredis.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>

namespace idem::cli {

int experiment(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"scenario", "Scenario id.", "S"});
    parser.addOption({"variants", "Comma-separated variant ids (default: all).", "LIST"});
    parser.addOption({"intents", "Intents per variant (default 300).", "N"});
    parser.addOption({"seed", "Seed of the random inputs (default 1).", "N"});
    parser.addOption({"json", "Print the counts as one JSON object."});
    addBackendOptions(parser);
    parser.addOption({"redis",
                      "Where the variants that keep keys in Redis keep them: off (default, the "
                      "simulation), private (one redis-server of the lab's own for the whole "
                      "experiment) or a user's server, redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] "
                      "or unix:///PATH/redis.sock (each run's keys under a prefix of their own, "
                      "deleted after it).",
                      "R"});
    parser.addOption(
        {"allow-large", "Run even when the estimated cost is above the limit of SQL statements."});
    addHelpFlag(parser);
    QString error;
    if (!parse(parser, QStringLiteral("experiment"), args, &error))
        return badInput(error);
    if (printedUsage(parser, QStringLiteral("experiment")))
        return Ok;
    if (!parser.positionalArguments().isEmpty()) {
        return badInput(
            QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    }
    const Scenario* scenario = findScenario(parser.value("scenario"));
    if (!scenario) {
        QStringList ids;
        for (const Scenario* s : allScenarios()) ids << s->info().id;
        return badInput(QStringLiteral("unknown --scenario \"%1\" (allowed: %2)")
                            .arg(parser.value("scenario"), ids.join(", ")));
    }
    ExperimentPlan plan;
    if (parser.isSet("variants")) {
        for (const QString& v : parser.value("variants").split(QLatin1Char(','))) {
            if (!scenario->info().variant(v)) {
                QStringList ids;
                for (const VariantInfo& known : scenario->info().variants) ids << known.id;
                return badInput(QStringLiteral("unknown variant \"%1\" in --variants (allowed: %2)")
                                    .arg(v, ids.join(", ")));
            }
            plan.variants << v;
        }
    }
    auto number = [&parser](const char* name, qint64 min, qint64 max, qint64* out, QString* why) {
        const QString text = parser.value(QLatin1String(name));
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        if (!ok || n < min || n > max) {
            *why = QStringLiteral("--%1 %2 is not a whole number from %3 to %4")
                       .arg(QLatin1String(name), text)
                       .arg(min)
                       .arg(max);
            return false;
        }
        *out = n;
        return true;
    };
    qint64 n = 0;
    if (parser.isSet("intents")) {
        if (!number("intents", 1, 100'000, &n, &error))
            return badInput(error);
        plan.intentsPerVariant = int(n);
    }
    if (parser.isSet("seed")) {
        if (!number("seed", 0, 4'294'967'295LL, &n, &error))
            return badInput(error);
        plan.seed = quint32(n);
    }
    if (parser.isSet("backend"))
        plan.backend = parser.value("backend");
    if (parser.isSet("connect")) {
        QString backend = parser.isSet("backend") ? plan.backend : QString();
        if (!readConnect(parser, &backend, &plan.connect, &error))
            return badInput(error);
        plan.backend = backend;
    }
    if (parser.isSet("isolation"))
        plan.isolation = parser.value("isolation");
    if (parser.isSet("lock-timeout-ms")) {
        if (!number("lock-timeout-ms", 0, 3'600'000, &n, &error))
            return badInput(error);
        plan.lockTimeoutMs = n;
    }
    if (parser.isSet("redis")) {
        plan.redis = parser.value("redis");
        if (plan.redis != QLatin1String("off") && plan.redis != QLatin1String("private") &&
            !parseRedisUrl(plan.redis, &error))
            return badInput(error);
        QStringList withRedis;
        for (const VariantInfo& v : scenario->info().variants) {
            if (v.redis && (plan.variants.isEmpty() || plan.variants.contains(v.id)))
                withRedis << v.id;
        }
        if (plan.redis != QLatin1String("off") && withRedis.isEmpty()) {
            QStringList any;
            for (const Scenario* s : allScenarios())
                for (const VariantInfo& v : s->info().variants)
                    if (v.redis)
                        any << s->info().id + QLatin1Char('/') + v.id;
            return badInput(
                QStringLiteral("no variant of this experiment keeps anything in Redis; --redis "
                               "applies to %1")
                    .arg(any.join(", ")));
        }
        if (plan.redis == QLatin1String("private") && !PrivateRedis::missingPackage().isEmpty()) {
            return badInput(QStringLiteral("Redis is not installed (Debian package %1): %2")
                                .arg(PrivateRedis::missingPackage(),
                                     installCommand(PrivateRedis::missingPackage())));
        }
    }
    {
        // The same checks as a run's, on the first variant the plan runs.
        RunConfig probe = defaultConfig(*scenario);
        probe.backend = plan.backend;
        probe.isolation = plan.isolation;
        probe.lockTimeoutMs = plan.lockTimeoutMs;
        if (!plan.variants.isEmpty())
            probe.variant = plan.variants.first();
        const QString problem = checkConfig(probe, scenario->info());
        if (!problem.isEmpty())
            return badInput(problem);
    }
    if (const CostEstimate cost = experimentCost(scenario->info(), plan);
        cost.overLimit() && !parser.isSet("allow-large")) {
        return badInput(QStringLiteral("this experiment is too large: %1; lower --intents or "
                                       "--variants, or add --allow-large to run it anyway")
                            .arg(costText(cost)));
    }
    const Interruption interruption;
    QString failure;
    const std::vector<ExperimentTally> tallies =
        runExperiment(*scenario, plan, Interruption::flag(), {}, &failure);
    if (!failure.isEmpty()) {
        // Nothing is printed as a result: counts without their runs are no result.
        QTextStream(stderr) << "idemlab: " << failure << Qt::endl;
        return Failure;
    }
    QJsonObject variants;
    for (const ExperimentTally& t : tallies) {
        QJsonObject counts;
        for (std::size_t v = 0; v < t.verdicts.size(); ++v) {
            if (t.verdicts[v] > 0)
                counts.insert(toId(Verdict(v)), t.verdicts[v]);
        }
        const QJsonObject cost{{"statements", t.cost.statements},
                               {"transactions", t.cost.transactions},
                               {"rows_written", t.cost.rowsWritten},
                               {"lock_waits", t.cost.lockWaits}};
        variants.insert(t.variant,
                        QJsonObject{{"intents", t.intents}, {"verdicts", counts}, {"cost", cost}});
    }
    if (parser.isSet("json")) {
        const QJsonObject root{{"scenario", scenario->info().id},
                               {"intents_per_variant", plan.intentsPerVariant},
                               {"seed", qint64(plan.seed)},
                               {"complete", !Interruption::requested()},
                               {"variants", variants}};
        out() << QJsonDocument(root).toJson(QJsonDocument::Compact) << Qt::endl;
    } else {
        for (const ExperimentTally& t : tallies) {
            QStringList parts;
            for (std::size_t v = 0; v < t.verdicts.size(); ++v) {
                if (t.verdicts[v] > 0)
                    parts << QStringLiteral("%1 %2").arg(toId(Verdict(v))).arg(t.verdicts[v]);
            }
            const double n = std::max<qint64>(1, t.intents);
            out() << t.variant.leftJustified(22) << t.intents
                  << " intents: " << parts.join(QStringLiteral(", ")) << "; per intent "
                  << QString::number(t.cost.statements / n, 'f', 1) << " statements, "
                  << QString::number(t.cost.rowsWritten / n, 'f', 1) << " rows written\n";
        }
        if (Interruption::requested())
            out() << "INCOMPLETE: the experiment was stopped before its end; the counts above "
                     "are of the intents run so far\n";
        out() << Qt::flush;
    }
    if (!Interruption::requested())
        return Ok;
    QTextStream(stderr) << "idemlab: stopped before the end; the counts above are incomplete"
                        << Qt::endl;
    return Interruption::exitCode();
}

}  // namespace idem::cli
