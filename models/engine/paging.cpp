#include "paging.h"

#include "runner.h"
#include "scenario.h"
#include "vocabulary.h"

namespace idem {

std::shared_ptr<PagingRuns> runPagingStrategies(const Scenario& scenario, const RunConfig& config,
                                                const std::atomic<bool>* cancel) {
    auto all = std::make_shared<PagingRuns>();
    all->pageNote = scenario.info().pagingNotes.page;
    for (const VariantInfo& variant : scenario.info().variants) {
        RunConfig c = config;
        c.variant = variant.id;
        all->strategies << StrategyRun{};
        StrategyRun& result = all->strategies.last();
        result.variant = variant.id;
        RunOptions options;
        options.cancel = cancel;
        const RunResult run = runToEnd(c, scenario, options, true);
        if (!run.ok()) {
            result.error = run.error;
            continue;
        }
        result.pages = run.summary.extras.value("pages").toArray();
        result.plan = run.summary.extras.value("query_plan").toArray();
        result.verdict = toId(run.summary.verdict);
        // What the other users did after each page, as the scenario noted it.
        for (const TraceEvent& e : run.run->trace().events()) {
            if (e.kindId() != scenario.info().pagingNotes.feedChanged)
                continue;
            auto& [inserted, deleted] =
                result.writes[qMakePair(e.fields.number("reader"), e.fields.number("after_page"))];
            inserted += e.fields.number("inserted");
            deleted += e.fields.number("deleted");
        }
    }
    return all;
}

}  // namespace idem
