#include "sqlconnection.h"

#include <QAtomicInteger>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlField>
#include <QSqlQuery>
#include <QSqlRecord>

namespace idem {

namespace {
QAtomicInteger<quint64> connectionCounter;

bool startsWith(const QString& sql, const char* word) {
    return sql.startsWith(QLatin1String(word), Qt::CaseInsensitive);
}
}  // namespace

QString SqlResult::errorText() const {
    if (ok)
        return {};
    return QStringLiteral("%1 (%2)").arg(message).arg(code);
}

SqlConnection::SqlConnection(const QString& path, const QString& traceId)
    : id_(traceId), name_(QStringLiteral("idem-%1").arg(++connectionCounter)) {
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name_);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=0"));
    open_ = db.open();
    if (!open_) {
        openError_ = db.lastError().text();
        return;
    }
    // The simulation never loses power: skip fsync so that large runs stay fast.
    QSqlQuery pragma(db);
    pragma.exec(QStringLiteral("PRAGMA synchronous = OFF"));
}

SqlConnection::~SqlConnection() {
    prepared_.clear();
    {
        QSqlDatabase db = QSqlDatabase::database(name_, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(name_);
}

QString SqlConnection::selectAllStatement(const QString& table, QStringList* columns) const {
    const QSqlDatabase db = QSqlDatabase::database(name_, false);
    QSqlRecord record = db.record(table);
    if (record.isEmpty())
        return {};
    columns->clear();
    for (int i = 0; i < record.count(); ++i) *columns << record.fieldName(i);
    record.insert(0, QSqlField(QStringLiteral("rowid"), QMetaType(QMetaType::LongLong)));
    return db.driver()->sqlStatement(QSqlDriver::SelectStatement, table, record, false);
}

SqlResult SqlConnection::exec(const QString& sql, const QVariantList& params) {
    SqlResult result;
    auto& slot = prepared_[sql];
    if (!slot) {
        slot = std::make_shared<QSqlQuery>(QSqlDatabase::database(name_, false));
        slot->setForwardOnly(true);
        if (!slot->prepare(sql)) {
            const QSqlError e = slot->lastError();
            slot.reset();
            prepared_.remove(sql);
            result.ok = false;
            result.code = e.nativeErrorCode().toInt();
            result.message = e.databaseText();
            return result;
        }
    }
    QSqlQuery& query = *slot;
    for (int i = 0; i < params.size(); ++i) query.bindValue(i, params[i]);
    if (!query.exec()) {
        const QSqlError e = query.lastError();
        result.ok = false;
        result.code = e.nativeErrorCode().toInt();
        result.message = e.databaseText();
        query.finish();
        return result;
    }
    if (query.isSelect()) {
        const int columns = query.record().count();
        while (query.next()) {
            QVariantList row;
            row.reserve(columns);
            for (int c = 0; c < columns; ++c) row << query.value(c);
            result.data << row;
        }
        result.rows = result.data.size();
    } else {
        result.rows = query.numRowsAffected();
    }
    query.finish();
    if (startsWith(sql, "BEGIN")) {
        inTransaction_ = true;
    } else if (startsWith(sql, "COMMIT") || startsWith(sql, "ROLLBACK") || startsWith(sql, "END")) {
        inTransaction_ = false;
    }
    return result;
}

}  // namespace idem
