#include "mariaobserver.h"

#include "mariasession.h"

#include <QThread>

#include <mysql.h>

#include <algorithm>
#include <cstdlib>

namespace idem::live {

MariaObserver::MariaObserver(const Endpoint& endpoint) {
    mysql_ = openMariaConnection(endpoint, false, &openError_);
    open_ = mysql_ != nullptr;
}

MariaObserver::~MariaObserver() {
    if (mysql_)
        mysql_close(mysql_);
}

int MariaObserver::msUntilFresh() const {
    if (!lastRead_.isValid())
        return 0;
    return int(qMax<qint64>(0, kFreshAfterMs - lastRead_.elapsed()));
}

QHash<const Session*, LockWait> MariaObserver::waits(const QList<const Session*>& sessions) {
    QHash<const Session*, LockWait> found;
    if (!open_ || sessions.isEmpty())
        return found;
    if (const int wait = msUntilFresh())
        QThread::msleep(wait);
    // One statement: the tables it joins are filled from one refresh of
    // the cache, so they agree with one another.
    static const char kWaits[] = R"(
SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id,
       requested.lock_type, requested.lock_mode, requested.lock_table,
       requested.lock_index, requested.lock_data, blocking.lock_mode
FROM information_schema.INNODB_LOCK_WAITS AS w
JOIN information_schema.INNODB_TRX AS r ON r.trx_id = w.requesting_trx_id
JOIN information_schema.INNODB_TRX AS b ON b.trx_id = w.blocking_trx_id
JOIN information_schema.INNODB_LOCKS AS requested ON requested.lock_id = w.requested_lock_id
JOIN information_schema.INNODB_LOCKS AS blocking ON blocking.lock_id = w.blocking_lock_id)";
    const int failed = mysql_real_query(mysql_, kWaits, sizeof kWaits - 1);
    MYSQL_RES* res = failed ? nullptr : mysql_store_result(mysql_);
    lastRead_.start();
    if (!res)
        return found;
    QHash<qint64, const Session*> byThread;
    for (const Session* s : sessions) byThread.insert(s->serverId(), s);
    auto text = [](const char* value) {
        return QString::fromUtf8(value ? value : "");
    };
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
        const Session* waiter = byThread.value(std::strtoll(row[0], nullptr, 10));
        if (!waiter)
            continue;
        const bool first = !found.contains(waiter);
        LockWait& wait = found[waiter];
        const Session* holder = byThread.value(std::strtoll(row[1], nullptr, 10));
        if (!holder) {
            wait.onOthers = true;
            if (!wait.others.contains(text(row[1])))
                wait.others << text(row[1]);
        } else if (!wait.on.contains(holder->id()))
            wait.on << holder->id();
        if (first) {
            wait.lockType = text(row[2]);
            wait.mode = text(row[3]);
            wait.table = text(row[4]);
            wait.index = text(row[5]);
            wait.row = text(row[6]);
            wait.heldAs = text(row[7]);
            // The supremum, the pseudo-record after an index's last
            // record, has only the gap before it: a lock on it is a gap
            // lock, though its mode does not say GAP.
            wait.gap = wait.mode.contains(u"GAP") || wait.heldAs.contains(u"GAP") ||
                       wait.row == u"supremum pseudo-record";
        }
    }
    mysql_free_result(res);
    for (LockWait& wait : found) {
        if (!wait.others.isEmpty())
            wait.others = whoAre(wait.others);
    }
    // A table lock of another client (LOCK TABLES, FLUSH TABLES WITH READ
    // LOCK, a schema change) is not InnoDB's: only the waiter's state says
    // so, and MariaDB does not say who holds it.
    QStringList running;
    for (const Session* s : sessions) {
        if (s->busy() && !found.contains(s))
            running << QString::number(s->serverId());
    }
    if (running.isEmpty())
        return found;
    const QByteArray metadata =
        "SELECT ID, STATE FROM information_schema.PROCESSLIST WHERE ID IN (" +
        running.join(u',').toLatin1() + ") AND STATE LIKE 'Waiting for %lock'";
    if (mysql_real_query(mysql_, metadata.constData(), metadata.size()) != 0)
        return found;
    res = mysql_store_result(mysql_);
    if (!res)
        return found;
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
        const Session* waiter = byThread.value(std::strtoll(row[0], nullptr, 10));
        if (!waiter)
            continue;
        LockWait& wait = found[waiter];
        wait.onOthers = true;
        wait.lockType = QStringLiteral("METADATA");
        wait.others << QStringLiteral("a connection MariaDB does not name (%1)").arg(text(row[1]));
    }
    mysql_free_result(res);
    return found;
}

// Connections outside the run, by their thread ids: who, from where,
// running what (the process list).
QStringList MariaObserver::whoAre(const QStringList& threads) {
    QStringList lines;
    const QByteArray query =
        "SELECT ID, USER, HOST, COMMAND, LEFT(REPLACE(REPLACE(COALESCE(INFO, ''), CHAR(10), ' '), "
        "CHAR(13), ' '), 120) FROM information_schema.PROCESSLIST WHERE ID IN (" +
        threads.join(u',').toLatin1() + ") ORDER BY ID";
    if (mysql_real_query(mysql_, query.constData(), query.size()) == 0) {
        if (MYSQL_RES* res = mysql_store_result(mysql_)) {
            while (MYSQL_ROW row = mysql_fetch_row(res)) {
                auto text = [row](int i) {
                    return QString::fromUtf8(row[i] ? row[i] : "");
                };
                // An idle client shows no statement (MariaDB keeps none).
                const QString info = text(4);
                const QString command = text(3);
                lines << QStringLiteral("thread %1, user %2@%3, %4")
                             .arg(text(0), text(1), text(2),
                                  !info.isEmpty() ? QStringLiteral("running: %1").arg(info)
                                  : command == QLatin1String("Sleep") ? QStringLiteral("idle")
                                                                      : command);
            }
            mysql_free_result(res);
        }
    }
    for (const QString& thread : threads) {
        const QString prefix = QStringLiteral("thread %1,").arg(thread);
        if (std::none_of(lines.cbegin(), lines.cend(),
                         [&prefix](const QString& l) { return l.startsWith(prefix); }))
            lines << QStringLiteral("thread %1").arg(thread);
    }
    return lines;
}

// InnoDB's own status, not the process list: the thread leaves the process
// list while it is being torn down, and a look at the process list at that
// moment crashed MariaDB 10.11 (signal 11 in this query, polled every 2 ms
// after a crash point: once in 30 runs of the workbench window test). Nor
// INNODB_TRX: InnoDB refreshes that table only after 100 ms without a read,
// so a poll every 2 ms saw the transaction for ever (a check 28 times as
// long). The status lists each transaction with its thread ("MariaDB thread
// id 11, OS thread handle ...") in its TRANSACTIONS section until its
// rollback is done and the thread has let go of it, which is what the
// caller waits for.
bool MariaObserver::lists(qint64 serverId) {
    if (!open_)
        return false;
    static const QByteArray query = "SHOW ENGINE INNODB STATUS";
    if (mysql_real_query(mysql_, query.constData(), query.size()) != 0)
        return false;
    MYSQL_RES* res = mysql_store_result(mysql_);
    if (!res)
        return false;
    const QByteArray mark = " thread id " + QByteArray::number(serverId) + ',';
    bool listed = false;
    if (MYSQL_ROW row = mysql_fetch_row(res); row && mysql_num_fields(res) >= 3 && row[2]) {
        // Only the TRANSACTIONS section: LATEST DETECTED DEADLOCK names
        // the threads of the last deadlock for as long as the server runs.
        const QByteArrayView status(row[2]);
        const qsizetype from = status.indexOf("\nTRANSACTIONS\n");
        const qsizetype to = from < 0 ? -1 : status.indexOf("\nFILE I/O\n", from);
        if (from >= 0)
            listed = status.sliced(from, (to < 0 ? status.size() : to) - from).contains(mark);
    }
    mysql_free_result(res);
    return listed;
}

}  // namespace idem::live
