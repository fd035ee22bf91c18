// Which connections of a run have a transaction open, followed through its
// sql events. What a statement does inside a transaction is not yet in the
// database for anyone else: it stays only when the transaction commits, and a
// rollback (an explicit one, or the one a crash causes) takes it away. The
// state diagram and the captions follow this, so that neither shows what the
// database does not hold.
//
// A crash on SQLite is followed by the ROLLBACK the lab sends for the dead
// process (cause "crash"). On a server the process's connection just closes
// and the server rolls its transaction back: no statement says so, and the
// follower ends that transaction itself (droppedBefore).
#pragma once

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QtGlobal>

namespace idem {

struct TraceEvent;

// What a statement does to its connection's transaction.
enum class TxChange { None, Began, Committed, RolledBack };

// Read from the statement's text: BEGIN, START TRANSACTION; COMMIT, END;
// ROLLBACK (not ROLLBACK TO a savepoint, which keeps the transaction open).
TxChange transactionChange(const QString& sql);

// The connection whose open transaction a server rolled back when the
// crash at events[crash] closed it (no ROLLBACK of the lab's follows, as
// it does on SQLite); -1 when the crash left no transaction open. Looks back
// at most `lookBack` events for the attempt's statements.
qint16 droppedAtCrash(const QList<TraceEvent>& events, qsizetype crash,
                      qsizetype lookBack = 100'000);

class OpenTransactions {
public:
    // Follows one event; for an sql event that succeeded, what it did to its
    // connection's transaction. A failed COMMIT leaves it open; a failed
    // ROLLBACK still ends it (SQLite rolls back whatever it can).
    // A crash event marks the crashed attempt's open transaction as its
    // connection's last (see droppedBefore).
    TxChange follow(const TraceEvent& e);
    // The connection whose transaction the server rolled back when its
    // process died, if `next` (null: the end of a step or of the trace) is
    // not the ROLLBACK the lab sends for it: that transaction is ended
    // here. -1 when none. Called before following each event, and at the end
    // of a step.
    qint16 droppedBefore(const TraceEvent* next);
    bool isOpen(qint16 connection) const { return open_.contains(connection); }
    // The connection of the latest sql event: a transition or a note is
    // recorded right after the statement that made it, on that connection.
    qint16 latest() const { return latest_; }
    bool latestOpen() const { return isOpen(latest_); }
    void clear();

private:
    QSet<qint16> open_;
    QHash<qint64, qint16> connectionOf_;  // (intent, attempt) → its latest connection
    qint16 latest_ = -1;
    qint16 dying_ = -1;  // an open transaction whose process crashed
};

}  // namespace idem
