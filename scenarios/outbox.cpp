#include "outbox.h"

#include "attempt.h"
#include "statemachine.h"
#include "uniquekey.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace idem {

namespace {

// This scenario's sentences, said in English in the summary and in the
// reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Outbox", source, std::move(args));
}

const QString kRelay = QStringLiteral("relay");
const QString kBroker = QStringLiteral("broker");
const QString kConsumer = QStringLiteral("consumer");
const QString kEventType = QStringLiteral("OrderCreated");
const QString kRedeliveries = QStringLiteral("redeliveries");
// A message takes this long from its sender to the broker, and from the
// broker to the consumer.
constexpr qint64 kNetworkMs = 5;
// The relay is a scheduled job: it polls the outbox once a second while it
// finds work.
constexpr qint64 kRelayPollMs = 1'000;

const QString kOutboxTable = QStringLiteral(R"(CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    event_id   TEXT    NOT NULL UNIQUE,
    event_type TEXT    NOT NULL,
    order_no   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('PENDING', 'SENT')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    sent_at    INTEGER
))");

// --- the order service ------------------------------------------------------
const QString kCreateOrder =
    QStringLiteral(R"(INSERT INTO orders (order_no, request_id, user_id, amount, created_at)
VALUES (?, ?, ?, ?, ?))");
const QString kFindOrder = QStringLiteral("SELECT order_no FROM orders WHERE request_id = ?");
const QString kWriteOutbox = QStringLiteral(
    R"(INSERT INTO outbox (event_id, event_type, order_no, user_id, amount, status, created_at)
VALUES (?, ?, ?, ?, ?, 'PENDING', ?))");

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

// --- the judge --------------------------------------------------------------
const QString kOrdersPerUser = QStringLiteral(R"(SELECT user_id, COUNT(*)
FROM orders
GROUP BY user_id)");
const QString kPointsPerUser = QStringLiteral(R"(SELECT user_id, COUNT(*)
FROM points
GROUP BY user_id)");
const QString kOrderPerUser = QStringLiteral(R"(SELECT user_id, COUNT(*), MIN(order_no)
FROM orders
GROUP BY user_id)");
const QString kPhantomPoints = QStringLiteral(R"(SELECT p.user_id, p.order_no
FROM points p
LEFT JOIN orders o ON o.order_no = p.order_no
WHERE o.id IS NULL
ORDER BY p.id)");

qint64 userOf(int intent) {
    return 30001 + intent;
}
int intentOfUser(qint64 user) {
    return int(user - userOf(0));
}
qint64 amountOf(int intent) {
    return 299 + (intent % 5) * 100;
}
QString requestIdOf(int intent) {
    return QStringLiteral("req-%1").arg(intent + 1);
}
// The service numbers an order before writing it (as a snowflake id would):
// each attempt that gets as far as creating one numbers its own.
QString orderNoOf(const Attempt& a) {
    return QStringLiteral("O%1-%2").arg(20250001 + a.intent()).arg(a.number());
}

// The event the points service waits for; one point per yuan.
struct OrderCreated {
    QString eventId;
    QString orderNo;
    qint64 userId = 0;
    qint64 amount = 0;

    static OrderCreated of(const QString& orderNo, int intent) {
        return {QStringLiteral("evt-") + orderNo, orderNo, userOf(intent), amountOf(intent)};
    }
    static OrderCreated from(const QVariantMap& m) {
        return {m.value(QStringLiteral("event_id")).toString(),
                m.value(QStringLiteral("order_no")).toString(),
                m.value(QStringLiteral("user_id")).toLongLong(),
                m.value(QStringLiteral("amount")).toLongLong()};
    }
    QVariantMap payload() const {
        return {{QStringLiteral("event_id"), eventId},
                {QStringLiteral("event_type"), kEventType},
                {QStringLiteral("order_no"), orderNo},
                {QStringLiteral("user_id"), userId},
                {QStringLiteral("amount"), amount}};
    }
};

qint64 messageIdOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("msg_id")).toLongLong();
}
// Which delivery of its message this is: 1, then 2, 3 ... for redeliveries.
int deliveryOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("delivery")).toInt();
}

// Sends the event to the broker. The broker is another system: once the
// message is on its way, no rollback of the sender's calls it back.
void publish(Attempt& a, const OrderCreated& event) {
    a.note(QStringLiteral("publish"),
           {{"sender", a.actor()}, {"receiver", kBroker}, {"event_id", event.eventId}});
    AttemptSpec s;
    s.intent = a.intent();
    s.at = a.now() + kNetworkMs;
    s.caller = a.actor();
    s.actor = kBroker;
    s.kind = QStringLiteral("publish");
    s.counted = false;
    s.payload = event.payload();
    a.fire(s);
}

// The order, unique per request id: a request whose order exists already
// gets that order's number back.
Task<UniqueInsert> createOrder(Attempt& a, QString orderNo) {
    const QString requestId = requestIdOf(a.intent());
    co_return co_await insertUnique(
        a, requestId, kCreateOrder,
        bound(orderNo, requestId, userOf(a.intent()), amountOf(a.intent()), a.now()), kFindOrder,
        bound(requestId));
}

// The broker hands the message to the consumer, and, when redeliveries
// are asked for, looks again after the visibility timeout.
void deliver(Attempt& a, const QVariantMap& message, int delivery, int redeliveries) {
    // A message of the broker's, for `actor` at `at`, naming its delivery.
    auto fromBroker = [&](auto at, const QString& actor, const QString& kind) {
        AttemptSpec s;
        s.intent = a.intent();
        s.at = at;
        s.caller = kBroker;
        s.actor = actor;
        s.kind = kind;
        s.counted = false;
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

Outbox::Outbox() {
    const QList<CrashPoint> relayed{CrashPoint::AfterBusiness, CrashPoint::AfterPublish};
    // The order service's code and the consumer's code of one variant.
    using Handler = Task<Reply> (Outbox::*)(Attempt&) const;
    auto roles = [this](Handler service, Handler consumer) {
        return [this, service, consumer](Attempt& a) {
            return (this->*(a.actor() == kConsumer ? consumer : service))(a);
        };
    };
    info_.id = QStringLiteral("outbox");
    info_.group = ScenarioGroup::Production;
    info_.title = QStringLiteral("Transactional outbox");
    info_.schema = {QStringLiteral(R"(CREATE TABLE orders (
    id         INTEGER PRIMARY KEY,
    order_no   TEXT    NOT NULL UNIQUE,
    request_id TEXT    NOT NULL UNIQUE,
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"),
                    // The broker's own storage: not part of any transaction of the service.
                    QStringLiteral(R"(CREATE TABLE broker (
    msg_id       INTEGER PRIMARY KEY,
    event_id     TEXT    NOT NULL,
    event_type   TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('READY', 'DELIVERED', 'ACKED')),
    deliveries   INTEGER NOT NULL DEFAULT 0,
    published_at INTEGER NOT NULL,
    acked_at     INTEGER
))"),
                    QStringLiteral(R"(CREATE TABLE points (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL,
    order_no   TEXT    NOT NULL,
    event_id   TEXT    NOT NULL,
    points     INTEGER NOT NULL,
    awarded_at INTEGER NOT NULL
))"),
                    QStringLiteral("CREATE INDEX idx_points_user_id ON points (user_id)")};
    info_.variants = {
        {.id = "dual-write",
         .crashPoints = {CrashPoint::AfterBusiness},
         .summary = "commit the order, then publish; a retry that finds its order answers it "
                    "without publishing",
         .handle = roles(&Outbox::commitThenPublish, &Outbox::awardPoints)},
        {.id = "publish-first",
         .crashPoints = {CrashPoint::BeforeCommit},
         .summary = "publish inside the order's transaction, then commit",
         .handle = roles(&Outbox::publishThenCommit, &Outbox::awardPoints)},
        {.id = "outbox",
         .crashPoints = relayed,
         .summary = "order and outbox row in one transaction; a relay publishes pending rows "
                    "and marks them sent; the consumer does not dedup",
         .handle = roles(&Outbox::writeOrderAndOutbox, &Outbox::awardPoints),
         .schema = {kOutboxTable}},
        {.id = "outbox-inbox",
         .recommended = true,
         .crashPoints = relayed,
         .summary = "outbox, and the consumer records the event id in an inbox table in the "
                    "points' transaction",
         .handle = roles(&Outbox::writeOrderAndOutbox, &Outbox::awardPointsOnce),
         .schema = {kOutboxTable, QStringLiteral(R"(CREATE TABLE inbox (
    event_id    TEXT    PRIMARY KEY,
    consumed_at INTEGER NOT NULL
))")}},
    };
    info_.sources = {Source::GatewayRetry, Source::DoubleClick};
    info_.defaultTiming = Timing::Retry;
    info_.params = {
        {kRedeliveries,
         "0",
         {},
         0,
         10,
         "the broker delivers each message this many more times: the consumer's acks of its "
         "first N deliveries are lost, and after the visibility timeout the broker delivers "
         "again"},
    };
    info_.defaultDuplicates = 1;
    info_.tables = {"outbox", "orders", "broker", "points", "inbox"};
    info_.guardTable = "outbox";
    info_.lanes = {"client", "gateway", "service", "relay", "broker", "consumer"};
    info_.baseline = "dual-write";
    info_.effectNames = {"orders", "points"};
    info_.stateMachine = {"outbox row",
                          {{"", "", 0, 1}, {"PENDING", "待发送", 2, 1}, {"SENT", "已发送", 5, 1}},
                          {{"", "PENDING"},
                           {"PENDING", "PENDING", "published", "已投递"},
                           {"PENDING", "SENT", "mark sent", "标记"}},
                          {"outbox", "outbox-inbox"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT event_id, status FROM outbox");
    info_.words = {
        .actors = {{kRelay, said(QT_TRANSLATE_NOOP("idem::Outbox", "outbox relay"))},
                   {kConsumer, said(QT_TRANSLATE_NOOP("idem::Outbox", "consumer"))}},
        .notes =
            {{"publish",
              said(QT_TRANSLATE_NOOP("idem::Outbox", "publish")),
              said(QT_TRANSLATE_NOOP("idem::Outbox", "The %1 publishes event %2 to the broker.")),
              {NoteArg::actorIn("sender"), NoteArg::field("event_id")}},
             {"deliver",
              said(QT_TRANSLATE_NOOP("idem::Outbox", "deliver")),
              said(QT_TRANSLATE_NOOP("idem::Outbox", "The broker delivers message %1 to the %2.")),
              {NoteArg::field("msg_id"), NoteArg::actorIn("receiver")}},
             {"redeliver",
              said(QT_TRANSLATE_NOOP("idem::Outbox", "deliver again")),
              said(QT_TRANSLATE_NOOP("idem::Outbox",
                                     "No ack for message %1 within the visibility timeout: the "
                                     "broker delivers it to the %2 again (delivery %3).")),
              {NoteArg::field("msg_id"), NoteArg::actorIn("receiver"), NoteArg::field("delivery")}},
             {"ack",
              said(QT_TRANSLATE_NOOP("idem::Outbox", "ack")),
              said(QT_TRANSLATE_NOOP("idem::Outbox",
                                     "The %1 acknowledges message %2: the broker "
                                     "will not deliver it again.")),
              {NoteArg::actorIn("sender"), NoteArg::field("msg_id")}},
             {"ack-lost",
              said(QT_TRANSLATE_NOOP("idem::Outbox", "ack lost")),
              said(QT_TRANSLATE_NOOP("idem::Outbox",
                                     "The ack of message %1 (delivery %2) is lost: the broker "
                                     "will deliver the message again.")),
              {NoteArg::field("msg_id"), NoteArg::field("delivery")}}},
        .params = {{kRedeliveries, said(QT_TRANSLATE_NOOP("idem::Outbox", "Broker redeliveries")),
                    said(QT_TRANSLATE_NOOP("idem::Outbox",
                                           "How many more times the broker delivers each "
                                           "message: the consumer's acks are lost, and after the "
                                           "visibility timeout it delivers again (at least "
                                           "once)"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::Outbox", "outbox row")),
    };
}

void Outbox::plan(Planner& planner, int intent) const {
    planner.fireDefault(intent);
    // A relay polls wherever there is an outbox to poll.
    const VariantInfo* v = info_.variant(planner.config().variant);
    if (!v || !v->schema.contains(kOutboxTable))
        return;
    AttemptSpec relay;
    relay.intent = intent;
    relay.number = 1;  // the relay's passes are numbered: --crash-attempt picks one
    relay.at = planner.intentStart(intent) + kRelayPollMs;
    relay.caller = kRelay;
    relay.actor = kRelay;
    relay.kind = QStringLiteral("poll");
    relay.counted = false;
    planner.fire(relay);
}

Task<Reply> Outbox::handle(Attempt& a) const {
    if (a.actor() == kRelay)
        return relayPass(a);
    if (a.actor() == kBroker && a.kind() == QLatin1String("visibility-timeout"))
        return brokerRedelivers(a);
    if (a.actor() == kBroker)
        return brokerDelivers(a);
    return a.variant().handle(a);
}

// --- the order service --------------------------------------------------------

Task<Reply> Outbox::commitThenPublish(Attempt& a) const {
    const OrderCreated event = OrderCreated::of(orderNoOf(a), a.intent());
    co_await a.begin();
    const UniqueInsert order = co_await createOrder(a, event.orderNo);
    if (!order.inserted) {
        // An earlier attempt created it (and, we trust, published it).
        co_await a.rollback();
        co_return Reply{Response::Success, order.row.value().toString()};
    }
    co_await a.commit();
    co_await a.crashPoint(CrashPoint::AfterBusiness);
    publish(a, event);
    co_return Reply{Response::Success, event.orderNo};
}

Task<Reply> Outbox::publishThenCommit(Attempt& a) const {
    const OrderCreated event = OrderCreated::of(orderNoOf(a), a.intent());
    co_await a.begin();
    const UniqueInsert order = co_await createOrder(a, event.orderNo);
    if (!order.inserted) {
        co_await a.rollback();
        co_return Reply{Response::Success, order.row.value().toString()};
    }
    // Sent from inside the transaction: the broker has it whether or not
    // the order commits.
    publish(a, event);
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, event.orderNo};
}

Task<Reply> Outbox::writeOrderAndOutbox(Attempt& a) const {
    const OrderCreated event = OrderCreated::of(orderNoOf(a), a.intent());
    co_await a.begin();
    const UniqueInsert order = co_await createOrder(a, event.orderNo);
    if (!order.inserted) {
        co_await a.rollback();
        co_return Reply{Response::Success, order.row.value().toString()};
    }
    // The event is a row of the same transaction: it exists exactly when the
    // order does. Publishing is the relay's job.
    co_await a.sql(kWriteOutbox, event.eventId, kEventType, event.orderNo, event.userId,
                   event.amount, a.now());
    co_await a.commit();
    a.transition(event.eventId, "", "PENDING", true);
    co_await a.crashPoint(CrashPoint::AfterBusiness);
    co_return Reply{Response::Success, event.orderNo};
}

// --- the relay, the broker, the points service ---------------------------------

// One poll of the outbox: publish what is pending, then mark it sent. A
// relay that dies between the two publishes the row again on its next poll:
// the outbox guarantees at least once, never exactly once.
Task<Reply> Outbox::relayPass(Attempt& a) const {
    const SqlResult pending = co_await a.sql(kPendingEvents, userOf(a.intent()));
    if (pending.empty())
        co_return Reply{};  // nothing to do: the relay goes idle
    // Work found: the next poll is scheduled now, so that it comes even if
    // this one dies.
    AttemptSpec next;
    next.intent = a.intent();
    next.number = a.number() + 1;
    next.at = a.now() + kRelayPollMs;
    next.caller = kRelay;
    next.actor = kRelay;
    next.kind = QStringLiteral("poll");
    next.counted = false;
    a.fire(next);
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

// The broker stores the message and delivers it to the consumer.
Task<Reply> Outbox::brokerDelivers(Attempt& a) const {
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
    deliver(a, message, 1, redeliveries(a.config()));
    co_return Reply{};
}

// The visibility timeout of one delivery ends: a message still not acked
// goes to the consumer again; an acked one is done.
Task<Reply> Outbox::brokerRedelivers(Attempt& a) const {
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
    deliver(a, message, delivery, redeliveries(a.config()));
    co_return Reply{};
}

int Outbox::redeliveries(const RunConfig& config) const {
    return info_.paramValue(config, kRedeliveries).toInt();
}

Task<Reply> Outbox::awardPoints(Attempt& a) const {
    const OrderCreated event = OrderCreated::from(a.payload());
    co_await a.sql(kAwardPoints, event.userId, event.orderNo, event.eventId, event.amount, a.now());
    co_return co_await ack(a, event.orderNo, redeliveries(a.config()));
}

// The inbox: the event id is recorded in the same transaction as the points,
// so a second delivery of the same event finds it and awards nothing.
Task<Reply> Outbox::awardPointsOnce(Attempt& a) const {
    const OrderCreated event = OrderCreated::from(a.payload());
    co_await a.begin();
    const UniqueInsert first = co_await insertUnique(
        a, event.eventId, kRecordInInbox, bound(event.eventId, a.now()), QString(), QVariantList());
    if (!first.inserted) {
        co_await a.rollback();
        co_return co_await ack(a, event.orderNo, redeliveries(a.config()));
    }
    co_await a.sql(kAwardPoints, event.userId, event.orderNo, event.eventId, event.amount, a.now());
    co_await a.commit();
    co_return co_await ack(a, event.orderNo, redeliveries(a.config()));
}

// --- the judge ------------------------------------------------------------------

Effects Outbox::effects(Reader& db, int intent) const {
    return {{QStringLiteral("orders"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE user_id = ?"),
                      {userOf(intent)})},
            {QStringLiteral("points"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM points WHERE user_id = ?"),
                      {userOf(intent)})}};
}

std::vector<Effects> Outbox::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all(std::size_t(intents),
                             Effects{{QStringLiteral("orders"), 0}, {QStringLiteral("points"), 0}});
    for (const auto& [effect, sql] : {std::pair{QStringLiteral("orders"), kOrdersPerUser},
                                      std::pair{QStringLiteral("points"), kPointsPerUser}}) {
        for (const QVariantList& row : db.query(sql).data) {
            const int intent = intentOfUser(row[0].toLongLong());
            if (intent >= 0 && intent < intents)
                all[std::size_t(intent)][effect] = row[1].toLongLong();
        }
    }
    return all;
}

Phrase Outbox::inconsistency(Reader& db, int intent) const {
    return inconsistenciesOfAll(db, intent + 1)[std::size_t(intent)];
}

std::vector<Phrase> Outbox::inconsistenciesOfAll(Reader& db, int intents) const {
    std::vector<Phrase> all(static_cast<std::size_t>(intents));
    for (const QVariantList& row : db.query(kPhantomPoints).data) {
        const int intent = intentOfUser(row[0].toLongLong());
        if (intent >= 0 && intent < intents && all[std::size_t(intent)].isEmpty()) {
            all[std::size_t(intent)] =
                said(QT_TRANSLATE_NOOP("idem::Outbox",
                                       "points awarded for order %1, which was never "
                                       "created"),
                     {row[1].toString()});
        }
    }
    return all;
}

std::vector<AnswerTruth> Outbox::answerTruthOfAll(Reader& db, int intents) const {
    std::vector<AnswerTruth> all(static_cast<std::size_t>(intents));
    for (int i = 0; i < intents; ++i) {
        all[std::size_t(i)] = AnswerTruth{
            true,
            false,
            {},
            said(QT_TRANSLATE_NOOP("idem::Outbox", "no order exists for %1"), {requestIdOf(i)}),
            {}};
    }
    for (const QVariantList& row : db.query(kOrderPerUser).data) {
        const int intent = intentOfUser(row[0].toLongLong());
        if (intent < 0 || intent >= intents)
            continue;
        AnswerTruth& t = all[std::size_t(intent)];
        t.happened = true;
        t.shows = {};
        // request_id is UNIQUE: one order at most, and a success names it.
        if (row[1].toLongLong() == 1)
            t.result = row[2].toString();
    }
    return all;
}

void Outbox::extendSummary(Reader& db, const RunConfig&, QJsonObject& summary) const {
    const SqlResult b = db.query(QStringLiteral(R"(SELECT COUNT(*),
       COALESCE(SUM(deliveries), 0),
       COUNT(CASE WHEN status = 'ACKED' THEN 1 END)
FROM broker)"));
    summary.insert("broker", QJsonObject{{"messages", b.value(0, 0).toLongLong()},
                                         {"deliveries", b.value(0, 1).toLongLong()},
                                         {"acked", b.value(0, 2).toLongLong()}});
}

}  // namespace idem
