// TCC (Try-Confirm-Cancel) — a coordinator freezes a user's funds (Try), then
// takes them (Confirm) or releases them (Cancel); phases are resent on
// timeout and may overtake each other. Only a transaction log on the
// participant's side makes a repeated Confirm, a Cancel without a Try (空回滚)
// and a Try after its Cancel (悬挂) harmless.
#pragma once

#include "scenario.h"

namespace idem {

class Tcc : public Scenario {
public:
    Tcc();
    const ScenarioInfo& info() const override { return info_; }
    // The user's account with its balance, before the transaction.
    void seed(Setup& setup, int intent) const override;
    // Try, then Confirm and its repeats; or, with cancel-before-try, a Try
    // held up in the network, the coordinator's Cancels, then the late Try.
    void plan(Planner& planner, int intent) const override;
    // The coordinator's own lane (with cancel-before-try) is a process of its
    // own; every delivery to the participant runs the variant's phase code.
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    // One debit, unless the coordinator cancelled: then none.
    Effects expectedEffects(const RunConfig& config, int intent) const override;
    // Funds still frozen at the end: no phase will ever release them.
    Phrase inconsistency(Reader& db, int intent) const override;
    std::vector<Phrase> inconsistenciesOfAll(Reader& db, int intents) const override;
    // Each phase's answers against the accounts, the debits and tcc_log: a
    // Try told success reserved the funds, a Confirm told success debited
    // them, a Cancel told success left nothing held and nothing taken.
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;
    // "accounts": what is still frozen; "tcc_log": the records per status.
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

private:
    Task<Reply> coordinatorTimesOut(Attempt& a) const;

    Task<Reply> naiveTry(Attempt& a) const;
    Task<Reply> naiveConfirm(Attempt& a) const;
    Task<Reply> naiveCancel(Attempt& a) const;
    Task<Reply> loggedTry(Attempt& a) const;
    Task<Reply> loggedConfirm(Attempt& a) const;
    Task<Reply> loggedCancel(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
