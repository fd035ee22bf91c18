// MariaObserver::locks: every InnoDB lock of the run's sessions, from SHOW
// ENGINE INNODB STATUS (serverlocks.h says why not INNODB_LOCKS).
#include "mariaobserver.h"
#include "serverlocks.h"

#include <mysql.h>

namespace idem::live {

bool MariaObserver::locks(const QList<const Session*>& sessions, LockRows* rows, bool* truncated,
                          QString* error) {
    rows->clear();
    *truncated = false;
    if (!open_) {
        *error = openError_;
        return false;
    }
    // Without it the monitor prints only how many locks each transaction
    // holds. A global setting: the lab's own server is the run's alone.
    if (locksShown_ == 0) {
        static const char kShowLocks[] = "SET GLOBAL innodb_status_output_locks = ON";
        locksShown_ = mysql_real_query(mysql_, kShowLocks, sizeof kShowLocks - 1) == 0 ? 1 : -1;
    }
    if (locksShown_ < 0) {
        *error = QStringLiteral(
            "the server does not let the lab see its locks "
            "(SET GLOBAL innodb_status_output_locks was refused)");
        return false;
    }
    static const char kStatus[] = "SHOW ENGINE INNODB STATUS";
    if (mysql_real_query(mysql_, kStatus, sizeof kStatus - 1) != 0) {
        *error = QString::fromUtf8(mysql_error(mysql_));
        return false;
    }
    MYSQL_RES* res = mysql_store_result(mysql_);
    if (!res) {
        *error = QString::fromUtf8(mysql_error(mysql_));
        return false;
    }
    QString status;
    // Type, Name, Status.
    if (MYSQL_ROW row = mysql_fetch_row(res); row && mysql_num_fields(res) >= 3 && row[2])
        status = QString::fromUtf8(row[2]);
    mysql_free_result(res);
    QHash<qint64, QString> sessionOf;
    for (const Session* s : sessions) sessionOf.insert(s->serverId(), s->id());
    const InnodbLocks found = innodbLocks(status, sessionOf);
    *rows = found.rows;
    *truncated = found.truncated;
    return true;
}

}  // namespace idem::live
