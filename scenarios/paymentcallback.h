// 支付回调 — the payment provider calls back, and retries until it is answered:
// the external trade number as a unique key plus the order's state machine;
// and, where callbacks disagree, asking the provider itself (主动查询).
#pragma once

#include "scenario.h"
#include "uniquekey.h"

namespace idem {

class PaymentCallback : public Scenario {
public:
    PaymentCallback();
    const ScenarioInfo& info() const override { return info_; }
    void seed(Setup& setup, int intent) const override;
    void plan(Planner& planner, int intent) const override;
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    Phrase inconsistency(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    std::vector<Phrase> inconsistenciesOfAll(Reader& db, int intents) const override;

    // The order state machine: PENDING → PAYING → PAID; PAYING → FAILED → PAYING.
    static QStringList states();
    // This scenario's sentences, said in English in the summary and in the
    // reader's language where they are shown.
    static Phrase said(const char* source, std::vector<Phrase> args = {});
    // The order an intent pays for ("P20250001" ...).
    static QString orderOf(int intent);

private:
    Task<Reply> failedCallback(Attempt& a, bool conditional, bool acknowledge) const;
    Task<Reply> acknowledgeNotice(Attempt& a) const;
    Task<Reply> withoutGuard(Attempt& a) const;
    Task<Reply> uniqueKeyOnly(Attempt& a) const;
    Task<Reply> stateMachineOnly(Attempt& a) const;
    Task<Reply> uniqueAndState(Attempt& a) const;
    Task<Reply> uniqueSeparateTransactions(Attempt& a) const;
    Task<Reply> uniqueStateQuery(Attempt& a) const;
    Task<Reply> failedCallbackWithQuery(Attempt& a) const;
    Task<QString> reconcile(Attempt& a) const;
    Task<void> applySuccess(Attempt& a) const;
    Task<Reply> payAgain(Attempt& a) const;
    Task<Reply> answerFromOrder(Attempt& a) const;
    Task<UniqueInsert> recordFlow(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
