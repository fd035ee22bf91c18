#include "sqlitecodes.h"

namespace idem {

SqlOutcome sqliteOutcome(int code) {
    switch (code) {
        case sqlite::Ok:
            return SqlOutcome::Ok;
        case sqlite::ConstraintUnique:
        case sqlite::ConstraintPrimaryKey:
            return SqlOutcome::UniqueViolation;
        case sqlite::ConstraintCheck:
            return SqlOutcome::CheckViolation;
        default:
            break;
    }
    switch (sqlite::primary(code)) {
        case sqlite::Busy:
            return SqlOutcome::LockBusy;
        case sqlite::Full:
        case sqlite::IoErr:
            return SqlOutcome::StorageFailure;
        default:
            return SqlOutcome::OtherError;
    }
}

}  // namespace idem
