#include "tracecommands.h"

#include "cli.h"
#include "configcheck.h"
#include "interruption.h"
#include "names.h"
#include "outofmemory.h"
#include "outputfile.h"
#include "outputpaths.h"
#include "recordedbackend.h"
#include "redisrecording.h"
#include "registry.h"
#include "replay.h"
#include "reportdiagrams.h"
#include "run.h"
#include "runner.h"
#include "runoptions.h"
#include "sequenceexport.h"
#include "texts.h"
#include "traceexport.h"
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
    return failWith(message, code);
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

// Why a trace's configuration is too large to run again without
// --allow-large, naming its fields and the estimate; empty when it is not.
QString traceTooLarge(const QString& path, const RunConfig& config) {
    const Scenario* scenario = findScenario(config.scenario);
    const CostEstimate cost = estimateCost(config, scenario->info());
    if (!cost.overLimit())
        return {};
    return QStringLiteral(
               "%1: its config (intents %2, duplicates %3, max_retries %4%5) is too "
               "large to run again: %6; add --allow-large to run it anyway")
        .arg(path)
        .arg(config.intents)
        .arg(config.duplicates)
        .arg(config.maxRetries)
        .arg(scenario->info().statementsPerAttempt ? QStringLiteral(" and its params") : QString(),
             costText(cost));
}

}  // namespace

int replay(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"allow-large", "Replay even a run whose estimated cost is above the limit."});
    parser.addOption({"recorded",
                      "A run on MariaDB or PostgreSQL: play it from the trace itself instead of "
                      "the server (where it is not installed)."});
    parser.addOption({"connect",
                      "A run on MariaDB or PostgreSQL: run it again on a server the user runs "
                      "(postgres://... or mariadb://..., as for `idemlab run --connect`), in a "
                      "database of its own that is dropped afterwards.",
                      "URL"});
    parser.addOption({"redis",
                      "A run with Redis: send its commands to a real Redis again, private (a "
                      "redis-server of the lab's own) or a user's server's URL, instead of "
                      "answering them from the trace.",
                      "R"});
    parser.addPositionalArgument("TRACE", "A trace saved by `idemlab run --trace`.");
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab replay")} + args))
        return fail(parser.errorText());
    if (printedUsage(parser, QStringLiteral("replay")))
        return Ok;
    if (parser.positionalArguments().size() != 1)
        return fail(
            QStringLiteral("usage: idemlab replay TRACE [--allow-large] [--recorded | --connect "
                           "URL] [--redis R]"));
    const QString path = parser.positionalArguments().first();
    const Interruption interruption;
    TraceReader reader(path);
    reader.setCancel(Interruption::flag());
    TraceReader::Header header;
    RunConfig config;
    QString error;
    if (!reader.readHeader(&header, &error))
        return fail(QStringLiteral("%1: %2").arg(path, error), reader.cancelled()
                                                                   ? Interruption::exitCode()
                                                               : reader.ioError() ? Failure
                                                                                  : BadInput);
    if (!traceConfig(path, header.config, &config, &error))
        return fail(error);
    if (parser.isSet("connect")) {
        if (parser.isSet("recorded"))
            return fail(
                QStringLiteral("--recorded plays the trace without a server, --connect "
                               "runs it on one: give one of them"));
        if (config.backend == QLatin1String("sqlite"))
            return fail(QStringLiteral("%1: a run on SQLite replays without a server; leave "
                                       "--connect out")
                            .arg(path));
        QString backend = config.backend;
        if (!readConnect(parser, &backend, &config.connect, &error))
            return fail(error);
    }
    if (parser.isSet("recorded")) {
        config.recording = loadRecording(path, &error);
        if (!config.recording)
            return fail(QStringLiteral("%1: %2").arg(path, error));
    }
    if (parser.isSet("redis")) {
        const QString redis = parser.value("redis");
        if (config.redis == QLatin1String("off"))
            return fail(
                QStringLiteral("%1: this run kept nothing in Redis; leave --redis out").arg(path));
        if (redis != QLatin1String("private") && !parseRedisUrl(redis, &error))
            return fail(error);
        config.redis = redis;
    } else if (config.redis != QLatin1String("off")) {
        // A run with Redis replays from its recording: the same replies,
        // with or without a Redis here.
        config.redisRecording = loadRedisRecording(path, &error);
        if (!config.redisRecording)
            return fail(QStringLiteral("%1: %2").arg(path, error));
    }
    if (!parser.isSet("allow-large")) {
        if (const QString large = traceTooLarge(path, config); !large.isEmpty())
            return fail(large);
    }
    const ReplayOutcome r =
        replayTrace(reader, header, config, *findScenario(config.scenario), Interruption::flag());
    QTextStream out(stdout);
    if (r.failure == RunFailure::Cancelled) {
        return fail(QStringLiteral("%1: stopped before the end, after %2 events: nothing is "
                                   "proven")
                        .arg(path)
                        .arg(r.events),
                    Interruption::exitCode());
    }
    if (r.failure != RunFailure::None) {
        return fail(
            QStringLiteral("%1: the configuration could not be run again: %2").arg(path, r.error),
            r.failure == RunFailure::BadInput ? BadInput : Failure);
    }
    if (memory::allocationFailed())
        return Failure;  // main says so: a difference found after it proves nothing
    if (!r.identical) {
        if (!r.difference.isEmpty()) {
            out << "differs at " << r.difference << Qt::endl;
            return Failure;
        }
        return fail(QStringLiteral("%1: %2").arg(path, r.error),
                    reader.ioError() ? Failure : BadInput);
    }
    if (memory::allocationFailed())
        return Failure;  // main says so: a verdict computed after it proves nothing
    out << "replayed " << r.events << " events and the summary: identical" << Qt::endl;
    return Ok;
}

QStringList exportFormats() {
    return {QStringLiteral("csv"),     QStringLiteral("xlsx"),    QStringLiteral("shiviz"),
            QStringLiteral("html"),    QStringLiteral("mermaid"), QStringLiteral("plantuml"),
            QStringLiteral("history"), QStringLiteral("chrome")};
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

// A trace to export: its reader, its header and configuration, and why the
// events cannot be trusted (empty: a re-run of its configuration writes the
// same events and summary).
struct ExportInput {
    QString path;
    std::unique_ptr<TraceReader> reader;
    TraceReader::Header header;
    RunConfig config;
    QString doubt;
};

// "a.json: order-create/check-then-insert", unique among the runs.
QString runLabel(const ExportInput& in, QSet<QString>* labels) {
    const QString base =
        QStringLiteral("%1: %2/%3")
            .arg(QFileInfo(in.path).fileName(), in.config.scenario, in.config.variant);
    QString label = base;
    for (int n = 2; labels->contains(label); ++n)
        label = QStringLiteral("%1 (%2)").arg(base).arg(n);
    labels->insert(label);
    return label;
}

}  // namespace

int exportTrace(const QStringList& args) {
    QCommandLineParser parser;
    parser.addOption({"format", formatsText() + QLatin1Char('.'), "FORMAT"});
    parser.addOption({"out", "File to write.", "FILE"});
    parser.addOption({"verify", "Refuse a trace whose summary a re-run does not confirm."});
    parser.addOption(
        {"allow-large", "Re-run even a trace whose estimated cost is above the limit."});
    parser.addOption({"force",
                      "Replace an earlier output of idemlab at --out (never a file "
                      "idemlab did not write)."});
    parser.addOption({"excel", "csv: start with a UTF-8 byte-order mark for Excel."});
    parser.addOption(
        {"lang",
         "zh or en: the language of html, mermaid, plantuml and the captions of csv and xlsx.",
         "LANG", QStringLiteral("en")});
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
    QList<NamedPath> traces;
    for (const QString& path : paths) traces.append({QStringLiteral("the trace"), path});
    const PathProblem problem = checkOutputs({{QStringLiteral("--out"), parser.value("out")}},
                                             traces, parser.isSet("force"));
    if (problem)
        return fail(problem.message, problem.code);
    // What the path holds now is what it must hold when the export lands.
    OutputFile outFile(parser.value("out"));
    QString error;
    const Interruption interruption;
    const auto stopped = [] {
        return fail(QStringLiteral("stopped before the end: nothing was written"),
                    Interruption::exitCode());
    };
    // Each trace's configuration is read and estimated before anything runs.
    std::vector<ExportInput> inputs;
    for (const QString& path : paths) {
        ExportInput in;
        in.path = path;
        in.reader = std::make_unique<TraceReader>(path);
        in.reader->setCancel(Interruption::flag());
        if (!in.reader->readHeader(&in.header, &error)) {
            if (in.reader->cancelled())
                return stopped();
            return fail(QStringLiteral("%1: %2").arg(path, error),
                        in.reader->ioError() ? Failure : BadInput);
        }
        if (!traceConfig(path, in.header.config, &in.config, &error))
            return fail(error);
        if (!parser.isSet("allow-large")) {
            if (const QString large = traceTooLarge(path, in.config); !large.isEmpty())
                return fail(large);
        }
        inputs.push_back(std::move(in));
    }
    // A report is only as good as its trace: its configuration is run again
    // and every event compared with the stored one as the export reads it,
    // as replay does (a digest recomputed after an edit proves nothing). A
    // trace that differs is exported with a warning, in the report too, or
    // refused with --verify.
    std::vector<std::unique_ptr<ReplayCheck>> checks;
    for (ExportInput& in : inputs) {
        checks.push_back(std::make_unique<ReplayCheck>(
            in.header, in.config, *findScenario(in.config.scenario), Interruption::flag()));
        if (checks.back()->start())
            continue;
        const ReplayOutcome& r = checks.back()->outcome();
        if (r.failure == RunFailure::Cancelled)
            return stopped();
        if (r.failure != RunFailure::BadInput)
            return fail(QStringLiteral("%1: the configuration could not be run again: %2")
                            .arg(in.path, r.error),
                        Failure);
        in.doubt = QStringLiteral("the configuration could not be run again: %1").arg(r.error);
    }
    // The words of the diagrams and the report in the language asked for.
    QTranslator translator;
    if (lang == QLatin1String("zh")) {
        setCurrentLanguage(Language::Chinese);
        if (translator.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")))
            QCoreApplication::installTranslator(&translator);
    }
    const std::unique_ptr<TraceExport> writer =
        traceExportFor(format, inputs.front().config, inputs.front().header.summary,
                       parser.isSet("excel"), lang, int(inputs.size()));
    auto* report = dynamic_cast<HtmlExport*>(writer.get());
    int code = BadInput;  // a damaged trace, unless a hook says otherwise
    QList<ExportSource> sources;
    QSet<QString> labels;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ExportInput& in = inputs[i];
        ReplayCheck* check = checks[i].get();
        ExportSource source;
        source.path = in.path;
        source.reader = in.reader.get();
        source.header = in.header;
        source.run.label = runLabel(in, &labels);
        source.run.version = in.header.version;
        source.run.config = in.header.config;
        source.run.summary = in.header.summary;
        source.run.intents = in.config.intents;
        if (in.doubt.isEmpty())
            source.observe = [check](const QJsonObject& stored) {
                check->compare(stored);
            };
        source.observed = [&, check, input = &in](bool digestMatches, QString* error) {
            if (input->doubt.isEmpty()) {
                const ReplayOutcome& r = check->finish(true, {}, digestMatches);
                if (r.failure == RunFailure::Cancelled) {
                    code = Interruption::exitCode();
                    *error = QStringLiteral("stopped before the end: nothing was written");
                    return false;
                }
                if (r.failure == RunFailure::Io || r.failure == RunFailure::Internal) {
                    code = Failure;
                    *error = QStringLiteral("%1: the configuration could not be run again: %2")
                                 .arg(input->path, r.error);
                    return false;
                }
                if (r.failure == RunFailure::BadInput)
                    input->doubt =
                        QStringLiteral("the configuration could not be run again: %1").arg(r.error);
                else if (!r.identical)
                    input->doubt = QStringLiteral("a re-run of its configuration differs at %1")
                                       .arg(r.difference);
                else if (report)
                    report->setJudged(r.summary, r.phrases);  // in the report's language
            }
            if (input->doubt.isEmpty())
                return true;
            if (parser.isSet("verify")) {
                code = Failure;
                *error = QStringLiteral("%1: %2").arg(input->path, input->doubt);
                return false;
            }
            if (!memory::allocationFailed()) {  // else main says why, and nothing is written
                QTextStream(stderr)
                    << "idemlab: warning: "
                    << (paths.size() > 1 ? input->path + QStringLiteral(": ") : QString())
                    << input->doubt << Qt::endl;
            }
            if (report)
                report->setWarning(input->doubt);
            return true;
        };
        sources.append(source);
    }
    bool cancelled = false;
    const bool written = writeExportFile(
        outFile,
        [&](ExportOutput& out, QString* why, bool* stop) {
            return streamExport(sources, *writer, out, Interruption::flag(), why, stop);
        },
        &error, &cancelled);
    if (cancelled)
        return stopped();
    for (const ExportInput& in : inputs) {
        if (in.reader->ioError())
            code = Failure;  // the disk, not the trace
    }
    if (!written && outFile.refused())
        return fail(error, BadInput);
    if (!written)
        return fail(error, error.startsWith(QLatin1String("cannot write")) ? Failure : code);
    return Ok;
}

}  // namespace idem::cli
