// One database table, live: a titled QTableView over a TableModel, status
// colours, the last step's changes marked, and "copy as CSV".
#pragma once

#include <QWidget>

class QAction;
class QEvent;
class QLabel;
class QTableView;
class QVariantAnimation;

namespace idem {

class SqlConnection;
class StatusDelegate;
class TableModel;

class DatabaseTableView : public QWidget {
    Q_OBJECT
public:
    explicit DatabaseTableView(QWidget* parent = nullptr);
    void setTable(const QString& table, const QString& caption = {});
    // PostgreSQL's xmin and xmax beside each row, from the next refresh on.
    void setRowVersions(bool on);
    // `writer`: an open write transaction's connection, whose rows not yet
    // committed are shown and marked (TableModel::refresh).
    void refresh(SqlConnection& connection, SqlConnection* writer = nullptr);
    int uncommittedRows() const;
    // Nothing was committed since the last refresh (TableModel::settle).
    void settle();
    void clear();
    TableModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QString table() const;
    // False after a refresh that found no such table (the variant does not use it).
    bool exists() const { return exists_; }
    // The caption above the table (off where a tab already names it).
    void setTitleVisible(bool visible);
    // The last refresh added, removed or changed rows.
    bool changedLastRefresh() const;
    // Makes the rows the last refresh changed pulse, then stay marked.
    void flash();
    // A lesson points at this table: a frame in the highlight colour round it.
    void setPointed(bool pointed);
    bool isPointed() const { return pointed_; }

public slots:
    void copyCsv() const;

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void retranslate();
    QLabel* title_;
    QTableView* view_;
    TableModel* model_;
    StatusDelegate* delegate_;
    QVariantAnimation* flash_;
    QAction* copy_ = nullptr;
    QString caption_;
    bool exists_ = true;
    bool pointed_ = false;
};

}  // namespace idem
