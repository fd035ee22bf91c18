// How an OrderCreated event travels in the outbox scenario once the order
// service has done its part: the relay that polls the outbox and publishes,
// the broker that stores each message and delivers it at least once, and the
// points service that consumes it, with or without an inbox. Each of them is
// a helper process numbered apart from the create requests (relay R1, broker
// B1, consumer C1), so that "#2" always names the same request.
#pragma once

#include "authoring.h"
#include "scenario.h"
#include "task.h"

#include <QString>
#include <QVariantMap>

namespace idem {

class Attempt;

namespace outbox {

inline const QString kRelay = QStringLiteral("relay");
inline const QString kBroker = QStringLiteral("broker");
inline const QString kConsumer = QStringLiteral("consumer");
inline const QString kEventType = QStringLiteral("OrderCreated");

// Each intent is one user's order.
inline qint64 userOf(int intent) {
    return 30001 + intent;
}
inline int intentOfUser(qint64 user) {
    return int(user - userOf(0));
}
inline qint64 amountOf(int intent) {
    return 299 + (intent % 5) * 100;
}

// The event the points service waits for; one point per yuan.
struct OrderCreated {
    QString eventId;
    QString orderNo;
    qint64 userId = 0;
    qint64 amount = 0;

    static OrderCreated of(const QString& orderNo, int intent);
    static OrderCreated from(const QVariantMap& m);
    QVariantMap payload() const;
};

// Sends the event to the broker. The broker is another system: once the
// message is on its way, no rollback of the sender's calls it back.
void publish(Attempt& a, const OrderCreated& event);

// The relay's first poll of an intent's outbox partition, a poll interval
// after the intent starts.
AttemptSpec firstPoll(int intent, qint64 intentStart);

// One poll of the outbox: publish what is pending, then mark it sent.
Task<Reply> relayPass(Attempt& a);
// The broker stores a published message and delivers it; after the
// visibility timeout it delivers a message not yet acked again.
// `redeliveries`: how many of each message's acks are lost.
Task<Reply> brokerDelivers(Attempt& a, int redeliveries);
Task<Reply> brokerRedelivers(Attempt& a, int redeliveries);
// The points service: awards the points and acks, once per delivery, or
// once per event with the inbox.
Task<Reply> awardPoints(Attempt& a, int redeliveries);
Task<Reply> awardPointsOnce(Attempt& a, int redeliveries);

}  // namespace outbox
}  // namespace idem
