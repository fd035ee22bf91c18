// The one place the lab reads a statement's text back: its first word, its
// words outside parentheses, and a short head for a diagram. The engine
// counts writes and follows transactions by it, the trace reads old files
// by it, and the views show statements through it instead of parsing SQL.
#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

namespace idem {

enum class SqlVerb : quint8 {
    Other,
    Select,
    With,
    Values,
    Insert,
    Replace,
    Update,
    Delete,
    Begin,   // BEGIN ..., START TRANSACTION
    Commit,  // COMMIT, END
    Rollback,
    RollbackTo,  // ROLLBACK TO a savepoint: the transaction stays open
    Savepoint,
    Release,
    Create,
    Pragma,
};

// What the statement's first word (two for START TRANSACTION, ROLLBACK TO)
// says it is.
SqlVerb sqlVerb(QStringView sql);
// INSERT, REPLACE, UPDATE or DELETE at its head: it may change rows.
inline bool changesRows(SqlVerb v) {
    return v == SqlVerb::Insert || v == SqlVerb::Replace || v == SqlVerb::Update ||
           v == SqlVerb::Delete;
}
inline bool changesRows(QStringView sql) {
    return changesRows(sqlVerb(sql));
}
// The words of a statement outside parentheses, quotes and comments, in
// capitals: "WITH", "N", "AS", "INSERT", "INTO" ... for a WITH ... INSERT.
QStringList outerWords(QStringView sql);
// A statement cut to what a diagram's step shows: "INSERT INTO orders",
// "UPDATE payments", "SELECT … FROM orders", "BEGIN IMMEDIATE".
QString statementHead(const QString& sql);
// A statement without its common table expressions: `WITH n AS (...)
// INSERT INTO t ...` is an INSERT into t.
QString mainStatement(const QString& sql);
// The table a statement works on: INSERT INTO t, UPDATE t, DELETE FROM t,
// SELECT … FROM t; empty for anything else.
QString statementTable(const QString& sql);
// Its first word in capitals, START TRANSACTION read as BEGIN (the captions'
// word for it).
QString statementVerb(const QString& sql);

}  // namespace idem
