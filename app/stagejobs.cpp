// The stage director's work in a worker: a comparison, a long seek, saving
// the trace, the whole run for an export, reading a trace to fire it. The
// run is lent to the job and handed back, with what the worker counted for
// the views and the caption's narrator.
#include "stagedirector.h"

#include "compareview.h"
#include "comparison.h"
#include "firepanel.h"
#include "playbackbar.h"
#include "playedrun.h"
#include "recordedbackend.h"
#include "registry.h"
#include "run.h"
#include "serverbackend.h"
#include "serverinstall.h"
#include "tracewriters.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>

namespace idem {

void StageDirector::compareInBackground() {
    // A newer comparison replaces one in progress; other work goes first.
    RunController* jobs = stage_.jobs;
    if (jobs->isBusy() && !compareRunning_)
        return;
    jobs->cancelNow();
    CompareView* compare = stage_.compare;
    const auto runs = compare->prepare();
    if (!runs)
        return;
    compareRunning_ = true;
    jobs->start(
        tr("Comparing"), [runs](RunController::Progress& p) { runComparison(*runs, &p.cancel); },
        [this, compare, runs](bool) {
            compareRunning_ = false;
            compare->show(runs, !stage_.jobs->isFinishingNow());
        });
}

bool StageDirector::holdRun(const QString& title, RunWork work, std::function<void(bool)> done,
                            std::optional<int> heading) {
    RunController* jobs = stage_.jobs;
    if (jobs->isBusy() || !playback_.played())
        return false;
    stage_.playbackBar->pause();
    // What the views have counted so far, for the worker to go on from; and
    // whether the narrator may: views drawn again start it over anyway.
    auto views = std::make_shared<LiveStage::CatchUp>(stage_.live->prepareCatchUp());
    const bool narrate = !narrationStale_;
    jobs->startWith<PlayedRun>(
        title, playback_.lend(heading),
        [work = std::move(work), views, narrate](PlayedRun& run, RunController::Progress& p) {
            work(run, p);
            catchUpInWorker(run, *views, narrate);
        },
        [this, views, done = std::move(done)](std::unique_ptr<PlayedRun> run, bool cancelled) {
            playback_.handBack(std::move(run));
            publishFromWorker(views);
            done(cancelled);
            // A job `done` started takes what was queued on with it.
            if (cancelled) {
                playback_.dropQueued();
            } else if (!stage_.jobs->isBusy()) {
                if (const std::optional<int> queued = playback_.takeQueued())
                    playback_.requestSeek(*queued);
            }
            // Said while it waited; done or dropped now.
            if (!queuedSaid_.isEmpty() && stage_.status->currentMessage() == queuedSaid_)
                stage_.status->clearMessage();
            queuedSaid_.clear();
        });
    emit heldChanged();
    return true;
}

void StageDirector::seekInBackground(int target) {
    const int from = playback_.position();
    const int cost = playback_.seekCost(target);
    holdRun(
        target < from ? tr("Going back to step %1").arg(target)
                      : tr("Going to step %1").arg(target),
        [target, cost](PlayedRun& run, RunController::Progress& p) {
            p.total = cost;
            run.advance(target, &p.cancel, &p.done);
        },
        [this, target](bool cancelled) {
            if (cancelled && playback_.position() != target) {
                stage_.status->showMessage(tr("Stopped at step %1 of %2.")
                                               .arg(playback_.position())
                                               .arg(playback_.length()));
            }
        },
        target);
}

void StageDirector::saveTraceTo(const QString& path) {
    // The run on screen is played to its end and judged, and its events
    // written as they are: nothing runs twice.
    auto error = std::make_shared<QString>();
    const int cost = playback_.seekCost(playback_.length());
    holdRun(
        tr("Saving the trace"),
        [path, error, cost](PlayedRun& run, RunController::Progress& p) {
            p.total = cost + run.eventCount();
            if (!toEndInWorker(run, p, error.get()))
                return;
            TraceFileWriter file;
            if (!file.open(path, run.run().config(), error.get()))
                return;
            const QList<TraceEvent>& events = run.run().trace().events();
            for (qsizetype i = 0; i < events.size(); ++i) {
                file.add(events[i]);
                if ((i & 0xfff) == 0) {
                    if (p.cancel) {
                        file.cancel();
                        return;
                    }
                    p.done = cost + i;
                }
            }
            file.commit(run.run().summary().toJson(), error.get());
        },
        [this, path, error](bool cancelled) {
            if (cancelled) {
                stage_.status->showMessage(tr("Stopped: the trace was not saved."));
            } else if (!error->isEmpty()) {
                emit errorRaised(tr("Cannot save the trace"), *error);
            } else {
                stage_.status->showMessage(tr("Saved the trace to %1").arg(path));
            }
        },
        playback_.length());  // a key pressed meanwhile steps on from the end
}

bool StageDirector::toEndInWorker(PlayedRun& run, RunController::Progress& p, QString* error) {
    run.advance(run.length(), &p.cancel, &p.done);
    return !p.cancel && run.atEnd() && run.judgeEnd(error);
}

void StageDirector::withWholeRun(
    const QString& jobTitle, RenderWhole render,
    std::function<void(const Trace::Loaded& whole, const QByteArray&)> done) {
    auto error = std::make_shared<QString>();
    auto whole = std::make_shared<Trace::Loaded>();
    auto rendered = std::make_shared<QByteArray>();
    const int cost = playback_.seekCost(playback_.length());
    holdRun(
        jobTitle,
        [error, whole, rendered, render = std::move(render), cost](PlayedRun& run,
                                                                   RunController::Progress& p) {
            p.total = cost;
            if (!toEndInWorker(run, p, error.get()))
                return;
            // What a saved trace holds (saveTraceTo), without the file.
            whole->config = run.run().config().toJson();
            whole->events = run.run().trace().events();
            whole->judged = run.run().summary();
            whole->summary = whole->judged->toJson();
            whole->digestMatches = true;
            if (render)
                *rendered = render(*whole);
        },
        [this, error, whole, rendered, done = std::move(done)](bool cancelled) {
            if (cancelled) {
                stage_.status->showMessage(tr("Stopped: nothing was written."));
            } else if (!error->isEmpty()) {
                emit errorRaised(tr("Cannot judge the run"), *error);
            } else {
                done(*whole, *rendered);
            }
        },
        playback_.length());
}

void StageDirector::openTrace(const QString& path) {
    stage_.jobs->cancelNow();
    // A trace can be large: it is read in the background, then fired.
    struct Opened {
        RunConfig config;
        QString error;
        bool ok = false;
    };
    auto opened = std::make_shared<Opened>();
    stage_.jobs->start(
        tr("Opening %1").arg(QFileInfo(path).fileName()),
        [opened, path](RunController::Progress& p) {
            // Only its header: the run is fired anew from the configuration
            // (asked about first when it is above the cost limit), so the
            // events are scanned for the file's shape but never held.
            TraceReader reader(path);
            reader.setCancel(&p.cancel);
            TraceReader::Header header;
            opened->ok = reader.readHeader(&header, &opened->error) &&
                         RunConfig::fromJson(header.config, &opened->config, &opened->error);
            // A server's run where its server is not installed plays from
            // the trace itself (recordedbackend.h).
            if (opened->ok && opened->config.backend != QLatin1String("sqlite") &&
                backendIds().contains(opened->config.backend) &&
                !missingServerPackage(opened->config.backend).isEmpty()) {
                opened->config.recording = loadRecording(path, &opened->error);
                opened->ok = opened->config.recording != nullptr;
            }
            if (!opened->ok)
                opened->error = QStringLiteral("%1: %2").arg(path, opened->error);
        },
        [this, opened, path](bool cancelled) {
            if (cancelled)
                return;
            // A trace of a scenario or a variant this version does not know
            // says so in the fire panel's words.
            if (opened->ok) {
                const Scenario* scenario = findScenario(opened->config.scenario);
                opened->error = scenario ? FirePanel::problemText(opened->config, scenario->info())
                                         : tr("Unknown scenario %1").arg(opened->config.scenario);
                opened->ok = opened->error.isEmpty();
            }
            if (!opened->ok) {
                emit errorRaised(tr("Cannot open the trace"),
                                 tr("%1: %2").arg(QDir::toNativeSeparators(path), opened->error));
                emit traceOpened(path, false);
                return;
            }
            emit traceOpened(path, true);
            pendingTrace_ = path;
            fireInBackground(opened->config);
            if (opened->config.recording)
                stage_.status->showMessage(FirePanel::recordingText(*opened->config.recording));
        });
}

void StageDirector::catchUpInWorker(PlayedRun& run, LiveStage::CatchUp& views, bool narrate) {
    const qsizetype from = run.pendingFrom();
    if (from < 0)
        return;
    const QList<TraceEvent>& events = run.run().trace().events();
    // The caption's narrator reads every earlier event: here, not on the
    // window's thread after (unless the views start over).
    if (narrate)
        run.narrator().catchUp(events, run.lastStepBegin());
    views.take(events, from, run.eventCount(), std::max(from, run.lastStepBegin()),
               run.pendingRewound());
}

void StageDirector::publishFromWorker(const std::shared_ptr<LiveStage::CatchUp>& views) {
    narratorCaughtUp_ = !narrationStale_;
    viewsCaughtUp_ = views.get();
    playback_.publish();
    viewsCaughtUp_ = nullptr;
    narratorCaughtUp_ = false;
    // A drawing left for later by an earlier job, when this one told nothing new.
    if (laterDue_.due && !laterTimer_->isActive())
        laterTimer_->start();
    if (redrawAfterJob_) {
        redrawAfterJob_ = false;
        redraw();
    }
    emit heldChanged();
}

}  // namespace idem
