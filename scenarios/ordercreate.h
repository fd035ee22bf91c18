// 订单创建 — the page sends a requestId with the form, the backend keeps a
// dedup table; and the variants that get it wrong.
#pragma once

#include "scenario.h"

namespace idem {

class OrderCreate : public Scenario {
public:
    OrderCreate();
    const ScenarioInfo& info() const override { return info_; }
    Effects effects(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    // A success must carry the id of the one order the user has.
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;

private:
    Task<Reply> createWithoutGuard(Attempt& a) const;
    Task<Reply> checkThenInsert(Attempt& a) const;
    Task<Reply> uniqueKey(Attempt& a) const;
    Task<Reply> dedupTable(Attempt& a, bool expiry, bool recheck) const;
    Task<Reply> dedupSameTransaction(Attempt& a) const;
    Task<QString> insertOrder(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
