// PgObserver::locks: pg_locks for the run's backends, and the row locks
// that live in the rows themselves, through pgrowlocks.
#include "pgobserver.h"
#include "serverlocks.h"

#include <libpq-fe.h>

#include <QSet>

#include <cstdlib>

namespace idem::live {

namespace {

QList<qint64> pidsOf(const char* text) {
    // "{123,456}"
    QList<qint64> pids;
    const QByteArray list = QByteArray(text).mid(1).chopped(1);
    for (const QByteArray& pid : list.split(',')) {
        if (!pid.isEmpty())
            pids << pid.toLongLong();
    }
    return pids;
}

QString text(PGresult* res, int row, int column) {
    return PQgetisnull(res, row, column) ? QString()
                                         : QString::fromUtf8(PQgetvalue(res, row, column));
}

}  // namespace

bool PgObserver::locks(const QList<const Session*>& sessions, LockRows* rows, bool* truncated,
                       QString* error) {
    rows->clear();
    *truncated = false;
    if (!open_) {
        *error = openError_;
        return false;
    }
    QHash<qint64, QString> sessionOf;
    QStringList pids;
    for (const Session* s : sessions) {
        sessionOf.insert(s->serverId(), s->id());
        pids << QString::number(s->serverId());
    }
    if (sessions.isEmpty())
        return true;
    const QByteArray list = "{" + pids.join(u',').toLatin1() + "}";
    const char* values[] = {list.constData()};
    // Indexes and virtual transaction ids are left to pgLocks and the
    // query: every transaction holds its own virtualxid, and teaches nothing.
    static const char kLocks[] = R"(
SELECT l.pid, l.locktype, l.mode, l.granted, c.relname, c.relkind::text,
       CASE WHEN l.locktype = 'tuple' THEN format('(%s,%s)', l.page, l.tuple) END,
       l.transactionid::text, l.relation::regclass::text,
       CASE WHEN l.granted THEN '{}'::int[] ELSE pg_blocking_pids(l.pid) END
FROM pg_locks AS l
LEFT JOIN pg_class AS c ON c.oid = l.relation
WHERE l.pid = ANY($1::int[])
  AND l.locktype IN ('relation', 'tuple', 'transactionid')
  AND (l.database IS NULL
       OR l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))";
    PGresult* res = PQexecParams(conn_, kLocks, 1, nullptr, values, nullptr, nullptr, 0);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        *error = QString::fromUtf8(PQresultErrorMessage(res)).trimmed();
        PQclear(res);
        return false;
    }
    QList<PgLockEntry> entries;
    QHash<QString, QString> qualified;  // relname → the name to query it by
    QSet<QString> rowLocked;            // tables that may hold row locks of the run
    QHash<QString, QStringList> ctids;  // rows whose values are wanted, by table
    for (int r = 0; r < PQntuples(res); ++r) {
        PgLockEntry e;
        e.pid = std::strtoll(PQgetvalue(res, r, 0), nullptr, 10);
        e.locktype = text(res, r, 1);
        e.mode = text(res, r, 2);
        e.granted = text(res, r, 3) == QLatin1String("t");
        e.table = text(res, r, 4);
        e.relkind = text(res, r, 5);
        e.ctid = text(res, r, 6);
        e.xid = text(res, r, 7).toLongLong();
        e.blockers = pidsOf(PQgetvalue(res, r, 9));
        if (!e.table.isEmpty())
            qualified.insert(e.table, text(res, r, 8));
        // A row lock needs one of these on its table first.
        if (e.locktype == QLatin1String("relation") && e.relkind == QLatin1String("r") &&
            (e.mode == QLatin1String("RowShareLock") ||
             e.mode == QLatin1String("RowExclusiveLock")))
            rowLocked.insert(e.table);
        if (e.locktype == QLatin1String("tuple"))
            ctids[e.table] << e.ctid;
        entries << e;
    }
    PQclear(res);

    QList<PgRowLockEntry> rowLocks;
    if (rowLocks_) {
        QStringList tables(rowLocked.cbegin(), rowLocked.cend());
        tables.sort();
        for (const QString& table : std::as_const(tables)) {
            static const char kRowLocks[] = R"(
SELECT locked_row::text, array_to_string(modes, ','), pids::text
FROM pgrowlocks($1))";
            const QByteArray name = qualified.value(table).toUtf8();
            const char* rowValues[] = {name.constData()};
            res = PQexecParams(conn_, kRowLocks, 1, nullptr, rowValues, nullptr, nullptr, 0);
            if (PQresultStatus(res) == PGRES_TUPLES_OK) {
                for (int r = 0; r < PQntuples(res); ++r) {
                    PgRowLockEntry e;
                    e.table = table;
                    e.ctid = text(res, r, 0);
                    e.modes = text(res, r, 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
                    e.pids = pidsOf(PQgetvalue(res, r, 2));
                    ctids[table] << e.ctid;
                    rowLocks << e;
                }
            }
            PQclear(res);
        }
    }

    // The rows' values, so that a row reads the same in every run (its
    // place on disk, the ctid, may differ).
    QHash<QPair<QString, QString>, QString> rowText;
    for (auto it = ctids.cbegin(); it != ctids.cend(); ++it) {
        const QString select =
            QStringLiteral("SELECT ctid::text, t::text FROM %1 AS t WHERE ctid = ANY($1::tid[])")
                .arg(qualified.value(it.key()));
        const QByteArray wanted = "{" + it.value().join(u',').toUtf8() + "}";
        const char* rowValues[] = {wanted.constData()};
        res = PQexecParams(conn_, select.toUtf8().constData(), 1, nullptr, rowValues, nullptr,
                           nullptr, 0);
        if (PQresultStatus(res) == PGRES_TUPLES_OK) {
            for (int r = 0; r < PQntuples(res); ++r)
                rowText.insert({it.key(), text(res, r, 0)}, text(res, r, 1));
        }
        PQclear(res);
    }
    *rows = pgLocks(entries, rowLocks, sessionOf, rowText);
    return true;
}

}  // namespace idem::live
