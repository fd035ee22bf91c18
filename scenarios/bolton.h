// 误区二 — idempotency bolted on: a dedup layer in front of a business model
// that has no unique key, no state and no version. While the layer remembers
// a request it answers the repeats; once it forgets (a record evicted, a
// store flushed or failed over), nothing in the business tables recognises
// the repeat. Designed in, the same layer sits on a refund that is unique
// per order and an order whose status only moves forward.
#pragma once

#include "scenario.h"

namespace idem {

class BoltOn : public Scenario {
public:
    BoltOn();
    const ScenarioInfo& info() const override { return info_; }
    Effects effects(Reader& db, int intent) const override;
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;

    static QString orderOf(int intent);

private:
    Task<Reply> serve(Attempt& a, bool designedIn) const;
    Task<Reply> answer(Attempt& a, const QString& key, bool designedIn) const;
    Task<QString> refundAnyway(Attempt& a) const;
    Task<QString> refundOnce(Attempt& a) const;
    Task<void> storeLosesRecord(Attempt& a, const QString& key) const;

    ScenarioInfo info_;
};

}  // namespace idem
