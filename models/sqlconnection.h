// One SQLite connection of a run, straight on libsqlite3: one prepared
// statement per SQL text, kept for the connection's life; no busy timeout, so
// a locked database is reported at once and the scheduler can park the process.
#pragma once

#include <QList>
#include <QString>
#include <QVariant>
#include <QVariantList>

#include <memory>

struct sqlite3;

namespace idem {

// SQLite's result codes that the engine and the scenarios act on (the
// extended codes are what a connection reports; the primary code is the low
// byte). Numbers, as in sqlite3.h, so that this header stays lean.
namespace sqlite {
constexpr int Ok = 0;
constexpr int Error = 1;
constexpr int Busy = 5;
constexpr int Full = 13;
constexpr int IoErr = 10;
constexpr int Constraint = 19;
constexpr int ConstraintCheck = 275;
constexpr int ConstraintPrimaryKey = 1555;
constexpr int ConstraintUnique = 2067;
constexpr int primary(int code) {
    return code & 0xff;
}
}  // namespace sqlite

// Values to bind, in order. (A function rather than a braced list: g++ 12
// miscompiles braced lists inside a co_await expression.)
template <typename... Values>
QVariantList bound(Values&&... values) {
    return QVariantList{QVariant(std::forward<Values>(values))...};
}

// What a statement's count of rows counts, as SQLite knows the prepared
// statement (its result columns and the actions its authorizer saw).
enum class RowCount : quint8 {
    None,      // no count of its own: transaction control (BEGIN, COMMIT, SAVEPOINT ...),
               // schema, a pragma that answers nothing
    Returned,  // it returns rows (SELECT, ... RETURNING, a pragma's answer): how many
    Changed,   // INSERT, UPDATE or DELETE: the rows it changed (sqlite3_changes)
};

struct SqlResult {
    bool ok = true;
    // Rows returned by a statement that returns rows; else SQLite's count of
    // changes (sqlite3_changes), which after a statement that changes nothing
    // itself (BEGIN, COMMIT) is still the previous statement's.
    qint64 rows = 0;
    RowCount counts = RowCount::None;  // what `rows` means
    QList<QVariantList> data;          // the rows a read returned
    int code = sqlite::Ok;             // SQLite's extended result code
    QString message;                   // SQLite's message; empty when ok

    bool isBusy() const { return sqlite::primary(code) == sqlite::Busy; }
    bool isConstraint() const { return sqlite::primary(code) == sqlite::Constraint; }
    bool isUniqueViolation() const {
        return code == sqlite::ConstraintUnique || code == sqlite::ConstraintPrimaryKey;
    }
    // The disk is full or failing: no business outcome can be read from it.
    bool isStorageFailure() const {
        return sqlite::primary(code) == sqlite::Full || sqlite::primary(code) == sqlite::IoErr;
    }
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

    bool isOpen() const { return db_ != nullptr; }
    QString openError() const { return openError_; }
    const QString& id() const { return id_; }
    // SQLite's own answer: a transaction is open on this connection.
    bool inTransaction() const;

    SqlResult exec(const QString& sql, const QVariantList& params = {});
    // "SELECT rowid, <every column> FROM <table>", identifiers quoted;
    // columns receives the column names (without rowid). Empty when the
    // table does not exist.
    QString selectAllStatement(const QString& table, QStringList* columns);
    // Whether another connection has committed since this one last asked
    // (true the first time; SQLite's data_version, a few microseconds). A
    // reader that shows the tables reads them again only when it is true.
    bool othersCommittedSinceAsked();

private:
    struct Statements;
    QString id_;
    QString openError_;
    sqlite3* db_ = nullptr;
    std::unique_ptr<Statements> statements_;
    qint64 dataVersion_ = -1;  // data_version when last asked; -1: never asked
};

}  // namespace idem
