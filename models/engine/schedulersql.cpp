// How a process's statements run (Scheduler): at once on SQLite, where a
// locked database is polled in virtual time; sent and settled on a server,
// where a statement may wait for another session's lock (parked until it
// ends, a lock timeout or a deadlock); and each one traced as it ran.
#include "scheduler.h"

#include "attempt.h"
#include "sqlconnection.h"
#include "sqlstatement.h"

#include <algorithm>

namespace idem {

namespace {

// How long a process polls a database locked by someone outside the run
// before it gives up (virtual ms, one poll each).
constexpr int kMaxBusyPolls = 1'000;

}  // namespace

qint16 Scheduler::connectionNumber(const SqlConnection& c) {
    return qint16(c.id().mid(1).toInt());
}

void Scheduler::runPendingSql(Process& p) {
    if (backend_->stepped()) {
        runSteppedSql(p);
        return;
    }
    SqlConnection& c = *p.connection;
    Attempt::SqlStep& step = *p.pendingSql;
    const bool wasInTransaction = c.inTransaction();
    SqlResult r = c.exec(step.sql, step.params);
    traceSql(p.attempt.get(), c, step.sql, step.params, r);
    if (r.isBusy()) {
        // The database said it is locked: wait until the holder's
        // transaction ends, then run the same statement again.
        SqlConnection* holder = locks_.holderOf(LockTable::wholeDatabase());
        const bool known = holder && holder != &c;
        ++cost_.lockWaits;
        recordFor(*p.attempt, EventKind::LockWait,
                  {{"connection", c.id()}, {"holder", known ? holder->id() : QString()}});
        if (known) {
            locks_.await(holder, [this, &p] { runPendingSql(p); });
            return;
        }
        // Locked by something outside the run: poll, but not for ever.
        if (++p.busyPolls <= kMaxBusyPolls) {
            schedule(now_ + 1, [this, &p] { runPendingSql(p); });
            return;
        }
        r.message = QStringLiteral(
                        "the database stayed locked by a program outside the run for "
                        "%1 ms; gave up")
                        .arg(kMaxBusyPolls);
    }
    if (r.isStorageFailure()) {
        // A full or failing disk says nothing about the technique: stop the
        // run instead of judging what the disk refused as business errors.
        fail(RunFailure::Io, QStringLiteral("the database file %1 could not be written: %2")
                                 .arg(backend_->location(), r.errorText()));
        while (!queue_.empty()) queue_.pop();
        return;
    }
    // The connection knows whether it holds a (write) transaction now; with
    // one writer at a time, an open transaction holds the database's lock.
    if (!wasInTransaction && c.inTransaction() && backend_->singleWriter())
        locks_.grant(&c, LockTable::wholeDatabase());
    if (wasInTransaction && !c.inTransaction())
        transactionEnded(&c);
    p.busyPolls = 0;
    step.result = std::move(r);
    p.pendingSql = nullptr;
    p.readyAt = now_ + 1 + random(2);  // a statement takes 1-2 virtual ms
    resume(p, p.resumeAt);
}

namespace {
const QString kSavepoint = QStringLiteral("SAVEPOINT may_fail");
const QString kReleaseSavepoint = QStringLiteral("RELEASE SAVEPOINT may_fail");
const QString kRollbackToSavepoint = QStringLiteral("ROLLBACK TO SAVEPOINT may_fail");
}  // namespace

void Scheduler::runSteppedSql(Process& p) {
    Attempt::SqlStep& step = *p.pendingSql;
    // A statement the handler lets fail (a unique key's conflict) must not
    // take the transaction with it where one error aborts it all.
    p.savepoint = step.mayFail && step.shieldsTransaction && backend_->abortsTransactionOnError() &&
                  p.connection->inTransaction();
    if (p.savepoint)
        traceSql(p.attempt.get(), *p.connection, kSavepoint, {}, p.connection->exec(kSavepoint));
    backend_->send(*p.connection, step.sql, step.params);
    settleStepped(p);
}

// The statement in flight has finished, or it certainly waits for a lock
// that only a later step of another session can free: then its process is
// parked, and the statement's end is an event of the step that freed it.
void Scheduler::settleStepped(Process& p) {
    SqlConnection& c = *p.connection;
    std::vector<SqlConnection*> others;
    others.reserve(busy_.size());
    for (const auto& b : busy_) others.push_back(b.get());
    SqlResult r;
    QStringList waitsOn;
    QString lock;
    if (!backend_->settle(c, others, &r, &waitsOn, &lock)) {
        if (!p.parked) {
            p.parked = true;
            p.wait = nextWait_++;
            parked_.push_back(&p);
            ++cost_.lockWaits;
            // Connections outside the run that hold it, as the server names
            // them (the lock's description ends with them): a field of their own.
            static const QString kOutside = QStringLiteral(" (outside the run: ");
            QString outside;
            if (const qsizetype at = lock.indexOf(kOutside); at >= 0 && lock.endsWith(u')')) {
                outside = lock.mid(at + kOutside.size()).chopped(1);
                lock.truncate(at);
            }
            Fields fields{{"connection", c.id()},
                          {"holder", waitsOn.join(QStringLiteral(", "))},
                          {"lock", lock}};
            if (!outside.isEmpty())
                fields.set("outside", outside);
            recordFor(*p.attempt, EventKind::LockWait, std::move(fields));
            if (config_.lockTimeoutMs > 0)
                scheduleLockTimeout(p.wait);
        }
        // Another parked statement may have ended meanwhile: the server broke
        // a deadlock this one closed by choosing that one as its victim.
        wakeFinished();
        return;
    }
    if (p.parked) {
        p.parked = false;
        std::erase(parked_, &p);
    }
    Attempt::SqlStep& step = *p.pendingSql;
    traceSql(p.attempt.get(), c, step.sql, step.params, r, r.ok ? nullptr : p.cancelledAs);
    p.cancelledAs = nullptr;
    if (p.savepoint) {
        p.savepoint = false;
        const QString& end = r.ok ? kReleaseSavepoint : kRollbackToSavepoint;
        traceSql(p.attempt.get(), c, end, {}, c.exec(end));
    }
    if (r.outcome == SqlOutcome::Deadlock)
        ++cost_.deadlocks;
    else if (r.outcome == SqlOutcome::SerializationFailure)
        ++cost_.serializationFailures;
    if (r.isStorageFailure()) {
        fail(RunFailure::Io, QStringLiteral("the server could not write: %1").arg(r.errorText()));
        while (!queue_.empty()) queue_.pop();
        return;
    }
    // Locks go when a transaction ends (or a statement fails and the
    // server undoes it): the parked statements may go on.
    const bool released = !c.inTransaction() || !r.ok;
    step.result = std::move(r);
    p.pendingSql = nullptr;
    p.readyAt = now_ + 1 + random(2);  // a statement takes 1-2 virtual ms
    resume(p, p.resumeAt);
    if (released)
        wakeParked();
    else
        wakeFinished();
}

// --lock-timeout-ms: the wait, if it still lasts at that virtual instant,
// is cancelled as a server's lock_timeout would (never by a real timer, so
// that the run repeats exactly).
void Scheduler::scheduleLockTimeout(qint64 wait) {
    schedule(now_ + config_.lockTimeoutMs, [this, wait] {
        Process* p = parkedWith(wait);
        if (!p)
            return;  // the lock came first
        p->cancelledAs = "lock-timeout";
        backend_->cancel(*p->connection);
        settleStepped(*p);
    });
}

// Every statement still running waits for another session of the run and
// the scheduler has nothing left to send: no step of the run can end the
// waits, and the server, which did not break them, never will (InnoDB misses
// some cycles of gap locks). The lab cancels the wait that began first, as
// a lock wait timeout would end it; the trace says the lab did, not the
// server.
void Scheduler::cancelAStuckWait() {
    if (parked_.empty())
        return;
    // Unless what a statement waits for is another client's of the server:
    // that wait lasts as long as the client holds on (the stage says so), or
    // until the run is stopped; never cancelled as a timeout nobody set.
    std::vector<SqlConnection*> waiting, all;
    parkedConnections(&waiting, &all);
    switch (backend_->awaitOutside(waiting, all, waitStop())) {
        case Backend::OutsideWait::Waited:
            wakeParked();
            return;
        case Backend::OutsideWait::Stopped:
            fail(RunFailure::Cancelled, QStringLiteral("the run was stopped before its end"));
            while (!queue_.empty()) queue_.pop();
            return;
        case Backend::OutsideWait::None:
            break;
    }
    Process& p = *parked_.front();
    const qint64 wait = p.wait;
    p.cancelledAs = "lab-cancel";
    backend_->cancel(*p.connection);
    settleStepped(p);
    if (parkedWith(wait)) {
        fail(RunFailure::Io, QStringLiteral("the server did not end a statement the lab "
                                            "cancelled (%1 waits on: the run's other sessions)")
                                 .arg(p.connection->id()));
        while (!queue_.empty()) queue_.pop();
    }
}

// A wait is found again by its number, never by its process's address: the
// process may have ended and another taken its memory by the time a wake
// scheduled for it runs.
Scheduler::Process* Scheduler::parkedWith(qint64 wait) const {
    const auto waiting = std::find_if(parked_.cbegin(), parked_.cend(),
                                      [wait](const Process* p) { return p->wait == wait; });
    return waiting == parked_.cend() ? nullptr : *waiting;
}

void Scheduler::scheduleSettle(qint64 wait) {
    schedule(now_, [this, wait] {
        if (Process* p = parkedWith(wait))
            settleStepped(*p);
    });
}

void Scheduler::wakeFinished() {
    for (Process* w : parked_) {
        if (w->connection && backend_->finished(*w->connection))
            scheduleSettle(w->wait);
    }
}

// A lock was let go: each waiting statement may go on. Those the server
// shows still waiting for a session that only a later step moves are left
// parked, known in one look for them all (one look a waiter, each after
// MariaDB's 100 ms, made a run of many waiters quadratic in time).
void Scheduler::wakeParked() {
    if (parked_.empty())
        return;
    std::vector<SqlConnection*> waiting, all;
    parkedConnections(&waiting, &all);
    const std::vector<bool> blocked = backend_->stillBlocked(waiting, all);
    for (std::size_t i = 0; i < parked_.size(); ++i) {
        if (i >= blocked.size() || !blocked[i])
            scheduleSettle(parked_[i]->wait);
    }
}

void Scheduler::parkedConnections(std::vector<SqlConnection*>* waiting,
                                  std::vector<SqlConnection*>* all) const {
    waiting->reserve(parked_.size());
    for (const Process* w : parked_) waiting->push_back(w->connection);
    all->reserve(busy_.size());
    for (const auto& b : busy_) all->push_back(b.get());
}

void Scheduler::transactionEnded(SqlConnection* connection) {
    for (LockTable::Wake& wake : locks_.release(connection)) schedule(now_, std::move(wake));
}

void Scheduler::traceSql(const Attempt* a, const SqlConnection& c, const QString& sql,
                         const QVariantList& params, const SqlResult& r, const char* cause) {
    if (a) {
        ++cost_.statements;
        const SqlVerb verb = sqlVerb(sql);
        if ((verb == SqlVerb::Begin || sql == backend_->beginStatement()) && r.ok)
            ++cost_.transactions;
        else if (r.ok && changesRows(verb))
            cost_.rowsWritten += r.rows;
    }
    if (!tracing())
        return;
    TraceEvent e = sqlEvent(c, sql, params, r);
    if (a) {
        e.actor = a->actorId();
        e.intent = a->intent();
        e.attempt = a->number();
    }
    // A server's code is its own: the trace also says what it means.
    if (!r.ok && backend_->stepped()) {
        e.fields.set("outcome", QString::fromLatin1(outcomeId(r.outcome)));
        e.fields.set("state", r.state);
    }
    if (cause)
        e.fields.set("cause", QString::fromLatin1(cause));
    keepValues(e, r);
    record(std::move(e));
}

}  // namespace idem
