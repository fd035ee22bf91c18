#include "playback.h"

#include "run.h"
#include "sqlconnection.h"
#include "sweeper.h"
#include "traceevent.h"

#include <QElapsedTimer>

#include <algorithm>

#include <utility>

namespace idem {

Playback::Measure Playback::measure(const RunConfig& config, const Scenario& scenario,
                                    const std::atomic<bool>* cancel, std::atomic<qint64>* steps) {
    Measure m;
    RunOptions options = RunOptions::untraced();
    options.cancel = cancel;
    Run dry(config, scenario, options);
    if (!dry.start(&m.error)) {
        m.failure = dry.failure();
        return m;
    }
    while (dry.step()) {
        ++m.steps;
        if (steps && (m.steps & 0xff) == 0)
            steps->store(m.steps, std::memory_order_relaxed);
    }
    if (steps)
        steps->store(m.steps, std::memory_order_relaxed);
    if (dry.failure() == RunFailure::Cancelled) {
        m.cancelled = true;
        m.error = dry.failureMessage();
        return m;
    }
    if (!dry.finish(&m.error)) {
        m.failure = dry.failure();
        return m;
    }
    m.summary = dry.summary();
    m.ok = true;
    return m;
}

Playback::Measure Playback::prepare(const RunConfig& config, const Scenario& scenario,
                                    const std::atomic<bool>* cancel, std::atomic<qint64>* steps) {
    Measure m = measure(config, scenario, cancel, steps);
    if (!m.ok)
        return m;
    auto run = std::make_shared<Run>(config, scenario);
    run->setCancel(cancel);
    const bool started = run->start(&m.error);
    run->setCancel(nullptr);
    if (run->failure() == RunFailure::Cancelled) {
        m.ok = false;
        m.cancelled = true;
        m.error = run->failureMessage();
    } else if (!started) {
        m.ok = false;
        m.failure = run->failure();
    } else {
        m.ready = std::move(run);
    }
    return m;
}

Playback::Playback(QObject* parent) : QObject(parent), sweeper_(new Sweeper(this)) {}
Playback::~Playback() = default;

bool Playback::load(const RunConfig& config, const Scenario& scenario, QString* error) {
    const Measure measured = measure(config, scenario);
    if (!measured.ok) {
        *error = measured.error;
        return false;
    }
    return install(config, scenario, measured, error);
}

bool Playback::install(const RunConfig& config, const Scenario& scenario, const Measure& measured,
                       QString* error) {
    config_ = config;
    scenario_ = &scenario;
    length_ = measured.steps;
    finalSummary_ = measured.summary;
    // Taken once: a second install of the same measure starts its own run.
    if (measured.ready && measured.ready.use_count() == 1) {
        reader_.reset();
        replaceRun(measured.ready);
        position_ = 0;
        stepBegin_ = 0;
        judged_ = false;
        steppedEvents_ = 0;
        reader_ = run_->openReader();
    } else if (!rebuild(error)) {
        // No run of the configuration before stays behind.
        reader_.reset();
        run_.reset();
        return false;
    }
    emit loaded();
    emit positionChanged(position_, length_);
    return true;
}

bool Playback::rebuild(QString* error, const std::atomic<bool>* cancel) {
    // Started beside the run on screen, which stays as it was when the start
    // fails or is stopped (planning the largest runs takes seconds).
    auto fresh = std::make_unique<Run>(config_, *scenario_);
    fresh->setCancel(cancel);
    const bool started = fresh->start(error);
    fresh->setCancel(nullptr);
    if (!started || fresh->failure() == RunFailure::Cancelled)
        return false;
    reader_.reset();
    replaceRun(std::move(fresh));
    position_ = 0;
    stepBegin_ = 0;
    judged_ = false;
    steppedEvents_ = 0;
    reader_ = run_->openReader();
    return true;
}

void Playback::replaceRun(std::shared_ptr<Run> run) {
    std::shared_ptr<Run> old = std::exchange(run_, std::move(run));
    // Hundreds of thousands of events take a frame or more to free.
    if (old && old->trace().size() > 20'000)
        sweeper_->take(std::move(old));
}

qsizetype Playback::eventCount() const {
    if (!run_)
        return 0;
    return judged_ ? steppedEvents_ : run_->trace().size();
}

qint64 Playback::virtualTime() const {
    return run_ ? run_->now() : 0;
}

Summary Playback::liveSummary() const {
    if (!run_ || !reader_)
        return {};
    Reader reader(*reader_);
    try {
        return run_->judgeNow(reader);
    } catch (const ReadFailure&) {
        // Mid-run a scenario's table may not exist yet: nothing is certain.
        return {};
    }
}

void Playback::stepForward() {
    if (!run_ || atEnd())
        return;
    const qsizetype before = run_->trace().size();
    stepBegin_ = before;
    run_->step();
    ++position_;
    emit advanced(before, run_->trace().size());
    emit positionChanged(position_, length_);
}

void Playback::stepBack() {
    requestSeek(position_ - 1);
}

int Playback::seekCost(int target) const {
    target = std::clamp(target, 0, length_);
    return target >= position_ ? target - position_ : target;
}

void Playback::advance(int target, const std::atomic<bool>* cancel, std::atomic<qint64>* done) {
    if (!run_)
        return;
    target = std::clamp(target, 0, length_);
    if (pendingFrom_ < 0)
        pendingFrom_ = eventCount();
    if (target < position_) {
        QString error;
        if (!rebuild(&error, cancel))
            return;
        pendingRewound_ = true;
    }
    qint64 steps = 0;
    while (position_ < target && !judged_) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        stepBegin_ = run_->trace().size();
        if (!run_->step())
            break;
        ++position_;
        if (done && (++steps & 0xff) == 0)
            done->store(steps, std::memory_order_relaxed);
        if (stopAtTurn_.load(std::memory_order_relaxed)) {
            const QList<TraceEvent>& events = run_->trace().events();
            if (std::any_of(events.cbegin() + stepBegin_, events.cend(), &Playback::isTurn)) {
                stopAtTurn_ = false;
                break;
            }
        }
    }
}

bool Playback::isTurn(const TraceEvent& e) {
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

bool Playback::judgeEnd(QString* error) {
    if (!run_ || !atEnd())
        return false;
    if (judged_)
        return true;
    if (pendingFrom_ < 0)
        pendingFrom_ = run_->trace().size();
    steppedEvents_ = run_->trace().size();
    judged_ = true;
    return run_->finish(error);
}

void Playback::publish() {
    if (pendingFrom_ < 0 || !run_)
        return;
    if (pendingRewound_) {
        emit rewound();
    } else if (eventCount() > pendingFrom_) {
        emit advanced(pendingFrom_, eventCount());
    }
    pendingRewound_ = false;
    pendingFrom_ = -1;
    emit positionChanged(position_, length_);
}

void Playback::seek(int target) {
    if (!run_)
        return;
    target = std::clamp(target, 0, length_);
    if (target == position_)
        return;
    advance(target);
    publish();
}

void Playback::requestSeek(int target) {
    if (!run_)
        return;
    target = std::clamp(target, 0, length_);
    if (target == position_)
        return;
    // A seek back also lets go of the run so far: far into a long run, its
    // hundreds of thousands of events take a while to free.
    const bool longWay =
        seekCost(target) > kInlineSteps || (target < position_ && position_ > kInlineSteps);
    if (longSeek_ && longWay) {
        longSeek_(target);
        return;
    }
    seek(target);
}

void Playback::stepFor(int budgetMs, qsizetype maxEvents) {
    if (!run_ || atEnd())
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
    publish();
}

SqlConnection* Playback::writer() const {
    return run_ && reader_ ? run_->openWriter() : nullptr;
}

}  // namespace idem
