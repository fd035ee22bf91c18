#include "sessionsettings.h"

namespace idem {

namespace {

QString isolationSql(const QString& id) {
    if (id == QLatin1String("read-committed"))
        return QStringLiteral("READ COMMITTED");
    if (id == QLatin1String("repeatable-read"))
        return QStringLiteral("REPEATABLE READ");
    return QStringLiteral("SERIALIZABLE");
}

}  // namespace

QStringList sessionSettings(live::ServerKind kind, const QString& isolation,
                            const QString& schema) {
    const QString level = isolationSql(isolation);
    if (kind == live::ServerKind::Postgres)
        return {QStringLiteral("SET search_path TO %1").arg(schema),
                QStringLiteral("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL %1")
                    .arg(level)};
    return {QStringLiteral("SET SESSION TRANSACTION ISOLATION LEVEL %1").arg(level),
            // No real timer of the server's ends a wait: a class may talk
            // for minutes at a step while a statement waits, and the run
            // must go on as it would at full speed. (InnoDB misses some
            // cycles of gap locks among three sessions, which only its lock
            // wait timeout would end: the lab's scheduler ends those, only
            // when nothing is left to send, and says so.) The largest value
            // MariaDB takes, about three years.
            QStringLiteral("SET SESSION innodb_lock_wait_timeout = 100000000"),
            // || joins text, as the standard and the other databases read it.
            QStringLiteral("SET SESSION sql_mode = CONCAT(@@sql_mode, ',PIPES_AS_CONCAT')")};
}

}  // namespace idem
