// Read idempotency side by side: offset, cursor and keyset paging the same
// feed under the same concurrent writes, page by page in step with playback,
// with duplicated and lost rows highlighted, each query's plan, and a chart
// of duplicates and losses per page.
#pragma once

#include "runconfig.h"

#include <QJsonArray>
#include <QWidget>

class QChartView;
class QLabel;
class QPlainTextEdit;
class QTreeWidget;

namespace idem {

class Scenario;

class PaginationView : public QWidget {
    Q_OBJECT
public:
    explicit PaginationView(QWidget* parent = nullptr);
    // Runs the three strategies on this configuration's feed and writes.
    void setInput(const Scenario& scenario, const RunConfig& config);
    // Shows pages 1..pages (the pages the run on screen has read so far).
    void showPages(int pages);
    int pageCount(int strategy) const { return int(runs_[strategy].pages.size()); }
    int shownPages() const { return shown_; }
    // Each strategy's verdict on the whole feed: variant id → verdict id.
    QList<QPair<QString, QString>> verdicts() const;
    // Rows highlighted as duplicated / lost in a column (for tests).
    int duplicatedRows(int strategy) const;
    int lostRows(int strategy) const;
    static QStringList strategies() { return {"offset", "cursor", "keyset"}; }

protected:
    void changeEvent(QEvent* event) override;

private:
    struct StrategyRun {
        QJsonArray pages;
        QJsonArray plan;
        QList<QPair<qint64, qint64>> writes;  // inserted, deleted after each page
        QString verdict;
        QString error;
    };
    void render();
    void renderChart();

    StrategyRun runs_[3];
    int shown_ = 0;
    QLabel* titles_[3];
    QTreeWidget* columns_[3];
    QPlainTextEdit* plans_[3];
    QChartView* chart_;
};

}  // namespace idem
