// Read idempotency side by side: each paging strategy the scenario declares
// as a variant (offset, cursor, keyset) reading the same feed under the same
// concurrent writes, page by page in step with playback, with duplicated and
// lost rows highlighted, what the other users changed between pages, each
// query's plan, and a chart of duplicates and losses per page.
#pragma once

#include "runconfig.h"

#include <QJsonArray>
#include <QWidget>

#include <atomic>
#include <memory>

class QChartView;
class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QTreeWidget;

namespace idem {

class Scenario;
struct TraceEvent;

struct PagingRuns;

class PaginationView : public QWidget {
    Q_OBJECT
public:
    explicit PaginationView(QWidget* parent = nullptr);
    // Runs every variant of the scenario on this configuration's feed and writes.
    void setInput(const Scenario& scenario, const RunConfig& config);
    // Shows the strategies' runs on one input (models/engine/paging.h computes
    // them, in the window's worker).
    void show(const PagingRuns& runs);
    // Shows pages 1..pages (the pages the run on screen has read so far).
    void showPages(int pages);
    // Shows the pages that events [0, upTo) of the run on screen have read.
    void followRun(const QList<TraceEvent>& events, qsizetype upTo);
    // The strategies shown, in the scenario's order (variant ids; empty
    // before a run), and their pages.
    QStringList strategies() const;
    int pageCount(int strategy) const;
    int shownPages() const { return shown_; }
    // Each strategy's verdict on the whole feed: variant id → verdict id.
    QList<QPair<QString, QString>> verdicts() const;
    // Rows highlighted as duplicated / lost in a column (for tests).
    int duplicatedRows(int strategy) const;
    int lostRows(int strategy) const;

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

public:
    // The page's widgets are built when it is first shown (start-up builds
    // none of them); this builds them now (tests reading the columns).
    void build();

private:
    struct Column {
        QLabel* title = nullptr;
        QTreeWidget* pages = nullptr;
        QPlainTextEdit* plan = nullptr;
    };
    // One column per strategy run: added or removed to match.
    void fitColumns(int count);
    void retranslate();
    void render();
    void renderChart();

    std::shared_ptr<PagingRuns> runs_;
    int shown_ = 0;
    QChartView* chart_ = nullptr;  // nullptr until built
    QGridLayout* grid_ = nullptr;
    QList<Column> columns_;
};

}  // namespace idem
