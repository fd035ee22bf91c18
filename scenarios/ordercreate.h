// 订单创建 — the page sends a requestId with the form, the backend keeps a
// dedup table; the variants that get it wrong, and what production systems
// add: a database backstop, a request fingerprint, failed results.
#pragma once

#include <optional>

#include "scenario.h"

namespace idem {

class OrderCreate : public Scenario {
public:
    OrderCreate();
    const ScenarioInfo& info() const override { return info_; }
    // With payload=changed, every duplicate reuses the key for another amount.
    void plan(Planner& planner, int intent) const override;
    // The orders table as each database's engineers write it.
    QStringList schema(const RunConfig& config) const override;
    Effects effects(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    // A success must carry the id of the one order the user has.
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;

private:
    // How a dedup-table variant treats its claims.
    struct DedupPolicy {
        bool expiry = true;   // a PROCESSING claim past the in-progress expiry may be taken over
        bool recheck = true;  // after a takeover, look for the order first (状态回查)
        // UNIQUE(request_id) on orders: a second INSERT finds the first order (数据库兜底).
        bool backstop = false;
        // The claim stores the request's fingerprint; the key is refused to another payload.
        bool fingerprint = false;
        // A failed business step is the final answer, repeated to every retry.
        bool cacheErrors = false;
    };

    Task<Reply> createWithoutGuard(Attempt& a) const;
    Task<Reply> checkThenInsert(Attempt& a) const;
    Task<Reply> checkInTransaction(Attempt& a) const;
    Task<Reply> checkForUpdate(Attempt& a) const;
    Task<std::optional<Reply>> lookInTransaction(Attempt& a, const QString& find) const;
    Task<Reply> uniqueKey(Attempt& a) const;
    Task<Reply> dedupTable(Attempt& a, DedupPolicy policy) const;
    Task<Reply> dedupSameTransaction(Attempt& a) const;
    Task<QString> insertOrder(Attempt& a) const;
    Task<QString> insertOrFindOrder(Attempt& a) const;
    // firstToRun: the intent's first business step, which business-error=1 fails.
    Task<bool> priceAndRiskChecks(Attempt& a, bool firstToRun) const;

    ScenarioInfo info_;
};

}  // namespace idem
