// Every cell of SPEC section 3's mq-consume table (seeds 1-5, duplicates 1-3;
// the crash columns with duplicates 0), and what the broker table and the
// trace must show: an ack before the after-ack crash, new message ids on a
// producer resend, redelivery only after the visibility timeout.
#include "authoring.h"
#include "locksnapshot.h"
#include "redisreply.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

// After the Qt-including headers: moc cannot parse <coroutine> on its own.
#include "mqconsume.h"

#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

using test::finishedRun;

RunConfig config(const QString& variant, const QString& source, const QString& timing,
                 const QString& crash, int duplicates, quint32 seed) {
    Cell cell{variant, timing, crash, {}, duplicates, duplicates, {}, source};
    return test::cellConfig(QStringLiteral("mq-consume"), cell, duplicates, seed);
}

bool isAck(const TraceEvent& e) {
    return e.is(EventKind::Sql) && e.sql.startsWith(QLatin1String("UPDATE broker")) &&
           e.sql.contains(QLatin1String("'ACKED'"));
}

// For each delivery, how long after it the broker makes the message visible
// again: the visible_at its UPDATE writes, less the statement's instant.
QList<qint64> visibleAfter(const Run& run) {
    QList<qint64> out;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Sql) && e.sql.contains(QLatin1String("SET status = 'INFLIGHT'")))
            out << e.params.value(0).toLongLong() - e.params.value(2).toLongLong();
    }
    return out;
}

}  // namespace

class MqConsumeTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void afterAckAckedBeforeTheCrash();
    void producerResendUsesNewMessageIds();
    void mqRedeliveryIsOneMessageDeliveredAgain();
    void redeliveryWaitsForTheVisibilityTimeout();
    void unackedMessageEndsInTheDeadLetterQueue();
    void visibilityTimeoutIsHonouredExactly();
    void processingLongerThanTheVisibilityTimeout_data();
    void processingLongerThanTheVisibilityTimeout() { test::checkCellRow(); }
    void redeliveredWhileTheFirstDeliveryStillWorks();
    void theCrashedDeliveryIsRedeliveredOnce();
};

void MqConsumeTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* redelivery;
        const char* resend;
        const char* beforeAck;  // nullptr: the point does not exist
        const char* afterAck;
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", "duplicated", nullptr},
        {"ack-first", "duplicated", "duplicated", nullptr, "lost"},
        {"msg-id-dedup", "exactly-once", "duplicated", "exactly-once", nullptr},
        {"biz-key-dedup", "exactly-once", "exactly-once", "exactly-once", nullptr},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
            cells << Cell{r.variant, t, "", {}, 1, 3, r.redelivery, "mq-redelivery"};
            cells << Cell{r.variant, t, "", {}, 1, 3, r.resend, "producer-resend"};
        }
        // The crash is the only reason for a redelivery.
        if (r.beforeAck) {
            cells << Cell{r.variant, "retry", "before-ack", {}, 0, 0, r.beforeAck};
        }
        if (r.afterAck) {
            cells << Cell{r.variant, "retry", "after-ack", {}, 0, 0, r.afterAck};
        }
    }
    test::addCellRows("mq-consume", cells);
}

void MqConsumeTest::afterAckAckedBeforeTheCrash() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto run = finishedRun(config("ack-first", "mq-redelivery", "retry", "after-ack", 0, seed));
        QVERIFY(run);
        qint64 ackSeq = -1, crashSeq = -1;
        for (const TraceEvent& e : run->trace().events()) {
            if (isAck(e) && e.attempt == 1 && e.rows == 1) {
                ackSeq = e.seq;
            }
            if (e.is(EventKind::Crash) && e.attempt == 1) {
                QCOMPARE(e.fields.value("point").toString(), QStringLiteral("after-ack"));
                crashSeq = e.seq;
            }
        }
        QVERIFY(ackSeq >= 0);
        QVERIFY(crashSeq > ackSeq);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("lost"));
        // The broker believes the message handled and never delivers it again.
        auto db = run->openReader();
        Reader reader(*db);
        const SqlResult broker =
            reader.query(QStringLiteral("SELECT status, deliveries FROM broker"));
        QCOMPARE(broker.rows, 1);
        QCOMPARE(broker.value(0, 0).toString(), QStringLiteral("ACKED"));
        QCOMPARE(broker.value(0, 1).toInt(), 1);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM coupons")), 0);
        QCOMPARE(run->summary().attempts, 1);
    }
}

void MqConsumeTest::producerResendUsesNewMessageIds() {
    for (const char* variant : {"none", "msg-id-dedup", "biz-key-dedup"}) {
        for (const char* timing : {"concurrent", "retry"}) {
            for (int d = 1; d <= 3; ++d) {
                auto run = finishedRun(config(variant, "producer-resend", timing, "", d, 1));
                QVERIFY(run);
                auto db = run->openReader();
                Reader reader(*db);
                QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(DISTINCT msg_id) FROM broker")),
                         d + 1);
                QCOMPARE(reader.count(QStringLiteral(
                             "SELECT COUNT(DISTINCT user_id || '/' || campaign) FROM broker")),
                         1);
                // Each message was delivered once and acked: no redelivery here.
                QCOMPARE(
                    reader.count(QStringLiteral(
                        "SELECT COUNT(*) FROM broker WHERE status = 'ACKED' AND deliveries = 1")),
                    d + 1);
                const qint64 coupons = reader.count(QStringLiteral("SELECT COUNT(*) FROM coupons"));
                if (QLatin1String(variant) == QLatin1String("msg-id-dedup")) {
                    // Every new id passed the message-id dedup.
                    QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM consumed_messages")),
                             d + 1);
                    QCOMPARE(coupons, d + 1);
                } else if (QLatin1String(variant) == QLatin1String("none")) {
                    QCOMPARE(coupons, d + 1);
                } else {
                    QCOMPARE(coupons, 1);
                }
            }
        }
    }
}

void MqConsumeTest::mqRedeliveryIsOneMessageDeliveredAgain() {
    for (int d = 1; d <= 3; ++d) {
        auto run = finishedRun(config("msg-id-dedup", "mq-redelivery", "retry", "", d, 2));
        QVERIFY(run);
        auto db = run->openReader();
        Reader reader(*db);
        const SqlResult broker =
            reader.query(QStringLiteral("SELECT msg_id, status, deliveries FROM broker"));
        QCOMPARE(broker.rows, 1);
        QCOMPARE(broker.value(0, 0).toString(), MqConsume::messageIdOf(0, 1));
        QCOMPARE(broker.value(0, 1).toString(), QStringLiteral("ACKED"));
        QCOMPARE(broker.value(0, 2).toInt(), d + 1);
        int lost = 0, acks = 0;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.kindId() == QLatin1String("ack-lost")) {
                ++lost;
            }
            if (isAck(e) && e.rows == 1) {
                ++acks;
            }
        }
        QCOMPARE(lost, d);
        QCOMPARE(acks, 1);
        QCOMPARE(run->summary().responseCount(Response::None), d);
        QCOMPARE(run->summary().responseCount(Response::Success), 1);
    }
}

void MqConsumeTest::redeliveryWaitsForTheVisibilityTimeout() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        RunConfig c = config("none", "mq-redelivery", "retry", "before-ack", 0, seed);
        auto run = finishedRun(c);
        QVERIFY(run);
        QList<qint64> deliveries;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.is(EventKind::Fire) && e.actorName() == QLatin1String("broker")) {
                deliveries << e.tMs;
            }
        }
        QCOMPARE(deliveries.size(), 2);
        QVERIFY(deliveries[1] - deliveries[0] >= c.visibilityMs);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("duplicated"));
    }
}

void MqConsumeTest::unackedMessageEndsInTheDeadLetterQueue() {
    // No retries left: the broker gives up on the crashed delivery.
    RunConfig c = config("biz-key-dedup", "mq-redelivery", "retry", "before-ack", 0, 1);
    c.maxRetries = 0;
    auto run = finishedRun(c);
    QVERIFY(run);
    auto db = run->openReader();
    Reader reader(*db);
    QCOMPARE(reader.query(QStringLiteral("SELECT status FROM broker")).value().toString(),
             QStringLiteral("DEAD"));
    // The coupon exists but nobody ever got an answer.
    QCOMPARE(run->summary().verdictId(), QStringLiteral("stuck"));
    QCOMPARE(run->summary().extras.value("broker").toObject().value("dead_letters").toInt(), 1);
}

// --visibility-ms is the redelivery delay, whatever the timing.
void MqConsumeTest::visibilityTimeoutIsHonouredExactly() {
    for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
        for (const qint64 visibility : {500LL, 10'000LL, 45'000LL}) {
            for (quint32 seed = 1; seed <= 5; ++seed) {
                RunConfig c = config("none", "mq-redelivery", t, "", 1, seed);
                c.visibilityMs = visibility;
                auto run = finishedRun(c);
                QList<qint64> deliveries;
                for (const TraceEvent& e : run->trace().events()) {
                    if (e.is(EventKind::Fire) && e.actorName() == QLatin1String("broker"))
                        deliveries << e.tMs;
                }
                QCOMPARE(deliveries.size(), 2);
                // The broker's row says visible again `visibility` after the
                // delivery, to the millisecond; the consumer sees the second
                // delivery as soon as the broker's own statements have run.
                QCOMPARE(visibleAfter(*run), (QList<qint64>{visibility, visibility}));
                QVERIFY(qAbs(deliveries[1] - deliveries[0] - visibility) <= 3);
            }
        }
    }
}

// SPEC 3 mq-consume: the consumer works longer than the visibility timeout,
// so the broker delivers again while the first delivery is still working.
void MqConsumeTest::processingLongerThanTheVisibilityTimeout_data() {
    QList<Cell> cells;
    for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
        for (const char* p : {"processing-ms=15000", "processing-ms=25000"}) {
            cells << Cell{"none", t, "", {p}, 0, 0, "duplicated", "mq-redelivery"};
            cells << Cell{"biz-key-dedup", t, "", {p}, 0, 0, "exactly-once", "mq-redelivery"};
        }
        // Shorter than the visibility timeout: acked in time, delivered once.
        cells << Cell{"none", t, "", {"processing-ms=9000"}, 0, 0, "exactly-once", "mq-redelivery"};
    }
    test::addCellRows("mq-consume", cells);
}

void MqConsumeTest::redeliveredWhileTheFirstDeliveryStillWorks() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        RunConfig c = config("biz-key-dedup", "mq-redelivery", "retry", "", 0, seed);
        c.params.insert("processing-ms", "15000");
        auto run = finishedRun(c);
        qint64 firstAnswer = -1;
        QList<qint64> deliveries;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.is(EventKind::Fire) && e.actorName() == QLatin1String("broker"))
                deliveries << e.tMs;
            if (e.is(EventKind::Response) && e.attempt == 1)
                firstAnswer = e.tMs;
        }
        QVERIFY(deliveries.size() >= 2);
        QCOMPARE(visibleAfter(*run).first(), c.visibilityMs);
        QVERIFY(deliveries[1] < firstAnswer);
        QCOMPARE(run->summary().effects.value("coupons"), 1);
    }
}

// SPEC section 10's new cell: `none`, a crash before the ack, no duplicate
// sent: the one redelivery is the broker's. On a Redis stream (with
// IDEM_TEST_REDIS) the other consumer claims the pending entry with
// XAUTOCLAIM and XPENDING counts 2 deliveries; three repeats give the same
// events, Redis's idle times aside. The table's broker delivers twice too.
void MqConsumeTest::theCrashedDeliveryIsRedeliveredOnce() {
    for (quint32 seed = 1; seed <= quint32(test::seedCount(5)); ++seed) {
        const RunConfig c = config("none", "mq-redelivery", "retry", "before-ack", 0, seed);
        QList<QJsonObject> first;
        for (int repeat = 0; repeat < 3; ++repeat) {
            auto run = finishedRun(c);
            QCOMPARE(run->summary().verdictId(), QStringLiteral("duplicated"));
            QCOMPARE(run->summary().effects.value("coupons"), 2);
            QList<QJsonObject> events;
            QStringList claims;
            qint64 counted = 0;
            for (const TraceEvent& e : run->trace().events()) {
                events << withoutServerIds(e.toJson());
                if (!e.is(EventKind::Note) || e.kindId() != QLatin1String("redis"))
                    continue;
                const QString command = e.fields.text("command");
                if (command.startsWith(QLatin1String("XAUTOCLAIM ")))
                    claims << command;
                RedisReply reply;
                QVERIFY(RedisReply::fromTrace(e.fields.text("reply_type"), e.fields.value("reply"),
                                              &reply));
                if (command.startsWith(QLatin1String("XPENDING ")) &&
                    e.actorName() == QLatin1String("consumer"))
                    counted = reply.elements.value(0).elements.value(3).integer;
            }
            if (c.redis != QLatin1String("off")) {
                QCOMPARE(claims.size(), 1);
                QVERIFY2(claims.first().contains(QLatin1String("consumer-2")),
                         qPrintable(claims.first()));
                QCOMPARE(counted, 2);
            } else {
                QCOMPARE(
                    run->summary().extras.value("broker").toObject().value("deliveries").toInt(),
                    2);
            }
            if (repeat == 0)
                first = events;
            else
                QCOMPARE(events, first);
        }
    }
}

QTEST_GUILESS_MAIN(MqConsumeTest)
#include "mqconsume_test.moc"
