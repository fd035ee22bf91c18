#include "lessonplayer.h"

#include "lessonbook.h"
#include "lessonpanel.h"
#include "livestage.h"
#include "mainwindow.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
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

}  // namespace

LessonPlayer::LessonPlayer(MainWindow* window, LessonPanel* panel)
    : QObject(window), window_(window), panel_(panel) {
    player_.setInterval(kPlayIntervalMs);
    connect(&player_, &QTimer::timeout, this, &LessonPlayer::playStep);
}

void LessonPlayer::start(const Lesson& lesson, int frame) {
    lesson_ = lesson;
    pauses_.clear();
    active_ = true;
    emit activeChanged(true);
    enterFrame(std::clamp(frame, 0, int(lesson_.frames.size()) - 1));
}

void LessonPlayer::stop() {
    if (!active_)
        return;
    player_.stop();
    active_ = false;
    panel_->clear();
    emit activeChanged(false);
    window_->setOutcomeWithheld(false);
}

int LessonPlayer::pausePosition(int frame) {
    if (const auto it = pauses_.constFind(frame); it != pauses_.constEnd())
        return *it;
    const std::optional<RunConfig> config = frameConfig(lesson_, frame);
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

void LessonPlayer::enterFrame(int frame) {
    player_.stop();
    frame_ = frame;
    answerShown_ = false;
    const LessonFrame& f = lesson_.frames.at(frame);
    window_->setOutcomeWithheld(!f.revealOutcome);
    fireError_.clear();
    fireFailure_ = RunFailure::None;
    if (const std::optional<RunConfig> config = frameConfig(lesson_, frame)) {
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

void LessonPlayer::show() {
    QString answer;
    const LessonFrame& f = lesson_.frames.at(frame_);
    if (answerShown_ && f.question)
        answer = lessonAnswer(f.question->answer, window_->playback().finalSummary());
    panel_->showFrame(lesson_, frame_, window_->language(), answer);
}

void LessonPlayer::highlight() {
    const LessonHighlight& h = lesson_.frames.at(frame_).highlight;
    if (h.table.isEmpty())
        return;
    QTabWidget* tabs = window_->liveStage()->tableTabs();
    for (int i = 0; i < tabs->count(); ++i) {
        auto* table = qobject_cast<DatabaseTableView*>(tabs->widget(i));
        if (table && table->table() == h.table)
            tabs->setCurrentIndex(i);
    }
}

void LessonPlayer::next() {
    if (!active_)
        return;
    const LessonFrame& f = lesson_.frames.at(frame_);
    if (f.question && !answerShown_) {
        answerShown_ = true;
        show();
        return;
    }
    if (frame_ + 1 < lesson_.frames.size())
        enterFrame(frame_ + 1);
}

void LessonPlayer::back() {
    if (!active_)
        return;
    if (answerShown_) {
        answerShown_ = false;
        show();
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
    const std::optional<RunConfig> here = frameConfig(lesson_, frame_);
    if (frame_ > 0 && !lesson_.frames.at(frame_).load) {
        const std::optional<RunConfig> before = frameConfig(lesson_, frame_ - 1);
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
