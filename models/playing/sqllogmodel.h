// The SQL log: every statement the run executed (text, bound values, the rows
// it returned or changed, SQLite's error) and every lock wait, in order.
#pragma once

#include "trace.h"

#include <QAbstractTableModel>
#include <QList>

#include <vector>

namespace idem {

class Sweeper;

class SqlLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Attempt, Connection, Statement, Params, Rows, Error, ColumnCount };
    // Qt::UserRole: the event kind ("sql", "lock-wait"); KindRole + 1: the error text.
    static constexpr int KindRole = Qt::UserRole;
    static constexpr int FailedRole = Qt::UserRole + 1;
    static constexpr int ActorRole = Qt::UserRole + 2;  // who ran it ("service", "observer" ...)

    // The rows a table shows at most: the latest statements. A table keeps
    // a record of every row it shows, and 300,000 at once (the end of the
    // largest run) would take it longer than a frame to take in; each step
    // that pushes a row out and takes one in costs the table in proportion
    // to the rows it lists (0.75 ms a step at 50,000, 0.2-0.35 at 10,000). Every
    // row stays in the model (toCsv has them all).
    static constexpr qsizetype kShownRows = 10'000;

    explicit SqlLogModel(QObject* parent = nullptr);

    // Appends the log-worthy events among trace events [from, to).
    void append(const Trace& trace, qsizetype from, qsizetype to);
    void rebuild(const Trace& trace);
    // The rows events [from, to) add, touching no model: a worker builds
    // them over a long seek, and the window hands them over in one piece.
    static QList<TraceEvent> rowsOf(const QList<TraceEvent>& events, qsizetype from, qsizetype to);
    void appendRows(QList<TraceEvent> rows);
    void resetRows(QList<TraceEvent> rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // Every statement and lock wait so far, shown or not.
    qsizetype totalRows() const { return ends_.empty() ? 0 : ends_.back(); }
    // The earliest rows the table leaves out (all but the last kShownRows).
    qsizetype leftOut() const { return first_; }
    QString toCsv() const;
    // Who ran the statement of a row, as a small id.
    NameId actorAt(int row) const { return this->row(row).actor; }

    static QString formatParams(const QVariantList& params);
    static QString formatTime(qint64 ms);

signals:
    void leftOutChanged(qsizetype leftOut);

private:
    const TraceEvent& row(int i) const { return stored(first_ + i); }
    const TraceEvent& stored(qsizetype i) const;
    void dropRows();

    // The rows in order, in pieces: a long seek's rows are handed over as
    // one piece, without moving each row into place on the window's thread.
    std::vector<QList<TraceEvent>> chunks_;
    std::vector<qsizetype> ends_;  // rows in chunks_[0..i]
    qsizetype first_ = 0;          // the first row shown
    Sweeper* sweeper_;             // lets go of a long log's rows
};

}  // namespace idem
