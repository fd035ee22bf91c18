// The Locks view's table: one row per lock the database holds or awaits
// for the run's attempts at the step on show, in the lab's words, its
// sessions named as the attempts they serve (#1, #2), waiting rows marked
// for the view to highlight. Filled from a LockFollower (locksnapshot.h).
#pragma once

#include "locksnapshot.h"

#include <QAbstractTableModel>
#include <QColor>

namespace idem {

class LocksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Who, what and whether it waits first: a narrow pane shows those.
    enum Column { Attempt, Lock, State, Record, Index, Table, Mode, ColumnCount };
    // True on a waiting row.
    static constexpr int WaitingRole = Qt::UserRole + 1;

    explicit LocksModel(QObject* parent = nullptr);

    // The rows, their sessions named by `follower`'s attempts.
    void show(const LockRows& rows, const LockFollower& follower);
    const LockRows& rows() const { return rows_; }
    // The attempt a session serves, as the rows name it ("#2").
    QString attemptOf(const QString& session) const { return names_.value(session, session); }
    int waiting() const;
    // The colours of a waiting row (the view's palette: light or dark).
    void setWaitingColours(const QColor& fill, const QColor& text);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    // The headers and words again, in the new language.
    void retranslate();

    // The text of a cell, as the view shows it.
    QString text(const LockRow& row, int column) const;

private:
    LockRows rows_;
    QHash<QString, QString> names_;  // session → "#2"
    QColor waitingFill_;
    QColor waitingText_;
};

}  // namespace idem
