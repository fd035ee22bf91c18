#include "tablemodel.h"

#include "csv.h"
#include "sqlconnection.h"

namespace idem {

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableModel::setTable(const QString& table) {
    beginResetModel();
    table_ = table;
    columns_.clear();
    rows_.clear();
    endResetModel();
}

void TableModel::clear() {
    if (rows_.isEmpty())
        return;
    beginRemoveRows({}, 0, int(rows_.size()) - 1);
    rows_.clear();
    endRemoveRows();
}

void TableModel::settle() {
    changedLastRefresh_ = false;
    for (int i = 0; i < rows_.size(); ++i) {
        if (rows_[i].changed.isEmpty())
            continue;
        rows_[i].changed.clear();
        emit dataChanged(index(i, 0), index(i, int(columns_.size()) - 1));
    }
}

QList<TableModel::Row> TableModel::read(SqlConnection& connection, const QString& select) {
    const SqlResult r = connection.exec(select);
    QList<Row> rows;
    rows.reserve(r.data.size());
    for (const QVariantList& values : r.data)
        rows.append(Row{values.value(0).toLongLong(), values.mid(1), {}, Pending::None, {}});
    return rows;
}

bool TableModel::refresh(SqlConnection& connection, SqlConnection* writer) {
    QStringList columns;
    changedLastRefresh_ = false;
    const QString select = rowVersions_ ? connection.selectAllWithRowVersions(table_, &columns)
                                        : connection.selectAllStatement(table_, &columns);
    if (select.isEmpty()) {
        changedLastRefresh_ = !rows_.isEmpty();
        clear();
        return false;
    }
    if (columns != columns_) {
        beginResetModel();
        columns_ = columns;
        rows_.clear();
        endResetModel();
    }
    QList<Row> fresh = read(connection, select);
    uncommittedRows_ = 0;
    if (writer) {
        // The writer's rows, set beside the committed ones (both in rowid
        // order): what only it has is inserted, what only the others have
        // it deleted, and cells that differ it changed.
        const QList<Row> own = read(*writer, select);
        QList<Row> merged;
        merged.reserve(std::max(own.size(), fresh.size()));
        qsizetype a = 0, b = 0;
        while (a < fresh.size() || b < own.size()) {
            if (b >= own.size() || (a < fresh.size() && fresh[a].rowid < own[b].rowid)) {
                merged.append(fresh[a++]);
                merged.last().pending = Pending::Deleted;
            } else if (a >= fresh.size() || own[b].rowid < fresh[a].rowid) {
                merged.append(own[b++]);
                merged.last().pending = Pending::Inserted;
            } else {
                Row row = own[b++];
                for (int c = 0; c < row.values.size(); ++c) {
                    if (row.values.value(c) != fresh[a].values.value(c))
                        row.pendingCells.insert(c);
                }
                ++a;
                merged.append(row);
            }
            if (merged.last().pending != Pending::None || !merged.last().pendingCells.isEmpty())
                ++uncommittedRows_;
        }
        fresh = std::move(merged);
    }
    // Both lists are in rowid order: walk them together.
    int i = 0;
    int j = 0;
    while (i < rows_.size() || j < fresh.size()) {
        if (i < rows_.size() && (j >= fresh.size() || rows_[i].rowid < fresh[j].rowid)) {
            beginRemoveRows({}, i, i);
            rows_.removeAt(i);
            endRemoveRows();
            changedLastRefresh_ = true;
            continue;
        }
        if (i >= rows_.size() || fresh[j].rowid < rows_[i].rowid) {
            beginInsertRows({}, i, i);
            Row added = fresh[j];
            added.changed.insert(-1);
            for (int c = 0; c < columns_.size(); ++c) added.changed.insert(c);
            rows_.insert(i, added);
            endInsertRows();
            changedLastRefresh_ = true;
            ++i;
            ++j;
            continue;
        }
        Row& row = rows_[i];
        QSet<int> changed;
        for (int c = 0; c < columns_.size(); ++c) {
            if (row.values.value(c) != fresh[j].values.value(c))
                changed.insert(c);
        }
        const QSet<int> before = row.changed;
        const bool pendingMoved = !row.samePending(fresh[j]);
        row.values = fresh[j].values;
        row.changed = changed;
        row.pending = fresh[j].pending;
        row.pendingCells = fresh[j].pendingCells;
        changedLastRefresh_ = changedLastRefresh_ || !changed.isEmpty() || pendingMoved;
        if (!changed.isEmpty() || !before.isEmpty() || pendingMoved) {
            emit dataChanged(index(i, 0), index(i, int(columns_.size()) - 1));
        }
        ++i;
        ++j;
    }
    return true;
}

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size() || index.column() >= columns_.size()) {
        return {};
    }
    const Row& row = rows_[index.row()];
    switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole: {
            const QVariant v = row.values.value(index.column());
            return v.isNull() ? QVariant(QStringLiteral("NULL")) : v;
        }
        case Qt::ToolTipRole: {
            const QString value = row.values.value(index.column()).toString();
            switch (row.pending) {
                case Pending::Inserted:
                    return tr("%1\nInserted by a transaction not yet committed: nobody else sees "
                              "this row, and a rollback takes it away.")
                        .arg(value);
                case Pending::Deleted:
                    return tr("%1\nDeleted by a transaction not yet committed: everyone else "
                              "still sees this row.")
                        .arg(value);
                case Pending::None:
                    break;
            }
            if (row.pendingCells.contains(index.column()))
                return tr("%1\nChanged by a transaction not yet committed: everyone else still "
                          "sees the old value.")
                    .arg(value);
            return value;
        }
        case ChangedRole:
            return row.changed.contains(index.column()) || row.changed.contains(-1);
        case UncommittedRole:
            switch (row.pending) {
                case Pending::Inserted:
                    return QStringLiteral("inserted");
                case Pending::Deleted:
                    return QStringLiteral("deleted");
                case Pending::None:
                    break;
            }
            return row.pendingCells.contains(index.column()) ? QStringLiteral("changed")
                                                             : QString();
        default:
            return {};
    }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return columns_.value(section);
    return section + 1;
}

QString TableModel::toCsv() const {
    QStringList lines;
    QStringList header;
    for (const QString& c : columns_) header << csvText(c);
    lines << header.join(QLatin1Char(','));
    for (const Row& row : rows_) {
        QStringList fields;
        for (const QVariant& v : row.values) fields << csvValue(v);
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1String("\r\n")) + QLatin1String("\r\n");
}

}  // namespace idem
