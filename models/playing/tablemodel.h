// One database table as the views show it: refreshed after every step from a
// reading connection, with fine-grained signals (rows inserted or removed,
// cells changed) and a role that marks what the last step changed.
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QSet>
#include <QStringList>
#include <QVariantList>

namespace idem {

class SqlConnection;

class TableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // True for a cell (or, in column 0, a row) the last refresh changed.
    static constexpr int ChangedRole = Qt::UserRole + 1;
    // What an open transaction has done to a cell that it has not committed
    // yet: "inserted", "deleted", "changed", or empty. Nobody else sees it.
    static constexpr int UncommittedRole = Qt::UserRole + 2;

    explicit TableModel(QObject* parent = nullptr);

    void setTable(const QString& table);
    const QString& table() const { return table_; }
    // Each row's version beside it where the database keeps one
    // (SqlConnection::selectAllWithRowVersions); read at the next refresh.
    void setRowVersions(bool on) { rowVersions_ = on; }
    // Re-reads the table; emits only what changed since the last refresh.
    // False when the table does not exist (the variant does not use it).
    // With `writer`, the connection of an open write transaction, the rows
    // are shown as that transaction sees them, what it has not committed
    // marked (UncommittedRole): the reader's are what everyone else sees.
    // On a server, whose transactions are many, the reader itself shows
    // what they have not committed (SqlConnection::readUncommitted).
    bool refresh(SqlConnection& connection, SqlConnection* writer = nullptr);
    // Rows the last refresh showed as not yet committed.
    int uncommittedRows() const { return uncommittedRows_; }
    // What a refresh does when the table cannot have changed (nothing was
    // committed since): the last change's marks go, without reading it.
    void settle();
    void clear();
    // The last refresh found rows added, removed or changed.
    bool changedLastRefresh() const { return changedLastRefresh_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The rows as CSV (RFC 4180), header first: for "copy table as CSV".
    // Numbers stay numbers; text is neutralised for spreadsheets (csv.h).
    QString toCsv() const;

private:
    enum class Pending : quint8 { None, Inserted, Deleted };
    struct Row {
        qint64 rowid = 0;
        QVariantList values;
        QSet<int> changed;  // columns the last refresh changed; -1: a new row
        Pending pending = Pending::None;
        QSet<int> pendingCells;  // columns an open transaction changed
        bool samePending(const Row& o) const {
            return pending == o.pending && pendingCells == o.pendingCells;
        }
    };
    QList<Row> read(SqlConnection& connection, const QString& select) const;
    QList<Row> withUncommitted(QList<Row> committed, const QList<QVariantList>& open,
                               const SqlConnection& connection);
    // Row versions on screen: the last two columns are xmin and xmax.
    bool showsVersions() const;
    bool isVersionColumn(int column) const;
    static QString versionText(const QString& version);
    int uncommittedRows_ = 0;
    QString table_;
    QStringList columns_;
    QList<Row> rows_;
    bool changedLastRefresh_ = false;
    bool rowVersions_ = false;
};

}  // namespace idem
