// 天然幂等的操作 — one operation run again and again on the same rows: reads,
// setting a fixed value and deleting by id leave the state of one run; adding,
// deducting, inserting and notifying pile up. The judge compares the user's
// rows right after the first run with the rows after all of them. With
// late-repeat, a different write lands between the runs of set-status, and
// the last run, arriving late, overwrites it.
#pragma once

#include "scenario.h"

namespace idem {

class NaturalOps : public Scenario {
public:
    NaturalOps();
    const ScenarioInfo& info() const override { return info_; }
    QStringList schema(const RunConfig& config) const override;
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    // With late-repeat: the later write that a late repeat overwrote.
    Phrase inconsistency(Reader& db, int intent) const override;
    // Adds "table", "after_one" and "after_all": the first intent's rows of
    // the table the operation works on, after one run and after every run.
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

private:
    Task<Reply> takeSnapshot(Attempt& a) const;
    Task<Reply> writeLater(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
