#include "windowexports.h"

#include "lessonhandout.h"
#include "lessonplayer.h"
#include "outputpaths.h"
#include "playback.h"
#include "registry.h"
#include "reportdiagrams.h"
#include "scenario.h"
#include "stagedirector.h"
#include "traceexport.h"
#include "tracewriters.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QStatusBar>

#include <algorithm>

namespace idem {

WindowExports::WindowExports(const Parts& parts, QObject* parent)
    : QObject(parent), parts_(parts) {}

void WindowExports::protect(const QString& path) {
    const QString resolved = cli::resolvedPath(path);
    if (!protected_.contains(resolved))
        protected_.append(resolved);
}

bool WindowExports::isProtected(const QString& path) const {
    // Also through another name: a link, "..", a hard link.
    return std::any_of(protected_.cbegin(), protected_.cend(),
                       [&](const QString& input) { return cli::isSameFile(input, path); });
}

bool WindowExports::refused(const QString& path) {
    if (!isProtected(path))
        return false;
    emit errorRaised(tr("Not written"),
                     tr("%1 is a file the window opened: choose another name, so that it stays "
                        "as it is.")
                         .arg(QDir::toNativeSeparators(path)));
    return true;
}

QString WindowExports::askSavePath(const QString& title, const QString& suggestedName,
                                   const QString& filter) {
    // QFileDialog asks before replacing a file that exists.
    const QString path = QFileDialog::getSaveFileName(parts_.window, title, suggestedName, filter);
    if (path.isEmpty() || refused(path))
        return {};
    return path;
}

QString WindowExports::runFileStem() const {
    const RunConfig& config = parts_.playback->config();
    return QStringLiteral("%1-%2").arg(config.scenario, config.variant);
}

void WindowExports::exportRun(Format format) {
    if (!parts_.playback->isLoaded())
        return;
    QString path;
    switch (format) {
        case Format::Report:
            path = askSavePath(tr("Export the HTML report"),
                               runFileStem() + QStringLiteral(".html"), tr("HTML pages (*.html)"));
            break;
        case Format::Spreadsheet:
            path =
                askSavePath(tr("Export the events as a spreadsheet"),
                            runFileStem() + QStringLiteral(".xlsx"), tr("Spreadsheets (*.xlsx)"));
            break;
        case Format::Mermaid:
            path = askSavePath(tr("Export the sequence diagram as Mermaid"),
                               runFileStem() + QStringLiteral(".mmd"),
                               tr("Mermaid diagrams (*.mmd *.md)"));
            break;
        case Format::PlantUml:
            path = askSavePath(tr("Export the sequence diagram as PlantUML"),
                               runFileStem() + QStringLiteral(".puml"),
                               tr("PlantUML diagrams (*.puml)"));
            break;
    }
    if (!path.isEmpty())
        writeRun(format, path);
}

void WindowExports::writeRun(Format format, const QString& path) {
    if (refused(path))
        return;
    const QString job = format == Format::Report        ? tr("Writing the report")
                        : format == Format::Spreadsheet ? tr("Writing the spreadsheet")
                                                        : tr("Writing the sequence diagram");
    // The whole run, as `idemlab export` reads it from a saved trace.
    const RunConfig config = parts_.playback->config();
    const QString name = format == Format::Report        ? QStringLiteral("html")
                         : format == Format::Spreadsheet ? QStringLiteral("xlsx")
                         : format == Format::Mermaid     ? QStringLiteral("mermaid")
                                                         : QStringLiteral("plantuml");
    const QString lang = lang_;
    const auto render = [config, name, lang](const Trace::Loaded& whole) {
        const std::unique_ptr<TraceExport> writer =
            traceExportFor(name, config, whole.summary, false, lang);
        if (auto* report = dynamic_cast<HtmlExport*>(writer.get()); report && whole.judged)
            report->setJudged(*whole.judged);
        ExportRun run;
        run.config = whole.config;
        run.summary = whole.summary;
        run.intents = config.intents;
        return exportEvents(whole.events, *writer, run);
    };
    // The text diagrams are written in the worker; the report draws its
    // diagrams with widgets, which live on this thread.
    const bool drawn = format == Format::Report;
    parts_.director->withWholeRun(
        job, drawn ? StageDirector::RenderWhole() : StageDirector::RenderWhole(render),
        [this, path, drawn, render](const Trace::Loaded& whole, const QByteArray& rendered) {
            const QByteArray bytes = drawn ? render(whole) : rendered;
            QString error;
            if (!writeFileAtomically(path, bytes, &error)) {
                emit errorRaised(tr("Cannot export"), error);
                return;
            }
            parts_.status->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
            emit written(path);
        });
}

void WindowExports::exportHandout() {
    if (!parts_.lessons->isActive())
        return;
    const QString path = askSavePath(tr("Export the lesson hand-out"),
                                     parts_.lessons->lesson().id + QStringLiteral("-handout.html"),
                                     tr("HTML pages (*.html)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeHandout(path, &error))
        emit errorRaised(tr("Cannot export the hand-out"), error);
}

bool WindowExports::writeHandout(const QString& path, QString* error) {
    if (!parts_.lessons->isActive()) {
        *error = tr("No lesson is open: choose one under Guided lessons first.");
        return false;
    }
    if (isProtected(path)) {
        *error = tr("%1 is a file the window opened: choose another name, so that it stays "
                    "as it is.")
                     .arg(QDir::toNativeSeparators(path));
        return false;
    }
    // Every frame's run and diagrams, drawn here: a few seconds at most.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QStringList problems;
    const QByteArray html = lessonToHtml(parts_.lessons->lesson(), lang_, &problems);
    QApplication::restoreOverrideCursor();
    if (!problems.isEmpty()) {
        *error = problems.join(QLatin1Char('\n'));
        return false;
    }
    if (!writeFileAtomically(path, html, error))
        return false;
    parts_.status->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
    emit written(path);
    return true;
}

}  // namespace idem
