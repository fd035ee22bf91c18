#include "mqconsume.h"

#include "attempt.h"
#include "mqstream.h"
#include "statemachine.h"
#include "uniquekey.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace idem {

namespace {

// This scenario's sentences, said in English in the trace and the summary
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::MqConsume", source, std::move(args));
}

// --- the broker's side ------------------------------------------------------
const QString kPublish = QStringLiteral(
    R"(INSERT INTO broker (msg_id, user_id, campaign, status, visible_at, published_at)
VALUES (?, ?, ?, 'READY', ?, ?))");
const QString kMessageState = QStringLiteral(R"(SELECT status, deliveries, visible_at
FROM broker
WHERE msg_id = ?)");
const QString kDeliver = QStringLiteral(R"(UPDATE broker
SET status = 'INFLIGHT', deliveries = deliveries + 1, visible_at = ?
WHERE msg_id = ?
  AND status IN ('READY', 'INFLIGHT')
  AND visible_at <= ?)");
const QString kDeadLetter = QStringLiteral(R"(UPDATE broker
SET status = 'DEAD'
WHERE msg_id = ?
  AND status = 'INFLIGHT')");

// --- the consumer's side ----------------------------------------------------
const QString kAck = QStringLiteral(R"(UPDATE broker
SET status = 'ACKED', acked_at = ?
WHERE msg_id = ?
  AND status = 'INFLIGHT')");
const QString kIssueCoupon =
    QStringLiteral(R"(INSERT INTO coupons (user_id, campaign, msg_id, issued_at)
VALUES (?, ?, ?, ?)
RETURNING id)");
const QString kFindCoupon = QStringLiteral(R"(SELECT id
FROM coupons
WHERE user_id = ? AND campaign = ?)");
const QString kMarkConsumed = QStringLiteral(R"(INSERT INTO consumed_messages (msg_id, consumed_at)
VALUES (?, ?))");
const QString kCouponOfMessage = QStringLiteral("SELECT id FROM coupons WHERE msg_id = ?");

const QString kBroker = QStringLiteral("broker");
const QString kProcessingMs = QStringLiteral("processing-ms");
Phrase processing() {
    return said(QT_TRANSLATE_NOOP("idem::MqConsume", "processing the message"));
}
const QString kConsumer = QStringLiteral("consumer");

using mq::lostAcks;
using mq::Message;

// The message the consumer is handed: by the table's broker in its
// payload; on a Redis stream, read or claimed from it (an empty id: there
// was nothing to take).
Task<Message> receive(Attempt& a) {
    const Message m = mq::fromPayload(a);
    if (!a.usesRedis())
        co_return m;
    co_return co_await mq::readFromStream(a, m);
}

Task<QString> issueCoupon(Attempt& a, Message m) {
    const SqlResult r = co_await a.sql(kIssueCoupon, m.userId, m.campaign, m.id, a.now());
    co_return r.value().toString();
}

// The consumer's ack travels back to the broker. Under mq-redelivery the
// first `duplicates` acks never arrive: the broker's row stays INFLIGHT and
// the consumer's answer is lost.
Task<Reply> ack(Attempt& a, Message m, QString coupon) {
    if (m.delivery <= lostAcks(a.config())) {
        a.note(QStringLiteral("ack-lost"), {{"msg_id", m.id}, {"delivery", m.delivery}});
        co_return Reply{Response::None, coupon};
    }
    if (a.usesRedis())
        co_await mq::ackOnStream(a, m);
    else
        co_await transition(a, m.id, "INFLIGHT", "ACKED", kAck, bound(a.now(), m.id));
    co_return Reply{Response::Success, coupon};
}

}  // namespace

qint64 MqConsume::userOf(int intent) {
    return 50001 + intent;
}
QString MqConsume::campaign() {
    return QStringLiteral("spring-2025");
}
QString MqConsume::messageIdOf(int intent, int publication) {
    return QStringLiteral("msg-%1-%2").arg(intent + 1).arg(publication);
}

// A message nobody acked is invisible for the visibility timeout, exactly
// as configured, whatever the timing (which spaces producer resends).
qint64 MqConsume::redeliveryDelayMs(const RunConfig& c) {
    return c.visibilityMs;
}

qint64 MqConsume::processingMs(const RunConfig& c) {
    return c.paramInt(kProcessingMs);
}

MqConsume::MqConsume() {
    info_.id = QStringLiteral("mq-consume");
    info_.group = ScenarioGroup::Recommended;
    info_.title = QStringLiteral("Message queue consumer");
    info_.schema = {QStringLiteral(R"(CREATE TABLE broker (
    msg_id       TEXT    PRIMARY KEY,
    user_id      INTEGER NOT NULL,
    campaign     TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('READY', 'INFLIGHT', 'ACKED', 'DEAD')),
    deliveries   INTEGER NOT NULL DEFAULT 0,
    visible_at   INTEGER NOT NULL,
    published_at INTEGER NOT NULL,
    acked_at     INTEGER
))"),
                    QStringLiteral(R"(CREATE TABLE coupons (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL,
    campaign  TEXT    NOT NULL,
    msg_id    TEXT    NOT NULL,
    issued_at INTEGER NOT NULL
))")};
    info_.variants = {
        {.id = "none",
         .crashPoints = {CrashPoint::BeforeAck},
         .summary = "issue the coupon, then ack; no dedup",
         .handle = [this](Attempt& a) { return processThenAck(a); },
         .redis = true},
        {.id = "ack-first",
         .crashPoints = {CrashPoint::AfterAck},
         .summary = "ack on receipt, then issue the coupon (at-most-once)",
         .handle = [this](Attempt& a) { return ackThenProcess(a); },
         .redis = true},
        {.id = "msg-id-dedup",
         .crashPoints = {CrashPoint::BeforeAck},
         .summary =
             "consumed_messages keyed by the broker's message id, same transaction as the coupon",
         .handle = [this](Attempt& a) { return dedupOnMessageId(a); },
         .schema = {QStringLiteral(R"(CREATE TABLE consumed_messages (
    msg_id      TEXT    PRIMARY KEY,
    consumed_at INTEGER NOT NULL
))")},
         .redis = true},
        {.id = "biz-key-dedup",
         .recommended = true,
         .crashPoints = {CrashPoint::BeforeAck},
         .summary =
             "UNIQUE(user_id, campaign) on coupons; a conflict counts as done; ack after commit",
         .handle = [this](Attempt& a) { return dedupOnBusinessKey(a); },
         .schema = {QStringLiteral(
             "CREATE UNIQUE INDEX uk_coupons_user_campaign ON coupons (user_id, campaign)")},
         .redis = true},
    };
    info_.sources = {Source::MqRedelivery, Source::ProducerResend};
    info_.defaultTiming = Timing::Retry;
    info_.params = {{kProcessingMs,
                     "0",
                     {},
                     0,
                     24LL * 3'600'000,
                     "how long the consumer works on a message before it acks, in ms; longer "
                     "than --visibility-ms and the broker delivers it again meanwhile"}};
    info_.tables = {"coupons", "broker", "consumed_messages"};
    info_.guardTable = "coupons";
    info_.lanes = {"broker", "consumer"};
    info_.baseline = "none";
    info_.effectTable = "coupons";
    info_.effectNames = {"coupons"};
    // The broker, not a caller, delivers again what was not acked.
    info_.callerRetries = false;
    info_.stateMachine = {"message",
                          {{"", "", 0, 1},
                           {"READY", "待投递", 1.5, 1},
                           {"INFLIGHT", "投递中", 3.5, 1},
                           {"ACKED", "已确认", 5.5, 0},
                           {"DEAD", "死信", 5.5, 2}},
                          {{"", "READY"},
                           {"READY", "INFLIGHT"},
                           {"INFLIGHT", "INFLIGHT"},
                           {"INFLIGHT", "ACKED"},
                           {"INFLIGHT", "DEAD"}},
                          {}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT msg_id, status FROM broker");
    info_.words = {
        .actors = {{"consumer", said(QT_TRANSLATE_NOOP("idem::MqConsume", "consumer"))}},
        .notes = {{"ack-lost",
                   said(QT_TRANSLATE_NOOP("idem::MqConsume", "ack lost")),
                   said(QT_TRANSLATE_NOOP("idem::MqConsume",
                                          "The ack of message %1 (delivery %2) is lost: the "
                                          "broker will deliver the message again.")),
                   {NoteArg::field("msg_id"), NoteArg::field("delivery")}},
                  {"redelivered",
                   said(QT_TRANSLATE_NOOP("idem::MqConsume", "redelivered")),
                   said(QT_TRANSLATE_NOOP(
                       "idem::MqConsume",
                       "Redis's pending-entries list says message %1 has been delivered %2 times. "
                       "The consumer knows it is a redelivery, not whether the earlier one's "
                       "work was done.")),
                   {NoteArg::field("msg_id"), NoteArg::field("deliveries")}},
                  {"nothing-pending",
                   said(QT_TRANSLATE_NOOP("idem::MqConsume", "nothing to take")),
                   said(QT_TRANSLATE_NOOP("idem::MqConsume",
                                          "%1 found nothing to take in %2: the entry was acked "
                                          "meanwhile.")),
                   {NoteArg::field("consumer"), NoteArg::field("stream")}}},
        .params = {{kProcessingMs,
                    said(QT_TRANSLATE_NOOP("idem::MqConsume", "Processing time (ms)")),
                    said(QT_TRANSLATE_NOOP("idem::MqConsume",
                                           "How long the consumer works on a message before it "
                                           "acks; longer than the visibility timeout and the "
                                           "broker delivers it again meanwhile"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::MqConsume", "message")),
    };
}

void MqConsume::plan(Planner& planner, int intent) const {
    const RunConfig& c = planner.config();
    // mq-redelivery: one message, redelivered by the broker. producer-resend:
    // the producer publishes the same event again, each time as a new message.
    const int publications = c.source == Source::ProducerResend ? c.duplicates + 1 : 1;
    const qint64 spacing = c.effectiveIntervalMs();
    std::vector<AttemptSpec> publishes;
    for (int k = 1; k <= publications; ++k) {
        AttemptSpec s;
        s.intent = intent;
        s.at = planner.intentStart(intent) + (k - 1) * spacing;
        s.caller = QStringLiteral("producer");
        s.actor = kBroker;
        s.kind = QStringLiteral("publish");
        s.counted = false;
        s.payload = {{"msg_id", messageIdOf(intent, k)},
                     {"publication", k},
                     {"user_id", userOf(intent)},
                     {"campaign", campaign()}};
        publishes.push_back(s);
    }
    // Same instant: the seed decides whose message the broker takes first.
    if (spacing == 0) {
        for (std::size_t i = publishes.size(); i > 1; --i) {
            std::swap(publishes[i - 1], publishes[planner.random(quint32(i))]);
        }
    }
    for (const AttemptSpec& s : publishes) planner.fire(s);
}

Task<Reply> MqConsume::handle(Attempt& a) const {
    // The broker is a process of its own; every other one is the consumer.
    if (a.actor() == kBroker)
        return a.usesRedis() ? streamDelivers(a) : brokerDelivers(a);
    return a.variant().handle(a);
}

// The broker: store the published message, deliver it, and deliver it again
// whenever it is still unacked once its visibility timeout has run out. What
// it does next is read from its table, never decided in advance.
Task<Reply> MqConsume::brokerDelivers(Attempt& a) const {
    const RunConfig& c = a.config();
    const Message m = mq::fromPayload(a);
    const SqlResult published =
        co_await a.sql(kPublish, m.id, m.userId, m.campaign, a.now(), a.now());
    a.transition(m.id, "", "READY", true);
    // After this many deliveries without an ack the message goes to the
    // dead-letter queue instead.
    const int maxDeliveries = 1 + lostAcks(c) + c.maxRetries;
    for (;;) {
        const SqlResult row = co_await a.sql(kMessageState, m.id);
        const QString status = row.value(0, 0).toString();
        const int deliveries = row.value(0, 1).toInt();
        const qint64 visibleAt = row.value(0, 2).toLongLong();
        if (status == QLatin1String("ACKED") || status == QLatin1String("DEAD")) {
            break;
        }
        if (visibleAt > a.now()) {
            co_await a.work(visibleAt - a.now(),
                            said(QT_TRANSLATE_NOOP("idem::MqConsume",
                                                   "visibility timeout: waiting for an ack")));
            continue;
        }
        if (deliveries >= maxDeliveries) {
            co_await transition(a, m.id, status, "DEAD", kDeadLetter, bound(m.id));
            break;
        }
        const bool delivered =
            co_await transition(a, m.id, status, "INFLIGHT", kDeliver,
                                bound(a.now() + redeliveryDelayMs(c), m.id, a.now()));
        if (delivered) {
            a.fire(delivery(a, deliveries + 1, lostAcks(c)));
        }
    }
    co_return Reply{};
}

// One delivery of the broker's message to the consumer: the first of the
// first message is the original; later ones are duplicates while they stand
// for lost acks or resends, and retries after that.
AttemptSpec MqConsume::delivery(const Attempt& broker, int number, int lost) const {
    AttemptSpec s;
    s.intent = broker.intent();
    s.at = broker.now();
    s.caller = kBroker;
    s.actor = kConsumer;
    s.payload = broker.payload();
    s.payload.insert(QStringLiteral("delivery"), number);
    const bool firstMessage = broker.payload().value(QStringLiteral("publication")).toInt() == 1;
    if (number == 1) {
        s.kind = firstMessage ? QStringLiteral("original") : QStringLiteral("duplicate");
    } else if (number <= 1 + lost) {
        s.kind = QStringLiteral("duplicate");
    } else {
        s.kind = QStringLiteral("retry");
        s.retryDepth = number - 1 - lost;
    }
    return s;
}

// --- the consumer -------------------------------------------------------------

Task<Reply> MqConsume::processThenAck(Attempt& a) const {
    const Message m = co_await receive(a);
    if (m.id.isEmpty())
        co_return Reply{Response::None, {}};
    co_await a.work(processingMs(a.config()), processing());
    const QString coupon = co_await issueCoupon(a, m);
    co_await a.crashPoint(CrashPoint::BeforeAck);
    co_return co_await ack(a, m, coupon);
}

Task<Reply> MqConsume::ackThenProcess(Attempt& a) const {
    const Message m = co_await receive(a);
    if (m.id.isEmpty())
        co_return Reply{Response::None, {}};
    const Reply acked = co_await ack(a, m, QString());
    co_await a.crashPoint(CrashPoint::AfterAck);
    co_await a.work(processingMs(a.config()), processing());
    const QString coupon = co_await issueCoupon(a, m);
    co_return Reply{acked.response, coupon};
}

Task<Reply> MqConsume::dedupOnMessageId(Attempt& a) const {
    const Message m = co_await receive(a);
    if (m.id.isEmpty())
        co_return Reply{Response::None, {}};
    co_await a.work(processingMs(a.config()), processing());
    co_await a.begin();
    const UniqueInsert consumed = co_await insertUnique(
        a, m.id, kMarkConsumed, bound(m.id, a.now()), kCouponOfMessage, bound(m.id));
    if (!consumed.inserted) {
        // This message id was consumed before: ack it again, issue nothing.
        co_await a.rollback();
        co_return co_await ack(a, m, consumed.row.value().toString());
    }
    const QString coupon = co_await issueCoupon(a, m);
    co_await a.commit();
    co_await a.crashPoint(CrashPoint::BeforeAck);
    co_return co_await ack(a, m, coupon);
}

Task<Reply> MqConsume::dedupOnBusinessKey(Attempt& a) const {
    const Message m = co_await receive(a);
    if (m.id.isEmpty())
        co_return Reply{Response::None, {}};
    co_await a.work(processingMs(a.config()), processing());
    const QString key = QStringLiteral("%1/%2").arg(m.userId).arg(m.campaign);
    // The unique index on (user_id, campaign) makes the check and the coupon
    // one statement: a second coupon for the same business event cannot commit.
    const UniqueInsert coupon =
        co_await insertUnique(a, key, kIssueCoupon, bound(m.userId, m.campaign, m.id, a.now()),
                              kFindCoupon, bound(m.userId, m.campaign));
    co_await a.crashPoint(CrashPoint::BeforeAck);
    co_return co_await ack(a, m, coupon.row.value().toString());
}

Effects MqConsume::effects(Reader& db, int intent) const {
    return {
        {QStringLiteral("coupons"),
         db.count(QStringLiteral("SELECT COUNT(*) FROM coupons WHERE user_id = ? AND campaign = ?"),
                  {userOf(intent), campaign()})}};
}

std::vector<Effects> MqConsume::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all(std::size_t(intents), Effects{{QStringLiteral("coupons"), 0}});
    const SqlResult r = db.query(QStringLiteral(R"(SELECT user_id, COUNT(*)
FROM coupons
WHERE campaign = ?
GROUP BY user_id)"),
                                 {campaign()});
    for (const QVariantList& row : r.data) {
        const qint64 intent = row[0].toLongLong() - userOf(0);
        if (intent >= 0 && intent < intents)
            all[std::size_t(intent)][QStringLiteral("coupons")] = row[1].toLongLong();
    }
    return all;
}

void MqConsume::extendSummary(Reader& db, const RunConfig& c, QJsonObject& summary) const {
    if (c.redis != QLatin1String("off")) {
        // The broker was a Redis stream: the trace's redis events tell it.
        summary.insert("broker", QJsonObject{{"store", QStringLiteral("redis-stream")}});
        return;
    }
    const SqlResult b = db.query(QStringLiteral(R"(SELECT COUNT(*),
       COALESCE(SUM(deliveries), 0),
       COUNT(CASE WHEN status = 'ACKED' THEN 1 END),
       COUNT(CASE WHEN status = 'DEAD' THEN 1 END)
FROM broker)"));
    summary.insert("broker", QJsonObject{{"messages", b.value(0, 0).toLongLong()},
                                         {"deliveries", b.value(0, 1).toLongLong()},
                                         {"acked", b.value(0, 2).toLongLong()},
                                         {"dead_letters", b.value(0, 3).toLongLong()}});
}

}  // namespace idem
