// 读幂等 — a user pages through the order list, newest first, while other
// users keep writing: offset pagination drifts, a timestamp cursor skips the
// rows that share the boundary timestamp, a (created_at, id) keyset does neither.
#pragma once

#include "scenario.h"
#include "sqlconnection.h"

namespace idem {

class Pagination : public Scenario {
public:
    Pagination();
    const ScenarioInfo& info() const override { return info_; }
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    // A row shown twice makes the run duplicated, else a row never shown makes it lost.
    Verdict judge(const IntentJudgement& j) const override;
    // Adds "pages" (per page: rows, duplicates, lost; the cursor's skipped
    // rows), "feed" (rows at the start, inserted, deleted) and "query_plan".
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

    // With ties=1, how many orders share one created_at: the smallest size
    // from 3 up that does not divide the page size, so that a full page
    // always ends inside a group.
    static int tieGroupSize(int pageSize);
    // How a strategy finds the page after the one shown: skip rows, or seek
    // past the last row's timestamp (and id).
    enum class Cursor { Offset, CreatedAt, CreatedAtAndId };
    struct Strategy {
        const char* id;
        bool recommended;
        const char* summary;
        Cursor cursor;
        const QString& nextPage;  // the query of every page after the first
    };
    // The strategy a variant id names; null for an unknown id.
    static const Strategy* strategy(const QString& variant);

private:
    Task<Reply> scroll(Attempt& a, const Strategy& strategy) const;
    Task<SqlResult> readPage(Attempt& a, const Strategy& strategy, int page, qint64 lastCreatedAt,
                             qint64 lastId) const;
    Task<Reply> writeBetweenPages(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
