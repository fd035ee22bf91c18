#include "lessonplayer.h"

#include "lessonbook.h"
#include "lessonpanel.h"
#include "livestage.h"
#include "locksview.h"
#include "mainwindow.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "sequenceview.h"
#include "statemachineview.h"
#include "tableview.h"

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
    const std::optional<RunConfig> run = playableFrameConfig(lesson_, frame);
    runs_.insert(frame, run);
    return run;
}

void LessonPlayer::enterFrame(int frame) {
    player_.stop();
    frame_ = frame;
    answerShown_ = false;
    const LessonFrame& f = lesson_.frames.at(frame);
    const std::optional<RunConfig> shown = runOf(frame);
    // Once a prediction about a run was answered, the later frames about the
    // same run show its verdict: it is no longer hidden from the class.
    const QByteArray key = shown ? configKey(*shown) : QByteArray();
    const bool known = shown && revealedAt_.contains(key) && revealedAt_.value(key) < frame;
    window_->setOutcomeWithheld(!f.revealOutcome && !known);
    fireError_.clear();
    fireFailure_ = RunFailure::None;
    notice_.clear();
    const std::optional<MissingServer> missing = frameMissingServer(lesson_, frame);
    if (missing && !shown) {
        enterFrameWithoutServer(*missing);
    } else if (const std::optional<RunConfig> config = shown) {
        if (missing)
            notice_ = LessonPanel::recordedRunText(*missing);
        Playback& playback = window_->playback();
        if (f.load || !playback.isLoaded() || !sameConfig(playback.config(), *config)) {
            // The file was checked when it was read; what is left to fail is the machine.
            if (!window_->fire(*config, &fireError_, &fireFailure_) &&
                fireFailure_ == RunFailure::None)
                fireFailure_ = RunFailure::BadInput;
        }
        const int position = pausePosition(frame);
        if (position >= 0)
            playback.seek(position);
    }
    highlight();
    show();
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

// Where the frame points is drawn, not only named: the table framed and in
// front, the state ringed, the lane's lifeline on a band.
void LessonPlayer::highlight() {
    const LessonHighlight h = active_ ? lesson_.frames.at(frame_).highlight : LessonHighlight{};
    LiveStage* stage = window_->liveStage();
    stage->stateView()->setPointedState(h.state);
    stage->sequenceView()->setPointedLane(h.lane);
    QTabWidget* tabs = stage->tableTabs();
    for (int i = 0; i < tabs->count(); ++i) {
        auto* table = qobject_cast<DatabaseTableView*>(tabs->widget(i));
        if (!table)
            continue;
        table->setPointed(!h.table.isEmpty() && table->table() == h.table);
        if (table->isPointed())
            tabs->setCurrentIndex(i);
    }
    // The Locks view after a table: of the two, the locks are the lesson.
    if (h.locks && tabs->indexOf(stage->locksView()) >= 0)
        tabs->setCurrentWidget(stage->locksView());
}

void LessonPlayer::next() {
    if (!active_)
        return;
    const LessonFrame& f = lesson_.frames.at(frame_);
    // Without its server and its recording a frame has no run to answer
    // from: it only goes on.
    if (f.question && !answerShown_ && runOf(frame_)) {
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
    player_.stop();
    Playback& playback = window_->playback();
    if (runOf(frame_) && playback.isLoaded() && !playback.atEnd())
        playback.toEnd();
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
    window_->playback().seek(from);
    player_.start();
}

void LessonPlayer::playStep() {
    Playback& playback = window_->playback();
    if (playback.position() >= playTo_ || playback.atEnd()) {
        player_.stop();
        highlight();
        return;
    }
    playback.stepForward();
}

void LessonPlayer::retell() {
    if (active_)
        show();
}

}  // namespace idem
