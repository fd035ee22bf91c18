#include "mqstream.h"

#include "attempt.h"
#include "mqconsume.h"

#include <QCoreApplication>

#include <algorithm>

namespace idem {

namespace {

Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::MqConsume", source, std::move(args));
}

// A stream entry as Redis hands it over: [id, [field, value, ...]].
void readEntry(const RedisReply& entry, mq::Message* m) {
    m->entry = entry.elements.value(0).text;
    const QList<RedisReply> fields = entry.elements.value(1).elements;
    for (qsizetype i = 0; i + 1 < fields.size(); i += 2) {
        const QString& name = fields[i].text;
        const QString& value = fields[i + 1].text;
        if (name == QLatin1String("msg_id"))
            m->id = value;
        else if (name == QLatin1String("user_id"))
            m->userId = value.toLongLong();
        else if (name == QLatin1String("campaign"))
            m->campaign = value;
    }
}

}  // namespace

namespace mq {

Message fromPayload(const Attempt& a) {
    const QVariantMap& p = a.payload();
    return Message{p.value(QStringLiteral("msg_id")).toString(),
                   p.value(QStringLiteral("user_id")).toLongLong(),
                   p.value(QStringLiteral("campaign")).toString(),
                   p.value(QStringLiteral("delivery")).toInt(),
                   p.value(QStringLiteral("stream")).toString(),
                   p.value(QStringLiteral("entry")).toString()};
}

int lostAcks(const RunConfig& c) {
    return c.source == Source::MqRedelivery ? c.duplicates : 0;
}

QString streamOf(qint64 userId) {
    return QStringLiteral("coupon-events:%1").arg(userId);
}

QString group() {
    return QStringLiteral("coupon-service");
}

QString consumerOf(int delivery) {
    return QStringLiteral("consumer-%1").arg((std::max(delivery, 1) - 1) % 2 + 1);
}

qint64 claimIdleMs(const RunConfig& c) {
    return std::clamp<qint64>(c.visibilityMs, 1, 20);
}

Task<Message> readFromStream(Attempt& a, Message m) {
    const QString consumer = consumerOf(m.delivery);
    Message got = m;
    got.id.clear();
    if (m.delivery <= 1) {
        // What no consumer of the group has been handed yet (">").
        const QStringList read{QStringLiteral("XREADGROUP"),
                               QStringLiteral("GROUP"),
                               group(),
                               consumer,
                               QStringLiteral("COUNT"),
                               QStringLiteral("1"),
                               QStringLiteral("STREAMS"),
                               m.stream,
                               QStringLiteral(">")};
        const RedisReply r = co_await a.redis(read);
        // [[stream, [[id, [field, value, ...]]]]], or nil: nothing new.
        const QList<RedisReply> entries = r.elements.value(0).elements.value(1).elements;
        if (!entries.isEmpty())
            readEntry(entries.first(), &got);
    } else {
        // From the entry on, one that has been idle long enough: it is
        // handed to this consumer, and its delivery count grows.
        const QStringList claim{QStringLiteral("XAUTOCLAIM"),
                                m.stream,
                                group(),
                                consumer,
                                QString::number(claimIdleMs(a.config())),
                                m.entry,
                                QStringLiteral("COUNT"),
                                QStringLiteral("1")};
        const RedisReply r = co_await a.redis(claim);
        // [next cursor, [[id, [field, value, ...]]], [deleted ids]]
        const QList<RedisReply> entries = r.elements.value(1).elements;
        if (!entries.isEmpty())
            readEntry(entries.first(), &got);
    }
    if (got.id.isEmpty()) {
        a.note(QStringLiteral("nothing-pending"), {{"stream", m.stream}, {"consumer", consumer}});
        co_return got;
    }
    a.transition(got.id, m.delivery <= 1 ? QStringLiteral("READY") : QStringLiteral("INFLIGHT"),
                 QStringLiteral("INFLIGHT"), true);
    if (m.delivery > 1) {
        // What a consumer can learn of a redelivery: the count Redis keeps.
        const QStringList pending{
            QStringLiteral("XPENDING"), got.stream, group(), got.entry, got.entry,
            QStringLiteral("1")};
        const RedisReply p = co_await a.redis(pending);
        // [[id, consumer, idle ms, deliveries]]
        const qint64 deliveries = p.elements.value(0).elements.value(3).integer;
        a.note(QStringLiteral("redelivered"), {{"msg_id", got.id}, {"deliveries", deliveries}});
    }
    co_return got;
}

Task<bool> ackOnStream(Attempt& a, Message m) {
    const QStringList ack{QStringLiteral("XACK"), m.stream, group(), m.entry};
    const RedisReply r = co_await a.redis(ack);
    // 1: taken off the pending-entries list; 0: it was no longer there.
    const bool acked = r.integer == 1;
    a.transition(m.id, QStringLiteral("INFLIGHT"), QStringLiteral("ACKED"), acked);
    co_return acked;
}

}  // namespace mq

// The broker on a Redis stream: the group is made where there is none, the
// message added, and handed to the first consumer; each time the
// visibility time has passed, XPENDING says whether it is still unacked and
// how often it was delivered, and the other consumer claims it, until it
// is acked or has been delivered as often as the broker allows.
Task<Reply> MqConsume::streamDelivers(Attempt& a) const {
    const RunConfig& c = a.config();
    const mq::Message m = mq::fromPayload(a);
    const QString stream = mq::streamOf(m.userId);
    const QStringList create{
        QStringLiteral("XGROUP"), QStringLiteral("CREATE"),  stream, mq::group(),
        QStringLiteral("0"),      QStringLiteral("MKSTREAM")};
    const RedisReply created = co_await a.tryRedis(create);
    // BUSYGROUP: an earlier publication of this user's made it.
    if (created.isError() && !created.text.startsWith(QLatin1String("BUSYGROUP")))
        throw SqlFailure(
            QStringLiteral("Redis refused XGROUP CREATE: %1").arg(created.text).toStdString());
    // The entry's id from the run's clock ("1500-*": Redis numbers those
    // of one millisecond), the same in every run.
    const QStringList add{QStringLiteral("XADD"),
                          stream,
                          QStringLiteral("%1-*").arg(a.now()),
                          QStringLiteral("msg_id"),
                          m.id,
                          QStringLiteral("user_id"),
                          QString::number(m.userId),
                          QStringLiteral("campaign"),
                          m.campaign};
    const RedisReply added = co_await a.redis(add);
    const QString entry = added.text;
    a.transition(m.id, QString(), QStringLiteral("READY"), true);
    const int maxDeliveries = 1 + mq::lostAcks(c) + c.maxRetries;
    const auto onStream = [&](AttemptSpec s) {
        s.payload.insert(QStringLiteral("stream"), stream);
        s.payload.insert(QStringLiteral("entry"), entry);
        return s;
    };
    a.fire(onStream(delivery(a, 1, mq::lostAcks(c))));
    for (;;) {
        co_await a.work(
            redeliveryDelayMs(c),
            said(QT_TRANSLATE_NOOP("idem::MqConsume", "visibility timeout: waiting for an ack")));
        const QStringList pending{QStringLiteral("XPENDING"), stream, mq::group(), entry, entry,
                                  QStringLiteral("1")};
        const RedisReply p = co_await a.redis(pending);
        if (p.elements.isEmpty())
            break;  // acked
        const int deliveries = int(p.elements.value(0).elements.value(3).integer);
        if (deliveries >= maxDeliveries) {
            // Redis has no dead-letter queue of its own: a stream of them,
            // and the entry acked so that nobody claims it again.
            const QStringList dead{QStringLiteral("XADD"),
                                   QStringLiteral("coupon-events:dead-letters"),
                                   QStringLiteral("%1-*").arg(a.now()),
                                   QStringLiteral("msg_id"),
                                   m.id,
                                   QStringLiteral("deliveries"),
                                   QString::number(deliveries)};
            co_await a.redis(dead);
            const QStringList ack{QStringLiteral("XACK"), stream, mq::group(), entry};
            co_await a.redis(ack);
            a.transition(m.id, QStringLiteral("INFLIGHT"), QStringLiteral("DEAD"), true);
            break;
        }
        a.fire(onStream(delivery(a, deliveries + 1, mq::lostAcks(c))));
    }
    co_return Reply{};
}

}  // namespace idem
