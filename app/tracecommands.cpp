#include "tracecommands.h"

#include "cli.h"
#include "configcheck.h"
#include "diagramexport.h"
#include "outputpaths.h"
#include "registry.h"
#include "replay.h"
#include "run.h"
#include "runner.h"
#include "runoptions.h"
#include "sequenceview.h"
#include "statemachineview.h"
#include "tracewriters.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>

namespace idem::cli {

namespace {

int fail(const QString& message, int code = BadInput) {
    QTextStream(stderr) << "idemlab: " << message << Qt::endl;
    return code;
}

// The configuration a trace names, checked like the command line's.
bool traceConfig(const QString& path, const QJsonObject& json, RunConfig* config, QString* error) {
    if (!RunConfig::fromJson(json, config, error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    const Scenario* scenario = findScenario(config->scenario);
    if (!scenario) {
        *error = QStringLiteral("%1: unknown scenario \"%2\"").arg(path, config->scenario);
        return false;
    }
    const QString choice = checkChoices(*config, scenario->info());
    if (!choice.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, choice);
        return false;
    }
    // RunConfig::fromJson checked the fields; the parameters are checked here.
    if (const std::optional<NumberProblem> p = checkNumbers(*config, scenario->info())) {
        *error = QStringLiteral("%1: config %2 \"%3\" is %4, %5 (allowed: %6 to %7)")
                     .arg(path, p->param ? QStringLiteral("param") : QStringLiteral("field"),
                          p->param ? p->field : QString(p->field).replace('-', '_'),
                          shownValue(p->value),
                          p->kind == NumberProblem::Kind::NotWholeNumber
                              ? QStringLiteral("not a whole number")
                              : QStringLiteral("out of range"))
                     .arg(p->allowed.min)
                     .arg(p->allowed.max);
        return false;
    }
    return true;
}

// Loads a trace and the configuration in it; false with a message.
bool loadTrace(const QString& path, Trace::Loaded* loaded, RunConfig* config, QString* error) {
    return Trace::load(path, loaded, error) && traceConfig(path, loaded->config, config, error);
}

}  // namespace

int replay(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"allow-large", "Replay even a run whose estimated cost is above the limit."});
    parser.addPositionalArgument("TRACE", "A trace saved by `idemlab run --trace`.");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab replay")} + args))
        return fail(parser.errorText());
    if (printedUsage(parser, QStringLiteral("replay")))
        return Ok;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("usage: idemlab replay TRACE [--allow-large]"));
    const QString path = parser.positionalArguments().first();
    TraceReader reader(path);
    TraceReader::Header header;
    RunConfig config;
    QString error;
    if (!reader.readHeader(&header, &error))
        return fail(QStringLiteral("%1: %2").arg(path, error));
    if (!traceConfig(path, header.config, &config, &error))
        return fail(error);
    if (!parser.isSet("allow-large")) {
        error = costProblem(config);
        if (!error.isEmpty())
            return fail(QStringLiteral("%1: %2").arg(path, error));
    }
    const ReplayOutcome r = replayTrace(reader, header, config, *findScenario(config.scenario));
    QTextStream out(stdout);
    if (r.failure != RunFailure::None) {
        return fail(
            QStringLiteral("%1: the configuration could not be run again: %2").arg(path, r.error),
            r.failure == RunFailure::BadInput ? BadInput : Failure);
    }
    if (!r.identical) {
        if (!r.difference.isEmpty()) {
            out << "differs at " << r.difference << Qt::endl;
            return Failure;
        }
        return fail(QStringLiteral("%1: %2").arg(path, r.error));
    }
    out << "replayed " << r.events << " events and the summary: identical" << Qt::endl;
    return Ok;
}

QStringList exportFormats() {
    return {QStringLiteral("csv"), QStringLiteral("shiviz"), QStringLiteral("html")};
}

int exportTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"format", "csv, shiviz or html.", "FORMAT"});
    parser.addOption({"out", "File to write.", "FILE"});
    parser.addOption({"verify", "Refuse a trace whose summary a re-run does not confirm."});
    parser.addPositionalArgument("TRACE", "A trace saved by `idemlab run --trace`.");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab export")} + args)) {
        return fail(parser.errorText());
    }
    if (printedUsage(parser, QStringLiteral("export")))
        return Ok;
    if (parser.positionalArguments().size() != 1) {
        return fail(
            QStringLiteral("usage: idemlab export TRACE --format csv|shiviz|html --out FILE"));
    }
    const QString format = parser.value("format");
    if (!exportFormats().contains(format)) {
        return fail(QStringLiteral("unknown --format \"%1\" (allowed: %2)")
                        .arg(format, exportFormats().join(QStringLiteral(", "))));
    }
    if (!parser.isSet("out"))
        return fail(QStringLiteral("--out FILE is required"));
    const QString input = parser.positionalArguments().first();
    const PathProblem problem = checkOutputs({{QStringLiteral("--out"), parser.value("out")}},
                                             {{QStringLiteral("the trace"), input}});
    if (problem)
        return fail(problem.message, problem.code);
    Trace::Loaded loaded;
    RunConfig config;
    QString error;
    if (!loadTrace(input, &loaded, &config, &error))
        return fail(error);
    // A report is only as good as its trace: re-judge it, and say so in the
    // report when the stored summary is not what the run gives.
    QString doubt;
    RunOptions rerun = RunOptions::untraced();
    rerun.formatVersion = loaded.version;
    const RunResult again = runToEnd(config, *findScenario(config.scenario), rerun);
    if (!again.ok()) {
        doubt = QStringLiteral("the configuration could not be run again: %1").arg(again.error);
    } else if (const QString d = firstDifference(
                   loaded.summary, again.summary.toJson(loaded.version), QStringLiteral("summary"));
               !d.isEmpty()) {
        doubt = QStringLiteral("the stored summary disagrees with a re-run (%1)").arg(d);
    } else if (loaded.version >= 2 && !loaded.digestMatches) {
        doubt = QStringLiteral(
            "the events were edited after the trace was written (its digest "
            "does not match)");
    }
    if (!doubt.isEmpty()) {
        if (parser.isSet("verify"))
            return fail(QStringLiteral("%1: %2").arg(parser.positionalArguments().first(), doubt),
                        Failure);
        QTextStream(stderr) << "idemlab: warning: " << doubt << Qt::endl;
    }

    QByteArray bytes;
    if (format == QLatin1String("csv")) {
        bytes = traceToCsv(loaded.events);
    } else if (format == QLatin1String("shiviz")) {
        bytes = traceToShiViz(loaded.events);
    } else {
        // Draw the two diagrams off screen from the stored events.
        const Scenario& scenario = *findScenario(config.scenario);
        Trace trace;
        for (const TraceEvent& e : loaded.events) trace.append(e);
        StateMachineView state;
        state.resize(1000, 600);
        state.setMachine(scenario.info(), config.variant);
        state.showTrace(trace, trace.size(), trace.size());
        SequenceView sequence;
        sequence.resize(1200, 800);
        sequence.showTrace(trace, trace.size(), trace.size());
        QList<QPair<QString, QByteArray>> diagrams;
        QString ignored;
        const QByteArray stateSvg = sceneToSvg(state.scene(), QStringLiteral("State"), &ignored);
        if (!stateSvg.isEmpty())
            diagrams.append({QStringLiteral("State diagram"), stateSvg});
        const QByteArray sequenceSvg =
            sceneToSvg(sequence.scene(), QStringLiteral("Sequence"), &ignored);
        if (!sequenceSvg.isEmpty())
            diagrams.append({QStringLiteral("Sequence diagram"), sequenceSvg});
        bytes = traceToHtml(loaded, diagrams, doubt);
    }
    if (!writeFileAtomically(parser.value("out"), bytes, &error))
        return fail(error, Failure);
    return Ok;
}

}  // namespace idem::cli
