// 本地消息表 (transactional outbox) — the order service creates an order and
// must tell the points service: committing the order and publishing the
// event are writes to two systems, and only an outbox row written in the
// order's own transaction, relayed to the broker, ties them together; an
// inbox makes the consumer's side safe against the relay's repeats.
#pragma once

#include "scenario.h"

namespace idem {

class Outbox : public Scenario {
public:
    Outbox();
    const ScenarioInfo& info() const override { return info_; }
    // The create requests as the timing says, and, where the variant keeps
    // an outbox, the relay's first poll.
    void plan(Planner& planner, int intent) const override;
    // The relay and the broker are processes of their own
    // (outboxdelivery.h); the service and the consumer run the variant's
    // code.
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    // Points awarded for an order that does not exist (a phantom event).
    Phrase inconsistency(Reader& db, int intent) const override;
    std::vector<Phrase> inconsistenciesOfAll(Reader& db, int intents) const override;
    // A create request told success must name the order that exists for its
    // request id; there is at most one (request_id is UNIQUE).
    std::vector<AnswerTruth> answerTruthOfAll(Reader& db, int intents) const override;
    // "broker": how many messages were published, delivered (redeliveries
    // included) and acked.
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

private:
    // The order service, per variant.
    Task<Reply> commitThenPublish(Attempt& a) const;
    Task<Reply> publishThenCommit(Attempt& a) const;
    Task<Reply> writeOrderAndOutbox(Attempt& a) const;
    // --param redeliveries: how many more times each message is delivered.
    int redeliveries(const RunConfig& config) const;
    // The two consumers (outboxdelivery.h), as the variants' handlers.
    Task<Reply> awardPoints(Attempt& a) const;
    Task<Reply> awardPointsOnce(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
