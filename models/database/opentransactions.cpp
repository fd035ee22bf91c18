#include "opentransactions.h"

#include "sqlstatement.h"
#include "traceevent.h"

#include <algorithm>
#include <utility>

namespace idem {

TxChange transactionChange(const QString& sql) {
    switch (sqlVerb(sql)) {
        case SqlVerb::Begin:
            return TxChange::Began;
        case SqlVerb::Commit:
            return TxChange::Committed;
        case SqlVerb::Rollback:
            return TxChange::RolledBack;
        default:
            return TxChange::None;
    }
}

namespace {

constexpr int kInnoDbDeadlock = 1213;  // ER_LOCK_DEADLOCK

qint64 attemptOf(const TraceEvent& e) {
    return qint64(e.intent) * 1'000'000 + e.attempt;
}

}  // namespace

qint16 OpenTransactions::droppedBefore(const TraceEvent* next) {
    if (dying_ < 0)
        return -1;
    const qint16 dying = std::exchange(dying_, -1);
    // SQLite: the lab's own ROLLBACK comes right after the crash.
    if (next && next->is(EventKind::Sql) && next->connection == dying)
        return -1;
    return open_.remove(dying) ? dying : -1;
}

TxChange OpenTransactions::follow(const TraceEvent& e) {
    if (e.is(EventKind::Crash)) {
        const qint16 connection = connectionOf_.value(attemptOf(e), -1);
        dying_ = isOpen(connection) ? connection : -1;
        return TxChange::None;
    }
    if (!e.is(EventKind::Sql))
        return TxChange::None;
    latest_ = e.connection;
    if (e.attempt != 0)
        connectionOf_.insert(attemptOf(e), e.connection);
    // InnoDB rolls back the whole transaction of a deadlock's victim, and
    // nothing more is sent to end it (PostgreSQL's stays open, aborted,
    // until the ROLLBACK that follows).
    if (e.code == kInnoDbDeadlock && e.outcome() == SqlOutcome::Deadlock)
        return open_.remove(e.connection) ? TxChange::RolledBack : TxChange::None;
    const TxChange change = transactionChange(e.sql);
    switch (change) {
        case TxChange::None:
            return change;
        case TxChange::Began:
            if (e.failed())
                return TxChange::None;
            open_.insert(e.connection);
            return change;
        case TxChange::Committed:
            if (e.failed())
                return TxChange::None;
            break;
        case TxChange::RolledBack:
            break;
    }
    // Ending a transaction that was never seen to begin (a trace joined in
    // the middle) ends nothing this follower knows of.
    return open_.remove(e.connection) ? change : TxChange::None;
}

qint16 droppedAtCrash(const QList<TraceEvent>& events, qsizetype crash, qsizetype lookBack) {
    if (crash < 0 || crash >= events.size() || !events[crash].is(EventKind::Crash))
        return -1;
    const qint64 attempt = attemptOf(events[crash]);
    const qsizetype stop = std::max<qsizetype>(0, crash - lookBack);
    qint16 connection = -1;
    for (qsizetype i = crash - 1; i >= stop; --i) {
        const TraceEvent& e = events[i];
        if (!e.is(EventKind::Sql))
            continue;
        if (connection < 0) {
            if (e.attempt == 0 || attemptOf(e) != attempt)
                continue;
            connection = e.connection;
        } else if (e.connection != connection) {
            continue;
        }
        // The latest statement on the connection that opened or ended a
        // transaction tells whether one is open.
        if (e.code == kInnoDbDeadlock && e.outcome() == SqlOutcome::Deadlock)
            return -1;
        const TxChange change = transactionChange(e.sql);
        if (change == TxChange::None || (e.failed() && change != TxChange::RolledBack))
            continue;
        if (change != TxChange::Began)
            return -1;
        const bool lab = crash + 1 < events.size() && events[crash + 1].is(EventKind::Sql) &&
                         events[crash + 1].connection == connection;
        return lab ? qint16(-1) : connection;
    }
    return -1;
}

void OpenTransactions::clear() {
    open_.clear();
    connectionOf_.clear();
    latest_ = -1;
    dying_ = -1;
}

}  // namespace idem
