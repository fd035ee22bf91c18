// Who waits for whom on a real server (SPEC section 8): a lock-wait event
// names sessions (c1, c2 ...) and the server's description of the lock; the
// captions and the sequence diagram name attempts (#1, #2) and the lock's
// index instead. Sessions are reused by later attempts, so an attempt is
// found from the events before: the latest one that ran on that session.
#pragma once

#include "traceevent.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace idem {

// One attempt of one intent, as the trace numbers it.
struct AttemptRef {
    qint32 intent = -1;
    qint32 attempt = 0;  // negative: a numbered helper of `actor` (processTag)
    NameId actor = 0;
    bool operator==(const AttemptRef&) const = default;
};

// Follows a run's events in order and says which attempt a session serves.
class SessionAttempts {
public:
    void follow(const TraceEvent& e);
    void clear() { bySession_.clear(); }
    // The attempt whose statement last ran on `session` ("c2"); attempt 0
    // when none did.
    AttemptRef of(const QString& session) const { return bySession_.value(session); }
    // The attempts behind a lock-wait's holder field ("c3, c2"), in its order.
    QList<AttemptRef> holders(const TraceEvent& lockWait) const;

private:
    QHash<QString, AttemptRef> bySession_;
};

// The same for an event at `index` of a trace, reading the events before it
// (at most `lookBack` of them).
QList<AttemptRef> lockHolders(const QList<TraceEvent>& events, qsizetype index,
                              qsizetype lookBack = 4096);

// A server's lock wait (it names the lock), not SQLite's single writer.
bool isServerLockWait(const TraceEvent& e);

// The lock as a student reads it: the index it is on (MariaDB:
// "uk_orders_request_id"), else the server's own words without the sessions
// (PostgreSQL: "transactionid ShareLock").
QString lockName(const QString& lock);
// The lock in a few words of the reader's language: on MariaDB "gap lock on
// uk_orders_request_id", "lock on uk_orders_request_id"; on PostgreSQL "row
// lock on orders (0,1)", "the same key, not committed yet" (a writer waiting
// on the holder's transaction id), "table lock on orders"; else the
// server's own words.
QString lockLabel(const QString& lock);
// A gap lock (InnoDB's lock on the place where a key would go: the
// supremum pseudo-record, or a GAP mode), which locking reads of an absent
// key take.
bool isGapLock(const QString& lock);

// Whether the sql event at `index` is a statement released from a server
// lock wait: its attempt's event before it (at most `lookBack` back) is that
// wait. Returns the wait's index, or -1.
qsizetype releasedWait(const QList<TraceEvent>& events, qsizetype index, qsizetype lookBack = 4096);

}  // namespace idem
