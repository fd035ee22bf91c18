#include "playback.h"

#include "playedrun.h"
#include "run.h"
#include "sqlconnection.h"
#include "sweeper.h"
#include "traceevent.h"

#include <algorithm>

#include <utility>

namespace idem {

Playback::Measure Playback::measure(const RunConfig& config, const Scenario& scenario,
                                    const std::atomic<bool>* cancel, std::atomic<qint64>* steps,
                                    const ServerProgress& serverProgress) {
    Measure m;
    RunOptions options = RunOptions::untraced();
    options.cancel = cancel;
    options.serverProgress = serverProgress;
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
                                    const std::atomic<bool>* cancel, std::atomic<qint64>* steps,
                                    const ServerProgress& serverProgress) {
    Measure m = measure(config, scenario, cancel, steps, serverProgress);
    if (!m.ok)
        return m;
    RunOptions options;
    options.serverProgress = serverProgress;
    auto run = std::make_shared<Run>(config, scenario, std::move(options));
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
    std::unique_ptr<PlayedRun> fresh = measured.ready && measured.ready.use_count() == 1
                                           ? std::make_unique<PlayedRun>(measured.ready, length_)
                                           : PlayedRun::start(config, scenario, length_, error);
    // The run before goes, even when this one cannot start.
    if (played_) {
        letGoOfReplaced();
        letGoOf(played_->release());
    }
    played_ = std::move(fresh);
    lent_.reset();
    queued_.reset();
    if (!played_)
        return false;
    emit loaded();
    emit positionChanged(position(), length_);
    return true;
}

std::unique_ptr<PlayedRun> Playback::lend(std::optional<int> heading) {
    if (!played_)
        return nullptr;
    lent_ = Shown{played_->position(), played_->lastStepBegin(), played_->eventCount(),
                  played_->virtualTime(), heading};
    played_->setStopAtTurn(stopAtTurn_);
    return std::move(played_);
}

void Playback::handBack(std::unique_ptr<PlayedRun> played) {
    if (!played)
        return;
    if (!lent_) {  // a run installed meanwhile replaced it
        for (std::shared_ptr<Run>& run : played->takeReplaced()) letGoOf(std::move(run));
        letGoOf(played->release());
        return;
    }
    lent_.reset();
    played_ = std::move(played);
    // Unless the job reached the turn (or was asked to stop looking meanwhile).
    stopAtTurn_ = stopAtTurn_ && played_->stopsAtTurn();
    letGoOfReplaced();
}

void Playback::letGoOf(std::shared_ptr<Run> run) {
    // Hundreds of thousands of events take a frame or more to free; a run on
    // a server closes its connections and drops its database as it goes (a
    // new connection and a DROP: 10 to 60 ms), which the sweeper's thread
    // does instead of the window's.
    if (run && (run->trace().size() > 20'000 || run->config().backend != QLatin1String("sqlite")))
        sweeper_->take(std::move(run));
}

void Playback::letGoOfReplaced() {
    for (std::shared_ptr<Run>& run : played_->takeReplaced()) letGoOf(std::move(run));
}

StepNarrator* Playback::narrator() {
    return played_ ? &played_->narrator() : nullptr;
}

const Run* Playback::run() const {
    return played_ ? &played_->run() : nullptr;
}

SqlConnection* Playback::reader() const {
    return played_ ? played_->reader() : nullptr;
}

SqlConnection* Playback::writer() const {
    return played_ ? played_->writer() : nullptr;
}

qsizetype Playback::eventCount() const {
    if (lent_)
        return lent_->events;
    return played_ ? played_->eventCount() : 0;
}

int Playback::position() const {
    if (lent_)
        return lent_->position;
    return played_ ? played_->position() : 0;
}

qsizetype Playback::lastStepBegin() const {
    if (lent_)
        return lent_->stepBegin;
    return played_ ? played_->lastStepBegin() : 0;
}

qint64 Playback::virtualTime() const {
    if (lent_)
        return lent_->time;
    return played_ ? played_->virtualTime() : 0;
}

Summary Playback::liveSummary() const {
    return played_ ? played_->liveSummary() : Summary{};
}

void Playback::setStopAtTurn(bool stop) {
    stopAtTurn_ = stop;
}

bool Playback::isTurn(const TraceEvent& e) {
    return PlayedRun::isTurn(e);
}

bool Playback::stepsInWorker() const {
    return longSeek_ && played_ && !config_.backend.isEmpty() &&
           config_.backend != QLatin1String("sqlite");
}

int Playback::aim() const {
    if (queued_)
        return *queued_;
    if (lent_)
        return lent_->heading.value_or(lent_->position);
    return position();
}

std::optional<int> Playback::takeQueued() {
    std::optional<int> queued;
    std::swap(queued, queued_);
    // Where the run already is asks for nothing.
    if (queued && played_ && *queued == played_->position())
        queued.reset();
    return queued;
}

void Playback::stepForward() {
    if (lent_) {
        requestSeek(aim() + 1);
        return;
    }
    if (!played_)
        return;
    if (stepsInWorker()) {
        requestSeek(position() + 1);
        return;
    }
    const qsizetype before = played_->run().trace().size();
    if (!played_->stepForward())
        return;
    emit advanced(before, played_->run().trace().size());
    emit positionChanged(played_->position(), length_);
}

void Playback::stepBack() {
    requestSeek(aim() - 1);
}

int Playback::seekCost(int target) const {
    target = std::clamp(target, 0, length_);
    return target >= position() ? target - position() : target;
}

void Playback::publish() {
    if (!played_ || played_->pendingFrom() < 0)
        return;
    const qsizetype from = played_->pendingFrom();
    const bool again = played_->pendingRewound();
    played_->clearPending();
    if (again) {
        emit rewound();
    } else if (played_->eventCount() > from) {
        emit advanced(from, played_->eventCount());
    }
    emit positionChanged(played_->position(), length_);
}

void Playback::seek(int target) {
    if (!played_)
        return;
    target = std::clamp(target, 0, length_);
    if (target == played_->position())
        return;
    played_->setStopAtTurn(stopAtTurn_);
    played_->advance(target);
    stopAtTurn_ = played_->stopsAtTurn();
    letGoOfReplaced();
    publish();
}

void Playback::requestSeek(int target) {
    if (lent_) {
        queued_ = std::clamp(target, 0, length_);
        emit queued(*queued_);
        return;
    }
    if (!played_)
        return;
    target = std::clamp(target, 0, length_);
    const int position = played_->position();
    if (target == position)
        return;
    // A seek back also lets go of the run so far: far into a long run, its
    // hundreds of thousands of events take a while to free.
    // So does any seek on a live server: a step waits for the server, and a
    // seek back starts the run, and so a server, again.
    const bool longWay = seekCost(target) > kInlineSteps ||
                         (target < position && position > kInlineSteps) || stepsInWorker();
    if (longSeek_ && longWay) {
        longSeek_(target);
        return;
    }
    seek(target);
}

void Playback::stepFor(int budgetMs, qsizetype maxEvents) {
    if (!played_ || played_->atEnd())
        return;
    played_->stepFor(budgetMs, maxEvents);
    publish();
}

}  // namespace idem
