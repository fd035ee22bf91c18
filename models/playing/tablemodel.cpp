#include "tablemodel.h"

#include "tablesnapshot.h"

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

QList<TableModel::Row> TableModel::read(SqlConnection& connection, const QString& select) const {
    const SqlResult r = connection.exec(select);
    QList<Row> rows;
    rows.reserve(r.data.size());
    const bool versions = showsVersions();
    for (const QVariantList& values : r.data) {
        Row row{values.value(0).toLongLong(), values.mid(1), {}, Pending::None, {}};
        // Whose transaction each id is, where the connection knows.
        if (versions && row.values.size() >= 2) {
            for (qsizetype c = row.values.size() - 2; c < row.values.size(); ++c)
                row.values[c] = connection.rowVersionName(row.values[c]);
        }
        rows.append(std::move(row));
    }
    return rows;
}

bool TableModel::showsVersions() const {
    return rowVersions_ && columns_.size() >= 2 && columns_.last() == QLatin1String("xmax") &&
           columns_.at(columns_.size() - 2) == QLatin1String("xmin");
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
    } else if (QList<QVariantList> open; connection.readUncommitted(table_, columns_, &open)) {
        fresh = withUncommitted(std::move(fresh), open, connection);
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

// A server's rows have no id of their own (the reader numbers them in the
// order of their first column, the key): the committed rows and the rows as
// the open transactions have them are set beside each other by that key,
// both in that order. What only the open ones have is inserted, what only
// the committed have was deleted, and cells that differ were changed.
QList<TableModel::Row> TableModel::withUncommitted(QList<Row> committed,
                                                   const QList<QVariantList>& open,
                                                   const SqlConnection& connection) {
    const bool versions = showsVersions();
    QList<Row> own;
    own.reserve(open.size());
    for (const QVariantList& values : open) {
        Row row{0, values, {}, Pending::None, {}};
        if (versions && row.values.size() >= 2) {
            for (qsizetype c = row.values.size() - 2; c < row.values.size(); ++c)
                row.values[c] = connection.rowVersionName(row.values[c]);
        }
        own.append(std::move(row));
    }
    auto key = [](const Row& r) {
        return r.values.value(0).toString();
    };
    QSet<QString> committedKeys, ownKeys;
    for (const Row& r : std::as_const(committed)) committedKeys.insert(key(r));
    for (const Row& r : std::as_const(own)) ownKeys.insert(key(r));
    QList<Row> merged;
    merged.reserve(std::max(own.size(), committed.size()));
    qsizetype a = 0, b = 0;
    while (a < committed.size() || b < own.size()) {
        if (a < committed.size() && b < own.size() && key(committed[a]) == key(own[b])) {
            Row row = own[b++];
            // The version columns differ wherever a transaction wrote: the
            // cells of the row say what changed.
            const qsizetype cells = versions ? row.values.size() - 2 : row.values.size();
            for (int c = 0; c < cells; ++c) {
                if (row.values.value(c) != committed[a].values.value(c))
                    row.pendingCells.insert(c);
            }
            ++a;
            merged.append(std::move(row));
        } else if (a < committed.size() &&
                   (b >= own.size() || !ownKeys.contains(key(committed[a])))) {
            const bool kept = ownKeys.contains(key(committed[a]));  // out of order: left as is
            merged.append(committed[a++]);
            if (!kept)
                merged.last().pending = Pending::Deleted;
        } else {
            merged.append(own[b++]);
            if (!committedKeys.contains(key(merged.last())))
                merged.last().pending = Pending::Inserted;
        }
        if (merged.last().pending != Pending::None || !merged.last().pendingCells.isEmpty())
            ++uncommittedRows_;
    }
    for (qsizetype i = 0; i < merged.size(); ++i) merged[i].rowid = i + 1;
    return merged;
}

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

bool TableModel::isVersionColumn(int column) const {
    return showsVersions() && column >= columns_.size() - 2;
}

// "#2", "#2 · 745"; the set-up's in the language on screen.
QString TableModel::versionText(const QString& version) {
    if (version.startsWith(QLatin1String(kSetUpVersion)))
        return tr("set-up") + version.mid(qsizetype(qstrlen(kSetUpVersion)));
    return version;
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
            if (isVersionColumn(index.column()))
                return versionText(v.toString());
            return v.isNull() ? QVariant(QStringLiteral("NULL")) : v;
        }
        case Qt::ToolTipRole: {
            const QString value = row.values.value(index.column()).toString();
            if (isVersionColumn(index.column())) {
                const QString shown = versionText(value);
                if (index.column() == columns_.size() - 2)
                    return tr("xmin %1: the transaction that wrote this version of the row. A "
                              "snapshot sees it only if that transaction had committed when the "
                              "snapshot was taken.")
                        .arg(shown);
                return value == QLatin1String("0")
                           ? tr("xmax 0: no transaction has deleted or locked this version.")
                           : tr("xmax %1: the transaction that deleted, updated or locked this "
                                "version. Until it commits, everyone else still sees the row; "
                                "if it rolled back, the row stays as it was.")
                                 .arg(shown);
            }
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
