#include "opentransactions.h"

#include "traceevent.h"

namespace idem {

TxChange transactionChange(const QString& sql) {
    const QString head = sql.trimmed().section(QLatin1Char(' '), 0, 1).toUpper();
    const QString verb = head.section(QLatin1Char(' '), 0, 0);
    if (verb == QLatin1String("BEGIN") || head == QLatin1String("START TRANSACTION"))
        return TxChange::Began;
    if (verb == QLatin1String("COMMIT") || verb == QLatin1String("END"))
        return TxChange::Committed;
    if (verb == QLatin1String("ROLLBACK") && !head.endsWith(QLatin1String(" TO")))
        return TxChange::RolledBack;
    return TxChange::None;
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
