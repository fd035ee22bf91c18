#include "playedrun.h"

#include "authoring.h"
#include "run.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "traceevent.h"

#include <QElapsedTimer>

#include <algorithm>
#include <utility>

namespace idem {

std::unique_ptr<PlayedRun> PlayedRun::start(const RunConfig& config, const Scenario& scenario,
                                            int length, QString* error,
                                            const std::atomic<bool>* cancel) {
    auto run = std::make_shared<Run>(config, scenario);
    run->setCancel(cancel);
    const bool started = run->start(error);
    run->setCancel(nullptr);
    if (!started || run->failure() == RunFailure::Cancelled)
        return nullptr;
    return std::make_unique<PlayedRun>(std::move(run), length);
}

PlayedRun::PlayedRun(std::shared_ptr<Run> started, int length)
    : narrator_(started->config().intents, &started->scenario().info().words), length_(length) {
    restartAt(std::move(started));
}

PlayedRun::~PlayedRun() = default;

void PlayedRun::restartAt(std::shared_ptr<Run> run) {
    reader_.reset();
    if (run_)
        replaced_.push_back(std::exchange(run_, std::move(run)));
    else
        run_ = std::move(run);
    position_ = 0;
    stepBegin_ = 0;
    judged_ = false;
    steppedEvents_ = 0;
    reader_ = run_->openReader();
}

std::shared_ptr<Run> PlayedRun::release() {
    reader_.reset();
    return std::move(run_);
}

SqlConnection* PlayedRun::writer() const {
    return reader_ ? run_->openWriter() : nullptr;
}

qsizetype PlayedRun::eventCount() const {
    return judged_ ? steppedEvents_ : run_->trace().size();
}

qint64 PlayedRun::virtualTime() const {
    return run_->now();
}

Summary PlayedRun::liveSummary() const {
    if (!reader_)
        return {};
    Reader reader(*reader_);
    try {
        return run_->judgeNow(reader);
    } catch (const ReadFailure&) {
        // Mid-run a scenario's table may not exist yet: nothing is certain.
        return {};
    }
}

bool PlayedRun::rebuild(QString* error, const std::atomic<bool>* cancel) {
    // Started beside the run in hand, which stays as it was when the start
    // fails or is stopped.
    std::unique_ptr<PlayedRun> fresh =
        start(run_->config(), run_->scenario(), length_, error, cancel);
    if (!fresh)
        return false;
    restartAt(fresh->release());
    return true;
}

bool PlayedRun::onThisThread(const std::atomic<bool>* cancel) {
    if (run_->config().workbench.isEmpty() || run_->startedOn() == Run::threadSerial())
        return true;
    const int at = position_;
    const qsizetype stepBegin = stepBegin_;
    QString error;
    if (!rebuild(&error, cancel))
        return false;
    while (position_ < at && run_->step()) ++position_;
    stepBegin_ = stepBegin;
    return position_ == at;
}

bool PlayedRun::stepForward() {
    if (atEnd() || !onThisThread())
        return false;
    stepBegin_ = run_->trace().size();
    run_->step();
    ++position_;
    return true;
}

void PlayedRun::stepFor(int budgetMs, qsizetype maxEvents) {
    if (atEnd() || !onThisThread())
        return;
    QElapsedTimer clock;
    clock.start();
    pendingFrom_ = eventCount();
    while (!atEnd() && !judged_) {
        stepBegin_ = run_->trace().size();
        if (!run_->step())
            break;
        ++position_;
        if (run_->trace().size() - pendingFrom_ >= maxEvents)
            break;
        // The clock is read after every step: one that opens a connection
        // or commits can take a millisecond.
        if (clock.nsecsElapsed() >= qint64(budgetMs) * 1'000'000)
            break;
    }
}

void PlayedRun::advance(int target, const std::atomic<bool>* cancel, std::atomic<qint64>* done) {
    target = std::clamp(target, 0, length_);
    if (pendingFrom_ < 0)
        pendingFrom_ = eventCount();
    if (target < position_) {
        QString error;
        if (!rebuild(&error, cancel))
            return;
        pendingRewound_ = true;
    } else if (!onThisThread(cancel)) {
        return;
    }
    qint64 steps = 0;
    // Esc also ends a statement's wait for another client of the server
    // (the run is then cancelled); the flag is the job's, let go of here.
    run_->setWaitStop(cancel);
    const struct LetGo {
        Run& run;
        ~LetGo() { run.setWaitStop(nullptr); }
    } letGo{*run_};
    while (position_ < target && !judged_) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        stepBegin_ = run_->trace().size();
        if (!run_->step())
            break;
        ++position_;
        if (done && (++steps & 0xff) == 0)
            done->store(steps, std::memory_order_relaxed);
        if (stopAtTurn_) {
            const QList<TraceEvent>& events = run_->trace().events();
            if (std::any_of(events.cbegin() + stepBegin_, events.cend(), &PlayedRun::isTurn)) {
                stopAtTurn_ = false;
                break;
            }
        }
    }
}

bool PlayedRun::isTurn(const TraceEvent& e) {
    switch (e.kind) {
        case EventKind::Crash:
        case EventKind::Alert:
        case EventKind::Retry:
            return true;
        case EventKind::Sql:
            return e.failed() && e.attempt > 0;
        case EventKind::Transition:
            return !e.fields.flag("accepted");
        case EventKind::Response: {
            const QString answer = e.fields.text("response");
            return answer != QLatin1String("success") && answer != QLatin1String("in-progress");
        }
        default:
            return false;
    }
}

bool PlayedRun::judgeEnd(QString* error) {
    if (!atEnd())
        return false;
    if (judged_)
        return true;
    if (pendingFrom_ < 0)
        pendingFrom_ = run_->trace().size();
    steppedEvents_ = run_->trace().size();
    judged_ = true;
    return run_->finish(error);
}

void PlayedRun::clearPending() {
    pendingRewound_ = false;
    pendingFrom_ = -1;
}

}  // namespace idem
