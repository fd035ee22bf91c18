// Read idempotency side by side: offset, cursor and keyset paging the same
// feed under the same concurrent writes, page by page in step with playback,
// with duplicated and lost rows highlighted, each query's plan, and a chart
// of duplicates and losses per page.
#pragma once

#include "runconfig.h"

#include <QJsonArray>
#include <QWidget>

#include <atomic>
#include <memory>

class QChartView;
class QLabel;
class QPlainTextEdit;
class QTreeWidget;

namespace idem {

class Scenario;
struct TraceEvent;

// The three strategies' runs on one input, computed by PaginationView::runAll.
struct PagingRuns;

class PaginationView : public QWidget {
    Q_OBJECT
public:
    explicit PaginationView(QWidget* parent = nullptr);
    // Runs the three strategies on this configuration's feed and writes.
    void setInput(const Scenario& scenario, const RunConfig& config);
    // The same in two halves: the runs (safe in a worker thread, stopped
    // early when `cancel` is set), then showing them on the window's thread.
    static std::shared_ptr<PagingRuns> runAll(const Scenario& scenario, const RunConfig& config,
                                              const std::atomic<bool>* cancel = nullptr);
    void show(const PagingRuns& runs);
    // Shows pages 1..pages (the pages the run on screen has read so far).
    void showPages(int pages);
    // Shows the pages that events [0, upTo) of the run on screen have read.
    void followRun(const QList<TraceEvent>& events, qsizetype upTo);
    int pageCount(int strategy) const;
    int shownPages() const { return shown_; }
    // Each strategy's verdict on the whole feed: variant id → verdict id.
    QList<QPair<QString, QString>> verdicts() const;
    // Rows highlighted as duplicated / lost in a column (for tests).
    int duplicatedRows(int strategy) const;
    int lostRows(int strategy) const;
    static QStringList strategies() { return {"offset", "cursor", "keyset"}; }

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

public:
    // The page's widgets are built when it is first shown (start-up builds
    // none of them); this builds them now (tests reading the columns).
    void build();

private:
    void retranslate();
    void render();
    void renderChart();

    std::shared_ptr<PagingRuns> runs_;
    int shown_ = 0;
    QLabel* titles_[3] = {};  // nullptr until built
    QTreeWidget* columns_[3] = {};
    QPlainTextEdit* plans_[3] = {};
    QChartView* chart_ = nullptr;
};

}  // namespace idem
