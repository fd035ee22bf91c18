// The committed rows of a server's run as its trace keeps them: a `tables`
// event after each step that changed them (only the tables that changed;
// every table after the set-up), and the rows each statement returned
// (an sql event's `values`), so that the run can be played from its trace
// where the server is not installed (recordedbackend.h). SQLite's traces
// have neither: a replay runs SQLite itself.
#pragma once

#include "traceevent.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantList>

namespace idem {

// More rows than this in a table or a statement's answer: the trace keeps
// the first ones and says so, and cannot be played.
constexpr qsizetype kMaxRecordedRows = 1'000;

// One table's committed rows, and its uncommitted ones.
struct TableRows {
    QString table;
    QStringList columns;
    QStringList types;  // as the server names them ("bigint", "varchar")
    QList<QVariantList> rows;
    // PostgreSQL: each row's version, {xmin, xmax}, each transaction named
    // by whose it was ("#2", "i2#1", "R1", kSetUpVersion; "0": none), never
    // by its id, which differs from run to run. Empty elsewhere.
    QList<QStringList> versions;
    bool versioned = false;  // versions kept (a table with no rows has none)
    bool truncated = false;  // only the first kMaxRecordedRows are kept
    // From trace version 6: the rows as the run's open transactions have
    // them, what they have not committed included (as a server's reader
    // reads them, SqlConnection::readUncommitted), kept only while they
    // differ from the committed rows; with their versions on PostgreSQL.
    bool hasOpen = false;
    QList<QVariantList> open;
    QList<QStringList> openVersions;
};

// The name of a row version the run's set-up wrote.
inline constexpr const char* kSetUpVersion = "set-up";

QVariant tableRowsToValue(const TableRows& table);
TableRows tableRowsFromValue(const QVariant& value);
// The event that records `tables` (values of tableRowsToValue).
TraceEvent tablesEvent(const QVariantList& tables);

// An sql event's `values`: the rows a statement returned, at most
// kMaxRecordedRows of them (then `values_truncated`).
void keepReturnedValues(TraceEvent& event, const QList<QVariantList>& rows);
// The rows an sql event kept; false when the statement returned rows and
// the trace did not keep them all.
bool returnedValues(const TraceEvent& event, QList<QVariantList>* rows);

}  // namespace idem
