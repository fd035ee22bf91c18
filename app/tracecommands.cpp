#include "tracecommands.h"

#include "cli.h"
#include "configcheck.h"
#include "outputpaths.h"
#include "registry.h"
#include "replay.h"
#include "reportdiagrams.h"
#include "run.h"
#include "runner.h"
#include "runoptions.h"
#include "sequenceexport.h"
#include "texts.h"
#include "tracewriters.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>
#include <QTextStream>
#include <QTranslator>

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
    return {QStringLiteral("csv"),     QStringLiteral("shiviz"),   QStringLiteral("html"),
            QStringLiteral("mermaid"), QStringLiteral("plantuml"), QStringLiteral("history"),
            QStringLiteral("chrome")};
}

namespace {

// "csv, shiviz or html"
QString formatsText() {
    QStringList f = exportFormats();
    const QString last = f.takeLast();
    return f.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

}  // namespace

namespace {

// A trace to export, re-judged: doubt says why its summary cannot be trusted
// (empty: a re-run confirms it).
struct ExportInput {
    QString path;
    Trace::Loaded loaded;
    RunConfig config;
    QString doubt;
};

bool loadForExport(const QString& path, ExportInput* in, QString* error) {
    in->path = path;
    if (!loadTrace(path, &in->loaded, &in->config, error))
        return false;
    // A report is only as good as its trace: re-judge it, and say so in the
    // report when the stored summary is not what the run gives.
    RunOptions rerun = RunOptions::untraced();
    rerun.formatVersion = in->loaded.version;
    const RunResult again = runToEnd(in->config, *findScenario(in->config.scenario), rerun);
    if (!again.ok()) {
        in->doubt = QStringLiteral("the configuration could not be run again: %1").arg(again.error);
    } else if (const QString d =
                   firstDifference(in->loaded.summary, again.summary.toJson(in->loaded.version),
                                   QStringLiteral("summary"));
               !d.isEmpty()) {
        in->doubt = QStringLiteral("the stored summary disagrees with a re-run (%1)").arg(d);
    } else if (in->loaded.version >= 2 && !in->loaded.digestMatches) {
        in->doubt = QStringLiteral(
            "the events were edited after the trace was written (its digest "
            "does not match)");
    }
    return true;
}

// "a.json: order-create/check-then-insert", unique among the runs.
QList<ShiVizRun> shivizRuns(const QList<ExportInput>& inputs) {
    QList<ShiVizRun> runs;
    QSet<QString> labels;
    for (const ExportInput& in : inputs) {
        const QString base =
            QStringLiteral("%1: %2/%3")
                .arg(QFileInfo(in.path).fileName(), in.config.scenario, in.config.variant);
        QString label = base;
        for (int n = 2; labels.contains(label); ++n)
            label = QStringLiteral("%1 (%2)").arg(base).arg(n);
        labels.insert(label);
        runs.append({label, in.loaded.events});
    }
    return runs;
}

}  // namespace

int exportTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"format", formatsText() + QLatin1Char('.'), "FORMAT"});
    parser.addOption({"out", "File to write.", "FILE"});
    parser.addOption({"verify", "Refuse a trace whose summary a re-run does not confirm."});
    parser.addOption({"excel", "csv: start with a UTF-8 byte-order mark for Excel."});
    parser.addOption({"lang", "zh or en: the language of html, mermaid and plantuml.", "LANG",
                      QStringLiteral("en")});
    parser.addPositionalArgument(
        "TRACE",
        "A trace saved by `idemlab run --trace` (shiviz: one or more, one execution each).");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab export")} + args)) {
        return fail(parser.errorText());
    }
    if (printedUsage(parser, QStringLiteral("export")))
        return Ok;
    const QStringList paths = parser.positionalArguments();
    const QString format = parser.value("format");
    if (paths.isEmpty()) {
        return fail(QStringLiteral("usage: idemlab export TRACE --format %1 --out FILE")
                        .arg(exportFormats().join(QLatin1Char('|'))));
    }
    if (!exportFormats().contains(format)) {
        return fail(QStringLiteral("unknown --format \"%1\" (allowed: %2)")
                        .arg(format, exportFormats().join(QStringLiteral(", "))));
    }
    if (paths.size() > 1 && format != QLatin1String("shiviz")) {
        return fail(QStringLiteral("--format %1 takes one trace (several: only shiviz, one "
                                   "execution each)")
                        .arg(format));
    }
    const QString lang = parser.value("lang");
    if (lang != QLatin1String("zh") && lang != QLatin1String("en"))
        return fail(QStringLiteral("unknown --lang \"%1\" (allowed: zh, en)").arg(lang));
    if (parser.isSet("excel") && format != QLatin1String("csv"))
        return fail(QStringLiteral("--excel applies to --format csv only"));
    if (!parser.isSet("out"))
        return fail(QStringLiteral("--out FILE is required"));
    QList<NamedPath> inputs;
    for (const QString& path : paths) inputs.append({QStringLiteral("the trace"), path});
    const PathProblem problem =
        checkOutputs({{QStringLiteral("--out"), parser.value("out")}}, inputs);
    if (problem)
        return fail(problem.message, problem.code);
    QList<ExportInput> loaded;
    QString error;
    for (const QString& path : paths) {
        ExportInput in;
        if (!loadForExport(path, &in, &error))
            return fail(error);
        if (!in.doubt.isEmpty()) {
            if (parser.isSet("verify"))
                return fail(QStringLiteral("%1: %2").arg(path, in.doubt), Failure);
            QTextStream(stderr) << "idemlab: warning: "
                                << (paths.size() > 1 ? path + QStringLiteral(": ") : QString())
                                << in.doubt << Qt::endl;
        }
        loaded.append(std::move(in));
    }

    // The words of the diagrams and the report in the language asked for.
    QTranslator translator;
    if (lang == QLatin1String("zh")) {
        setCurrentLanguage(Language::Chinese);
        if (translator.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")))
            QCoreApplication::installTranslator(&translator);
    }
    QByteArray bytes;
    const ExportInput& first = loaded.first();
    const QString title =
        QStringLiteral("%1 / %2").arg(first.config.scenario, first.config.variant);
    if (format == QLatin1String("csv")) {
        bytes = traceToCsv(first.loaded.events, parser.isSet("excel"));
    } else if (format == QLatin1String("shiviz")) {
        bytes = runsToShiViz(shivizRuns(loaded));
    } else if (format == QLatin1String("mermaid") || format == QLatin1String("plantuml")) {
        const Scenario* scenario = findScenario(first.config.scenario);
        const ScenarioInfo* info = scenario ? &scenario->info() : nullptr;
        bytes = format == QLatin1String("mermaid")
                    ? traceToMermaid(first.loaded.events, info, title)
                    : traceToPlantUml(first.loaded.events, info, title);
    } else if (format == QLatin1String("history")) {
        bytes = traceToHistory(first.loaded);
    } else if (format == QLatin1String("chrome")) {
        bytes = traceToChromeTrace(first.loaded);
    } else {
        bytes = htmlReport(first.loaded, first.config, lang, first.doubt);
    }
    if (!writeFileAtomically(parser.value("out"), bytes, &error))
        return fail(error, Failure);
    return Ok;
}

}  // namespace idem::cli
