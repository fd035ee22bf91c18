#include "lessonplayer.h"

#include "handlereditor.h"
#include "lessonbook.h"
#include "lessonpanel.h"
#include "livestage.h"
#include "locksview.h"
#include "mainwindow.h"
#include "playback.h"
#include "playedrun.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "sequenceview.h"
#include "stagedirector.h"
#include "statemachineview.h"
#include "tableview.h"
#include "workbenchview.h"

#include <QJsonDocument>
#include <QTabWidget>

namespace idem {

namespace {

// How long each step shows when Space plays a frame.
constexpr int kPlayIntervalMs = 350;

bool sameConfig(const RunConfig& a, const RunConfig& b) {
    return a.toJson() == b.toJson();
}

QByteArray configKey(const RunConfig& c) {
    return QJsonDocument(c.toJson()).toJson(QJsonDocument::Compact);
}

// A run whose steps wait for a server (or play one's recording) goes to its
// pause in a worker, as every step of it does (Playback::stepsInWorker).
bool stepsAway(const RunConfig& c) {
    return !c.backend.isEmpty() && c.backend != QLatin1String("sqlite");
}

// In a worker: steps the run on screen to the frame's pause, as runToPause
// counts it, and returns that position (-1: the run never gets there).
int stepToPause(PlayedRun& run, const PausePoint& pause, RunController::Progress& p) {
    switch (pause.kind) {
        case PausePoint::Kind::Start:
            run.advance(0, &p.cancel, &p.done);
            return 0;
        case PausePoint::Kind::Step:
            run.advance(pause.step, &p.cancel, &p.done);
            return run.position() == pause.step ? pause.step : -1;
        case PausePoint::Kind::End:
            run.advance(run.length(), &p.cancel, &p.done);
            return run.length();
        case PausePoint::Kind::Event:
            break;
    }
    // The first step that records a matching event. When one is on screen
    // already it may be an earlier step's: the run starts again to find it.
    const auto matchFrom = [&](qsizetype& seen) {
        const QList<TraceEvent>& events = run.run().trace().events();
        for (; seen < events.size(); ++seen)
            if (pause.matches(events.at(seen)))
                return true;
        return false;
    };
    qsizetype seen = 0;
    if (matchFrom(seen)) {
        if (run.position() == 0)
            return 0;  // what the run set up matches
        run.advance(0, &p.cancel, &p.done);
        seen = 0;
        if (matchFrom(seen))
            return 0;
    }
    p.total = run.length();
    while (!run.atEnd() && !p.cancel) {
        run.advance(run.position() + 1, &p.cancel, &p.done);
        if (matchFrom(seen))
            return run.position();
    }
    return -1;
}

}  // namespace

LessonPlayer::LessonPlayer(MainWindow* window, LessonPanel* panel)
    : QObject(window), window_(window), panel_(panel) {
    player_.setInterval(kPlayIntervalMs);
    connect(&player_, &QTimer::timeout, this, &LessonPlayer::playStep);
}

void LessonPlayer::start(const Lesson& lesson, int frame) {
    lesson_ = lesson;
    pauses_.clear();
    runs_.clear();
    revealedAt_.clear();
    active_ = true;
    emit activeChanged(true);
    enterFrame(std::clamp(frame, 0, int(lesson_.frames.size()) - 1));
}

void LessonPlayer::stop() {
    if (!active_)
        return;
    player_.stop();
    ++ticket_;  // a frame on its way goes nowhere now
    arriving_ = false;
    forgetWanted();
    active_ = false;
    highlight();  // points nowhere now
    panel_->clear();
    emit activeChanged(false);
    window_->setOutcomeWithheld(false);
}

int LessonPlayer::pausePosition(int frame) {
    if (const auto it = pauses_.constFind(frame); it != pauses_.constEnd())
        return *it;
    const std::optional<RunConfig> config = runOf(frame);
    // On a server the pause is found on the way there, in a worker.
    if (config && stepsAway(*config))
        return -1;
    int position = -1;
    if (config) {
        Run run(*config, *findScenario(config->scenario));
        QString error;
        if (run.start(&error))
            position = std::max(0, runToPause(run, lesson_.frames.at(frame).pause));
    }
    pauses_.insert(frame, position);
    return position;
}

std::optional<RunConfig> LessonPlayer::runOf(int frame) {
    if (const auto it = runs_.constFind(frame); it != runs_.constEnd())
        return *it;
    // A challenge's run is found in a worker first (searchThenEnter).
    if (frameAwaitsSearch(lesson_, frame))
        return std::nullopt;
    const std::optional<RunConfig> run = playableFrameConfig(lesson_, frame);
    runs_.insert(frame, run);
    return run;
}

void LessonPlayer::forgetWanted() {
    revealWanted_ = false;
    nextsWanted_ = 0;
    playWanted_ = false;
}

void LessonPlayer::enterFrame(int frame, bool refire) {
    player_.stop();
    // Whatever was on its way to another frame is not any more.
    ++ticket_;
    // So is a step Space's play or a reveal sent to a worker: the class has
    // moved on, and the frame's own run starts from where it is left.
    if (arriving_ || window_->director()->isHeld())
        window_->jobs()->cancelNow();
    arriving_ = false;
    forgetWanted();
    frame_ = frame;
    answerShown_ = false;
    const LessonFrame& f = lesson_.frames.at(frame);
    const bool searching = frameAwaitsSearch(lesson_, frame);
    const std::optional<RunConfig> shown = runOf(frame);
    // Once a prediction about a run was answered, the later frames about the
    // same run show its verdict: it is no longer hidden from the class;
    // unless the frame asks a question of its own, which the outcome's
    // counts would answer before the class does.
    const QByteArray key = shown ? configKey(*shown) : QByteArray();
    const bool known = shown && revealedAt_.contains(key) && revealedAt_.value(key) < frame;
    window_->setOutcomeWithheld(!f.revealOutcome && (!known || f.question));
    fireError_.clear();
    fireFailure_ = RunFailure::None;
    notice_.clear();
    const std::optional<MissingServer> missing = frameMissingServer(lesson_, frame);
    if (searching) {
        searchThenEnter(frame);
    } else if (missing && !shown) {
        enterFrameWithoutServer(*missing);
    } else if (const std::optional<RunConfig> config = shown) {
        if (missing)
            notice_ = LessonPanel::recordedRunText(*missing);
        Playback& playback = window_->playback();
        const bool fire =
            refire || f.load || !playback.isLoaded() || !sameConfig(playback.config(), *config);
        // A run to fire, or a pause not found yet, is a run to the pause
        // (tens of ms on SQLite too): a worker's, the window answering.
        if (stepsAway(*config) || fire || !pauses_.contains(frame)) {
            arriveInBackground(frame, *config, fire);
        } else {
            // The file was checked when it was read; what is left to fail is the machine.
            if (fire && !window_->fire(*config, &fireError_, &fireFailure_) &&
                fireFailure_ == RunFailure::None)
                fireFailure_ = RunFailure::BadInput;
            const int position = pausePosition(frame);
            if (position >= 0)
                playback.seek(position);
        }
    }
    highlight();
    showWorkbench();
    show();
}

// A frame that loads a challenge's run: the attack on its starter finds it
// (as Check would) in a worker, the frame's words on screen meanwhile; then
// the frame is entered again, its run known.
void LessonPlayer::searchThenEnter(int frame) {
    arriving_ = true;
    const quint64 ticket = ticket_;
    auto error = std::make_shared<QString>();
    const Lesson lesson = lesson_;
    const bool started = window_->jobs()->start(
        tr("Finding the smallest run that breaks the starter"),
        [lesson, frame, error](RunController::Progress& p) {
            findFrameRun(lesson, frame, error.get(), &p.cancel);
        },
        [this, frame, ticket, error](bool cancelled) {
            if (ticket != ticket_)
                return;
            arriving_ = false;
            if (cancelled || !error->isEmpty()) {
                forgetWanted();
                fireError_ = cancelled ? QString() : *error;
                fireFailure_ = cancelled ? RunFailure::None : RunFailure::BadInput;
                show();
                return;
            }
            const bool reveal = revealWanted_;
            const int nexts = nextsWanted_;
            enterFrame(frame);
            revealWanted_ = reveal;
            nextsWanted_ = nexts;
        });
    if (!started) {
        // Another job holds the worker: found here (the starter's check).
        arriving_ = false;
        QString why;
        if (!findFrameRun(lesson_, frame, &why)) {
            fireError_ = why;
            fireFailure_ = RunFailure::BadInput;
            return;
        }
        enterFrame(frame);
    }
}

// A frame on the Workbench page shows it, with the challenge open, the
// starter in the editor and Check pressed as the frame says; the frame after
// it that is not brings the stage back.
void LessonPlayer::showWorkbench() {
    WorkbenchView* workbench = window_->workbenchView();
    const std::optional<LessonWorkbench>& w = lesson_.frames.at(frame_).workbench;
    QTabWidget* tabs = window_->tabs();
    if (!w) {
        if (tabs->currentWidget() == workbench)
            tabs->setCurrentWidget(window_->liveView());
        return;
    }
    workbench->openChallenge(w->challenge);
    if (w->starter)
        workbench->showStarter();
    tabs->setCurrentWidget(workbench);
    // The class writes here (Page Up and Page Down still go through the frames).
    workbench->editor()->setFocus(Qt::OtherFocusReason);
    if (w->check && !workbench->isChecking()) {
        // On SQLite, where a lesson finds its challenge runs too.
        workbench->chooseDatabase(QStringLiteral("sqlite"), QString());
        workbench->check();
    }
}

// The frame's words are on screen at once; its run follows when the
// worker has it at the pause (a first server start takes seconds, each step
// on a server up to a few hundred ms).
void LessonPlayer::arriveInBackground(int frame, const RunConfig& config, bool fire) {
    arriving_ = true;
    const quint64 ticket = ticket_;
    if (!fire) {
        goToPause(frame, ticket);
        return;
    }
    window_->director()->fireForLesson(
        config, [this, frame, ticket](bool ok, const QString& error, RunFailure failure) {
            if (ticket != ticket_)
                return;
            if (!ok) {
                // Stopped (Escape) says nothing; a run that could not run says why.
                arriving_ = false;
                forgetWanted();
                fireError_ = error;
                fireFailure_ = error.isEmpty() ? RunFailure::None : failure;
                show();
                return;
            }
            goToPause(frame, ticket);
        });
}

void LessonPlayer::goToPause(int frame, quint64 ticket) {
    StageDirector* director = window_->director();
    bool started = false;
    if (const auto known = pauses_.constFind(frame); known != pauses_.constEnd()) {
        const int target = *known;
        started = window_->playback().position() != target &&
                  director->holdRun(
                      tr("Going to the frame's pause"),
                      [target](PlayedRun& run, RunController::Progress& p) {
                          p.total = std::abs(target - run.position());
                          run.advance(target, &p.cancel, &p.done);
                      },
                      [this, ticket](bool) { arrivedAt(ticket); });
    } else {
        auto found = std::make_shared<int>(-1);
        const PausePoint pause = lesson_.frames.at(frame).pause;
        started = director->holdRun(
            tr("Going to the frame's pause"),
            [pause, found](PlayedRun& run, RunController::Progress& p) {
                *found = stepToPause(run, pause, p);
            },
            [this, frame, ticket, found](bool cancelled) {
                // Never reached, the frame shows the run's start, as a
                // frame played here does (pausePosition).
                if (ticket == ticket_ && !cancelled)
                    pauses_.insert(frame, std::max(0, *found));
                arrivedAt(ticket);
            });
    }
    if (!started)
        arrivedAt(ticket);
}

void LessonPlayer::arrivedAt(quint64 ticket) {
    if (ticket != ticket_ || !arriving_)
        return;
    arriving_ = false;
    highlight();  // the run's own tables are on screen now
    show();
    // The keys pressed on the way: the reveal, then the frames after it, or a play.
    const bool reveal = revealWanted_;
    const int nexts = nextsWanted_;
    const bool play = playWanted_;
    forgetWanted();
    if (reveal)
        revealAnswer();
    // Each goes on from where the one before left the lesson (a frame on
    // its way again keeps the rest as wanted).
    for (int i = 0; i < nexts; ++i) next();
    if (play && nexts == 0)
        this->play();
}

void LessonPlayer::finishArriving() {
    RunController* jobs = window_->jobs();
    while (arriving_ && jobs->isBusy()) jobs->finishNow();
}

// A frame on a server this machine lacks plays the run recorded with the
// lesson (runOf). Without a playable recording it says which database and
// package it needs, the verdict of the run on screen (another frame's)
// stays hidden, and Page Down goes on.
void LessonPlayer::enterFrameWithoutServer(const MissingServer& missing) {
    window_->setOutcomeWithheld(true);
    notice_ = LessonPanel::missingServerText(missing);
}

void LessonPlayer::show() {
    QString answer;
    const LessonFrame& f = lesson_.frames.at(frame_);
    if (answerShown_ && f.question)
        answer = lessonAnswer(f.question->answer, window_->playback().finalSummary());
    panel_->showFrame(lesson_, frame_, window_->language(), answer, notice_,
                      runOf(frame_).has_value());
}

// Where the frame points is drawn, not only named, and in front: the Live
// page, the table framed and on top, the state ringed, the lane's lifeline
// on a band and in sight.
void LessonPlayer::highlight() {
    const LessonHighlight h = active_ ? lesson_.frames.at(frame_).highlight : LessonHighlight{};
    LiveStage* stage = window_->liveStage();
    stage->stateView()->setPointedState(h.state);
    stage->sequenceView()->setPointedLane(h.lane);
    QTabWidget* tabs = stage->tableTabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (auto* table = qobject_cast<DatabaseTableView*>(tabs->widget(i)))
            table->setPointed(!h.table.isEmpty() && table->table() == h.table);
    }
    stage->setPointed(h.table, h.locks, h.sqlLog);
    if (!h.isEmpty())
        window_->tabs()->setCurrentWidget(window_->liveView());
}

void LessonPlayer::next() {
    if (!active_)
        return;
    const LessonFrame& f = lesson_.frames.at(frame_);
    // Without its server and its recording a frame has no run to answer
    // from: it only goes on.
    if (f.question && !answerShown_ && runOf(frame_)) {
        // A second Page Down while the run is on its way goes on after the
        // answer is shown, as it would once the run were there.
        if (arriving_ && revealWanted_)
            ++nextsWanted_;
        else
            revealAnswer();
        return;
    }
    if (frame_ + 1 < lesson_.frames.size())
        enterFrame(frame_ + 1);
}

// The answer is read from the run's end: it is revealed there, with the run
// shown as far as it went and its verdict no longer hidden, never over a
// picture of step 0 that does not show it yet.
void LessonPlayer::revealAnswer() {
    if (arriving_) {
        revealWanted_ = true;  // once the run is there
        return;
    }
    player_.stop();
    Playback& playback = window_->playback();
    // A step Space's play or a long seek sent to a worker ends first: the
    // run cannot be sent to its end while a job holds it.
    while (window_->director()->isHeld()) window_->jobs()->finishNow();
    if (const std::optional<RunConfig> config = runOf(frame_);
        config && playback.isLoaded() && !playback.atEnd()) {
        if (stepsAway(*config)) {
            playback.requestSeek(playback.length());
        } else {
            playback.toEnd();
        }
    }
    window_->setOutcomeWithheld(false);
    answerShown_ = true;
    if (const std::optional<RunConfig> config = runOf(frame_)) {
        const QByteArray key = configKey(*config);
        if (!revealedAt_.contains(key) || revealedAt_.value(key) > frame_)
            revealedAt_.insert(key, frame_);
    }
    show();
}

void LessonPlayer::back() {
    if (!active_)
        return;
    if (answerShown_) {
        // As the frame was before the reveal: at its pause, the answer hidden.
        enterFrame(frame_);
        return;
    }
    if (frame_ > 0)
        enterFrame(frame_ - 1);
}

// From the previous frame's pause (when it shows the same run) or the
// start, step by step to this frame's pause.
void LessonPlayer::play() {
    if (!active_)
        return;
    if (arriving_) {
        playWanted_ = true;  // once the run is at the frame's pause
        return;
    }
    playTo_ = pausePosition(frame_);
    if (playTo_ < 0)
        return;
    int from = 0;
    const std::optional<RunConfig> here = runOf(frame_);
    if (frame_ > 0 && !lesson_.frames.at(frame_).load) {
        const std::optional<RunConfig> before = runOf(frame_ - 1);
        if (before && here && sameConfig(*before, *here))
            from = std::max(0, std::min(pausePosition(frame_ - 1), playTo_));
    }
    if (here && stepsAway(*here))
        window_->playback().requestSeek(from);
    else
        window_->playback().seek(from);
    player_.start();
}

void LessonPlayer::playStep() {
    // A step on a server is a worker's: the next waits for it.
    if (window_->director()->isHeld())
        return;
    Playback& playback = window_->playback();
    if (playback.position() >= playTo_ || playback.atEnd()) {
        player_.stop();
        highlight();
        return;
    }
    playback.stepForward();
}

void LessonPlayer::replay() {
    if (active_)
        enterFrame(frame_, true);
}

bool LessonPlayer::stageAtFrame() {
    const std::optional<RunConfig> config = runOf(frame_);
    if (!config)
        return true;  // nothing of its own to show
    const Playback& playback = window_->playback();
    if (!playback.isLoaded() || playback.isLent() || !sameConfig(playback.config(), *config))
        return false;
    if (answerShown_)
        return playback.atEnd();
    const auto pause = pauses_.constFind(frame_);
    return pause != pauses_.constEnd() && playback.position() == *pause;
}

void LessonPlayer::restoreFrame() {
    if (!active_)
        return;
    player_.stop();
    if (arriving_)
        return;
    window_->jobs()->cancelNow();
    if (stageAtFrame())
        return;
    if (answerShown_ && runOf(frame_) && sameConfig(window_->playback().config(), *runOf(frame_)))
        revealAnswer();
    else
        enterFrame(frame_);
}

void LessonPlayer::retell() {
    if (active_)
        show();
}

}  // namespace idem
