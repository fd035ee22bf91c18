// Read idempotency's work: every paging strategy a scenario declares as a
// variant (offset, cursor, keyset) run on the same feed under the same
// concurrent writes, and what each read page by page. The window's worker
// runs it; the pagination view only shows it.
#pragma once

#include "runconfig.h"

#include <QJsonArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <atomic>
#include <memory>

namespace idem {

class Scenario;

struct StrategyRun {
    QString variant;
    QJsonArray pages;  // the summary's "pages": what each page returned
    QJsonArray plan;   // the summary's "query_plan"
    // What the other users did while a reader read a page, as the scenario
    // noted it (ScenarioInfo::pagingNotes): (reader, page) → (inserted, deleted).
    QMap<QPair<qint64, qint64>, QPair<qint64, qint64>> writes;
    QString verdict;
    QString error;  // the run failed: why
};

struct PagingRuns {
    QList<StrategyRun> strategies;  // one per variant, in the scenario's order
    QString pageNote;               // the note a reader leaves for each page
};

// Runs every variant of `scenario` on `config`'s feed and writes; safe in a
// worker thread, stopped early when `cancel` is set.
std::shared_ptr<PagingRuns> runPagingStrategies(const Scenario& scenario, const RunConfig& config,
                                                const std::atomic<bool>* cancel = nullptr);

}  // namespace idem
