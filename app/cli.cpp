#include "cli.h"

#include "backend.h"
#include "configcheck.h"
#include "interruption.h"
#include "leftovers.h"
#include "names.h"
#include "narration.h"
#include "outofmemory.h"
#include "outputpaths.h"
#include "registry.h"
#include "runner.h"
#include "runoptions.h"
#include "serverurl.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTextStream>

#include <QTranslator>
#include <algorithm>

namespace idem::cli {

namespace {

int refuse(const PathProblem& problem) {
    return failWith(problem.message, problem.code);
}

QJsonObject scenarioJson(const ScenarioInfo& info) {
    QJsonArray variants;
    for (const VariantInfo& v : info.variants) {
        QJsonArray points;
        for (CrashPoint p : v.crashPoints) points.append(toId(p));
        QJsonObject variant{{"id", v.id},
                            {"recommended", v.recommended},
                            {"crash_points", points},
                            {"summary", v.summary}};
        if (!v.toleratedEffects.isEmpty())
            variant.insert("tolerated_effects", QJsonArray::fromStringList(v.toleratedEffects));
        // Live mode: the servers its SQL is written for, and whether it needs one.
        if (!v.servers.isEmpty())
            variant.insert("servers", QJsonArray::fromStringList(v.servers));
        if (v.serverOnly)
            variant.insert("server_only", true);
        variants.append(variant);
    }
    QJsonArray sources;
    for (Source s : info.sources) sources.append(toId(s));
    QJsonArray params;
    for (const ParamInfo& p : info.params) {
        QJsonObject o{{"key", p.key}, {"default", p.defaultValue}, {"summary", p.summary}};
        if (p.allowed.isEmpty()) {
            o.insert("min", p.min);
            o.insert("max", p.max);
        } else {
            o.insert("allowed", QJsonArray::fromStringList(p.allowed));
        }
        params.append(o);
    }
    return QJsonObject{{"id", info.id},
                       {"group", toId(info.group)},
                       {"title", info.title},
                       {"variants", variants},
                       {"sources", sources},
                       {"default_timing", toId(info.defaultTiming)},
                       {"default_duplicates", info.defaultDuplicates},
                       {"params", params},
                       {"tables", QJsonArray::fromStringList(info.tables)},
                       {"effects", QJsonArray::fromStringList(info.effectNames)}};
}

// The summary's words: English as the command line always printed them,
// Chinese with --lang zh.
class RunSummary {
    Q_DECLARE_TR_FUNCTIONS(idem::cli::RunSummary)
};

// An id as the summary names it: itself in English, the reader's word with
// the id after it in Chinese (the id is what the options take).
QString named(const QString& id, const QString& name, bool chinese) {
    return chinese ? QStringLiteral("%1 [%2]").arg(name, id) : id;
}

void printSummary(const Summary& s, bool chinese) {
    QTextStream& o = out();
    const RunConfig& c = s.config;
    o << c.scenario << " / " << c.variant << "\n";
    o << RunSummary::tr("  timing %1, source %2, duplicates %3, seed %4")
             .arg(named(toId(c.timing), timingName(c.timing), chinese),
                  named(toId(c.source), sourceName(c.source), chinese))
             .arg(c.duplicates)
             .arg(c.seed);
    if (const QString relay = crashedHelperTag(c.crash, c.crashAttempt); !relay.isEmpty())
        o << RunSummary::tr(", crash %1 on relay pass %2")
                 .arg(named(toId(c.crash), crashPointName(c.crash), chinese), relay);
    else if (c.crash != CrashPoint::None)
        o << RunSummary::tr(", crash %1 on attempt %2")
                 .arg(named(toId(c.crash), crashPointName(c.crash), chinese))
                 .arg(c.crashAttempt);
    o << "\n"
      << RunSummary::tr("  intents %1, attempts %2, virtual time %3 ms")
             .arg(s.intents)
             .arg(s.attempts)
             .arg(s.endMs)
      << "\n";
    const auto responseWord = [chinese](Response r) {
        return chinese ? responseName(toId(r)) : toId(r);
    };
    QStringList responses;
    for (std::size_t r = 0; r < s.responses.size(); ++r) {
        if (s.responses[r] > 0)
            responses << QStringLiteral("%1 %2").arg(responseWord(Response(r))).arg(s.responses[r]);
    }
    o << RunSummary::tr("  responses: %1").arg(responses.join(RunSummary::tr(", "))) << "\n";
    for (auto it = s.effects.cbegin(); it != s.effects.cend(); ++it) {
        o << RunSummary::tr("  effect %1: %2 (expected %3)")
                 .arg(it.key())
                 .arg(it.value())
                 .arg(s.expectedEffects.value(it.key()))
          << "\n";
    }
    for (const AlertRecord& a : s.alerts)
        o << RunSummary::tr("  ALERT %1").arg(a.message.translated()) << "\n";
    for (const Phrase& why : s.inconsistencies)
        o << RunSummary::tr("  inconsistent: %1").arg(why.translated()) << "\n";
    for (const WrongAnswer& w : s.wrongAnswers) {
        QString told = responseWord(w.told);
        if (!w.result.isEmpty())
            told = RunSummary::tr("%1 (%2)").arg(told, w.result.translated());
        o << RunSummary::tr("  wrong answer: attempt #%1 was told %2, but %3")
                 .arg(w.attempt)
                 .arg(told, w.database.translated())
          << "\n";
    }
    // What the technique cost the database, per intent: what a heavier
    // scheme pays where a unique key would do.
    if (s.cost.statements > 0) {
        const double n = std::max(1, s.intents);
        const auto per = [n](qint64 total) {
            return QString::number(total / n, 'f', 1);
        };
        // No transaction of its own: each statement commits by itself.
        const QString transactions =
            s.cost.transactions == 0
                ? RunSummary::tr("no transaction opened (each statement commits alone)")
                : RunSummary::tr("%1 transactions").arg(per(s.cost.transactions));
        o << RunSummary::tr("  cost per intent: %1 statements, %2, %3 rows written")
                 .arg(per(s.cost.statements), transactions, per(s.cost.rowsWritten));
        if (s.cost.lockWaits > 0)
            o << RunSummary::tr(", %1 lock waits").arg(per(s.cost.lockWaits));
        o << "\n";
    }
    const auto verdictWord = [chinese](Verdict v) {
        return named(toId(v), verdictName(toId(v)), chinese);
    };
    o << RunSummary::tr("  verdict: %1").arg(verdictWord(s.verdict));
    if (s.tolerated)
        o << RunSummary::tr(" — accepted cost (the business accepts repeating this effect)");
    if (s.intents > 1) {
        QStringList parts;
        for (std::size_t v = 0; v < s.verdicts.size(); ++v) {
            if (s.verdicts[v] > 0)
                parts << QStringLiteral("%1 %2").arg(verdictWord(Verdict(v))).arg(s.verdicts[v]);
        }
        o << RunSummary::tr(" (%1)").arg(parts.join(RunSummary::tr(", ")));
    }
    if (!s.complete)
        o << "\n" << RunSummary::tr("  INCOMPLETE: the run was stopped before its end");
    o << "\n" << RunSummary::tr("  integrity: %1").arg(s.integrity) << Qt::endl;
}

int failureExit(RunFailure f) {
    switch (f) {
        case RunFailure::None:
            return Ok;
        case RunFailure::BadInput:
            return BadInput;
        case RunFailure::Cancelled:
            return Interrupted;
        case RunFailure::Io:
        case RunFailure::Internal:
            return Failure;
    }
    return Failure;
}

// A --connect run: the databases earlier runs left on that server (a
// machine that lost power, a guard that could not reach the server), said
// in one line; with --clean, dropped before the run. A server that cannot
// be reached is the run's error (said once, not after a second wait); a
// URL the run itself refuses is left for it to say.
QString tidyConnectedServer(const QString& url, bool clean) {
    QString error;
    const auto parsed = live::parseServerUrl(url, &error);
    if (!parsed)
        return {};
    const QString place = live::serverPlace(parsed->endpoint);
    const auto session = live::openSession(parsed->endpoint, QStringLiteral("setup"));
    if (!session->isOpen())
        return QStringLiteral("cannot connect to %1: %2").arg(place, session->openError());
    QTextStream err(stderr);
    const live::Leftovers found = live::findLeftovers(*session, QDateTime::currentDateTimeUtc());
    if (!found.error.isEmpty()) {
        err << "idemlab: could not look for databases earlier runs left on " << place << ": "
            << found.error << Qt::endl;
        return {};
    }
    if (found.names.isEmpty()) {
        if (clean)
            err << "idemlab: no database earlier runs left on " << place << Qt::endl;
        return {};
    }
    if (!clean) {
        err << "idemlab: " << found.names.size()
            << (found.names.size() == 1 ? " database" : " databases") << " earlier runs left on "
            << place << ": " << found.names.join(QStringLiteral(", "))
            << " (--clean drops them before the run)" << Qt::endl;
        return {};
    }
    QStringList refused;
    const QStringList dropped =
        live::dropLeftovers(*session, found.names, &refused, Interruption::flag());
    if (!dropped.isEmpty())
        err << "idemlab: dropped " << dropped.size()
            << (dropped.size() == 1 ? " database" : " databases") << " earlier runs left on "
            << place << ": " << dropped.join(QStringLiteral(", ")) << Qt::endl;
    for (const QString& r : refused) err << "idemlab: could not drop " << r << Qt::endl;
    return {};
}

}  // namespace

bool parse(QCommandLineParser& parser, const QString& command, const QStringList& args,
           QString* error) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("idemlab ") + command} + args)) {
        *error = parser.errorText();
        return false;
    }
    return true;
}

int failWith(const QString& message, int code) {
    if (!memory::allocationFailed())
        QTextStream(stderr) << "idemlab: " << message << Qt::endl;
    return code;
}

int badInput(const QString& message) {
    return failWith(message, BadInput);
}

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}

int list(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"json", "Print JSON."});
    addHelpFlag(parser);
    QString error;
    if (!parse(parser, QStringLiteral("list"), args, &error))
        return badInput(error);
    if (printedUsage(parser, QStringLiteral("list")))
        return Ok;
    if (!parser.positionalArguments().isEmpty()) {
        return badInput(QStringLiteral("list takes no arguments, got \"%1\"")
                            .arg(parser.positionalArguments().join(' ')));
    }
    if (parser.isSet("json")) {
        QJsonArray scenarios;
        for (const Scenario* s : allScenarios()) scenarios.append(scenarioJson(s->info()));
        const QJsonObject root{{"scenarios", scenarios},
                               {"sources", QJsonArray::fromStringList(sourceIds())},
                               {"timings", QJsonArray::fromStringList(timingIds())},
                               {"crash_points", QJsonArray::fromStringList(crashPointIds())},
                               {"verdicts", QJsonArray::fromStringList(verdictIds())}};
        out() << QJsonDocument(root).toJson(QJsonDocument::Indented) << Qt::flush;
        return Ok;
    }
    // One column for every variant's summary, two spaces past the longest name.
    qsizetype widest = 0;
    for (const Scenario* s : allScenarios()) {
        for (const VariantInfo& v : s->info().variants) widest = std::max(widest, v.id.size());
    }
    const QString indent(4 + widest + 2, QLatin1Char(' '));
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        out() << info.id << "  (" << info.title << ")\n";
        for (const VariantInfo& v : info.variants) {
            QStringList points;
            for (CrashPoint p : v.crashPoints) points << toId(p);
            out() << "  " << (v.recommended ? "* " : "  ") << v.id.leftJustified(widest + 2)
                  << v.summary << "\n"
                  << indent << "crash points: "
                  << (points.isEmpty() ? toId(CrashPoint::None) : points.join(", ")) << "\n";
            if (!v.toleratedEffects.isEmpty()) {
                out() << indent << "repeats accepted (tolerated): " << v.toleratedEffects.join(", ")
                      << "\n";
            }
        }
        QStringList sources;
        for (Source src : info.sources) sources << toId(src);
        out() << "    sources: " << sources.join(", ") << "; default timing "
              << toId(info.defaultTiming) << "\n";
        for (const ParamInfo& p : info.params) {
            out() << "    --param " << p.key << "=" << p.defaultValue << "  " << p.summary << "\n";
        }
        out() << "\n";
    }
    out() << "timings: " << timingIds().join(", ") << "\n* = recommended" << Qt::endl;
    return Ok;
}

// --lang: the language of the captions. False with a message for anything
// but zh and en.
bool useLanguage(const QString& lang, QString* error) {
    if (lang == QLatin1String("en"))
        return true;
    if (lang != QLatin1String("zh")) {
        *error = QStringLiteral("unknown --lang \"%1\" (allowed: zh, en)").arg(lang);
        return false;
    }
    static QTranslator translator;
    if (!translator.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm"))) {
        *error = QStringLiteral("the Chinese translation is missing from this build");
        return false;
    }
    QCoreApplication::installTranslator(&translator);
    return true;
}

// --narrate: steps the run itself and prints the caption of every step that
// says something, numbered as the window numbers its steps ("step 4/23" is
// line 4; 0 is the set-up), then one line per effect and verdict of the
// judge, numbered with the last step.
RunResult narratedRun(const RunConfig& config, const Scenario& scenario, RunOptions options,
                      bool keepRun) {
    options.keepTrace = true;
    Narrator narrator(config.intents, &scenario.info().words);
    qsizetype told = 0;
    qint64 step = 0;
    const std::atomic<bool>* stop = options.cancel;
    const auto tell = [&](const Run& run, bool eachAlone) {
        const QList<TraceEvent>& events = run.trace().events();
        // The set-up of 100,000 intents alone is seconds of captions: a stop
        // asked for meanwhile ends them.
        while (told < events.size() && !(stop && stop->load(std::memory_order_relaxed))) {
            const qsizetype upTo = eachAlone ? told + 1 : events.size();
            const QString caption = narrator.narrate(events, told, upTo);
            if (!caption.isEmpty()) {
                out() << QStringLiteral("%1. [%2 ms] %3\n")
                             .arg(step, 3)
                             .arg(events.at(told).tMs)
                             .arg(caption);
            }
            told = upTo;
        }
    };
    bool started = false;
    RunResult result =
        runToEnd(config, scenario, std::move(options), true, [&](const Run& run, qint64 steps) {
            started = true;
            step = steps;
            tell(run, false);
        });
    // The judge's effect and verdict events, one line each.
    if (started)
        tell(*result.run, true);
    out() << Qt::endl;
    if (!keepRun)
        result.run.reset();
    return result;
}

int run(const QStringList& args) {
    QCommandLineParser parser;
    addRunOptions(parser);
    parser.addOption({"db", "Keep the database in FILE for inspection with sqlite3.", "FILE"});
    parser.addOption({"force",
                      "Replace an earlier output of idemlab at --db or --trace (never "
                      "a file idemlab did not write)."});
    parser.addOption({"trace", "Save the trace as JSON to FILE.", "FILE"});
    parser.addOption({"json", "Print the summary as one JSON object."});
    parser.addOption({"expect", "Exit 3 unless the verdict is VERDICT.", "VERDICT"});
    parser.addOption({"narrate", "Print a caption for every step of the run, then the summary."});
    parser.addOption({"keep",
                      "On a server: leave it running with the run's database, and print how to "
                      "connect to it (psql, mariadb, redis-cli) and how to stop it."});
    parser.addOption({"clean",
                      "With --connect: first drop the databases earlier runs left on that "
                      "server (named idemlab_..., not kept with --keep, no session in them)."});
    parser.addOption({"lang", "Language of the captions: zh or en (default en).", "LANG", "en"});
    addHelpFlag(parser);
    QString error;
    if (!parse(parser, QStringLiteral("run"), args, &error))
        return badInput(error);
    if (printedUsage(parser, QStringLiteral("run")))
        return Ok;
    if (!parser.positionalArguments().isEmpty()) {
        return badInput(
            QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    }
    RunConfig config;
    if (!readRunOptions(parser, &config, &error))
        return badInput(error);
    // The captions read every event of the run, kept in memory as it goes.
    if (parser.isSet("narrate") && !parser.isSet("allow-large")) {
        if (const QString large = costProblem(config, Keeps::Events); !large.isEmpty())
            return badInput(large);
    }
    if (parser.isSet("expect") && !verdictFromId(parser.value("expect"))) {
        return badInput(QStringLiteral("unknown verdict \"%1\" for --expect (allowed: %2)")
                            .arg(parser.value("expect"), verdictIds().join(", ")));
    }
    if (!useLanguage(parser.value("lang"), &error))
        return badInput(error);
    if (parser.isSet("keep") && config.backend == QLatin1String("sqlite") &&
        config.redis == QLatin1String("off")) {
        return badInput(QStringLiteral(
            "--keep leaves a server running with the run's database; on SQLite keep the "
            "database file with --db FILE"));
    }
    if (parser.isSet("clean") && config.connect.isEmpty()) {
        return badInput(QStringLiteral(
            "--clean drops what earlier runs left on the server --connect names; a private "
            "server's databases go with it"));
    }
    // Checked before the run, so that a long run never ends in a path that
    // cannot take its result.
    QList<NamedPath> outputs;
    if (parser.isSet("db"))
        outputs.append({QStringLiteral("--db"), parser.value("db"), true});
    if (parser.isSet("trace"))
        outputs.append({QStringLiteral("--trace"), parser.value("trace")});
    if (const PathProblem problem = checkOutputs(outputs, {}, parser.isSet("force")))
        return refuse(problem);

    // The trace file is opened before the run: an unwritable path fails at
    // once, and events stream to it as they happen.
    TraceFileWriter trace;
    if (parser.isSet("trace") && !trace.open(parser.value("trace"), config, &error)) {
        QTextStream(stderr) << "idemlab: " << error << Qt::endl;
        return Failure;
    }
    RunOptions options;
    options.dbPath = parser.value("db");
    options.replaceDb = parser.isSet("force");
    options.keepTrace = false;
    options.sink = parser.isSet("trace") ? &trace : nullptr;
    const Interruption interruption;
    options.cancel = Interruption::flag();
    if (!config.connect.isEmpty()) {
        if (const QString unreachable = tidyConnectedServer(config.connect, parser.isSet("clean"));
            !unreachable.isEmpty())
            return badInput(unreachable);
    }
    const Scenario& scenario = *findScenario(config.scenario);
    const bool keep = parser.isSet("keep");
    const RunResult result = parser.isSet("narrate") ? narratedRun(config, scenario, options, keep)
                                                     : runToEnd(config, scenario, options, keep);
    if (keep && result.run && result.ok()) {
        // Said first, on the error stream: the summary stays the output.
        const QString kept = result.run->backend().keep();
        if (!kept.isEmpty())
            QTextStream(stderr) << "idemlab: " << kept << Qt::endl;
        if (const QString redis = result.run->keepRedis(); !redis.isEmpty())
            QTextStream(stderr) << "idemlab: " << redis << Qt::endl;
    }
    if (!result.ok() && result.failure != RunFailure::Cancelled) {
        trace.cancel();
        QTextStream(stderr) << "idemlab: " << result.error << Qt::endl;
        return failureExit(result.failure);
    }
    if (parser.isSet("trace")) {
        const Interruption::Held held;  // the trace lands whole or not at all
        if (result.failure == RunFailure::Cancelled) {
            trace.cancel();
        } else if (!trace.commit(result.summary.toJson(), &error)) {
            QTextStream(stderr) << "idemlab: " << error << Qt::endl;
            return trace.refused() ? BadInput : Failure;
        }
    }
    if (parser.isSet("json")) {
        out() << QJsonDocument(result.summary.toJson()).toJson(QJsonDocument::Compact) << Qt::endl;
    } else {
        printSummary(result.summary, parser.value("lang") == QLatin1String("zh"));
    }
    if (result.failure == RunFailure::Cancelled) {
        QTextStream(stderr) << "idemlab: " << result.error << "; the summary above is incomplete"
                            << Qt::endl;
        return Interruption::exitCode();
    }
    const QString verdict = toId(result.summary.verdict);
    if (parser.isSet("expect") && verdict != parser.value("expect")) {
        QTextStream(stderr) << "idemlab: expected " << parser.value("expect") << ", got " << verdict
                            << Qt::endl;
        return UnexpectedVerdict;
    }
    return Ok;
}

}  // namespace idem::cli
