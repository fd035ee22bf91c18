#include "leftovers.h"

#include <QRegularExpression>

namespace idem::live {

namespace {

const QString kMade = QStringLiteral("idemlab run ");
const QString kKept = QStringLiteral("idemlab kept ");
// Younger than this, a database with no session in it may be a run's that
// is still connecting its sessions.
constexpr qint64 kSettledSecs = 60;

QString quoted(const QString& text) {
    QString q = text;
    q.replace(QLatin1Char('\''), QLatin1String("''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

bool isLabName(const QString& name) {
    static const QRegularExpression pattern(QStringLiteral("^idemlab_[0-9a-f]{12}$"));
    return pattern.match(name).hasMatch();
}

bool isLeftover(const QString& comment, bool inUse, const QDateTime& now) {
    if (inUse || comment.startsWith(kKept))
        return false;
    if (!comment.startsWith(kMade))
        return true;  // an older version's, which wrote none
    const QDateTime made = QDateTime::fromString(comment.mid(kMade.size()).trimmed(), Qt::ISODate);
    return made.isValid() && made.secsTo(now) >= kSettledSecs;
}

}  // namespace

QString madeComment(const QDateTime& now) {
    return kMade + now.toUTC().toString(Qt::ISODate);
}

QString keptComment(const QDateTime& now) {
    return kKept + now.toUTC().toString(Qt::ISODate);
}

QString commentStatement(ServerKind kind, const QString& database, const QString& comment) {
    return kind == ServerKind::Postgres
               ? QStringLiteral("COMMENT ON DATABASE %1 IS %2").arg(database, quoted(comment))
               : QStringLiteral("ALTER DATABASE %1 COMMENT %2").arg(database, quoted(comment));
}

Leftovers findLeftovers(Session& admin, const QDateTime& now) {
    // Name, comment, and whether a session is in it. PostgreSQL: only the
    // databases this user may drop.
    const QString sql =
        admin.kind() == ServerKind::Postgres
            ? QStringLiteral(
                  "SELECT d.datname, coalesce(shobj_description(d.oid, 'pg_database'), ''), "
                  "(EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid))::int "
                  "FROM pg_database d WHERE d.datname LIKE 'idemlab\\_%' "
                  "AND pg_has_role(current_user, d.datdba, 'MEMBER') ORDER BY 1")
            : QStringLiteral(
                  "SELECT s.SCHEMA_NAME, s.SCHEMA_COMMENT, "
                  "EXISTS (SELECT 1 FROM information_schema.PROCESSLIST p "
                  "WHERE p.DB = s.SCHEMA_NAME) "
                  "FROM information_schema.SCHEMATA s WHERE s.SCHEMA_NAME LIKE 'idemlab\\_%' "
                  "ORDER BY 1");
    Leftovers found;
    const StatementResult& r = admin.exec(sql);
    if (!r.ok()) {
        found.error = r.errorText();
        return found;
    }
    for (const QVariantList& row : r.data) {
        const QString name = row.value(0).toString();
        if (isLabName(name) &&
            isLeftover(row.value(1).toString(), row.value(2).toLongLong() != 0, now))
            found.names.append(name);
    }
    return found;
}

QStringList dropLeftovers(Session& admin, const QStringList& names, QStringList* refused,
                          const std::atomic<bool>* cancel) {
    // Never WITH (FORCE): a session that came into one meanwhile is someone's.
    admin.exec(admin.kind() == ServerKind::Postgres
                   ? QStringLiteral("SET lock_timeout = '5s'")
                   : QStringLiteral("SET SESSION lock_wait_timeout = 5"));
    QStringList dropped;
    for (const QString& name : names) {
        if (!isLabName(name))
            continue;
        if (cancel && cancel->load())
            break;
        const StatementResult& r =
            admin.exec(QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name), {}, cancel);
        if (r.ok())
            dropped.append(name);
        else
            refused->append(QStringLiteral("%1: %2").arg(name, r.errorText()));
    }
    return dropped;
}

}  // namespace idem::live
