// Every lock a server holds or awaits for a run's sessions, read from what
// the server shows, in the lab's words (lockrow.h). Pure functions over
// what the observer read, so that they are tested on canned rows:
//
// - MariaDB 10.11: SHOW ENGINE INNODB STATUS with innodb_status_output_locks
//   ON lists every lock of every transaction (record, gap, next-key and
//   insert-intention locks with their index and record). INNODB_LOCKS lists
//   only the locks of a wait, and from a cache InnoDB refreshes at most every
//   100 ms; performance_schema has no data_locks in MariaDB.
// - PostgreSQL 15: pg_locks for the run's backends (table, transaction and
//   tuple locks; a row lock shows there only as a waiter's tuple lock), and
//   pgrowlocks (in Debian's postgresql-15) for the row locks themselves,
//   which live in the rows' xmax.
#pragma once

#include "lockrow.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

namespace idem::live {

// The TRANSACTIONS section of SHOW ENGINE INNODB STATUS. `sessionOf` names
// the run's connections by their thread id; other transactions are left
// out, though a waiter may wait for them (waitsForOthers). Whom a waiting
// lock waits for is worked out as InnoDB decides it (lock_rec_has_to_wait):
// the granted locks of other transactions on the same record that conflict.
struct InnodbLocks {
    LockRows rows;
    // InnoDB prints at most 10 lock structures per transaction.
    bool truncated = false;
};
InnodbLocks innodbLocks(const QString& status, const QHash<qint64, QString>& sessionOf);

// A field of a record as InnoDB prints it ("len 4; hex 80000001"): text
// when every byte is printable, else a signed integer as InnoDB stores it
// (big-endian, the sign bit flipped).
QString innodbFieldText(const QByteArray& bytes);

// One row of pg_locks, as PgObserver reads it.
struct PgLockEntry {
    qint64 pid = 0;
    QString locktype;  // relation, tuple, transactionid
    QString mode;
    bool granted = true;
    QString table;           // relname (relation and tuple)
    QString relkind;         // r: a table, i: an index ...
    QString ctid;            // tuple: "(0,1)"
    qint64 xid = 0;          // transactionid
    QList<qint64> blockers;  // a waiter's pg_blocking_pids
};
// One row of pgrowlocks(table).
struct PgRowLockEntry {
    QString table;
    QString ctid;
    QStringList modes;  // "For Update", "No Key Update" ...
    QList<qint64> pids;
};
// pg_locks and pgrowlocks, for the backends `sessionOf` names. `rowText`
// gives a row's values by (table, ctid), so that a tuple lock and a row lock
// on the same row read alike.
LockRows pgLocks(const QList<PgLockEntry>& locks, const QList<PgRowLockEntry>& rowLocks,
                 const QHash<qint64, QString>& sessionOf,
                 const QHash<QPair<QString, QString>, QString>& rowText);

// The same order every time: by session (c1 before c10), then kind, table,
// index, record, mode.
void sortLockRows(LockRows* rows);

}  // namespace idem::live
