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

ServerConnection::ServerConnection(std::unique_ptr<live::Session> session, const QString& id,
                                   std::shared_ptr<const StopFlag> stop)
    : SqlConnection(id), session_(std::move(session)), stop_(std::move(stop)) {}

ServerConnection::~ServerConnection() {
    // A connection the run is done with says goodbye (the session's own
    // end: COM_QUIT, libpq's Terminate), so that a shared server logs no
    // aborted connection; only a crash drops one without it (drop()). A
    // statement still in flight (a run stopped midway) is cancelled first.
    if (session_ && session_->isOpen() && session_->busy() && session_->cancel())
        session_->poll(5000);
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
    // The set-up's statements and the judge's reads: another client's lock
    // (a FLUSH TABLES WITH READ LOCK) may hold them for ever, and a stop is
    // heard within a tenth of a second meanwhile.
    session_->waitForAnswer(stop_ ? stop_->load() : nullptr);
    return take();
}

QString ServerConnection::textSent(const QString& sql) const {
    return inDialect(
        session_->kind() == ServerKind::Postgres ? SqlDialect::Postgres : SqlDialect::MariaDb, sql);
}

QString ServerConnection::received() const {
    // PostgreSQL gets the values apart from the text ($1, $2 ...).
    if (session_->kind() != ServerKind::MariaDb || session_->sentText() == sent_)
        return {};
    return session_->sentText();
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
    r.columns = s.columns;
    r.insertId = s.insertId;
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

QStringList ServerConnection::columnTypes() const {
    return session_->result().types;
}

bool ServerConnection::describeTable(const QString& table, QStringList* columns,
                                     QStringList* types) {
    const bool pg = session_->kind() == ServerKind::Postgres;
    columns->clear();
    types->clear();
    if (!pg) {
        // The columns as a read of no rows describes them: no
        // information_schema query (see typeName in mariasession.cpp).
        QString quoted = table;
        quoted.replace(QLatin1Char('`'), QStringLiteral("``"));
        const SqlResult shape = exec(QStringLiteral("SELECT * FROM `%1` LIMIT 0").arg(quoted));
        if (!shape.ok)
            return false;
        *columns = shape.columns;
        *types = columnTypes();
        return !columns->isEmpty();
    }
    const SqlResult info =
        exec(QStringLiteral("SELECT column_name, data_type FROM information_schema.columns WHERE "
                            "table_schema = current_schema() AND table_name = ? ORDER BY "
                            "ordinal_position"),
             {table});
    if (!info.ok)
        return false;
    for (const QVariantList& c : info.data) {
        *columns << c.value(0).toString();
        *types << c.value(1).toString();
    }
    return !columns->isEmpty();
}

QString ServerConnection::selectAllStatement(const QString& table, QStringList* columns) {
    const bool pg = session_->kind() == ServerKind::Postgres;
    QStringList types;
    if (!describeTable(table, columns, &types))
        return {};
    const QChar quote = pg ? QLatin1Char('"') : QLatin1Char('`');
    auto quoted = [quote](QString name) {
        return quote + name.replace(quote, QString(2, quote)) + quote;
    };
    QStringList select;
    for (const QString& c : *columns) select << quoted(c);
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

namespace {

// PostgreSQL's amcheck (shipped with postgresql-15): installed once in the
// database's public schema, where every run's schema finds it. False when
// the server will not have it there (a --connect user who may not create
// extensions, or amcheck installed in another schema).
bool haveAmcheck(ServerConnection& c) {
    const QString find = QStringLiteral(
        "SELECT n.nspname FROM pg_extension AS e\n"
        "JOIN pg_namespace AS n ON n.oid = e.extnamespace\n"
        "WHERE e.extname = 'amcheck'");
    SqlResult found = c.exec(find);
    // Only a superuser may create it: another user's attempt would be an
    // error in a shared server's log at every run.
    const SqlResult superuser = c.exec(QStringLiteral("SELECT current_setting('is_superuser')"));
    const bool may = superuser.ok && !superuser.data.isEmpty() &&
                     superuser.data.first().value(0).toString() == QLatin1String("on");
    if (found.ok && found.data.isEmpty() && may) {
        // Two runs may ask at once: the second's refusal is no matter.
        c.exec(QStringLiteral("CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public"));
        found = c.exec(find);
    }
    return found.ok && !found.data.isEmpty() &&
           found.data.first().value(0).toString() == QLatin1String("public");
}

}  // namespace

// PostgreSQL: every B-tree index of the run's tables checked against its
// table by amcheck (bt_index_check with heapallindexed: the index's own
// order, and every row of the table found in it), every CHECK constraint
// held by every row, and every table read whole (PostgreSQL checks each
// page it reads). MariaDB: CHECK TABLE. One text, "ok" or what was found.
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
    if (pg)
        problems << checkIndexesAndConstraints();
    SqlResult r;
    r.counts = RowCount::Returned;
    r.rows = 1;
    r.data = {{problems.isEmpty() ? QStringLiteral("ok") : problems.join(QStringLiteral("; "))}};
    return r;
}

QStringList ServerConnection::checkIndexesAndConstraints() {
    QStringList problems;
    if (haveAmcheck(*this)) {
        const SqlResult indexes = exec(QStringLiteral(
            "SELECT i.indexrelid::regclass::text, i.indexrelid::text\n"
            "FROM pg_index AS i\n"
            "JOIN pg_class AS c ON c.oid = i.indexrelid\n"
            "JOIN pg_am AS am ON am.oid = c.relam\n"
            "WHERE c.relnamespace = current_schema()::regnamespace AND am.amname = 'btree'\n"
            "ORDER BY 1"));
        if (!indexes.ok)
            problems << QStringLiteral("indexes: ") + indexes.message;
        for (const QVariantList& index : indexes.data) {
            const SqlResult r =
                exec(QStringLiteral("SELECT public.bt_index_check(CAST(? AS oid)::regclass, true)"),
                     {index.value(1).toString()});
            if (!r.ok)
                problems << index.value(0).toString() + QStringLiteral(": ") + r.message;
        }
    }
    // A CHECK constraint holds for every row: each one's own expression,
    // asked of its table (NOT VALID ones included).
    const SqlResult checks = exec(QStringLiteral(
        "SELECT c.conrelid::regclass::text, c.conname, pg_get_expr(c.conbin, c.conrelid)\n"
        "FROM pg_constraint AS c\n"
        "WHERE c.contype = 'c' AND c.connamespace = current_schema()::regnamespace\n"
        "ORDER BY 1, 2"));
    if (!checks.ok)
        problems << QStringLiteral("constraints: ") + checks.message;
    for (const QVariantList& check : checks.data) {
        const QString table = check.value(0).toString();
        const QString broken = QStringLiteral("SELECT COUNT(*) FROM %1 WHERE NOT (%2)");
        const SqlResult r = exec(broken.arg(table, check.value(2).toString()));
        if (!r.ok)
            problems << table + QStringLiteral(": ") + r.message;
        else if (r.data.value(0).value(0).toLongLong() > 0)
            problems << QStringLiteral("%1: %2 rows break %3")
                            .arg(table, r.data.value(0).value(0).toString(),
                                 check.value(1).toString());
    }
    return problems;
}

}  // namespace idem
