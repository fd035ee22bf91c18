#include "outboxdelivery.h"

#include "attempt.h"
#include "statemachine.h"
#include "uniquekey.h"

namespace idem::outbox {

namespace {

// A message takes this long from its sender to the broker, and from the
// broker to the consumer.
constexpr qint64 kNetworkMs = 5;
// The relay is a scheduled job: it polls the outbox once a second while it
// finds work.
constexpr qint64 kRelayPollMs = 1'000;

// --- the relay --------------------------------------------------------------
// Relays are usually partitioned by the aggregate's key, so that one
// customer's events leave in order; each intent's user is one partition here.
const QString kPendingEvents = QStringLiteral(R"(SELECT id, event_id, order_no, user_id, amount
FROM outbox
WHERE status = 'PENDING'
  AND user_id = ?
ORDER BY id
LIMIT 10)");
// Counted before each publish: a row sent again shows it, and a relay can
// give up (or alert) after too many attempts.
const QString kCountAttempt = QStringLiteral(R"(UPDATE outbox
SET attempts = attempts + 1
WHERE id = ?
  AND status = 'PENDING')");
const QString kMarkSent = QStringLiteral(R"(UPDATE outbox
SET status = 'SENT', sent_at = ?
WHERE id = ?
  AND status = 'PENDING')");

// --- the broker -------------------------------------------------------------
const QString kStoreMessage = QStringLiteral(
    R"(INSERT INTO broker (event_id, event_type, order_no, user_id, amount, status, published_at)
VALUES (?, ?, ?, ?, ?, 'READY', ?)
RETURNING msg_id)");
const QString kDeliver = QStringLiteral(R"(UPDATE broker
SET status = 'DELIVERED', deliveries = deliveries + 1
WHERE msg_id = ?
  AND status = 'READY')");
// At least once: a message delivered and not acked within the visibility
// timeout is delivered again.
const QString kRedeliver = QStringLiteral(R"(UPDATE broker
SET deliveries = deliveries + 1
WHERE msg_id = ?
  AND status = 'DELIVERED'
RETURNING deliveries)");
// MariaDB's UPDATE returns no rows: the count is read after it (only the
// broker writes the row).
const QString kRedeliverMariaDb = QStringLiteral(R"(UPDATE broker
SET deliveries = deliveries + 1
WHERE msg_id = ?
  AND status = 'DELIVERED')");
const QString kDeliveries = QStringLiteral("SELECT deliveries FROM broker WHERE msg_id = ?");

// --- the points service (the consumer) --------------------------------------
const QString kAwardPoints =
    QStringLiteral(R"(INSERT INTO points (user_id, order_no, event_id, points, awarded_at)
VALUES (?, ?, ?, ?, ?))");
const QString kRecordInInbox = QStringLiteral(R"(INSERT INTO inbox (event_id, consumed_at)
VALUES (?, ?))");
const QString kAck = QStringLiteral(R"(UPDATE broker
SET status = 'ACKED', acked_at = ?
WHERE msg_id = ?
  AND status = 'DELIVERED')");

qint64 messageIdOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("msg_id")).toLongLong();
}
// Which delivery of its message this is: 1, then 2, 3 ... for redeliveries.
int deliveryOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("delivery")).toInt();
}

// A helper process of this scenario: counted apart from the requests, each
// actor numbering its own.
AttemptSpec helper(int intent, qint64 at, const QString& caller, const QString& actor,
                   const QString& kind) {
    AttemptSpec s;
    s.intent = intent;
    s.at = at;
    s.caller = caller;
    s.actor = actor;
    s.kind = kind;
    s.counted = false;
    s.numbered = true;
    return s;
}

// The broker hands the message to the consumer, and, when redeliveries
// are asked for, looks again after the visibility timeout.
void deliver(Attempt& a, const QVariantMap& message, int delivery, int redeliveries) {
    // A message of the broker's, for `actor` at `at`, naming its delivery.
    auto fromBroker = [&](qint64 at, const QString& actor, const QString& kind) {
        AttemptSpec s = helper(a.intent(), at, kBroker, actor, kind);
        s.payload = message;
        s.payload.insert(QStringLiteral("delivery"), delivery);
        a.fire(s);
    };
    fromBroker(a.now() + kNetworkMs, kConsumer, QStringLiteral("delivery"));
    if (redeliveries > 0) {
        fromBroker(a.now() + a.config().visibilityMs, kBroker,
                   QStringLiteral("visibility-timeout"));
    }
}

// The consumer's ack goes back to the broker. With --param redeliveries=N
// the acks of a message's first N deliveries never arrive (a consumer that
// restarts before its ack is sent, a connection reset): the broker, having
// heard nothing, delivers the message again.
Task<Reply> ack(Attempt& a, QString orderNo, int redeliveries) {
    const qint64 msgId = messageIdOf(a);
    if (deliveryOf(a) <= redeliveries) {
        a.note(QStringLiteral("ack-lost"), {{"sender", kConsumer},
                                            {"receiver", kBroker},
                                            {"msg_id", msgId},
                                            {"delivery", deliveryOf(a)},
                                            {"lost", true}});
        co_return Reply{Response::Success, orderNo};
    }
    a.note(QStringLiteral("ack"),
           {{"sender", kConsumer}, {"receiver", kBroker}, {"msg_id", msgId}});
    co_await a.sql(kAck, a.now(), msgId);
    co_return Reply{Response::Success, orderNo};
}

}  // namespace

OrderCreated OrderCreated::of(const QString& orderNo, int intent) {
    return {QStringLiteral("evt-") + orderNo, orderNo, userOf(intent), amountOf(intent)};
}

OrderCreated OrderCreated::from(const QVariantMap& m) {
    return {m.value(QStringLiteral("event_id")).toString(),
            m.value(QStringLiteral("order_no")).toString(),
            m.value(QStringLiteral("user_id")).toLongLong(),
            m.value(QStringLiteral("amount")).toLongLong()};
}

QVariantMap OrderCreated::payload() const {
    return {{QStringLiteral("event_id"), eventId},
            {QStringLiteral("event_type"), kEventType},
            {QStringLiteral("order_no"), orderNo},
            {QStringLiteral("user_id"), userId},
            {QStringLiteral("amount"), amount}};
}

void publish(Attempt& a, const OrderCreated& event) {
    a.note(QStringLiteral("publish"),
           {{"sender", a.actor()}, {"receiver", kBroker}, {"event_id", event.eventId}});
    AttemptSpec s =
        helper(a.intent(), a.now() + kNetworkMs, a.actor(), kBroker, QStringLiteral("publish"));
    s.payload = event.payload();
    a.fire(s);
}

AttemptSpec firstPoll(int intent, qint64 intentStart) {
    return helper(intent, intentStart + kRelayPollMs, kRelay, kRelay, QStringLiteral("poll"));
}

// A relay that dies between the publish and the mark publishes the row again
// on its next poll: the outbox guarantees at least once, never exactly once.
Task<Reply> relayPass(Attempt& a) {
    const SqlResult pending = co_await a.sql(kPendingEvents, userOf(a.intent()));
    if (pending.empty())
        co_return Reply{};  // nothing to do: the relay goes idle
    // Work found: the next poll is scheduled now, so that it comes even if
    // this one dies.
    a.fire(helper(a.intent(), a.now() + kRelayPollMs, kRelay, kRelay, QStringLiteral("poll")));
    for (const QVariantList& row : pending.data) {
        const OrderCreated event{row[1].toString(), row[2].toString(), row[3].toLongLong(),
                                 row[4].toLongLong()};
        co_await transition(a, event.eventId, "PENDING", "PENDING", kCountAttempt, bound(row[0]));
        publish(a, event);
        co_await a.crashPoint(CrashPoint::AfterPublish);
        co_await transition(a, event.eventId, "PENDING", "SENT", kMarkSent, bound(a.now(), row[0]));
    }
    co_return Reply{};
}

Task<Reply> brokerDelivers(Attempt& a, int redeliveries) {
    const OrderCreated event = OrderCreated::from(a.payload());
    const SqlResult stored = co_await a.sql(kStoreMessage, event.eventId, kEventType, event.orderNo,
                                            event.userId, event.amount, a.now());
    const qint64 msgId = stored.value().toLongLong();
    co_await a.sql(kDeliver, msgId);
    a.note(QStringLiteral("deliver"), {{"sender", kBroker},
                                       {"receiver", kConsumer},
                                       {"msg_id", msgId},
                                       {"event_id", event.eventId}});
    QVariantMap message = a.payload();
    message.insert(QStringLiteral("msg_id"), msgId);
    deliver(a, message, 1, redeliveries);
    co_return Reply{};
}

// The visibility timeout of one delivery ends: a message still not acked
// goes to the consumer again; an acked one is done.
Task<Reply> brokerRedelivers(Attempt& a, int redeliveries) {
    const qint64 msgId = messageIdOf(a);
    SqlResult again;
    if (a.config().backend != QLatin1String("mariadb")) {
        again = co_await a.sql(kRedeliver, msgId);
    } else {
        const SqlResult redelivered = co_await a.sql(kRedeliverMariaDb, msgId);
        if (redelivered.rows == 1)
            again = co_await a.sql(kDeliveries, msgId);
    }
    if (again.empty())
        co_return Reply{};
    const int delivery = again.value().toInt();
    a.note(QStringLiteral("redeliver"), {{"sender", kBroker},
                                         {"receiver", kConsumer},
                                         {"msg_id", msgId},
                                         {"event_id", OrderCreated::from(a.payload()).eventId},
                                         {"delivery", delivery}});
    QVariantMap message = a.payload();
    message.remove(QStringLiteral("delivery"));
    deliver(a, message, delivery, redeliveries);
    co_return Reply{};
}

Task<Reply> awardPoints(Attempt& a, int redeliveries) {
    const OrderCreated event = OrderCreated::from(a.payload());
    co_await a.sql(kAwardPoints, event.userId, event.orderNo, event.eventId, event.amount, a.now());
    co_return co_await ack(a, event.orderNo, redeliveries);
}

// The inbox: the event id is recorded in the same transaction as the points,
// so a second delivery of the same event finds it and awards nothing.
Task<Reply> awardPointsOnce(Attempt& a, int redeliveries) {
    const OrderCreated event = OrderCreated::from(a.payload());
    co_await a.begin();
    const UniqueInsert first = co_await insertUnique(
        a, event.eventId, kRecordInInbox, bound(event.eventId, a.now()), QString(), QVariantList());
    if (!first.inserted) {
        co_await a.rollback();
        co_return co_await ack(a, event.orderNo, redeliveries);
    }
    co_await a.sql(kAwardPoints, event.userId, event.orderNo, event.eventId, event.amount, a.now());
    co_await a.commit();
    co_return co_await ack(a, event.orderNo, redeliveries);
}

}  // namespace idem::outbox
