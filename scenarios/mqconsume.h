// MQ 消费 — a consumer issues coupons from an at-least-once message queue:
// the broker (a table, or with --redis a real Redis stream) delivers again
// what was not acked within the visibility timeout, and a producer may publish the same event again
// under a new message id; only a key taken from the business content catches both.
#pragma once

#include "scenario.h"

namespace idem {

struct AttemptSpec;

class MqConsume : public Scenario {
public:
    MqConsume();
    const ScenarioInfo& info() const override { return info_; }
    void plan(Planner& planner, int intent) const override;
    Task<Reply> handle(Attempt& a) const override;
    Effects effects(Reader& db, int intent) const override;
    std::vector<Effects> effectsOfAll(Reader& db, int intents) const override;
    // "broker": how many messages, deliveries, acks and dead letters.
    void extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const override;

    static qint64 userOf(int intent);
    static QString campaign();
    static QString messageIdOf(int intent, int publication);
    // How long an unacked message stays invisible before the broker delivers
    // it again: --visibility-ms, exactly.
    static qint64 redeliveryDelayMs(const RunConfig& config);
    // --param processing-ms: the consumer's work on one delivery before it
    // writes anything (0 by default).
    static qint64 processingMs(const RunConfig& config);

private:
    Task<Reply> brokerDelivers(Attempt& broker) const;
    // --redis: the broker is a Redis stream (mqstream.cpp).
    Task<Reply> streamDelivers(Attempt& broker) const;
    AttemptSpec delivery(const Attempt& broker, int number, int lostAcks) const;

    Task<Reply> processThenAck(Attempt& a) const;
    Task<Reply> ackThenProcess(Attempt& a) const;
    Task<Reply> dedupOnMessageId(Attempt& a) const;
    Task<Reply> dedupOnBusinessKey(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
