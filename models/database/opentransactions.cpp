#include "opentransactions.h"

#include "sqlstatement.h"
#include "traceevent.h"

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

TxChange OpenTransactions::follow(const TraceEvent& e) {
    if (!e.is(EventKind::Sql))
        return TxChange::None;
    latest_ = e.connection;
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

void OpenTransactions::clear() {
    open_.clear();
    latest_ = -1;
}

}  // namespace idem
