// 误区四 — answering every duplicate with success: one payment arrives a
// hundred times within a minute. The unique payment number charges it once
// either way; the alerting variant also counts the duplicates and raises one
// alert, while repeated queries stay quiet.
#pragma once

#include "scenario.h"

namespace idem {

class DuplicateAlert : public Scenario {
public:
    DuplicateAlert();
    const ScenarioInfo& info() const override { return info_; }
    void plan(Planner& planner, int intent) const override;
    Effects effects(Reader& db, int intent) const override;
    void completeAlerts(Reader& db, QList<AlertRecord>& alerts) const override;
    // Adds "duplicate_log": the logged repeats per operation (alerting only).
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

private:
    Task<Reply> pay(Attempt& a, bool alerting) const;
    Task<Reply> query(Attempt& a, bool alerting) const;

    ScenarioInfo info_;
};

}  // namespace idem
