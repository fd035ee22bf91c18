// 定时任务 — two scheduler nodes fire the daily job settle(biz_date); a lease
// lock stops them running together, a claim in job_runs stops a later re-run,
// and only a fencing token stops a node that slept past its lease. The same
// lock in Redis (--redis) teaches the same: a lock is not idempotency.
#pragma once

#include "scenario.h"

namespace idem {

class ScheduledTask : public Scenario {
public:
    ScheduledTask();
    const ScenarioInfo& info() const override { return info_; }
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Effects effects(Reader& db, int intent) const override;
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    Phrase inconsistency(Reader& db, int intent) const override;

private:
    Task<Reply> withoutGuard(Attempt& a) const;
    Task<Reply> lockOnly(Attempt& a) const;
    Task<Reply> claimOnly(Attempt& a) const;
    Task<Reply> lockAndClaim(Attempt& a) const;
    Task<Reply> redisLock(Attempt& a) const;
    Task<Reply> redisLockFenced(Attempt& a) const;
    // Computes the day's settlement and writes the payouts (inside the
    // caller's transaction).
    Task<void> writePayouts(Attempt& a, const QVariant& token) const;

    ScenarioInfo info_;
};

}  // namespace idem
