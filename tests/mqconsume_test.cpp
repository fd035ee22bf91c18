// Every cell of SPEC section 3's mq-consume table (seeds 1-5, duplicates 1-3;
// the crash columns with duplicates 0), and what the broker table and the
// trace must show: an ack before the after-ack crash, new message ids on a
// producer resend, redelivery only after the visibility timeout.
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

QTEST_GUILESS_MAIN(MqConsumeTest)
#include "mqconsume_test.moc"
