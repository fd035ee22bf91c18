// The databases earlier --connect runs left on a user's server. A run's
// database goes with the run, and a guard drops it should the lab be killed;
// only a machine that lost power (or a guard that could not reach the server)
// leaves one behind. A later --connect run says what it finds; with --clean
// it drops them first.
//
// The lab writes on each database it makes what it is: "idemlab run
// <time>" when made, "idemlab kept <time>" after --keep. A leftover is one
// named as the lab names them (idemlab_ and 12 hex digits), not kept, that
// no session is in, made a minute ago or more (or made by an older version,
// which wrote no comment).
#pragma once

#include "session.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <atomic>

namespace idem::live {

// What the lab writes on a database it makes, and on one it keeps.
QString madeComment(const QDateTime& now);
QString keptComment(const QDateTime& now);

// The statement that writes `comment` on `database` (COMMENT ON DATABASE,
// ALTER DATABASE ... COMMENT).
QString commentStatement(ServerKind kind, const QString& database, const QString& comment);

struct Leftovers {
    QStringList names;  // sorted
    QString error;      // the server's words when it could not be asked
};

// The leftovers on the server `admin` is connected to (PostgreSQL: only
// the databases its user owns, which are the ones it may drop).
Leftovers findLeftovers(Session& admin, const QDateTime& now);

// Drops each; the ones the server refused, with its words, in *refused.
QStringList dropLeftovers(Session& admin, const QStringList& names, QStringList* refused,
                          const std::atomic<bool>* cancel);

}  // namespace idem::live
