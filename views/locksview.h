// The Locks view, beside the tables: at the step on show, every lock the
// database holds or awaits for the run's attempts (#1, #2 ...), in the lab's
// words beside the server's mode, waiting rows highlighted, and who waits
// for whom drawn when more than one attempt waits. Read from the trace's
// locks events (locksnapshot.h), so a run, a replay and a lesson show the
// same. On SQLite it says what SQLite has instead (one writer for the whole
// database) and lists the lab's own lock table.
#pragma once

#include "locksnapshot.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace idem {

class LocksModel;
class WaitForGraph;

class LocksView : public QWidget {
    Q_OBJECT
public:
    explicit LocksView(QWidget* parent = nullptr);

    // Events [from, to) of a run on `backend` are new ([0, to) when
    // rebuild), those from `fresh` on the latest step's; `writer` (SQLite):
    // the session holding the write lock now.
    void show(const QList<TraceEvent>& events, qsizetype from, qsizetype to, qsizetype fresh,
              bool rebuild, const QString& backend, const QString& writer);
    void clear();
    // The latest step shown began a wait, or broke a deadlock: where the
    // eye goes.
    bool waitBegan() const { return waitBegan_; }
    // The latest step shown is one where the server broke a deadlock: the
    // graph draws the whole cycle it broke (the waits before the step and
    // the victim's refused request), though the victim's locks are gone.
    bool showsDeadlock() const { return !victim_.isEmpty(); }

    LocksModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    WaitForGraph* graph() const { return graph_; }
    // The line above the table: where the locks come from, how many wait.
    QString about() const;
    QString source() const;

    // Small: a tab beside the tables must not take the diagram's room
    // (the long line above the table wraps, the table scrolls).
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void retranslate();
    void applyPalette();

    QLabel* about_;
    QTableView* table_;
    WaitForGraph* graph_;
    LocksModel* model_;
    LockFollower follower_;
    QString backend_;
    QString writer_;
    bool waitBegan_ = false;
    // At a deadlock step: the waits before it, and the victim's session.
    LockRows beforeDeadlock_;
    QString victim_;
};

}  // namespace idem
