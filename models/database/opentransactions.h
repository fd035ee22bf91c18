// Which connections of a run have a transaction open, followed through its
// sql events. What a statement does inside a transaction is not yet in the
// database for anyone else: it stays only when the transaction commits, and a
// rollback (an explicit one, or the one a crash causes) takes it away. The
// state diagram and the captions follow this, so that neither shows what the
// database does not hold.
#pragma once

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

class OpenTransactions {
public:
    // Follows one event; for an sql event that succeeded, what it did to its
    // connection's transaction. A failed COMMIT leaves it open; a failed
    // ROLLBACK still ends it (SQLite rolls back whatever it can).
    TxChange follow(const TraceEvent& e);
    bool isOpen(qint16 connection) const { return open_.contains(connection); }
    // The connection of the latest sql event: a transition or a note is
    // recorded right after the statement that made it, on that connection.
    qint16 latest() const { return latest_; }
    bool latestOpen() const { return isOpen(latest_); }
    void clear();

private:
    QSet<qint16> open_;
    qint16 latest_ = -1;
};

}  // namespace idem
