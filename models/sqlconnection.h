// One SQLite connection of a run (QSQLITE, WAL mode, no busy timeout: a locked
// database is reported at once so the scheduler can park the process).
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QVariant>
#include <QVariantList>

#include <memory>

class QSqlQuery;

namespace idem {

// Values to bind, in order. (A function rather than a braced list: g++ 12
// miscompiles braced lists inside a co_await expression.)
template <typename... Values>
QVariantList bound(Values&&... values) {
    return QVariantList{QVariant(std::forward<Values>(values))...};
}

struct SqlResult {
    bool ok = true;
    qint64 rows = 0;           // rows affected by a write, rows returned by a read
    QList<QVariantList> data;  // the rows a read returned
    int code = 0;              // SQLite's extended result code; 0 when ok
    QString message;

    bool isBusy() const { return (code & 0xff) == 5; }
    bool isConstraint() const { return (code & 0xff) == 19; }
    bool isUniqueViolation() const { return code == 2067 || code == 1555; }
    bool empty() const { return data.isEmpty(); }
    QVariant value(int row = 0, int column = 0) const {
        return row < data.size() && column < data[row].size() ? data[row][column] : QVariant();
    }
    // "UNIQUE constraint failed: orders.request_id (2067)"; empty when ok.
    QString errorText() const;
};

class SqlConnection {
public:
    SqlConnection(const QString& path, const QString& traceId);
    ~SqlConnection();
    SqlConnection(const SqlConnection&) = delete;
    SqlConnection& operator=(const SqlConnection&) = delete;

    bool isOpen() const { return open_; }
    QString openError() const { return openError_; }
    const QString& id() const { return id_; }
    bool inTransaction() const { return inTransaction_; }

    SqlResult exec(const QString& sql, const QVariantList& params = {});
    // "SELECT rowid, <every column> FROM <table>", identifiers escaped by the
    // driver; columns receives the column names (without rowid). Empty when
    // the table does not exist.
    QString selectAllStatement(const QString& table, QStringList* columns) const;

private:
    QString id_;
    QString name_;
    bool open_ = false;
    bool inTransaction_ = false;
    QString openError_;
    QHash<QString, std::shared_ptr<QSqlQuery>> prepared_;
};

}  // namespace idem
