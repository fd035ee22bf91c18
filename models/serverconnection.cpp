#include "serverconnection.h"

#include "opentransactions.h"
#include "sqldialect.h"
#include "sqlstatement.h"

namespace idem {

namespace {

using live::ServerKind;

// The scenarios write `?` for a bound value; PostgreSQL numbers them ($1,
// $2 ...). A `?` inside a quoted literal is text, not a value.
QString numberedPlaceholders(const QString& sql) {
    QString out;
    out.reserve(sql.size() + 8);
    int n = 0;
    bool quoted = false;
    for (QChar ch : sql) {
        if (ch == QLatin1Char('\''))
            quoted = !quoted;
        if (ch == QLatin1Char('?') && !quoted)
            out += QLatin1Char('$') + QString::number(++n);
        else
            out += ch;
    }
    return out;
}

// A server's code as one number for the trace: MariaDB's error number;
// PostgreSQL's SQLSTATE read as a number (in base 36 when it has letters,
// as 40P01 has), never 0 for an error.
int numericCode(const live::StatementResult& r) {
    if (r.ok())
        return 0;
    if (r.nativeCode != 0)
        return r.nativeCode;
    bool ok = false;
    int code = r.sqlState.toInt(&ok);
    if (!ok)
        code = r.sqlState.toInt(&ok, 36);
    return ok && code != 0 ? code : 1;
}

}  // namespace

ServerConnection::ServerConnection(std::unique_ptr<live::Session> session, const QString& id)
    : SqlConnection(id), session_(std::move(session)) {}

ServerConnection::~ServerConnection() {
    if (session_ && session_->isOpen())
        session_->close();
    if (attempts_) {
        attempts_->changed = true;
        const std::lock_guard lock(attempts_->mutex);
        std::erase(attempts_->list, this);
    }
}

// One of the attempts' sessions: what it sends may change the locks.
void ServerConnection::joinAttempts(std::shared_ptr<AttemptSessions> attempts) {
    attempts_ = std::move(attempts);
    const std::lock_guard lock(attempts_->mutex);
    attempts_->list.push_back(this);
}

SqlResult ServerConnection::exec(const QString& sql, const QVariantList& params) {
    send(sql, params);
    session_->poll(-1);
    return take();
}

QString ServerConnection::textSent(const QString& sql) const {
    return inDialect(
        session_->kind() == ServerKind::Postgres ? SqlDialect::Postgres : SqlDialect::MariaDb, sql);
}

void ServerConnection::send(const QString& sql, const QVariantList& params) {
    if (attempts_)
        attempts_->changed = true;
    sent_ = textSent(sql);
    const QString text =
        session_->kind() == ServerKind::Postgres ? numberedPlaceholders(sent_) : sent_;
    session_->send(text, params);
}

// The finished statement's result, in the engine's words; the session's
// transaction as the server leaves it.
SqlResult ServerConnection::take() {
    const live::StatementResult& s = session_->result();
    SqlResult r;
    r.ok = s.ok();
    r.outcome = s.outcome;
    r.rows = s.rows;
    r.data = s.data;
    r.counts = s.returnsRows        ? RowCount::Returned
               : changesRows(sent_) ? RowCount::Changed
                                    : RowCount::None;
    r.code = numericCode(s);
    r.message = s.ok() ? QString() : s.message;
    r.state = s.sqlState;
    const TxChange control = transactionChange(sent_);
    if (control == TxChange::Began && r.ok)
        inTransaction_ = true;
    else if ((control == TxChange::Committed || control == TxChange::RolledBack))
        inTransaction_ = false;
    // InnoDB rolls back the whole transaction of a deadlock's victim;
    // PostgreSQL keeps an aborted one open until ROLLBACK.
    else if (s.outcome == SqlOutcome::Deadlock && session_->kind() == ServerKind::MariaDb)
        inTransaction_ = false;
    if (attempts_ && !inTransaction_)
        attempts_->committed = true;
    return r;
}

// As a crashed process: the connection goes, the server rolls back.
void ServerConnection::drop() {
    if (attempts_) {
        attempts_->changed = true;
        attempts_->committed = true;
    }
    session_->close();
    inTransaction_ = false;
}

QString ServerConnection::selectAllStatement(const QString& table, QStringList* columns) {
    const bool pg = session_->kind() == ServerKind::Postgres;
    const SqlResult info =
        exec(pg ? QStringLiteral("SELECT column_name FROM information_schema.columns WHERE "
                                 "table_schema = current_schema() AND table_name = ? ORDER BY "
                                 "ordinal_position")
                : QStringLiteral("SELECT column_name FROM information_schema.columns WHERE "
                                 "table_schema = DATABASE() AND table_name = ? ORDER BY "
                                 "ordinal_position"),
             {table});
    if (!info.ok || info.empty())
        return {};
    const QChar quote = pg ? QLatin1Char('"') : QLatin1Char('`');
    auto quoted = [quote](QString name) {
        return quote + name.replace(quote, QString(2, quote)) + quote;
    };
    columns->clear();
    QStringList select;
    for (const QVariantList& row : info.data) {
        *columns << row.value(0).toString();
        select << quoted(row.value(0).toString());
    }
    // No row id of the database's own: rows in the order of their first
    // column (every scenario's table starts with its key).
    return QStringLiteral("SELECT ROW_NUMBER() OVER (ORDER BY %1), %2 FROM %3 ORDER BY %1")
        .arg(select.first(), select.join(QStringLiteral(", ")), quoted(table));
}

QString ServerConnection::selectAllWithRowVersions(const QString& table, QStringList* columns) {
    const QString select = selectAllStatement(table, columns);
    if (select.isEmpty() || session_->kind() != ServerKind::Postgres)
        return select;
    // System columns: selected by name only. Their ids as text, so that
    // they read as ids (no digit grouping).
    *columns << QStringLiteral("xmin") << QStringLiteral("xmax");
    const qsizetype from = select.indexOf(QLatin1String(" FROM "));
    return select.left(from) + QStringLiteral(", xmin::text, xmax::text") + select.mid(from);
}

QVariant ServerConnection::rowVersionName(const QVariant& version) const {
    const QString id = version.toString();
    if (!versionNames_ || id == QLatin1String("0"))
        return version;
    const QString name = versionNames_->nameOf(id);
    if (name.isEmpty())
        return version;
    return QStringLiteral("%1 · %2").arg(name, id);
}

SqlResult ServerConnection::findTable(const QString& table) {
    return exec(session_->kind() == ServerKind::Postgres
                    ? QStringLiteral("SELECT table_name FROM information_schema.tables "
                                     "WHERE table_schema = current_schema() AND table_name = ?")
                    : QStringLiteral("SELECT table_name FROM information_schema.tables "
                                     "WHERE table_schema = DATABASE() AND table_name = ?"),
                {table});
}

// Every table read whole (PostgreSQL checks each page it reads) and, on
// MariaDB, CHECK TABLE: one text, "ok" or what was found.
SqlResult ServerConnection::integrityCheck() {
    const bool pg = session_->kind() == ServerKind::Postgres;
    SqlResult tables =
        exec(pg ? QStringLiteral("SELECT table_name FROM information_schema.tables WHERE "
                                 "table_schema = current_schema()")
                : QStringLiteral("SELECT table_name FROM information_schema.tables WHERE "
                                 "table_schema = DATABASE()"));
    if (!tables.ok)
        return tables;
    QStringList problems;
    for (const QVariantList& row : tables.data) {
        const QString name = row.value(0).toString();
        if (pg) {
            const SqlResult r = exec(QStringLiteral("SELECT COUNT(*) FROM \"%1\"").arg(name));
            if (!r.ok)
                problems << name + QStringLiteral(": ") + r.message;
        } else {
            const SqlResult r = exec(QStringLiteral("CHECK TABLE `%1`").arg(name));
            if (!r.ok)
                return r;
            for (const QVariantList& line : r.data) {
                const QString text = line.value(3).toString();
                if (line.value(2).toString() == QLatin1String("status") &&
                    text.compare(QLatin1String("OK"), Qt::CaseInsensitive) != 0)
                    problems << name + QStringLiteral(": ") + text;
            }
        }
    }
    SqlResult r;
    r.counts = RowCount::Returned;
    r.rows = 1;
    r.data = {{problems.isEmpty() ? QStringLiteral("ok") : problems.join(QStringLiteral("; "))}};
    return r;
}

}  // namespace idem
