#include "sqliteconnection.h"

#include <QHash>

#include <sqlite3.h>

#include <unordered_map>
#include <vector>

namespace idem {

static_assert(sqlite::Busy == SQLITE_BUSY && sqlite::Constraint == SQLITE_CONSTRAINT &&
              sqlite::ConstraintUnique == SQLITE_CONSTRAINT_UNIQUE &&
              sqlite::ConstraintPrimaryKey == SQLITE_CONSTRAINT_PRIMARYKEY &&
              sqlite::ConstraintCheck == SQLITE_CONSTRAINT_CHECK && sqlite::Full == SQLITE_FULL &&
              sqlite::IoErr == SQLITE_IOERR);

// The authorizer's actions of the statement being prepared, one bit per
// action code; watching: exec is preparing one (re-preparations after a
// schema change and the connection's own pragmas pass unwatched).
struct StatementActions {
    bool watching = false;
    quint64 actions = 0;
};

// Prepared statements, found first by the address of the SQL text: the
// scenarios' statements are constants, so the same text arrives with the same
// address every time. The entry keeps a copy of the string, which keeps that
// address alive and unique to this text. Texts built on the fly fall back to a
// lookup by content. Each statement keeps what its count of rows counts.
struct SqliteConnection::Statements {
    struct Prepared {
        sqlite3_stmt* statement = nullptr;
        RowCount counts = RowCount::None;
    };
    struct Entry {
        QString text;
        Prepared prepared;
    };
    std::unordered_map<const QChar*, Entry> byAddress;
    QHash<QString, Prepared> byText;
    StatementActions preparing;

    ~Statements() {
        for (const Prepared& p : std::as_const(byText)) sqlite3_finalize(p.statement);
    }

    Prepared find(const QString& sql) const {
        const auto it = byAddress.find(sql.constData());
        if (it != byAddress.end() && it->second.text.size() == sql.size())
            return it->second.prepared;
        return byText.value(sql);
    }
    void remember(const QString& sql, Prepared p) {
        // Texts built on the fly would each add an address: forget those now
        // and then; the statements themselves stay in byText.
        if (byAddress.size() > 4096)
            byAddress.clear();
        byAddress[sql.constData()] = Entry{sql, p};
        byText.insert(sql, p);
    }
};

namespace {

// Text goes in as UTF-8, SQLite's own encoding; `keep` holds the bytes until
// the statement has run.
void bindValue(sqlite3_stmt* s, int index, const QVariant& v, std::vector<QByteArray>& keep) {
    if (v.isNull()) {
        sqlite3_bind_null(s, index);
        return;
    }
    switch (v.typeId()) {
        case QMetaType::Bool:
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
            sqlite3_bind_int64(s, index, v.toLongLong());
            return;
        case QMetaType::Double:
            sqlite3_bind_double(s, index, v.toDouble());
            return;
        case QMetaType::QByteArray: {
            const QByteArray b = v.toByteArray();
            sqlite3_bind_blob(s, index, b.constData(), int(b.size()), SQLITE_TRANSIENT);
            return;
        }
        default: {
            keep.push_back(v.toString().toUtf8());
            const QByteArray& text = keep.back();
            sqlite3_bind_text(s, index, text.constData(), int(text.size()), SQLITE_STATIC);
            return;
        }
    }
}

QVariant columnValue(sqlite3_stmt* s, int column) {
    switch (sqlite3_column_type(s, column)) {
        case SQLITE_INTEGER:
            return QVariant(qint64(sqlite3_column_int64(s, column)));
        case SQLITE_FLOAT:
            return QVariant(sqlite3_column_double(s, column));
        case SQLITE_TEXT: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, column));
            return QVariant(QString::fromUtf8(text, sqlite3_column_bytes(s, column)));
        }
        case SQLITE_BLOB: {
            const char* blob = static_cast<const char*>(sqlite3_column_blob(s, column));
            return QVariant(QByteArray(blob, sqlite3_column_bytes(s, column)));
        }
        default:
            return QVariant();
    }
}

// SQLite's authorizer, called for every action of a statement while it is
// prepared; the statement's own actions (not a trigger's or a view's) are
// noted while exec prepares one.
int noteAction(void* data, int action, const char*, const char*, const char*, const char* inner) {
    auto* seen = static_cast<StatementActions*>(data);
    if (seen->watching && inner == nullptr && action >= 0 && action < 64)
        seen->actions |= quint64(1) << action;
    return SQLITE_OK;
}

constexpr quint64 bit(int action) {
    return quint64(1) << action;
}

// What the count of a statement with these result columns and authorizer
// actions counts. Changes are counted for INSERT, UPDATE and DELETE only
// (sqlite3_changes); a statement that also does anything else (a schema
// change writes sqlite_schema; BEGIN, COMMIT, SAVEPOINT, PRAGMA, ATTACH)
// has no count of its own.
RowCount countOf(int columns, quint64 actions) {
    if (columns > 0)
        return RowCount::Returned;
    constexpr quint64 writes = bit(SQLITE_INSERT) | bit(SQLITE_UPDATE) | bit(SQLITE_DELETE);
    constexpr quint64 alongside =
        bit(SQLITE_READ) | bit(SQLITE_SELECT) | bit(SQLITE_FUNCTION) | bit(SQLITE_RECURSIVE);
    if ((actions & writes) != 0 && (actions & ~(writes | alongside)) == 0)
        return RowCount::Changed;
    return RowCount::None;
}

SqlResult failure(sqlite3* db, int code) {
    SqlResult r;
    r.ok = false;
    r.outcome = sqliteOutcome(code);
    r.code = code;
    r.message = QString::fromUtf8(sqlite3_errstr(code));
    if (db && sqlite3_extended_errcode(db) == code)
        r.message = QString::fromUtf8(sqlite3_errmsg(db));
    return r;
}

}  // namespace

SqliteConnection::SqliteConnection(const QString& path, const QString& traceId)
    : SqlConnection(traceId), statements_(std::make_unique<Statements>()) {
    const int rc =
        sqlite3_open_v2(path.toUtf8().constData(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        openError_ =
            db_ ? QString::fromUtf8(sqlite3_errmsg(db_)) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_close(db_);
        db_ = nullptr;
        return;
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 0);
    // Before any statement is prepared: setting an authorizer expires those.
    sqlite3_set_authorizer(db_, noteAction, &statements_->preparing);
    // The simulation never loses power: skip fsync so that large runs stay fast.
    sqlite3_exec(db_, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
}

SqliteConnection::~SqliteConnection() {
    statements_.reset();
    if (db_)
        sqlite3_close(db_);
}

bool SqliteConnection::inTransaction() const {
    return db_ && sqlite3_get_autocommit(db_) == 0;
}

SqlResult SqliteConnection::exec(const QString& sql, const QVariantList& params) {
    if (!db_)
        return failure(nullptr, SQLITE_CANTOPEN);
    Statements::Prepared prepared = statements_->find(sql);
    if (!prepared.statement) {
        StatementActions& seen = statements_->preparing;
        seen.watching = true;
        seen.actions = 0;
        const int rc =
            sqlite3_prepare16_v3(db_, sql.utf16(), int(sql.size() * sizeof(QChar)),
                                 SQLITE_PREPARE_PERSISTENT, &prepared.statement, nullptr);
        seen.watching = false;
        if (rc != SQLITE_OK)
            return failure(db_, sqlite3_extended_errcode(db_));
        prepared.counts = countOf(sqlite3_column_count(prepared.statement), seen.actions);
        statements_->remember(sql, prepared);
    }
    sqlite3_stmt* s = prepared.statement;
    const int expected = sqlite3_bind_parameter_count(s);
    std::vector<QByteArray> texts;
    texts.reserve(std::size_t(expected));
    for (int i = 0; i < expected; ++i) {
        if (i < params.size())
            bindValue(s, i + 1, params[i], texts);
        else
            sqlite3_bind_null(s, i + 1);
    }
    SqlResult result;
    const int columns = sqlite3_column_count(s);
    for (int c = 0; c < columns; ++c)
        result.columns << QString::fromUtf8(sqlite3_column_name(s, c));
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        QVariantList row;
        row.reserve(columns);
        for (int c = 0; c < columns; ++c) row << columnValue(s, c);
        result.data << std::move(row);
    }
    if (rc != SQLITE_DONE) {
        const int code = sqlite3_extended_errcode(db_);
        result = failure(db_, code == SQLITE_OK ? rc : code);
        result.counts = prepared.counts;
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return result;
    }
    sqlite3_reset(s);
    // The bound texts go with this call: no binding may outlive them.
    sqlite3_clear_bindings(s);
    // A statement that returns rows reports how many; anything else what the
    // last change on this connection touched (SQLite's own count, which is
    // the statement's own only when it counts changes).
    result.rows = columns > 0 ? result.data.size() : sqlite3_changes64(db_);
    result.counts = prepared.counts;
    if (result.counts == RowCount::Changed)
        result.insertId = sqlite3_last_insert_rowid(db_);
    return result;
}

bool SqliteConnection::othersCommittedSinceAsked() {
    const SqlResult r = exec(QStringLiteral("PRAGMA data_version"));
    const qint64 version = r.ok && !r.empty() ? r.value(0, 0).toLongLong() : -1;
    const bool committed = version < 0 || version != dataVersion_;
    dataVersion_ = version;
    return committed;
}

QString SqliteConnection::selectAllStatement(const QString& table, QStringList* columns) {
    const SqlResult info =
        exec(QStringLiteral("SELECT name FROM pragma_table_info(?) ORDER BY cid"), {table});
    if (!info.ok || info.empty())
        return {};
    auto quoted = [](QString name) {
        return QLatin1Char('"') + name.replace(QLatin1Char('"'), QLatin1String("\"\"")) +
               QLatin1Char('"');
    };
    columns->clear();
    QStringList select{QStringLiteral("rowid")};
    for (const QVariantList& row : info.data) {
        *columns << row.value(0).toString();
        select << quoted(row.value(0).toString());
    }
    // Identifiers cannot be bound: they are quoted instead.
    return QStringList{QStringLiteral("SELECT"), select.join(QStringLiteral(", ")),
                       QStringLiteral("FROM"), quoted(table), QStringLiteral("ORDER BY rowid")}
        .join(QLatin1Char(' '));
}

SqlResult SqliteConnection::findTable(const QString& table) {
    static const QString find =
        QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?");
    return exec(find, {table});
}

SqlResult SqliteConnection::integrityCheck() {
    static const QString check = QStringLiteral("PRAGMA integrity_check");
    return exec(check);
}

}  // namespace idem
