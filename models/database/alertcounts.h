// The alerts a run raised, as its database holds them at the end: the outcome
// panel says how many repeats each alerted key had by then.
#pragma once

#include <QMap>
#include <QString>

namespace idem {

class SqlConnection;

// Alerted key → its repeats when the run ended, from the alerts table (empty
// when the table cannot be read).
QMap<QString, qint64> alertCountsAtEnd(SqlConnection& db);

}  // namespace idem
