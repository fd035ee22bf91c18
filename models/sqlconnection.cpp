#include "sqlconnection.h"

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

// Prepared statements, found first by the address of the SQL text: the
// scenarios' statements are constants, so the same text arrives with the same
// address every time. The entry keeps a copy of the string, which keeps that
// address alive and unique to this text. Texts built on the fly fall back to a
// lookup by content.
struct SqlConnection::Statements {
    struct Entry {
        QString text;
        sqlite3_stmt* statement = nullptr;
    };
    std::unordered_map<const QChar*, Entry> byAddress;
    QHash<QString, sqlite3_stmt*> byText;

    ~Statements() {
        for (sqlite3_stmt* s : std::as_const(byText)) sqlite3_finalize(s);
    }

    sqlite3_stmt* find(const QString& sql) const {
        const auto it = byAddress.find(sql.constData());
        if (it != byAddress.end() && it->second.text.size() == sql.size())
            return it->second.statement;
        return byText.value(sql, nullptr);
    }
    void remember(const QString& sql, sqlite3_stmt* s) {
        // Texts built on the fly would each add an address: forget those now
        // and then; the statements themselves stay in byText.
        if (byAddress.size() > 4096)
            byAddress.clear();
        byAddress[sql.constData()] = Entry{sql, s};
        byText.insert(sql, s);
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

SqlResult failure(sqlite3* db, int code) {
    SqlResult r;
    r.ok = false;
    r.code = code;
    r.message = QString::fromUtf8(sqlite3_errstr(code));
    if (db && sqlite3_extended_errcode(db) == code)
        r.message = QString::fromUtf8(sqlite3_errmsg(db));
    return r;
}

}  // namespace

QString SqlResult::errorText() const {
    if (ok)
        return {};
    return QStringLiteral("%1 (%2)").arg(message).arg(code);
}

SqlConnection::SqlConnection(const QString& path, const QString& traceId)
    : id_(traceId), statements_(std::make_unique<Statements>()) {
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
    // The simulation never loses power: skip fsync so that large runs stay fast.
    sqlite3_exec(db_, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
}

SqlConnection::~SqlConnection() {
    statements_.reset();
    if (db_)
        sqlite3_close(db_);
}

bool SqlConnection::inTransaction() const {
    return db_ && sqlite3_get_autocommit(db_) == 0;
}

SqlResult SqlConnection::exec(const QString& sql, const QVariantList& params) {
    if (!db_)
        return failure(nullptr, SQLITE_CANTOPEN);
    sqlite3_stmt* s = statements_->find(sql);
    if (!s) {
        const int rc = sqlite3_prepare16_v3(db_, sql.utf16(), int(sql.size() * sizeof(QChar)),
                                            SQLITE_PREPARE_PERSISTENT, &s, nullptr);
        if (rc != SQLITE_OK)
            return failure(db_, sqlite3_extended_errcode(db_));
        statements_->remember(sql, s);
    }
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
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return result;
    }
    sqlite3_reset(s);
    // The bound texts go with this call: no binding may outlive them.
    sqlite3_clear_bindings(s);
    // A read reports the rows it returned; anything else what the last
    // change on this connection touched (SQLite's own count).
    result.rows = columns > 0 ? result.data.size() : sqlite3_changes64(db_);
    return result;
}

QString SqlConnection::selectAllStatement(const QString& table, QStringList* columns) {
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

}  // namespace idem
