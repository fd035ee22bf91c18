// The window and the workbench: its messages in the status line, Ctrl+S,
// and "Step the failing run", which opens the counterexample's trace on the
// stage at its first wrong step; back on the Workbench, the line of the
// statement that step sent is marked in the editor.
#include "mainwindow.h"

#include "names.h"
#include "playedrun.h"
#include "run.h"
#include "stagedirector.h"
#include "trace.h"
#include "workbenchview.h"

#include <QDir>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <memory>

namespace idem {

namespace {

constexpr int kWorkbenchSaidForMs = 8000;

// The verdicts a step can be seen to reach: a run stuck or lost is only so
// at its end.
bool seenAtAStep(Verdict v) {
    return v == Verdict::Duplicated || v == Verdict::Misanswered || v == Verdict::Inconsistent;
}

}  // namespace

void MainWindow::connectWorkbench() {
    connect(workbench_, &WorkbenchView::message, this,
            [this](const QString& text) { messages_->showMessage(text, kWorkbenchSaidForMs); });
    connect(workbench_, &WorkbenchView::stepRequested, this, &MainWindow::stepCounterexample);
    connect(workbench_, &WorkbenchView::saveRequested, this, &MainWindow::saveHandler);
    connect(workbench_, &WorkbenchView::handlerChanged, this, &MainWindow::updateTitle);
    // Escape stops a check too.
    connect(workbench_, &WorkbenchView::checkingChanged, this, &MainWindow::updateEnabled);
}

void MainWindow::saveHandler() {
    QString error;
    if (workbench_->save(&error)) {
        messages_->showMessage(
            tr("Saved the handler to %1").arg(QDir::toNativeSeparators(workbench_->handlerPath())),
            kWorkbenchSaidForMs);
        updateTitle();  // the first save gives the handler its file
    } else {
        showError(tr("Cannot save the handler"), error);
    }
}

void MainWindow::stepCounterexample(const QString& tracePath) {
    // Once its run is on the stage (and only that run): to the wrong step.
    auto loaded = std::make_shared<QMetaObject::Connection>();
    auto failed = std::make_shared<QMetaObject::Connection>();
    *loaded = connect(playback_, &Playback::loaded, this, [this, loaded, failed] {
        disconnect(*loaded);
        disconnect(*failed);
        QTimer::singleShot(0, this, &MainWindow::seekFirstWrongStep);
    });
    *failed = connect(director_, &StageDirector::traceOpened, this,
                      [this, loaded, failed, tracePath](const QString& path, bool opened) {
                          if (path != tracePath || opened)
                              return;
                          disconnect(*loaded);
                          disconnect(*failed);
                      });
    openTraceAt(tracePath);
}

void MainWindow::seekFirstWrongStep() {
    if (!playback_->isLoaded() || playback_->config().workbench.isEmpty())
        return;
    // While a worker catches the views up it holds the run: once it is back.
    if (playback_->isLent()) {
        QTimer::singleShot(50, this, &MainWindow::seekFirstWrongStep);
        return;
    }
    const Verdict verdict = playback_->finalSummary().verdict;
    int at = playback_->length();
    if (seenAtAStep(verdict)) {
        // From the start, each step's database judged as it stands.
        playback_->seek(0);
        for (int p = 1; p <= playback_->length(); ++p) {
            playback_->seek(p);
            if (playback_->liveSummary().verdict == verdict) {
                at = p;
                break;
            }
        }
    }
    playback_->seek(at);
    showTab(live_);
    messages_->showMessage(tr("Your handler's smallest failing run, at step %1 of %2: the first "
                              "step where the judge's verdict is %3. Alt+5 goes back to the "
                              "handler, with the statement of the step on screen marked.")
                               .arg(at)
                               .arg(playback_->length())
                               .arg(verdictName(toId(verdict))),
                           kWorkbenchSaidForMs);
}

void MainWindow::markCounterexampleStatement() {
    const PlayedRun* played = playback_->played();
    if (!played || playback_->config().workbench.isEmpty())
        return;
    const QList<TraceEvent>& events = played->run().trace().events();
    const qsizetype shown = std::min<qsizetype>(playback_->eventCount(), events.size());
    // The last statement an attempt sent up to the step on screen, and
    // which of that attempt's statements it was.
    qsizetype last = -1;
    for (qsizetype i = shown - 1; i >= 0 && last < 0; --i) {
        if (events[i].kind == EventKind::Sql && events[i].attempt > 0)
            last = i;
    }
    if (last < 0)
        return;
    const qint32 attempt = events[last].attempt;
    int index = 0;
    for (qsizetype i = 0; i <= last; ++i) {
        if (events[i].kind == EventKind::Sql && events[i].attempt == attempt)
            ++index;
    }
    workbench_->markStatement(attempt, index);
}

}  // namespace idem
