// One lock a database holds or awaits for a session of a run, in the lab's
// words (a row lock, a gap lock, a next-key lock ...) beside the server's
// own mode: what the Locks view lists, and what a trace's locks event keeps
// (models/database/locksnapshot.h). Filled by the live layer from a server's lock
// tables (live/serverlocks.h); plain data, shared by both libraries.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace idem {

// The kinds of lock, as the trace names them.
namespace lockkind {
// InnoDB's record locks.
inline constexpr const char* kRow = "row";           // the record, not the gap before it
inline constexpr const char* kGap = "gap";           // the gap before a record (or the end)
inline constexpr const char* kNextKey = "next-key";  // the record and the gap before it
inline constexpr const char* kInsertIntention = "insert-intention";  // an INSERT waiting for a gap
// Both servers.
inline constexpr const char* kTable = "table";                     // the whole table
inline constexpr const char* kTableIntention = "table-intention";  // intends to lock rows in it
// PostgreSQL.
inline constexpr const char* kTransaction = "transaction";  // a transaction id: its end is awaited
inline constexpr const char* kTuple = "tuple";              // a place in the queue for a row
// SQLite (the lab's own lock table): one lock for the whole database.
inline constexpr const char* kDatabase = "database";
}  // namespace lockkind

struct LockRow {
    QString session;  // c1, c2 ...: the attempt is the one the trace last ran on it
    QString kind;     // lockkind
    QString mode;     // the server's word: X, S, IX, ShareLock, For Update ...
    QString table;
    QString index;   // InnoDB: the index the record is in
    QString record;  // the key ('req-1', 4), "supremum" (the end of an index), a row's values
    bool granted = true;
    // Waiting: the sessions holding what it waits for, and whether a
    // connection outside the run does too.
    QStringList waitsFor;
    bool waitsForOthers = false;
    // PostgreSQL's transaction locks: whose transaction it is (a waiter's
    // lock names the holder), and its id, a server id that differs from
    // run to run (never compared).
    QString of;
    qint64 xid = 0;

    bool operator==(const LockRow&) const = default;
};

using LockRows = QList<LockRow>;

}  // namespace idem
