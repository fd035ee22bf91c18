#include "cli.h"

#include "configcheck.h"
#include "outputpaths.h"
#include "registry.h"
#include "run.h"
#include "runoptions.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTextStream>

namespace idem::cli {

namespace {

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}

int badInput(const QString& message) {
    QTextStream err(stderr);
    err << "idemlab: " << message << Qt::endl;
    return BadInput;
}

int refuse(const PathProblem& problem) {
    QTextStream(stderr) << "idemlab: " << problem.message << Qt::endl;
    return problem.code;
}

// Parses `args` (without program name); unknown options are bad input.
bool parse(QCommandLineParser& parser, const QString& command, const QStringList& args,
           QString* error) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("idemlab ") + command} + args)) {
        *error = parser.errorText();
        return false;
    }
    return true;
}

QJsonObject scenarioJson(const ScenarioInfo& info) {
    QJsonArray variants;
    for (const VariantInfo& v : info.variants) {
        QJsonArray points;
        for (CrashPoint p : v.crashPoints) points.append(toId(p));
        variants.append(QJsonObject{{"id", v.id},
                                    {"recommended", v.recommended},
                                    {"crash_points", points},
                                    {"summary", v.summary}});
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
                       {"group", info.group},
                       {"title", info.title},
                       {"variants", variants},
                       {"sources", sources},
                       {"default_timing", toId(info.defaultTiming)},
                       {"default_duplicates", info.defaultDuplicates},
                       {"params", params},
                       {"tables", QJsonArray::fromStringList(info.tables)},
                       {"effects", QJsonArray::fromStringList(info.effectNames)}};
}

void printSummary(const QJsonObject& s) {
    QTextStream& o = out();
    o << s["scenario"].toString() << " / " << s["variant"].toString() << "\n";
    o << "  timing " << s["timing"].toString() << ", source " << s["source"].toString()
      << ", duplicates " << s["duplicates"].toInt() << ", seed " << s["seed"].toInteger();
    if (s["crash"].toString() != QLatin1String("none")) {
        o << ", crash " << s["crash"].toString() << " on attempt " << s["crash_attempt"].toInt();
    }
    o << "\n  intents " << s["intents"].toInt() << ", attempts " << s["attempts"].toInt()
      << ", virtual time " << s["end_ms"].toInteger() << " ms\n";
    QStringList responses;
    const QJsonObject r = s["responses"].toObject();
    for (auto it = r.begin(); it != r.end(); ++it) {
        if (it.value().toInt() > 0)
            responses << QStringLiteral("%1 %2").arg(it.key()).arg(it.value().toInt());
    }
    o << "  responses: " << responses.join(QStringLiteral(", ")) << "\n";
    const QJsonObject effects = s["effects"].toObject();
    const QJsonObject expected = s["expected_effects"].toObject();
    for (auto it = effects.begin(); it != effects.end(); ++it) {
        o << "  effect " << it.key() << ": " << it.value().toInteger() << " (expected "
          << expected.value(it.key()).toInteger() << ")\n";
    }
    for (const QJsonValue& a : s["alerts"].toArray()) {
        o << "  ALERT " << a.toObject()["message"].toString() << "\n";
    }
    for (const QJsonValue& why : s["inconsistencies"].toArray()) {
        o << "  inconsistent: " << why.toString() << "\n";
    }
    o << "  verdict: " << s["verdict"].toString();
    if (s["intents"].toInt() > 1) {
        o << "  " << QJsonDocument(s["verdicts"].toObject()).toJson(QJsonDocument::Compact);
    }
    o << "\n  integrity: " << s["integrity"].toString() << Qt::endl;
}

}  // namespace

int printHelp() {
    out() << "Idempotency Lab (幂等实验室) — fire duplicate requests at real SQL and watch.\n\n"
             "Usage:\n"
             "  idemlab                      open the window\n"
             "  idemlab list [--json]        scenarios, variants, crash points, sources, params\n"
             "  idemlab run --scenario S [--variant V] [--duplicates N] [--timing T]\n"
             "              [--source X] [--crash P] [--crash-attempt K] [--interval-ms MS]\n"
             "              [--max-retries R] [--param k=v]... [--intents N] [--seed N]\n"
             "              [--db FILE] [--trace FILE] [--json] [--expect VERDICT]\n"
             "              [--allow-large]\n"
             "  idemlab replay TRACE         re-run a trace's configuration; 0 when identical\n"
             "  idemlab export TRACE --format csv|shiviz|html --out FILE\n"
             "  idemlab shot [run options] --view NAME --out FILE.png [--lang zh|en]\n"
             "              [--theme light|dark] [--presenter] [--size WxH] [--step N]\n"
             "              views: overview, dedup, state, sequence, sql, outcome, compare, "
             "tables, pagination\n\n";
    out() << "Numbers are whole numbers (digits, perhaps a leading -) within each option's range.\n"
          << "Large runs: a run, shot or replay estimated above "
          << QLocale(QLocale::English).toString(kMaxEstimatedStatements) << " SQL statements\n"
          << "(intents x (duplicates + 1) x (max-retries + 1) x " << kStatementsPerAttempt
          << ") is refused unless --allow-large:\n"
             "100000 intents with the defaults run, 1000 intents with 1000 duplicates do not.\n"
             "Output files (--trace, --db, --out) are checked before anything runs: never an\n"
             "input, never the same file twice, never a directory or a symbolic link.\n\n"
             "Exit codes: 0 ran; 1 an I/O or internal failure (the path and the system's words\n"
             "on stderr, e.g. \"No space left on device\"); 2 bad input (one line on stderr\n"
             "naming the bad value and the allowed ones); 3 the verdict differs from --expect.\n"
          << Qt::flush;
    return Ok;
}

int list(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"json", "Print JSON."});
    QString error;
    if (!parse(parser, QStringLiteral("list"), args, &error))
        return badInput(error);
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
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        out() << info.id << "  (" << info.title << ")\n";
        for (const VariantInfo& v : info.variants) {
            QStringList points;
            for (CrashPoint p : v.crashPoints) points << toId(p);
            out() << "  " << (v.recommended ? "* " : "  ") << v.id.leftJustified(20) << v.summary
                  << "\n"
                  << QString(24, ' ') << "crash points: "
                  << (points.isEmpty() ? QStringLiteral("none") : points.join(", ")) << "\n";
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

int run(const QStringList& args) {
    QCommandLineParser parser;
    addRunOptions(parser);
    parser.addOption({"db", "Keep the database in FILE for inspection with sqlite3.", "FILE"});
    parser.addOption({"trace", "Save the trace as JSON to FILE.", "FILE"});
    parser.addOption({"json", "Print the summary as one JSON object."});
    parser.addOption({"expect", "Exit 3 unless the verdict is VERDICT.", "VERDICT"});
    QString error;
    if (!parse(parser, QStringLiteral("run"), args, &error))
        return badInput(error);
    if (!parser.positionalArguments().isEmpty()) {
        return badInput(
            QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    }
    RunConfig config;
    if (!readRunOptions(parser, &config, &error))
        return badInput(error);
    if (parser.isSet("expect") && !verdictFromId(parser.value("expect"))) {
        return badInput(QStringLiteral("unknown verdict \"%1\" for --expect (allowed: %2)")
                            .arg(parser.value("expect"), verdictIds().join(", ")));
    }
    // Checked before the run, so that a long run never ends in a path that
    // cannot take its result.
    QList<NamedPath> outputs;
    if (parser.isSet("db"))
        outputs.append({QStringLiteral("--db"), parser.value("db")});
    if (parser.isSet("trace"))
        outputs.append({QStringLiteral("--trace"), parser.value("trace")});
    if (const PathProblem problem = checkOutputs(outputs))
        return refuse(problem);
    const QString dbPath = parser.value("db");

    Run run(config, *findScenario(config.scenario), dbPath);
    if (!run.start(&error))
        return badInput(error);
    run.runToEnd();
    const QJsonObject summary = run.finish();

    if (parser.isSet("trace") &&
        !run.trace().save(parser.value("trace"), config, summary, &error)) {
        QTextStream(stderr) << "idemlab: " << error << Qt::endl;
        return Failure;
    }
    if (parser.isSet("json")) {
        out() << QJsonDocument(summary).toJson(QJsonDocument::Compact) << Qt::endl;
    } else {
        printSummary(summary);
    }
    if (parser.isSet("expect") && summary["verdict"].toString() != parser.value("expect")) {
        QTextStream(stderr) << "idemlab: expected " << parser.value("expect") << ", got "
                            << summary["verdict"].toString() << Qt::endl;
        return UnexpectedVerdict;
    }
    return Ok;
}

}  // namespace idem::cli
