#include "tracecommands.h"

#include "cli.h"
#include "configcheck.h"
#include "diagramexport.h"
#include "outputpaths.h"
#include "registry.h"
#include "run.h"
#include "runoptions.h"
#include "sequenceview.h"
#include "statemachineview.h"
#include "tracewriters.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>

namespace idem::cli {

namespace {

int fail(const QString& message, int code = BadInput) {
    QTextStream(stderr) << "idemlab: " << message << Qt::endl;
    return code;
}

// Loads a trace and the configuration in it; false with a message.
bool loadTrace(const QString& path, Trace::Loaded* loaded, RunConfig* config, QString* error) {
    if (!Trace::load(path, loaded, error))
        return false;
    if (!RunConfig::fromJson(loaded->config, config, error)) {
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

}  // namespace

int replay(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"allow-large", "Replay even a run whose estimated cost is above the limit."});
    if (!parser.parse(QStringList{QStringLiteral("idemlab replay")} + args))
        return fail(parser.errorText());
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("usage: idemlab replay TRACE [--allow-large]"));
    Trace::Loaded stored;
    RunConfig config;
    QString error;
    if (!loadTrace(parser.positionalArguments().first(), &stored, &config, &error))
        return fail(error);
    if (!parser.isSet("allow-large")) {
        error = costProblem(config);
        if (!error.isEmpty())
            return fail(QStringLiteral("%1: %2").arg(parser.positionalArguments().first(), error));
    }
    Run run(config, *findScenario(config.scenario));
    if (!run.start(&error))
        return fail(error);
    run.runToEnd();
    run.finish();
    const QList<TraceEvent>& fresh = run.trace().events();
    QTextStream out(stdout);
    for (qsizetype i = 0; i < std::max(fresh.size(), stored.events.size()); ++i) {
        const QJsonObject a = i < stored.events.size() ? stored.events[i].toJson() : QJsonObject();
        const QJsonObject b = i < fresh.size() ? fresh[i].toJson() : QJsonObject();
        if (a != b) {
            out << "differs at event " << i + 1
                << ":\n  stored: " << QJsonDocument(a).toJson(QJsonDocument::Compact)
                << "\n  replay: " << QJsonDocument(b).toJson(QJsonDocument::Compact) << Qt::endl;
            return Failure;
        }
    }
    out << "replayed " << fresh.size() << " events: identical" << Qt::endl;
    return Ok;
}

int exportTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"format", "csv, shiviz or html.", "FORMAT"});
    parser.addOption({"out", "File to write.", "FILE"});
    if (!parser.parse(QStringList{QStringLiteral("idemlab export")} + args)) {
        return fail(parser.errorText());
    }
    if (parser.positionalArguments().size() != 1) {
        return fail(
            QStringLiteral("usage: idemlab export TRACE --format csv|shiviz|html --out FILE"));
    }
    const QString format = parser.value("format");
    if (format != QLatin1String("csv") && format != QLatin1String("shiviz") &&
        format != QLatin1String("html")) {
        return fail(
            QStringLiteral("unknown --format \"%1\" (allowed: csv, shiviz, html)").arg(format));
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
        bytes = traceToHtml(loaded, diagrams);
    }
    if (!writeFileAtomically(parser.value("out"), bytes, &error))
        return fail(error, Failure);
    return Ok;
}

}  // namespace idem::cli
