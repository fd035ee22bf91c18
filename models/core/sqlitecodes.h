// SQLite's result codes in the words every backend shares. In core, not
// beside the SQLite session, because a trace names SQLite's outcomes by their
// codes alone (TraceEvent::outcome) and the trace sits below the databases.
#pragma once

#include "sqloutcome.h"

namespace idem {

// SQLite's result codes that the SQLite backend acts on (the extended codes
// are what a connection reports; the primary code is the low byte). Numbers,
// as in sqlite3.h, so that this header stays lean.
namespace sqlite {
constexpr int Ok = 0;
constexpr int Error = 1;
constexpr int Busy = 5;
constexpr int Full = 13;
constexpr int IoErr = 10;
constexpr int Constraint = 19;
constexpr int ConstraintCheck = 275;
constexpr int ConstraintPrimaryKey = 1555;
constexpr int ConstraintUnique = 2067;
constexpr int primary(int code) {
    return code & 0xff;
}
}  // namespace sqlite

// What an SQLite result code means in the words every backend shares.
SqlOutcome sqliteOutcome(int code);

}  // namespace idem
