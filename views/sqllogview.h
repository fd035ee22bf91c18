// The SQL log: every statement as the database saw it, with its bound values,
// rows affected and SQLite's error; lock waits in amber, errors in red.
#pragma once

#include <QStringList>
#include <QWidget>

class QAction;
class QSortFilterProxyModel;
class QLabel;
class QTableView;

namespace idem {

class SqlLogModel;

class SqlLogView : public QWidget {
    Q_OBJECT
public:
    explicit SqlLogView(SqlLogModel& model, QWidget* parent = nullptr);
    QTableView* view() const { return view_; }
    // The lanes of the lab's own instruments (ScenarioInfo::internalLanes):
    // their statements are left out unless internals are shown.
    void setInternalLanes(const QStringList& lanes);
    void setShowInternals(bool show);
    // What every session of a server's run was told before its first
    // statement (Summary::sessionSettings), shown above the log; none on
    // SQLite.
    void setSessionSettings(const QStringList& statements);
    QLabel* settingsLabel() const { return told_; }

public slots:
    void copyCsv() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fitColumns();
    void showLeftOut();
    void showSettings();
    void setColumnModes();
    void placeFilter();
    void retranslate();
    SqlLogModel& model_;
    QSortFilterProxyModel* shown_;
    QTableView* view_;
    QLabel* leftOut_;
    QLabel* told_;
    QStringList settings_;
    QWidget* leftOutHolder_;  // leftOut_'s LabelHolder
    QAction* copy_ = nullptr;
};

}  // namespace idem
