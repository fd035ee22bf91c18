#pragma once
#include <QtGlobal>
namespace idem {
// What became of a statement, the same words for every database: the
// engine and the scenarios act on these, the native code stays beside them.
enum class SqlOutcome : quint8 {
    Ok,
    LockBusy,              // another transaction holds the lock (SQLite: SQLITE_BUSY)
    LockTimeout,           // a lock wait given up (1205, 55P03)
    Deadlock,              // the server broke a cycle and rolled this one back (1213, 40P01)
    SerializationFailure,  // the server refused to serialize (40001)
    UniqueViolation,       // a unique key or primary key (23505, 1062, SQLITE_CONSTRAINT_UNIQUE)
    CheckViolation,        // a CHECK constraint (23514, 4025, SQLITE_CONSTRAINT_CHECK)
    StorageFailure,        // the disk is full or failing
    OtherError,
};
}  // namespace idem
