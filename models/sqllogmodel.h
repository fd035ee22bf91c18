// The SQL log: every statement the run executed (text, bound values, the rows
// it returned or changed, SQLite's error) and every lock wait, in order.
#pragma once

#include "trace.h"

#include <QAbstractTableModel>
#include <QList>

namespace idem {

class SqlLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Attempt, Connection, Statement, Params, Rows, Error, ColumnCount };
    // Qt::UserRole: the event kind ("sql", "lock-wait"); KindRole + 1: the error text.
    static constexpr int KindRole = Qt::UserRole;
    static constexpr int FailedRole = Qt::UserRole + 1;
    static constexpr int ActorRole = Qt::UserRole + 2;  // who ran it ("service", "observer" ...)

    explicit SqlLogModel(QObject* parent = nullptr);

    // Appends the log-worthy events among trace events [from, to).
    void append(const Trace& trace, qsizetype from, qsizetype to);
    void rebuild(const Trace& trace);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QString toCsv() const;

    static QString formatParams(const QVariantList& params);
    static QString formatTime(qint64 ms);

private:
    QList<TraceEvent> rows_;
};

}  // namespace idem
