#include "pgobserver.h"

#include "pgpool.h"
#include "pgsession.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>

namespace idem::live {

namespace {
const char* const kApplication = "idemlab observer";
}  // namespace

PgObserver::PgObserver(const Endpoint& endpoint) : endpoint_(endpoint) {
    conn_ = takePooledConnection(endpoint, kApplication);
    if (!conn_)
        conn_ = openPgConnection(endpoint, kApplication);
    if (PQstatus(conn_) != CONNECTION_OK) {
        openError_ = pgConnectionError(conn_);
        return;
    }
    open_ = true;
    // Row locks live in the rows (xmax), not in pg_locks: pgrowlocks reads
    // them. Available on the lab's own servers; elsewhere the modes stay
    // unnamed.
    // Created only by a superuser: another user's attempt would be an
    // error in the server's log at every run.
    PGresult* res = PQexec(conn_, "SELECT 1 FROM pg_extension WHERE extname = 'pgrowlocks'");
    rowLocks_ = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
    PQclear(res);
    const char* superuser = PQparameterStatus(conn_, "is_superuser");
    if (!rowLocks_ && superuser && qstrcmp(superuser, "on") == 0) {
        res = PQexec(conn_, "CREATE EXTENSION IF NOT EXISTS pgrowlocks");
        rowLocks_ = PQresultStatus(res) == PGRES_COMMAND_OK;
        PQclear(res);
    }
}

PgObserver::~PgObserver() {
    if (open_)
        giveBackConnection(endpoint_, kApplication, conn_);
    else
        PQfinish(conn_);
}

QHash<const Session*, LockWait> PgObserver::waits(const QList<const Session*>& sessions) {
    QHash<const Session*, LockWait> found;
    if (!open_ || sessions.isEmpty())
        return found;
    QHash<qint64, const Session*> byPid;
    QStringList pids;
    for (const Session* s : sessions) {
        byPid.insert(s->serverId(), s);
        pids << QString::number(s->serverId());
    }
    const QByteArray list = "{" + pids.join(u',').toLatin1() + "}";
    const char* values[] = {list.constData()};
    static const char kWaiting[] = R"(
SELECT waiter, pg_blocking_pids(waiter)
FROM unnest($1::int[]) AS waiter
WHERE cardinality(pg_blocking_pids(waiter)) > 0)";
    PGresult* res = PQexecParams(conn_, kWaiting, 1, nullptr, values, nullptr, nullptr, 0);
    if (PQresultStatus(res) == PGRES_TUPLES_OK) {
        for (int r = 0; r < PQntuples(res); ++r) {
            const qint64 pid = std::strtoll(PQgetvalue(res, r, 0), nullptr, 10);
            LockWait wait = describe(pid);
            // "{123,456}"
            const QByteArray holders = QByteArray(PQgetvalue(res, r, 1)).mid(1).chopped(1);
            for (const QByteArray& holder : holders.split(',')) {
                const Session* s = byPid.value(holder.toLongLong());
                if (s) {
                    wait.on << s->id();
                } else {
                    wait.onOthers = true;
                    if (!wait.others.contains(QString::fromLatin1(holder)))
                        wait.others << QString::fromLatin1(holder);
                }
            }
            found.insert(byPid.value(pid), wait);
        }
    }
    PQclear(res);
    for (LockWait& wait : found) {
        if (!wait.others.isEmpty())
            wait.others = whoAre(wait.others);
    }
    return found;
}

// Connections outside the run, by their process ids: who, from which
// program, running what (pg_stat_activity; another user's statement reads
// as PostgreSQL shows it to this one).
QStringList PgObserver::whoAre(const QStringList& pids) {
    QStringList lines;
    const QByteArray list = "{" + pids.join(u',').toLatin1() + "}";
    const char* values[] = {list.constData()};
    static const char kWho[] = R"(
SELECT pid, coalesce(usename, ''), coalesce(application_name, ''), coalesce(state, ''),
       coalesce(left(regexp_replace(query, '\s+', ' ', 'g'), 120), '')
FROM pg_stat_activity WHERE pid = ANY($1::int[]) ORDER BY pid)";
    PGresult* res = PQexecParams(conn_, kWho, 1, nullptr, values, nullptr, nullptr, 0);
    if (PQresultStatus(res) == PGRES_TUPLES_OK) {
        for (int r = 0; r < PQntuples(res); ++r) {
            const QString application = QString::fromUtf8(PQgetvalue(res, r, 2));
            // An idle client's query is the last one it ran.
            const QString state = QString::fromUtf8(PQgetvalue(res, r, 3));
            const QString query = QString::fromUtf8(PQgetvalue(res, r, 4));
            lines << QStringLiteral("pid %1, user %2%3, %4: %5")
                         .arg(QString::fromUtf8(PQgetvalue(res, r, 0)),
                              QString::fromUtf8(PQgetvalue(res, r, 1)),
                              application.isEmpty()
                                  ? QString()
                                  : QStringLiteral(", application %1").arg(application),
                              state == QLatin1String("active") ? QStringLiteral("running") : state,
                              query);
        }
    }
    PQclear(res);
    // Gone since: still named by its number.
    for (const QString& pid : pids) {
        const QString prefix = QStringLiteral("pid %1,").arg(pid);
        if (std::none_of(lines.cbegin(), lines.cend(),
                         [&prefix](const QString& l) { return l.startsWith(prefix); }))
            lines << QStringLiteral("pid %1").arg(pid);
    }
    return lines;
}

bool PgObserver::lists(qint64 serverId) {
    if (!open_)
        return false;
    const QByteArray pid = QByteArray::number(serverId);
    const char* values[] = {pid.constData()};
    PGresult* res = PQexecParams(conn_, "SELECT 1 FROM pg_stat_activity WHERE pid = $1::int", 1,
                                 nullptr, values, nullptr, nullptr, 0);
    const bool listed = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0;
    PQclear(res);
    return listed;
}

// The lock a backend waits for. A row lock shows as a wait on the holder's
// transaction id, and the waiter holds the tuple lock of the row it is
// after (a wait for a uniqueness check has no row: the key's row is not
// committed yet).
LockWait PgObserver::describe(qint64 pid) {
    LockWait wait;
    static const char kLock[] = R"(
SELECT w.locktype, w.mode, coalesce(t.relation, w.relation)::regclass::text,
       CASE WHEN t.page IS NOT NULL THEN format('(%s,%s)', t.page, t.tuple) END
FROM pg_locks AS w
LEFT JOIN pg_locks AS t ON t.pid = w.pid AND t.locktype = 'tuple' AND t.granted
WHERE w.pid = $1 AND NOT w.granted
LIMIT 1)";
    const QByteArray text = QByteArray::number(pid);
    const char* values[] = {text.constData()};
    PGresult* res = PQexecParams(conn_, kLock, 1, nullptr, values, nullptr, nullptr, 0);
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) {
        wait.lockType = QString::fromUtf8(PQgetvalue(res, 0, 0));
        wait.mode = QString::fromUtf8(PQgetvalue(res, 0, 1));
        wait.table = QString::fromUtf8(PQgetvalue(res, 0, 2));
        wait.row = QString::fromUtf8(PQgetvalue(res, 0, 3));
    }
    PQclear(res);
    if (rowLocks_ && !wait.table.isEmpty() && !wait.row.isEmpty()) {
        static const char kRow[] = R"(
SELECT array_to_string(modes, ', ')
FROM pgrowlocks($1)
WHERE locked_row = $2::tid)";
        const QByteArray table = wait.table.toUtf8();
        const QByteArray row = wait.row.toUtf8();
        const char* rowValues[] = {table.constData(), row.constData()};
        res = PQexecParams(conn_, kRow, 2, nullptr, rowValues, nullptr, nullptr, 0);
        if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
            wait.heldAs = QString::fromUtf8(PQgetvalue(res, 0, 0));
        PQclear(res);
    }
    return wait;
}

}  // namespace idem::live
