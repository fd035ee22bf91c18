#include "locksmodel.h"

#include <QFont>

#include <algorithm>

namespace idem {

LocksModel::LocksModel(QObject* parent) : QAbstractTableModel(parent) {}

void LocksModel::show(const LockRows& rows, const LockFollower& follower) {
    QHash<QString, QString> names;
    auto name = [&](const QString& session) {
        if (!session.isEmpty() && !names.contains(session)) {
            const QString attempt =
                attemptName(follower.attemptOf(session), follower.manyIntents());
            names.insert(session, attempt.isEmpty() ? session : attempt);
        }
    };
    for (const LockRow& r : rows) {
        name(r.session);
        name(r.of);
        for (const QString& s : r.waitsFor) name(s);
    }
    // The waits first: in a narrow pane they are what the class looks for.
    LockRows shown = rows;
    std::stable_partition(shown.begin(), shown.end(), [](const LockRow& r) { return !r.granted; });
    if (shown == rows_ && names == names_)
        return;
    beginResetModel();
    rows_ = std::move(shown);
    names_ = std::move(names);
    endResetModel();
}

int LocksModel::waiting() const {
    return int(
        std::count_if(rows_.cbegin(), rows_.cend(), [](const LockRow& r) { return !r.granted; }));
}

void LocksModel::setWaitingColours(const QColor& fill, const QColor& text) {
    waitingFill_ = fill;
    waitingText_ = text;
    if (!rows_.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int LocksModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int LocksModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString LocksModel::text(const LockRow& r, int column) const {
    switch (Column(column)) {
        case Attempt:
            return attemptOf(r.session);
        case Lock:
            return lockKindName(r.kind);
        case Mode:
            return r.mode;
        case Table:
            return r.table;
        case Index:
            return r.index;
        case Record:
            if (r.kind == QLatin1String(lockkind::kTransaction)) {
                const QString of = r.of.isEmpty() ? tr("another connection") : attemptOf(r.of);
                return r.xid != 0 ? tr("%1, of %2").arg(r.xid).arg(of) : tr("of %1").arg(of);
            }
            return lockRecordText(r.record);
        case State: {
            if (r.granted)
                return tr("held");
            QStringList holders;
            for (const QString& s : r.waitsFor) holders << attemptOf(s);
            if (r.waitsForOthers)
                holders << tr("a connection outside the run");
            //: Between attempts: "#2, #3"
            return holders.isEmpty() ? tr("waits") : tr("waits for %1").arg(holders.join(tr(", ")));
        }
        case ColumnCount:
            break;
    }
    return {};
}

QVariant LocksModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size())
        return {};
    const LockRow& r = rows_[index.row()];
    switch (role) {
        case Qt::DisplayRole:
            return text(r, index.column());
        case Qt::ToolTipRole:
            if (index.column() == Lock)
                return lockKindHelp(r.kind);
            return text(r, index.column());
        case WaitingRole:
            return !r.granted;
        case Qt::BackgroundRole:
            if (!r.granted && waitingFill_.isValid())
                return waitingFill_;
            return {};
        case Qt::ForegroundRole:
            if (!r.granted && waitingText_.isValid())
                return waitingText_;
            return {};
        case Qt::FontRole:
            if (!r.granted) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        default:
            return {};
    }
}

QVariant LocksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
        case Attempt:
            return tr("Attempt");
        case Lock:
            return tr("Lock");
        case Mode:
            return tr("Mode");
        case Table:
            return tr("Table");
        case Index:
            return tr("Index");
        case Record:
            return tr("Record");
        case State:
            return tr("State");
        case ColumnCount:
            break;
    }
    return {};
}

void LocksModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!rows_.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

}  // namespace idem
