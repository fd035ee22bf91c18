#include "outbox.h"

#include "attempt.h"
#include "outboxdelivery.h"
#include "uniquekey.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace idem {

using namespace outbox;

namespace {

// This scenario's sentences, said in English in the summary and in the
// reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Outbox", source, std::move(args));
}

const QString kRedeliveries = QStringLiteral("redeliveries");

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

QString requestIdOf(int intent) {
    return QStringLiteral("req-%1").arg(intent + 1);
}
// The service numbers an order before writing it (as a snowflake id would):
// each attempt that gets as far as creating one numbers its own.
QString orderNoOf(const Attempt& a) {
    return QStringLiteral("O%1-%2").arg(20250001 + a.intent()).arg(a.number());
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
        .notes = {{"publish",
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "publish")),
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "%1 publishes event %2 to the broker.")),
                   {NoteArg::who(), NoteArg::field("event_id")}},
                  {"deliver",
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "deliver")),
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "%1 delivers message %2 to the %3.")),
                   {NoteArg::who(), NoteArg::field("msg_id"), NoteArg::actorIn("receiver")}},
                  {"redeliver",
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "deliver again")),
                   said(QT_TRANSLATE_NOOP("idem::Outbox",
                                          "No ack for message %1 within the visibility timeout: %2 "
                                          "delivers it to the %3 again (delivery %4).")),
                   {NoteArg::field("msg_id"), NoteArg::who(), NoteArg::actorIn("receiver"),
                    NoteArg::field("delivery")}},
                  {"ack",
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "ack")),
                   said(QT_TRANSLATE_NOOP("idem::Outbox",
                                          "%1 acknowledges message %2: the broker "
                                          "will not deliver it again.")),
                   {NoteArg::who(), NoteArg::field("msg_id")}},
                  {"ack-lost",
                   said(QT_TRANSLATE_NOOP("idem::Outbox", "ack lost")),
                   said(QT_TRANSLATE_NOOP("idem::Outbox",
                                          "The ack %1 sends for message %2 (delivery %3) is lost: "
                                          "the broker will deliver the message again.")),
                   {NoteArg::who(), NoteArg::field("msg_id"), NoteArg::field("delivery")}}},
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
    // Its passes are numbered R1, R2 ...: --crash-attempt picks one.
    planner.fire(firstPoll(intent, planner.intentStart(intent)));
}

Task<Reply> Outbox::handle(Attempt& a) const {
    if (a.actor() == kRelay)
        return relayPass(a);
    if (a.actor() == kBroker && a.kind() == QLatin1String("visibility-timeout"))
        return brokerRedelivers(a, redeliveries(a.config()));
    if (a.actor() == kBroker)
        return brokerDelivers(a, redeliveries(a.config()));
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

int Outbox::redeliveries(const RunConfig& config) const {
    return info_.paramValue(config, kRedeliveries).toInt();
}

Task<Reply> Outbox::awardPoints(Attempt& a) const {
    return outbox::awardPoints(a, redeliveries(a.config()));
}

Task<Reply> Outbox::awardPointsOnce(Attempt& a) const {
    return outbox::awardPointsOnce(a, redeliveries(a.config()));
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
