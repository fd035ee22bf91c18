// 误区一 — the request id only at the entry: the service deduplicates requests
// on it, then calls a coupon service whose answer gets lost and calls again;
// only a key the coupon service itself checks makes that retry harmless.
#pragma once

#include "scenario.h"

#include <optional>

namespace idem {

class Downstream : public Scenario {
public:
    Downstream();
    const ScenarioInfo& info() const override { return info_; }
    void plan(Planner& planner, int intent) const override;
    Effects effects(Reader& db, int intent) const override;

private:
    Task<Reply> serve(Attempt& a, bool passKey) const;
    Task<QString> callCouponService(Attempt& a, const QString& requestId, bool passKey) const;
    Task<std::optional<QString>> callOnce(Attempt& a, int call, const QString& grantKey) const;
    Task<QString> grantCoupon(Attempt& a, const QString& grantKey) const;

    ScenarioInfo info_;
};

}  // namespace idem
