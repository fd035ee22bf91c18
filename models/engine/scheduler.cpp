#include "scheduler.h"

#include "attempt.h"
#include "locksnapshot.h"
#include "serverbackend.h"
#include "sqlconnection.h"
#include "tablesnapshot.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace idem {

namespace {

// A handler that ends inside a transaction, or a process that dies in one.
constexpr const char* kCauseCrash = "crash";
constexpr const char* kCauseUnfinished = "handler ended inside a transaction";

}  // namespace

// --- the scheduler ----------------------------------------------------------

Scheduler::Scheduler(const RunConfig& config, const Scenario& scenario, RunOptions options)
    : config_(config),
      scenario_(scenario),
      options_(std::move(options)),
      backend_(makeBackend(config_, options_.serverProgress)),
      rng_(config.seed) {}

Scheduler::~Scheduler() {
    processes_.clear();  // coroutine frames first: they refer to attempts only
    locks_.clear();
    parked_.clear();
    busy_.clear();
    idle_.clear();
    setupConnection_.reset();
}

quint32 Scheduler::random(quint32 bound) {
    return bound <= 1 ? 0 : quint32(rng_() % bound);
}

void Scheduler::fail(RunFailure failure, const QString& message) {
    if (failure_ != RunFailure::None)
        return;
    failure_ = failure;
    failureMessage_ = message;
}

void Scheduler::setCancel(const std::atomic<bool>* cancel) {
    options_.cancel = cancel;
    // The backend never keeps a flag the run no longer has.
    backend_->stopWhen(waitStop());
}

void Scheduler::setWaitStop(const std::atomic<bool>* stop) {
    waitStop_ = stop;
    backend_->stopWhen(waitStop());
}

bool Scheduler::start(QString* error) {
    variant_ = scenario_.info().variant(config_.variant);
    if (!variant_) {
        *error = QStringLiteral("unknown variant \"%1\" for scenario %2")
                     .arg(config_.variant, scenario_.info().id);
        fail(RunFailure::BadInput, *error);
        return false;
    }
    bool badInput = false;
    backend_->stopWhen(waitStop());
    if (!backend_->prepare(options_.dbPath, options_.replaceDb, error, &badInput)) {
        // Stopped while a server started: the run is cancelled, not failed.
        const bool stopped = options_.cancel && options_.cancel->load();
        fail(stopped ? RunFailure::Cancelled : (badInput ? RunFailure::BadInput : RunFailure::Io),
             *error);
        return false;
    }
    if (!startRedis(error))
        return false;
    // A server's own level when none was asked for: the trace says which.
    if (config_.backend != QLatin1String("sqlite"))
        config_.isolation = backend_->isolation();
    if (options_.sink)
        options_.sink->started(config_);
    setupConnection_ = backend_->connect(QStringLiteral("c0"));
    if (!setupConnection_->isOpen()) {
        *error = QStringLiteral("cannot open the database %1: %2")
                     .arg(backend_->location(), setupConnection_->openError());
        // A server that died before the run's first connection: that is why.
        if (const QString lost = backend_->lostServer(true); !lost.isEmpty())
            *error = lost;
        fail(RunFailure::Io, *error);
        return false;
    }
    if (options_.keepTrace)
        trace_.clear();
    try {
        Setup setup(*this, *setupConnection_);
        const QString refused =
            backend_->configure([&setup](const QString& sql) { return setup.exec(sql); });
        if (!refused.isEmpty())
            throw SetupFailure(refused.toStdString());
        for (const QString& statement : scenario_.schema(config_)) setup.exec(statement);
        intents_.resize(std::size_t(std::max(1, config_.intents)));
        // Seed rows in one transaction: one write to the file instead of one per row.
        const bool oneTransaction = options_.formatVersion >= 2;
        if (oneTransaction)
            setup.exec(backend_->beginStatement());
        // A stop asked for now ends the seeding; countPlan() then ends the
        // run as cancelled (100,000 intents' rows take seconds to write).
        const auto stopped = [this] {
            return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
        };
        for (int i = 0; i < int(intents_.size()); ++i) {
            if ((i & 0x3f) == 0 && stopped())
                break;
            intents_[std::size_t(i)].start = i == 0 ? 0 : i * 250 + random(50);
            scenario_.seed(setup, i);
            if (variant_->seed)
                variant_->seed(setup, i);
        }
        if (oneTransaction)
            setup.exec(QStringLiteral("COMMIT"));
        if (!stopped())
            recordTables();
    } catch (const SetupFailure& e) {
        *error = QString::fromStdString(e.what());
        // Stopped while a set-up statement waited (another client's lock):
        // the run is cancelled, not failed.
        if (options_.cancel && options_.cancel->load()) {
            *error = QStringLiteral("the run was stopped before its end");
            fail(RunFailure::Cancelled, *error);
            return false;
        }
        // The server died under the set-up: that, not the statement, is why.
        if (const QString lost = backend_->lostServer(true); !lost.isEmpty()) {
            *error = lost;
            fail(RunFailure::Io, lost);
            return false;
        }
        fail(e.storage ? RunFailure::Io : RunFailure::Internal, *error);
        if (const QString why = backend_->failure(); !why.isEmpty()) {
            *error = why;
            failure_ = RunFailure::BadInput;
            failureMessage_ = why;
        }
        return false;
    }
    if (const QString why = backend_->failure(); !why.isEmpty()) {
        *error = why;
        fail(RunFailure::BadInput, why);
        return false;
    }
    countPlan();
    return true;
}

// Runs every intent's plan with its fires counted, not scheduled: what the
// plans draw from rng_ is drawn here, in the order an eager plan drew it, and
// each intent learns the instant before which none of its fires (nor a later
// intent's) can come. The plans are run again, one intent at a time, when the
// scheduler reaches that instant (planDueIntents). Honours the cancellation
// flag: a plan of 100,000 intents x 1,000 duplicates takes seconds to count.
void Scheduler::countPlan() {
    planRng_ = rng_;
    planning_ = Planning::Counting;
    Planner planner(*this);
    const int n = int(intents_.size());
    for (int i = 0; i < n; ++i) {
        if ((i & 0x3f) == 0 && options_.cancel &&
            options_.cancel->load(std::memory_order_relaxed)) {
            fail(RunFailure::Cancelled, QStringLiteral("the run was stopped before its end"));
            planned_ = n;
            return;
        }
        planningIntent_ = i;
        intents_[std::size_t(i)].planDue = std::numeric_limits<qint64>::max();
        scenario_.plan(planner, i);
    }
    for (int i = n - 2; i >= 0; --i) {
        qint64& due = intents_[std::size_t(i)].planDue;
        due = std::min(due, intents_[std::size_t(i + 1)].planDue);
    }
    // Planned fires come first among events at the same instant, as when
    // every plan was made before the first step.
    nextSeq_ = planSeq_;
    planSeq_ = 0;
    planning_ = Planning::Firing;
    planned_ = 0;
}

void Scheduler::planDueIntents() {
    const int n = int(intents_.size());
    if (planned_ >= n)
        return;
    Planner planner(*this);
    while (planned_ < n &&
           (queue_.empty() || intents_[std::size_t(planned_)].planDue <= queue_.top().at)) {
        scenario_.plan(planner, planned_++);
    }
}

void Scheduler::planFire(AttemptSpec spec) {
    // An eager plan ran at instant 0: nothing fired earlier.
    const qint64 at = std::max<qint64>(spec.at, 0);
    if (planning_ == Planning::Counting) {
        ++planSeq_;
        qint64& due = intents_[std::size_t(planningIntent_)].planDue;
        due = std::min(due, at);
        return;
    }
    scheduleFire(std::move(spec), at, planSeq_++);
}

quint32 Scheduler::planRandom(quint32 bound) {
    if (planning_ == Planning::Counting)
        return random(bound);
    return bound <= 1 ? 0 : quint32(planRng_() % bound);
}

void Scheduler::schedule(qint64 at, std::function<void()> action) {
    queue_.push(Entry{std::max(at, now_), nextSeq_++, std::move(action)});
}

bool Scheduler::step() {
    if (atEnd())
        return false;
    if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
        fail(RunFailure::Cancelled, QStringLiteral("the run was stopped before its end"));
        return false;
    }
    planDueIntents();
    // Every statement left waits on another of the run and nothing is left
    // to send: the server would wait for ever, so the lab ends one wait.
    if (queue_.empty() && !parked_.empty())
        schedule(now_, [this] { cancelAStuckWait(); });
    if (queue_.empty())
        return false;  // a plan that fires nothing
    Entry e = queue_.top();
    queue_.pop();
    now_ = e.at;
    e.action();
    // A server's locks, when the step changed them (locksnapshot.h).
    LockRows locks;
    if (bool truncated = false; tracing() && backend_->locksChanged(&locks, &truncated))
        record(locksEvent(locks, truncated));
    recordTables();
    // A recording that this run no longer follows: nothing after is true.
    if (const QString why = backend_->failure(); !why.isEmpty()) {
        fail(RunFailure::BadInput, why);
        while (!queue_.empty()) queue_.pop();
    }
    // A server that went away: what its sessions were told is no answer
    // of the business, and its database is no evidence.
    if (const QString why = backend_->lostServer(); !why.isEmpty()) {
        fail(RunFailure::Io, why);
        while (!queue_.empty()) queue_.pop();
    }
    return true;
}

void Scheduler::recordTables() {
    QVariantList tables;
    // Uncommitted rows are recorded from version 6 on: a replay of an older
    // trace records what it did.
    if (tracing() && backend_->tablesChanged(&tables, options_.formatVersion >= 6))
        record(tablesEvent(tables));
}

TraceEvent Scheduler::sqlEvent(const SqlConnection& c, const QString& sql,
                               const QVariantList& params, const SqlResult& r) {
    TraceEvent e;
    e.kind = EventKind::Sql;
    e.actor = nameId(u"database");
    e.connection = connectionNumber(c);
    e.sql = c.textSent(sql);
    e.params = params;
    // What a server received, where its client put the values into the
    // text: what the server's own log shows (written from version 7 on).
    if (const QString received = c.received(); !received.isEmpty())
        e.fields.set("sent", received);
    e.rows = r.ok ? r.rows : 0;
    e.counts = r.counts;
    e.code = r.code;
    e.error = r.message;
    return e;
}

void Scheduler::keepValues(TraceEvent& e, const SqlResult& r) const {
    if (backend_->stepped() && r.ok && r.counts == RowCount::Returned)
        keepReturnedValues(e, r.data);
}

void Scheduler::runToEnd() {
    while (step()) {
    }
}

void Scheduler::fire(AttemptSpec spec) {
    const qint64 at = std::max(spec.at, now_);
    scheduleFire(std::move(spec), at, nextSeq_++);
}

void Scheduler::scheduleFire(AttemptSpec spec, qint64 at, qint64 seq) {
    IntentState& state = intents_[std::size_t(spec.intent)];
    int number = spec.number;
    if (spec.counted) {
        if (number == 0)
            number = state.nextNumber;
        state.nextNumber = std::max(state.nextNumber, number + 1);
    } else if (spec.numbered) {
        int& last = state.helperNumbers[nameId(spec.actor)];
        number = -++last;  // R1 is -1: apart from every request's number
    }
    if (spec.caller.isEmpty())
        spec.caller = callerActor(config_.source);
    queue_.push(Entry{at, seq, [this, spec = std::move(spec), number] {
                          startAttempt(spec, number);
                      }});
}

void Scheduler::record(TraceEvent event) {
    if (!tracing())
        return;
    event.seq = nextEventSeq_++;
    event.tMs = now_;
    backend_->eventRecorded(event);
    if (options_.sink)
        options_.sink->add(event);
    if (options_.keepTrace)
        trace_.append(std::move(event));
}

void Scheduler::recordFor(const Attempt& a, EventKind kind, Fields fields) {
    if (!tracing())
        return;
    TraceEvent e;
    e.kind = kind;
    e.fields = std::move(fields);
    e.actor = a.actorId();
    e.intent = a.intent();
    e.attempt = a.number();
    record(std::move(e));
}

void Scheduler::raiseAlert(const Attempt& a, const QString& key, qint64 count,
                           const Phrase& message) {
    alerts_.append(AlertRecord{now_, a.intent(), key, count, -1, message});
    recordFor(a, EventKind::Alert,
              {{"key", key}, {"count", count}, {"message", message.toVariant()}});
}

Scheduler::Process& Scheduler::processOf(const Attempt& a) {
    return *processes_.at(&a);
}

void Scheduler::startAttempt(const AttemptSpec& spec, int number) {
    auto owned = std::make_unique<Process>();
    Process& p = *owned;
    p.attempt = std::make_unique<Attempt>(*this, spec, number);
    Attempt& a = *p.attempt;
    processes_.emplace(&a, std::move(owned));
    p.readyAt = now_;
    if (spec.counted)
        ++countedAttempts_;
    if (spec.kind == QLatin1String("retry")) {
        TraceEvent r;
        r.kind = EventKind::Retry;
        r.actor = nameId(spec.caller);
        r.intent = a.intent();
        r.attempt = a.number();
        r.fields = {
            {"retry", spec.retryDepth}, {"of", config_.maxRetries}, {"after", spec.retryAfter}};
        record(std::move(r));
    }
    if (spec.counted) {
        TraceEvent f;
        f.kind = EventKind::Fire;
        f.actor = nameId(spec.caller);
        f.intent = a.intent();
        f.attempt = a.number();
        f.fields = {{"sender", spec.caller},
                    {"receiver", spec.actor},
                    {"attempt_kind", spec.kind},
                    {"source", toId(config_.source)}};
        if (!spec.payload.isEmpty())
            f.fields.set("payload", spec.payload);
        if (spec.changedPayload != 0)
            f.fields.set("payload_changed", true);
        record(std::move(f));
    }
    p.connection = acquireConnection();
    p.root = scenario_.handle(a);
    resume(p, p.root.handle());
}

void Scheduler::resume(Process& p, std::coroutine_handle<> h) {
    p.resumeAt = {};
    h.resume();
    afterResume(p);
}

void Scheduler::afterResume(Process& p) {
    if (p.crashed) {
        release(p);
        return;
    }
    if (!p.root.done())
        return;  // suspended on its next step, already scheduled
    Reply reply;
    QString reason;
    try {
        reply = p.root.result();
    } catch (const std::exception& ex) {
        // An unexpected failure inside the handler: the caller is told
        // "error", and the trace says what went wrong.
        reason = QString::fromUtf8(ex.what());
        reply = Reply{Response::Error, {}};
    }
    p.root = Task<Reply>{};
    if (failure_ != RunFailure::None) {
        release(p);
        return;
    }
    if (attemptCrashes(*p.attempt, CrashPoint::BeforeResponse)) {
        crash(*p.attempt, CrashPoint::BeforeResponse);
        release(p);
        return;
    }
    finishAttempt(p, reply.response, reply.result, reason);
}

void Scheduler::suspendOnSql(Attempt& a, std::coroutine_handle<> h, Attempt::SqlStep* step) {
    Process& p = processOf(a);
    p.pendingSql = step;
    p.resumeAt = h;
    schedule(std::max(now_, p.readyAt), [this, &p] { runPendingSql(p); });
}

void Scheduler::suspendOnWait(Attempt& a, std::coroutine_handle<> h, qint64 ms,
                              const Phrase& what) {
    Process& p = processOf(a);
    recordFor(a, EventKind::Work, {{"ms", ms}, {"what", what.toVariant()}});
    p.resumeAt = h;
    schedule(now_ + ms, [this, &p] { resume(p, p.resumeAt); });
}

void Scheduler::pause(Attempt& a, std::coroutine_handle<> h) {
    Process& p = processOf(a);
    const qint64 ms = 2 * config_.leaseMs;
    recordFor(a, EventKind::Pause,
              {{"point", toId(CrashPoint::LongPause)}, {"ms", ms}, {"until_ms", now_ + ms}});
    p.resumeAt = h;
    schedule(now_ + ms, [this, &p, ms] {
        recordFor(*p.attempt, EventKind::Resume, {{"paused_ms", ms}});
        resume(p, p.resumeAt);
    });
}

void Scheduler::crash(Attempt& a, CrashPoint point) {
    Process& p = processOf(a);
    p.crashed = true;
    recordFor(a, EventKind::Crash, {{"point", toId(point)}});
    if (p.connection) {
        SqlConnection& c = *p.connection;
        if (backend_->stepped()) {
            // The process's connection goes with it; the server rolls back
            // what its transaction held.
            backend_->drop(c);
            releaseConnection(p, true);
            wakeParked();
        } else {
            if (c.inTransaction()) {
                const QString rollback = QStringLiteral("ROLLBACK");
                const SqlResult r = c.exec(rollback);
                traceSql(&a, c, rollback, {}, r, kCauseCrash);
            }
            transactionEnded(&c);
            releaseConnection(p, true);
        }
    }
    finishAttempt(p, Response::None, {});
}

void Scheduler::finishAttempt(Process& p, Response response, const Phrase& result,
                              const QString& reason) {
    Attempt& a = *p.attempt;
    if (p.connection) {
        SqlConnection& c = *p.connection;
        if (c.inTransaction()) {
            const QString rollback = QStringLiteral("ROLLBACK");
            const SqlResult r = c.exec(rollback);
            traceSql(&a, c, rollback, {}, r, kCauseUnfinished);
            transactionEnded(&c);
            if (backend_->stepped())
                wakeParked();
        }
        releaseConnection(p, false);
    }
    if (a.counted()) {
        Fields data{{"receiver", a.caller()}, {"response", toId(response)}};
        if (!result.isEmpty())
            data.set("result", result.toVariant());
        if (!reason.isEmpty())
            data.set("reason", reason);
        if (response == Response::None)
            data.set("lost", true);
        recordFor(a, EventKind::Response, std::move(data));
        keepAnswer(a, response, result);
        maybeRetry(a, response);
    }
    // A crashed process is released when its handler's frame unwinds.
    if (!p.crashed)
        release(p);
}

// Called once the handler's frame is off the stack (its coroutine finished,
// or suspended for the last time at a crash): the attempt and its state go.
void Scheduler::release(Process& p) {
    std::erase(parked_, &p);  // no wait outlives its process
    processes_.erase(p.attempt.get());
}

void Scheduler::maybeRetry(const Attempt& a, Response response) {
    // SPEC 2, retry policy: no definite answer (a timeout, "in progress") or
    // a transient `error` (an HTTP 5xx) is tried again.
    const bool resent = response == Response::Rejected && resendsRefusal(config_.source);
    if (response != Response::None && response != Response::InProgress &&
        response != Response::Error && !resent) {
        return;
    }
    if (!scenario_.info().callerRetries)
        return;
    // Each attempt that got no definite answer is retried by its own caller,
    // up to --max-retries times.
    if (a.retryDepth() >= config_.maxRetries)
        return;
    AttemptSpec retry;
    retry.retryDepth = a.retryDepth() + 1;
    retry.retryAfter = toId(response);
    retry.intent = a.intent();
    retry.at = now_ + retryIntervalMs(config_.source, config_.visibilityMs, retry.retryDepth);
    retry.caller = a.caller();
    retry.actor = a.actor();
    retry.kind = QStringLiteral("retry");
    retry.payload = a.payload();
    retry.changedPayload = a.changedPayload();
    retry.operation = a.operation();
    fire(retry);
}

SqlConnection* Scheduler::acquireConnection() {
    if (idle_.empty()) {
        idle_.push_back(backend_->connect(QStringLiteral("c%1").arg(nextConnection_++)));
        if (!idle_.back()->isOpen()) {
            // A server that takes no more connections: the run stops here
            // rather than judging refused statements as business errors.
            const QString lost = backend_->lostServer(true);
            fail(RunFailure::Io, !lost.isEmpty()
                                     ? lost
                                     : QStringLiteral("%1 refused connection %2 (%3 open): %4")
                                           .arg(backend_->location(), idle_.back()->id())
                                           .arg(busy_.size() + 1)
                                           .arg(idle_.back()->openError()));
            while (!queue_.empty()) queue_.pop();
        }
    }
    busy_.push_back(std::move(idle_.back()));
    idle_.pop_back();
    return busy_.back().get();
}

void Scheduler::releaseConnection(Process& p, bool close) {
    auto it = std::find_if(busy_.begin(), busy_.end(),
                           [&p](const auto& c) { return c.get() == p.connection; });
    p.connection = nullptr;
    if (it == busy_.end())
        return;
    if (!close)
        idle_.push_back(std::move(*it));
    busy_.erase(it);
}

std::unique_ptr<SqlConnection> Scheduler::openReader() const {
    return backend_->connect(QStringLiteral("reader"));
}

bool Scheduler::attemptCrashes(const Attempt& a, CrashPoint point) const {
    const RunConfig& c = config_;
    // A helper process is numbered 0 and never crashes, unless its scenario
    // numbers it (an outbox relay's passes, -1, -2 ...): then --crash-attempt
    // K picks its K-th, at the crash points only it reaches.
    if (point == CrashPoint::None || c.crash != point || c.crashAttempt != std::abs(a.number()))
        return false;
    return variant_->crashPoints.contains(point);
}

}  // namespace idem
