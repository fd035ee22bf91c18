// The database seam: one session of a run's database, whatever the database
// is. The scheduler, the judge, the scenarios and the views speak to this;
// only a backend's own files (sqliteconnection.*, rundatabase.*) know which
// database answers. A result says what became of a statement in words every
// backend shares (SqlOutcome), with the database's own code and message beside.
#pragma once

#include "sqloutcome.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantList>

#include <memory>
#include <optional>

namespace idem {

// Values to bind, in order. (A function rather than a braced list: g++ 12
// miscompiles braced lists inside a co_await expression.) Appended one by
// one: a list built from a braced list writes through a null block when its
// allocation fails, where an append throws std::bad_alloc (the command's
// "out of memory"; tests/faults_test.py).
template <typename... Values>
QVariantList bound(Values&&... values) {
    QVariantList list;
    list.reserve(qsizetype(sizeof...(Values)));
    (list.append(QVariant(std::forward<Values>(values))), ...);
    return list;
}

// What a statement's count of rows counts (SQLite knows it from the prepared
// statement's result columns and the actions its authorizer saw).
enum class RowCount : quint8 {
    None,      // no count of its own: transaction control (BEGIN, COMMIT, SAVEPOINT ...),
               // schema, a pragma that answers nothing
    Returned,  // it returns rows (SELECT, ... RETURNING, a pragma's answer): how many
    Changed,   // INSERT, UPDATE or DELETE: the rows it changed
};

// "unique-violation", as traces name an outcome; outcomeFromId reads it back.
const char* outcomeId(SqlOutcome outcome);
std::optional<SqlOutcome> outcomeFromId(QStringView id);

struct SqlResult {
    bool ok = true;
    // Rows returned by a statement that returns rows; else the database's
    // count of changes (SQLite's, after a statement that changes nothing
    // itself, BEGIN or COMMIT, is still the previous statement's).
    qint64 rows = 0;
    RowCount counts = RowCount::None;  // what `rows` means
    QList<QVariantList> data;          // the rows a read returned
    QStringList columns;               // their column names, where the database gives them
    qint64 insertId = 0;               // the row id an INSERT gave, where the database says
    SqlOutcome outcome = SqlOutcome::Ok;
    int code = 0;     // the database's own code (SQLite's extended result code)
    QString message;  // the database's message; empty when ok
    QString state;    // a server's SQLSTATE ("40001"); empty on SQLite and when ok

    bool isBusy() const { return outcome == SqlOutcome::LockBusy; }
    // A constraint refused the statement (a unique key or a CHECK).
    bool isConstraint() const {
        return outcome == SqlOutcome::UniqueViolation || outcome == SqlOutcome::CheckViolation;
    }
    bool isUniqueViolation() const { return outcome == SqlOutcome::UniqueViolation; }
    // The disk is full or failing: no business outcome can be read from it.
    bool isStorageFailure() const { return outcome == SqlOutcome::StorageFailure; }
    bool empty() const { return data.isEmpty(); }
    QVariant value(int row = 0, int column = 0) const {
        return row < data.size() && column < data[row].size() ? data[row][column] : QVariant();
    }
    // "UNIQUE constraint failed: orders.request_id (2067)"; empty when ok.
    QString errorText() const;
};

class SqlConnection {
public:
    explicit SqlConnection(const QString& traceId) : id_(traceId) {}
    virtual ~SqlConnection();
    SqlConnection(const SqlConnection&) = delete;
    SqlConnection& operator=(const SqlConnection&) = delete;

    virtual bool isOpen() const = 0;
    virtual QString openError() const = 0;
    const QString& id() const { return id_; }
    // The database's own answer: a transaction is open on this session.
    virtual bool inTransaction() const = 0;

    virtual SqlResult exec(const QString& sql, const QVariantList& params = {}) = 0;
    // The text of `sql` this session sends: the lab's SQL in the database's
    // own spelling (sqldialect.h). The trace and the SQL log show it.
    virtual QString textSent(const QString& sql) const { return sql; }
    // The last statement as the database received it, where the client put
    // the values into the text (MariaDB's text protocol: the trace's
    // "sent"); empty where the values travel apart from it.
    virtual QString received() const { return {}; }
    // "SELECT <row id>, <every column> FROM <table>", identifiers quoted;
    // columns receives the column names (without the row id). Empty when the
    // table does not exist.
    virtual QString selectAllStatement(const QString& table, QStringList* columns) = 0;
    // The same with each row's version beside it, where the database keeps
    // one in the row (PostgreSQL's xmin and xmax); elsewhere the same.
    virtual QString selectAllWithRowVersions(const QString& table, QStringList* columns) {
        return selectAllStatement(table, columns);
    }
    // What a row version's id (an xmin or xmax the select above read)
    // shows as: PostgreSQL's ids named by whose transaction they are.
    virtual QVariant rowVersionName(const QVariant& version) const { return version; }
    // The rows of `table` (each with `columns`, in that order; "xmin" and
    // "xmax" are a row version's) as the open transactions of the run have
    // made them, what they have not committed included, read without a
    // statement in their sessions (a server's: serverconnection.h), in the
    // order selectAllStatement reads. False where this connection cannot
    // show them (SQLite: its one writer's connection shows its own rows).
    virtual bool readUncommitted(const QString& table, const QStringList& columns,
                                 QList<QVariantList>* rows) {
        Q_UNUSED(table);
        Q_UNUSED(columns);
        Q_UNUSED(rows);
        return false;
    }
    // Whether another session has committed since this one last asked (true
    // the first time). A reader that shows the tables reads them again only
    // when it is true.
    virtual bool othersCommittedSinceAsked() = 0;

    // --- what each database says in its own way -----------------------------
    // A row for each table of this name in the schema (none: no such table).
    virtual SqlResult findTable(const QString& table) = 0;
    // The database's own check of its files and constraints: one text,
    // "ok" or what it found.
    virtual SqlResult integrityCheck() = 0;

private:
    QString id_;
};

}  // namespace idem
