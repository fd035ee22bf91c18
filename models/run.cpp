#include "run.h"

#include "attempt.h"
#include "sqlconnection.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

#include <algorithm>

namespace idem {

namespace {

bool isDefinite(Response r) {
    return r == Response::Success || r == Response::Rejected || r == Response::Error;
}

}  // namespace

// --- Planner, Setup, Reader ------------------------------------------------

const RunConfig& Planner::config() const {
    return run_.config();
}
qint64 Planner::intentStart(int intent) const {
    return run_.intents_[intent].start;
}
void Planner::fire(const AttemptSpec& spec) {
    run_.fire(spec);
}
quint32 Planner::random(quint32 bound) {
    return run_.random(bound);
}

void Planner::fireDefault(int intent, const QVariantMap& payload) {
    for (const AttemptSpec& s : defaultSpecs(intent, payload)) fire(s);
}

std::vector<AttemptSpec> Planner::defaultSpecs(int intent, const QVariantMap& payload) {
    const RunConfig& c = config();
    const qint64 t0 = intentStart(intent);
    const qint64 spacing = c.effectiveIntervalMs();
    std::vector<AttemptSpec> specs;
    for (int k = 0; k <= c.duplicates; ++k) {
        AttemptSpec s;
        s.intent = intent;
        s.number = k + 1;
        s.at = t0 + k * spacing;
        s.kind = k == 0 ? QStringLiteral("original") : QStringLiteral("duplicate");
        s.payload = payload;
        specs.push_back(s);
    }
    // Same instant: the seed decides who goes first.
    if (spacing == 0) {
        for (std::size_t i = specs.size(); i > 1; --i) {
            std::swap(specs[i - 1], specs[random(quint32(i))]);
        }
    }
    return specs;
}

const RunConfig& Setup::config() const {
    return run_.config();
}

SqlResult Setup::exec(const QString& sql, const QVariantList& params, int intent) {
    const SqlResult r = connection_.exec(sql, params);
    TraceEvent e;
    e.intent = intent;
    e.actor = QStringLiteral("database");
    e.kind = QStringLiteral("sql");
    e.connection = connection_.id();
    e.sql = sql;
    e.params = params;
    e.rows = r.ok ? r.rows : 0;
    e.error = r.errorText();
    e.data.insert(QStringLiteral("phase"), QStringLiteral("setup"));
    run_.record(std::move(e));
    return r;
}

void Setup::transition(int intent, const QString& entity, const QString& from, const QString& to) {
    TraceEvent e;
    e.intent = intent;
    e.actor = QStringLiteral("client");
    e.kind = QStringLiteral("transition");
    e.data = {{"entity", entity}, {"from", from}, {"to", to}, {"accepted", true}};
    run_.record(std::move(e));
}

SqlResult Reader::query(const QString& sql, const QVariantList& params) {
    return connection_.exec(sql, params);
}

qint64 Reader::count(const QString& sql, const QVariantList& params) {
    return connection_.exec(sql, params).value().toLongLong();
}

// --- Run ---------------------------------------------------------------------

Run::Run(const RunConfig& config, const Scenario& scenario, const QString& dbPath)
    : config_(config), scenario_(scenario), dbPath_(dbPath), rng_(config.seed) {}

Run::~Run() {
    attempts_.clear();  // coroutine frames first: they refer to attempts only
    lockWaiters_.clear();
    busy_.clear();
    idle_.clear();
    setupConnection_.reset();
}

quint32 Run::random(quint32 bound) {
    return bound <= 1 ? 0 : quint32(rng_() % bound);
}

bool Run::start(QString* error) {
    if (dbPath_.isEmpty()) {
        tempDir_ = std::make_unique<QTemporaryDir>();
        if (!tempDir_->isValid()) {
            *error =
                QStringLiteral("cannot create a temporary folder: %1").arg(tempDir_->errorString());
            return false;
        }
        dbPath_ = tempDir_->filePath(QStringLiteral("run.sqlite"));
    } else {
        if (QFileInfo(dbPath_).isDir()) {
            *error = QStringLiteral("--db %1 is a directory; give a file path").arg(dbPath_);
            return false;
        }
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
            const QString f = dbPath_ + QLatin1String(suffix);
            if (QFile::exists(f) && !QFile::remove(f)) {
                *error = QStringLiteral("cannot replace the database file %1").arg(f);
                return false;
            }
        }
    }
    setupConnection_ = std::make_unique<SqlConnection>(dbPath_, QStringLiteral("c0"));
    if (!setupConnection_->isOpen()) {
        *error = QStringLiteral("cannot open the database %1: %2")
                     .arg(dbPath_, setupConnection_->openError());
        return false;
    }
    Setup setup(*this, *setupConnection_);
    setup.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
    for (const QString& statement : scenario_.schema(config_)) {
        const SqlResult r = setup.exec(statement);
        if (!r.ok) {
            *error =
                QStringLiteral("the schema of %1 failed: %2").arg(config_.scenario, r.errorText());
            return false;
        }
    }
    intents_.resize(std::max(1, config_.intents));
    for (int i = 0; i < int(intents_.size()); ++i) {
        intents_[i].start = i == 0 ? 0 : i * 250 + random(50);
        scenario_.seed(setup, i);
    }
    Planner planner(*this);
    for (int i = 0; i < int(intents_.size()); ++i) scenario_.plan(planner, i);
    return true;
}

void Run::schedule(qint64 at, std::function<void()> action) {
    queue_.push(Entry{std::max(at, now_), nextSeq_++, std::move(action)});
}

bool Run::step() {
    if (queue_.empty())
        return false;
    Entry e = queue_.top();
    queue_.pop();
    now_ = e.at;
    e.action();
    return true;
}

void Run::runToEnd() {
    while (step()) {
    }
}

void Run::fire(AttemptSpec spec) {
    IntentState& state = intents_[spec.intent];
    int number = spec.number;
    if (spec.counted) {
        if (number == 0)
            number = state.nextNumber;
        state.nextNumber = std::max(state.nextNumber, number + 1);
    }
    if (spec.caller.isEmpty())
        spec.caller = callerActor(config_.source);
    schedule(spec.at, [this, spec, number] { startAttempt(spec, number); });
}

TraceEvent& Run::record(TraceEvent event) {
    event.tMs = now_;
    return trace_.append(std::move(event));
}

TraceEvent& Run::record(const Attempt* a, const QString& kind, QVariantMap data) {
    TraceEvent e;
    e.kind = kind;
    e.data = std::move(data);
    e.actor = a ? a->actor() : QStringLiteral("judge");
    if (a) {
        e.intent = a->intent();
        e.attempt = a->number();
    }
    return record(std::move(e));
}

void Run::startAttempt(const AttemptSpec& spec, int number) {
    attempts_.push_back(std::make_unique<Attempt>(*this, spec.intent, number, spec.kind,
                                                  spec.caller, spec.payload));
    Attempt& a = *attempts_.back();
    a.setActor(spec.actor);
    a.retryDepth_ = spec.retryDepth;
    a.counted_ = spec.counted;
    a.readyAt_ = now_;
    if (spec.kind == QLatin1String("retry")) {
        TraceEvent& r = record(&a, QStringLiteral("retry"),
                               {{"retry", spec.retryDepth}, {"of", config_.maxRetries}});
        r.actor = spec.caller;
    }
    QVariantMap fire{{"from", spec.caller},
                     {"to", spec.actor},
                     {"attempt_kind", spec.kind},
                     {"source", toId(config_.source)}};
    for (auto it = spec.payload.cbegin(); it != spec.payload.cend(); ++it) {
        fire.insert(it.key(), it.value());
    }
    if (spec.counted)
        record(&a, QStringLiteral("fire"), fire).actor = spec.caller;
    a.connection_ = acquireConnection();
    a.root_ = scenario_.handle(a);
    resume(a, a.root_.handle());
}

void Run::resume(Attempt& a, std::coroutine_handle<> h) {
    a.resumeAt_ = {};
    h.resume();
    afterResume(a);
}

void Run::afterResume(Attempt& a) {
    if (a.crashed_) {
        a.root_ = Task<Reply>{};
        return;
    }
    if (!a.root_.done())
        return;  // suspended on its next step, already scheduled
    Reply reply;
    try {
        reply = a.root_.result();
    } catch (const std::exception& ex) {
        reply = Reply{Response::Error, QString::fromUtf8(ex.what())};
    }
    a.root_ = Task<Reply>{};
    if (a.crashesAt(CrashPoint::BeforeResponse)) {
        crash(a, CrashPoint::BeforeResponse);
        return;
    }
    finishAttempt(a, reply.response, reply.result);
}

void Run::suspendOnSql(Attempt& a, std::coroutine_handle<> h, QString sql, QVariantList params) {
    a.op_ = Attempt::Op::Sql;
    a.opSql_ = std::move(sql);
    a.opParams_ = std::move(params);
    a.resumeAt_ = h;
    schedule(std::max(now_, a.readyAt_), [this, &a] { runPendingSql(a); });
}

void Run::suspendOnWait(Attempt& a, std::coroutine_handle<> h, qint64 ms, const QString& what) {
    record(&a, QStringLiteral("work"), {{"ms", ms}, {"what", what}});
    a.op_ = Attempt::Op::Wait;
    a.resumeAt_ = h;
    schedule(now_ + ms, [this, &a] {
        a.op_ = Attempt::Op::None;
        resume(a, a.resumeAt_);
    });
}

void Run::pause(Attempt& a, std::coroutine_handle<> h) {
    const qint64 ms = 2 * config_.leaseMs;
    record(&a, QStringLiteral("pause"),
           {{"point", toId(CrashPoint::LongPause)}, {"ms", ms}, {"until_ms", now_ + ms}});
    a.op_ = Attempt::Op::Wait;
    a.resumeAt_ = h;
    schedule(now_ + ms, [this, &a] {
        a.op_ = Attempt::Op::None;
        record(&a, QStringLiteral("resume"), {{"paused_ms", 2 * config_.leaseMs}});
        resume(a, a.resumeAt_);
    });
}

void Run::runPendingSql(Attempt& a) {
    SqlConnection& c = *a.connection_;
    const bool wasInTransaction = c.inTransaction();
    const SqlResult r = c.exec(a.opSql_, a.opParams_);
    traceSql(&a, c, a.opSql_, a.opParams_, r);
    if (r.isBusy()) {
        // SQLite said the database is locked: wait until the holder's
        // transaction ends, then run the same statement again.
        const bool known = writer_ && writer_ != &c;
        record(&a, QStringLiteral("lock-wait"),
               {{"connection", c.id()}, {"holder", known ? writer_->id() : QString()}});
        if (known) {
            lockWaiters_.push_back(&a);
        } else {
            schedule(now_ + 1, [this, &a] { runPendingSql(a); });
        }
        return;
    }
    // The connection knows whether it holds a (write) transaction now.
    if (!wasInTransaction && c.inTransaction())
        writer_ = &c;
    if (wasInTransaction && !c.inTransaction())
        transactionEnded(&c);
    a.lastResult_ = r;
    a.op_ = Attempt::Op::None;
    a.readyAt_ = now_ + 1 + random(2);  // a statement takes 1-2 virtual ms
    resume(a, a.resumeAt_);
}

void Run::transactionEnded(SqlConnection* connection) {
    if (writer_ != connection)
        return;
    writer_ = nullptr;
    std::deque<Attempt*> waiters;
    waiters.swap(lockWaiters_);
    for (Attempt* w : waiters) {
        schedule(now_, [this, w] { runPendingSql(*w); });
    }
}

void Run::traceSql(const Attempt* a, const SqlConnection& c, const QString& sql,
                   const QVariantList& params, const SqlResult& r, const QString& cause) {
    TraceEvent e;
    e.kind = QStringLiteral("sql");
    e.actor = a ? a->actor() : QStringLiteral("database");
    if (a) {
        e.intent = a->intent();
        e.attempt = a->number();
    }
    e.connection = c.id();
    e.sql = sql;
    e.params = params;
    e.rows = r.ok ? r.rows : 0;
    e.error = r.errorText();
    if (!cause.isEmpty())
        e.data.insert(QStringLiteral("cause"), cause);
    record(std::move(e));
}

void Run::crash(Attempt& a, CrashPoint point) {
    a.crashed_ = true;
    a.crashedAt_ = point;
    record(&a, QStringLiteral("crash"), {{"point", toId(point)}});
    if (a.connection_) {
        SqlConnection& c = *a.connection_;
        if (c.inTransaction()) {
            const QString rollback = QStringLiteral("ROLLBACK");
            const SqlResult r = c.exec(rollback);
            traceSql(&a, c, rollback, {}, r, QStringLiteral("crash"));
        }
        transactionEnded(&c);
        releaseConnection(a, true);
    }
    finishAttempt(a, Response::None, {});
}

void Run::finishAttempt(Attempt& a, Response response, const QString& result) {
    if (a.connection_) {
        SqlConnection& c = *a.connection_;
        if (c.inTransaction()) {
            const QString rollback = QStringLiteral("ROLLBACK");
            const SqlResult r = c.exec(rollback);
            traceSql(&a, c, rollback, {}, r, QStringLiteral("handler ended inside a transaction"));
            transactionEnded(&c);
        }
        releaseConnection(a, false);
    }
    a.finished_ = true;
    if (!a.counted())
        return;
    QVariantMap data{{"to", a.caller()}, {"response", toId(response)}};
    if (!result.isEmpty())
        data.insert(QStringLiteral("result"), result);
    if (response == Response::None)
        data.insert(QStringLiteral("lost"), true);
    record(&a, QStringLiteral("response"), data);
    IntentState& state = intents_[a.intent()];
    state.responses << response;
    if (isDefinite(response))
        state.answered = true;
    maybeRetry(a, response);
}

void Run::maybeRetry(Attempt& a, Response response) {
    if (response != Response::None && response != Response::InProgress)
        return;
    if (!scenario_.info().callerRetries)
        return;
    // Each attempt that got no definite answer is retried by its own caller,
    // up to --max-retries times.
    if (a.retryDepth_ >= config_.maxRetries)
        return;
    AttemptSpec retry;
    retry.retryDepth = a.retryDepth_ + 1;
    retry.intent = a.intent();
    retry.at = now_ + retryIntervalMs(config_.source, config_.visibilityMs);
    retry.caller = a.caller();
    retry.actor = a.actor();
    retry.kind = QStringLiteral("retry");
    retry.payload = a.payload();
    fire(retry);
}

SqlConnection* Run::acquireConnection() {
    if (idle_.empty()) {
        idle_.push_back(
            std::make_unique<SqlConnection>(dbPath_, QStringLiteral("c%1").arg(nextConnection_++)));
    }
    busy_.push_back(std::move(idle_.back()));
    idle_.pop_back();
    return busy_.back().get();
}

void Run::releaseConnection(Attempt& a, bool close) {
    auto it = std::find_if(busy_.begin(), busy_.end(),
                           [&a](const auto& c) { return c.get() == a.connection_; });
    a.connection_ = nullptr;
    if (it == busy_.end())
        return;
    if (!close)
        idle_.push_back(std::move(*it));
    busy_.erase(it);
}

std::unique_ptr<SqlConnection> Run::openReader() const {
    return std::make_unique<SqlConnection>(dbPath_, QStringLiteral("reader"));
}

}  // namespace idem
