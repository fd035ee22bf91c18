#include "tracecommands.h"

#include "cli.h"
#include "configcheck.h"
#include "diagramexport.h"
#include "registry.h"
#include "run.h"
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
    const QString problem = checkConfig(*config, scenario->info());
    if (!problem.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(path, problem);
        return false;
    }
    return true;
}

}  // namespace

int replay(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument("TRACE", "A trace saved by `idemlab run --trace`.");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab replay")} + args))
        return fail(parser.errorText());
    if (printedUsage(parser, QStringLiteral("replay")))
        return Ok;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("usage: idemlab replay TRACE"));
    Trace::Loaded stored;
    RunConfig config;
    QString error;
    if (!loadTrace(parser.positionalArguments().first(), &stored, &config, &error))
        return fail(error);
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

QStringList exportFormats() {
    return {QStringLiteral("csv"), QStringLiteral("shiviz"), QStringLiteral("html")};
}

int exportTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"format", "csv, shiviz or html.", "FORMAT"});
    parser.addOption({"out", "File to write.", "FILE"});
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
    Trace::Loaded loaded;
    RunConfig config;
    QString error;
    if (!loadTrace(parser.positionalArguments().first(), &loaded, &config, &error))
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
