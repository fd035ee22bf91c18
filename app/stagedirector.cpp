#include "stagedirector.h"

#include "alertcounts.h"
#include "compareview.h"
#include "comparison.h"
#include "configcheck.h"
#include "experimentview.h"
#include "explanationview.h"
#include "firepanel.h"
#include "frame.h"
#include "lessonplayer.h"
#include "names.h"
#include "outcomepanel.h"
#include "paginationview.h"
#include "paging.h"
#include "playbackbar.h"
#include "playedrun.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "scenariopicker.h"
#include "serverinstall.h"
#include "sqllogview.h"
#include "stageheader.h"
#include "stagehints.h"
#include "stepcaption.h"

#include <QInputDialog>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <utility>

namespace idem {

StageDirector::StageDirector(const Stage& stage, QObject* parent)
    : QObject(parent),
      stage_(stage),
      playback_(*stage.playback),
      laterTimer_(new QTimer(this)),
      firstStepTimer_(new QTimer(this)) {
    laterTimer_->setSingleShot(true);
    laterTimer_->setTimerType(Qt::PreciseTimer);
    laterTimer_->setInterval(kFrameMs);
    connect(laterTimer_, &QTimer::timeout, this, &StageDirector::showLaterPart);
    firstStepTimer_->setSingleShot(true);
    firstStepTimer_->setTimerType(Qt::PreciseTimer);
    firstStepTimer_->setInterval(kFrameMs);
    connect(firstStepTimer_, &QTimer::timeout, this, [this] { takeFirstStep(); });
    playback_.setLongSeekHandler([this](int target) { seekInBackground(target); });
    connect(&playback_, &Playback::advanced, this,
            [this](qsizetype from, qsizetype to) { showStep(from, to, false); });
    connect(&playback_, &Playback::rewound, this, &StageDirector::redraw);
    // Said where the job's progress is: the keys were heard.
    connect(&playback_, &Playback::queued, this, [this](int target) {
        queuedSaid_ = target >= playback_.length() ? tr("Then to the end (step %1).").arg(target)
                                                   : tr("Then to step %1.").arg(target);
        stage_.status->showMessage(queuedSaid_);
    });
    connect(&playback_, &Playback::loaded, this, [this] {
        stage_.live->setEffectTable(
            stagehints::effectTable(playback_.scenario()->info(), playback_.finalSummary()));
        stage_.live->sqlLog()->setSessionSettings(playback_.finalSummary().sessionSettings);
        showStep(0, playback_.played()->eventCount(), true);
    });
    connect(stage_.compare, &CompareView::compareRequested, this,
            &StageDirector::compareInBackground);
    stage_.compare->letGoThrough(playback_.sweeper());
    connect(stage_.playbackBar, &PlaybackBar::playingChanged, this, &StageDirector::updateCaption);
}

void StageDirector::fireFromPanel() {
    // View → Predict first: the class commits to a verdict before the run.
    if (predictFirst_ && !stage_.lessons->isActive()) {
        QStringList choices;
        for (const QString& id : verdictIds()) choices << verdictName(id);
        QInputDialog ask(stage_.tabs->window());
        ask.setObjectName(QStringLiteral("predictDialog"));
        ask.setWindowTitle(tr("Predict first"));
        ask.setLabelText(tr("What will the verdict be? The outcome stays hidden until the end."));
        ask.setComboBoxItems(choices);
        // The verdict on screen is the previous run's: hidden while the class
        // answers, lest it answer for them.
        const bool wasOpen = predictionOpen_;
        emit outcomeWithheldChanged(true);
        if (ask.exec() != QDialog::Accepted) {
            if (!wasOpen)
                emit outcomeWithheldChanged(false);
            return;
        }
        prediction_ = verdictIds().value(choices.indexOf(ask.textValue()));
        predictionOpen_ = true;
        emit outcomeWithheldChanged(true);
    } else if (predictionOpen_) {
        predictionOpen_ = false;
        prediction_.clear();
        emit outcomeWithheldChanged(false);
    }
    fireInBackground(stage_.firePanel->config());
}

void StageDirector::replaceJob() {
    replacing_ = true;
    stage_.jobs->cancelNow();
    replacing_ = false;
}

void StageDirector::fireInBackground(const RunConfig& config) {
    emit shownTraceChanged(std::exchange(pendingTrace_, {}));
    const Scenario* scenario = findScenario(config.scenario);
    // In the window's words: the fire panel's labels, not the command line's options.
    const QString problem = scenario ? FirePanel::problemText(config, scenario->info())
                                     : tr("Unknown scenario %1").arg(config.scenario);
    if (!problem.isEmpty()) {
        emit errorRaised(tr("Cannot run this configuration"), problem);
        return;
    }
    if (!confirmLarge(config)) {
        stage_.status->showMessage(tr("Not run: the run on screen is unchanged."));
        return;
    }
    // A workbench run's handler lives in a JavaScript engine of the thread
    // that starts the run, and its steps must be taken there: on this
    // thread, at once (a counterexample is a few attempts long).
    if (!config.workbench.isEmpty()) {
        QString error;
        if (fire(config, &error))
            emit playbackTabWanted();
        else
            emit errorRaised(tr("Cannot run this configuration"), error);
        return;
    }
    startFire(config, scenario, {});
}

void StageDirector::fireForLesson(const RunConfig& config, Arrived arrived) {
    emit shownTraceChanged({});
    const Scenario* scenario = findScenario(config.scenario);
    if (!scenario) {
        arrived(false, tr("Unknown scenario %1").arg(config.scenario), RunFailure::BadInput);
        return;
    }
    startFire(config, scenario, std::move(arrived));
}

void StageDirector::startFire(const RunConfig& config, const Scenario* scenario, Arrived arrived) {
    replaceJob();
    stage_.playbackBar->pause();
    struct Fired {
        Playback::Measure measured;
        std::shared_ptr<PagingRuns> paging;
    };
    auto fired = std::make_shared<Fired>();
    const bool paging = scenario->info().stage == ScenarioInfo::Stage::Paging;
    stage_.jobs->start(
        tr("Running %1").arg(FirePanel::describe(config)),
        [fired, config, scenario, paging](RunController::Progress& p) {
            // A live server starts in this worker; the window says how far.
            const QString server = backendName(config.backend);
            auto serverProgress = [&p, server](const QString& stage) {
                if (stage == QLatin1String("initialising"))
                    p.setNote(
                        tr("Starting %1… (first start initialises it: a few seconds)").arg(server));
                else if (stage == QLatin1String("ready"))
                    p.setNote(tr("%1 is running").arg(server));
                else
                    p.setNote(tr("Starting %1…").arg(server));
            };
            fired->measured = Playback::prepare(config, *scenario, &p.cancel, &p.done,
                                                config.backend == QLatin1String("sqlite")
                                                    ? Playback::ServerProgress()
                                                    : serverProgress);
            if (paging && fired->measured.ok)
                fired->paging = runPagingStrategies(*scenario, config, &p.cancel);
        },
        [this, fired, config, scenario, arrived = std::move(arrived)](bool cancelled) {
            if (cancelled || fired->measured.cancelled) {
                if (!replacing_) {
                    stage_.status->showMessage(
                        tr("Stopped before the end: the run on screen is unchanged."));
                }
                if (arrived)
                    arrived(false, QString(), RunFailure::None);
                return;
            }
            QString error;
            const FirstStep first = arrived                         ? FirstStep::None
                                    : stage_.jobs->isFinishingNow() ? FirstStep::Now
                                                                    : FirstStep::Later;
            const bool shown = fired->measured.ok && showFired(config, *scenario, fired->measured,
                                                               fired->paging.get(), &error, first);
            fired->measured.ready.reset();  // Playback holds it now, or nobody does
            if (!shown && !fired->measured.ok)
                error = fired->measured.error;
            if (arrived) {
                const RunFailure failure = shown                ? RunFailure::None
                                           : fired->measured.ok ? RunFailure::BadInput
                                           : fired->measured.failure == RunFailure::None
                                               ? RunFailure::BadInput
                                               : fired->measured.failure;
                arrived(shown, error, failure);
                return;
            }
            if (!shown) {
                emit errorRaised(tr("Cannot run this configuration"), error);
                return;
            }
            // Fired from Compare or Experiment: the run is what the room wants to see.
            emit playbackTabWanted();
        });
}

bool StageDirector::confirmLarge(const RunConfig& config) {
    const Scenario* scenario = findScenario(config.scenario);
    if (!scenario)
        return true;  // refused as unknown before anything runs
    const CostEstimate cost = estimateCost(config, scenario->info());
    if (!cost.overLimit())
        return true;
    const QLocale locale;
    QMessageBox box(
        QMessageBox::Question, tr("A very large run"),
        tr("This run is estimated at about %1 SQL statements (%2 intents × %3 "
           "deliveries × %4 tries × %5 statements), above the limit of %6. It may "
           "take minutes; Esc stops it. Run it anyway?")
            .arg(locale.toString(cost.statements()), locale.toString(cost.intents),
                 locale.toString(cost.deliveries), locale.toString(cost.tries),
                 locale.toString(cost.perAttempt), locale.toString(kMaxEstimatedStatements)),
        QMessageBox::Yes | QMessageBox::No, stage_.tabs->window());
    box.setObjectName(QStringLiteral("largeRunQuestion"));
    box.setDefaultButton(QMessageBox::No);
    return box.exec() == QMessageBox::Yes;
}

bool StageDirector::fire(const RunConfig& config, QString* error, RunFailure* failure) {
    const Scenario* scenario = findScenario(config.scenario);
    if (!scenario) {
        *error = tr("Unknown scenario %1").arg(config.scenario);
        return false;
    }
    const QString problem = FirePanel::problemText(config, scenario->info());
    if (!problem.isEmpty()) {
        *error = problem;
        return false;
    }
    replaceJob();
    const Playback::Measure measured = Playback::measure(config, *scenario);
    if (!measured.ok) {
        *error = measured.error;
        if (failure)
            *failure = measured.failure;
        return false;
    }
    std::shared_ptr<PagingRuns> paging;
    if (scenario->info().stage == ScenarioInfo::Stage::Paging)
        paging = runPagingStrategies(*scenario, config);
    const bool shown = showFired(config, *scenario, measured, paging.get(), error, FirstStep::Now);
    stage_.jobs->finishNow();  // a comparison the fire started, when Compare is on screen
    return shown;
}

bool StageDirector::showFired(const RunConfig& config, const Scenario& scenario,
                              const Playback::Measure& measured, const PagingRuns* paging,
                              QString* error, FirstStep first) {
    firstStepTimer_->stop();
    ScenarioPicker* picker = stage_.picker;
    FirePanel* firePanel = stage_.firePanel;
    if (picker->currentScenario() != config.scenario) {
        const QSignalBlocker block(picker);
        picker->selectScenario(config.scenario);
        firePanel->setScenario(scenario);
    }
    firePanel->setConfig(config);
    stage_.explanation->showFor(config);
    stage_.header->setSettings(FirePanel::describe(config));
    stage_.live->setScenario(scenario.info(), config.variant);
    stage_.compare->setInput(scenario, config);
    stage_.experiment->setScenario(scenario);
    QTabWidget* tabs = stage_.tabs;
    PaginationView* pagination = stage_.pagination;
    // Leaving pagination goes back to Live (hiding the tab first would land
    // on whichever tab Qt picks).
    if (!paging && tabs->currentWidget() == pagination)
        tabs->setCurrentWidget(stage_.live);
    tabs->setTabVisible(tabs->indexOf(pagination), paging != nullptr);
    if (paging) {
        pagination->show(*paging);
        tabs->setCurrentWidget(pagination);
    }
    // Pagination judges three strategies: the outcome lists them all.
    stage_.outcome->setAlsoJudged(paging ? pagination->verdicts()
                                         : QList<QPair<QString, QString>>{});
    stage_.playbackBar->pause();
    if (!playback_.install(config, scenario, measured, error))
        return false;
    // Something happens at once: the first step is on screen, and with
    // auto-play the run goes on at the chosen pace. After a worker the
    // hand-over and the window's repaint of the new run fill a frame: the
    // step waits for the next.
    if (first == FirstStep::Later)
        firstStepTimer_->start();
    else if (first == FirstStep::Now)
        takeFirstStep(true);
    return true;
}

void StageDirector::takeFirstStep(bool waited) {
    firstStepTimer_->stop();
    // Someone stepped, played, or sent the run to a worker (a seek, a save)
    // meanwhile: theirs is the next move. A comparison the hand-over started
    // works on runs of its own.
    const PlayedRun* played = playback_.played();
    if (!played || played->position() != 0)
        return;
    PlaybackBar* bar = stage_.playbackBar;
    // On a server the step is a worker's, which pauses the bar: a play
    // already asked for goes on after it.
    const bool playing = bar->isPlaying();
    // A fire that is waited for (tests, `idemlab shot`) steps here too,
    // even on a server.
    if (waited)
        playback_.seek(1);
    else
        playback_.stepForward();
    if (bar->autoPlay() || playing)
        bar->play();
}

void StageDirector::redraw() {
    // While a job holds the run the views keep what they show; the job's
    // hand-over draws them again.
    if (const PlayedRun* played = playback_.played()) {
        showStep(played->lastStepBegin(), played->eventCount(), true);
    } else if (playback_.isLent()) {
        narrationStale_ = true;
        redrawAfterJob_ = true;
    }
}

void StageDirector::showStep(qsizetype from, qsizetype to, bool rebuild) {
    // After a long seek the narrator was brought up to date in the worker.
    narrationStale_ = narrationStale_ || (rebuild && !narratorCaughtUp_);
    const PlayedRun* played = playback_.played();
    if (!played) {
        // A job holds the run: the views keep what they show until it is back.
        if (playback_.isLent())
            redrawAfterJob_ = true;
        return;
    }
    // A prediction is answered when the run reaches its end.
    if (predictionOpen_ && played->atEnd()) {
        predictionOpen_ = false;
        emit outcomeWithheldChanged(false);
    }
    const Run* run = &played->run();
    // Only the latest step flashes, even after a jump over many steps.
    const qsizetype fresh = std::max(from, played->lastStepBegin());
    // A job's hand-over leaves the SQL log, the tables and the sequence
    // diagram for a frame later.
    const bool later = viewsCaughtUp_ != nullptr;
    if (later) {
        const bool scheduled = laterDue_.due;
        laterDue_ = {true, to, fresh, rebuild || (scheduled && laterDue_.rebuild)};
        laterTimer_->start();
    } else {
        laterDue_.due = false;  // drawn with this step
    }
    // What is still open is the run's as it stands now: only a step shown as
    // it is taken (not one a worker caught up on) reads through its session.
    SqlConnection* writer = to == run->trace().size() ? run->openWriter() : nullptr;
    stage_.live->showStep(run->trace(), run->config().backend, played->reader(), writer, from, to,
                          fresh, rebuild, viewsCaughtUp_, later);
    stage_.live->showRedis(run->trace().events(), from, to, rebuild,
                           run->config().redis != QLatin1String("off"));
    QTabWidget* tabs = stage_.tabs;
    PaginationView* pagination = stage_.pagination;
    if (tabs->isTabVisible(tabs->indexOf(pagination)))
        pagination->followRun(run->trace().events(), to);
    const QStringList& internalLanes = run->scenario().info().internalLanes;
    const QList<TraceEvent>& events = run->trace().events();
    if (rebuild) {
        repeatWrote_ = OutcomePanel::repeatWrote(events, 0, to, internalLanes);
    } else {
        repeatWrote_ = repeatWrote_ || OutcomePanel::repeatWrote(events, from, to, internalLanes);
    }
    const bool end = played->atEnd();
    const Summary live = end ? Summary() : played->liveSummary();
    const Summary& summary = end ? playback_.finalSummary() : live;
    OutcomePanel* outcome = stage_.outcome;
    outcome->showSummary(summary, end, repeatWrote_);
    if (end && !summary.alerts.isEmpty() && played->reader())
        outcome->setAlertCountsAtEnd(alertCountsAtEnd(*played->reader()));
    stage_.header->setAlert(outcome->alertText());
    updateCaption();
}

void StageDirector::showLaterPart() {
    // While a job runs, the run is the worker's: its hand-over restarts this.
    const PlayedRun* played = playback_.played();
    if (!laterDue_.due || !played)
        return;
    // The SQL log and the tables in this frame, the sequence diagram in the
    // next: each of them and its repaint fit one.
    if (stage_.live->hasLater()) {
        stage_.live->showLater(played->reader(), played->writer());
        laterTimer_->start();
        return;
    }
    showLaterNow();
}

void StageDirector::showLaterNow() {
    const PlayedRun* played = playback_.played();
    if (!laterDue_.due || !played)
        return;
    laterDue_.due = false;
    laterTimer_->stop();
    stage_.live->showLater(played->reader(), played->writer());
    stage_.live->showSequence(played->run().trace(), laterDue_.to, laterDue_.fresh,
                              laterDue_.rebuild);
}

void StageDirector::updateCaption() {
    // While a job holds the run the caption stays as it is.
    if (playback_.isLent())
        return;
    StepCaption* caption = stage_.caption;
    const PlayedRun* played = playback_.played();
    StepNarrator* narrator = playback_.narrator();
    if (!played || !narrator) {
        caption->setCaption(tr("Pick a scenario and press F5 to fire."));
        return;
    }
    QString told;
    if (!prediction_.isEmpty() && !predictionOpen_ && playback_.atEnd()) {
        const QString verdict = playback_.finalSummary().verdictId();
        told = (verdict == prediction_ ? tr("Predicted %1: right.")
                                       : tr("Predicted %1; the database says %2."))
                   .arg(verdictName(prediction_), verdictName(verdict)) +
               QLatin1Char(' ');
    } else if (predictionOpen_) {
        told = tr("Predicted %1 — the verdict shows at the end.").arg(verdictName(prediction_)) +
               QLatin1Char(' ');
    }
    const QList<TraceEvent>& events = played->run().trace().events();
    const ScenarioInfo* info = &played->run().scenario().info();
    const StepNarrator::Told narrated =
        narrator->narrate(events, played->lastStepBegin(), played->eventCount(), narrationStale_,
                          [&events, info](qsizetype from, qsizetype to) {
                              return StepCaption::describe(events, from, to, info);
                          });
    narrationStale_ = false;
    if (narrated.fromStart)
        caption->startOver();
    const QString what = told + narrated.text;
    QString hint;
    if (stage_.lessons->isActive()) {
        hint = tr("Page Down: next frame");
    } else if (stage_.playbackBar->isPlaying()) {
        hint = tr("Space pauses");
    } else if (played->atEnd()) {
        hint = tr("the end · Home starts again");
    } else {
        hint = tr("→ next · Space plays");
    }
    caption->setCaption(what, hint);
}

}  // namespace idem
