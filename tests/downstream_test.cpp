// Every cell of the downstream misconception (误区一) for seeds 1-5 and
// duplicates 1-3, and how the lost answer and the retried call look in the
// trace and in the tables.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

class DownstreamTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void everyLostAnswerIsFollowedByARetriedCall_data();
    void everyLostAnswerIsFollowedByARetriedCall();
    void entryDedupLooksTheSameInBothVariants();

private:
    std::unique_ptr<Run> run(const Cell& cell, int duplicates, quint32 seed);
};

std::unique_ptr<Run> DownstreamTest::run(const Cell& cell, int duplicates, quint32 seed) {
    return test::finishedRun("downstream", cell, duplicates, seed);
}

void DownstreamTest::truthTable_data() {
    QList<Cell> cells;
    const QStringList timings{"concurrent", "retry", "compensation", "cross-day"};
    for (const auto& [variant, expected] :
         {std::pair{"entry-only", "duplicated"}, std::pair{"downstream-key", "exactly-once"}}) {
        // downstream-timeout: --duplicates N loses N answers of the coupon service.
        for (const QString& t : timings) cells << Cell{variant, t, "", {}, 1, 3, expected};
        cells << Cell{variant, "retry", "", {}, 0, 0, "exactly-once"};  // nothing lost
        // The crash column: the first call's answer is lost.
        cells << Cell{variant, "retry", "downstream-lost", {}, 0, 3, expected};
        // Duplicates at the entry are the entry dedup's job, and it does it ...
        for (const QString& t : timings) {
            cells << Cell{variant, t, "", {}, 1, 3, "exactly-once", "gateway-retry"};
        }
        // ... but not a lost answer inside the service. (Crash cells need
        // attempt 1 to be the one that gets in, so not concurrent.)
        for (const QString& t : timings.mid(1)) {
            cells << Cell{variant, t, "downstream-lost", {}, 1, 3, expected, "gateway-retry"};
        }
    }
    test::addCellRows("downstream", cells);
}

void DownstreamTest::everyLostAnswerIsFollowedByARetriedCall_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("duplicates");
    for (const char* v : {"entry-only", "downstream-key"}) {
        for (int d = 0; d <= 3; ++d)
            QTest::newRow(qPrintable(QStringLiteral("%1 d=%2").arg(v).arg(d))) << QString(v) << d;
    }
}

void DownstreamTest::everyLostAnswerIsFollowedByARetriedCall() {
    QFETCH(QString, variant);
    QFETCH(int, duplicates);
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto r = run(Cell{variant, "retry", "", {}, duplicates, duplicates, ""}, duplicates, seed);
        int calls = 0, lost = 0, answered = 0, downstreamSql = 0;
        QStringList sequence;
        for (const TraceEvent& e : r->trace().events()) {
            if (e.kindId() == QLatin1String("downstream-call")) {
                ++calls;
                QCOMPARE(e.actorName(), QStringLiteral("service"));
                QCOMPARE(e.fields.value("call").toInt(), calls);
                QCOMPARE(e.fields.contains("grant_key"),
                         variant == QLatin1String("downstream-key"));
                sequence << "call";
            } else if (e.kindId() == QLatin1String("answer-lost")) {
                ++lost;
                QCOMPARE(e.actorName(), QStringLiteral("downstream"));
                sequence << "lost";
            } else if (e.kindId() == QLatin1String("downstream-answer")) {
                ++answered;
                QCOMPARE(e.actorName(), QStringLiteral("downstream"));
                sequence << "answer";
            } else if (e.is(EventKind::Sql) && e.actorName() == QLatin1String("downstream")) {
                QVERIFY2(e.sql.contains("coupon_grants"), qPrintable(e.sql));
                ++downstreamSql;
            }
        }
        // N lost answers: N + 1 calls, each lost answer followed by a call.
        QCOMPARE(calls, duplicates + 1);
        QCOMPARE(lost, duplicates);
        QCOMPARE(answered, 1);
        QVERIFY(downstreamSql >= calls);
        for (int i = 0; i < sequence.size() - 1; ++i) {
            if (sequence[i] == QLatin1String("lost"))
                QCOMPARE(sequence[i + 1], QStringLiteral("call"));
        }
        QCOMPARE(sequence.last(), QStringLiteral("answer"));
        // One request at the entry, answered once.
        QCOMPARE(r->summary().attempts, 1);
        QCOMPARE(r->summary().responseCount(Response::Success), 1);
    }
}

void DownstreamTest::entryDedupLooksTheSameInBothVariants() {
    for (const char* variant : {"entry-only", "downstream-key"}) {
        auto r = run(Cell{variant, "retry", "downstream-lost", {}, 0, 0, ""}, 0, 1);
        auto db = r->openReader();
        Reader reader(*db);
        const SqlResult dedup =
            reader.query(QStringLiteral("SELECT biz_id, status, result FROM dedup"));
        QCOMPARE(dedup.data.size(), 1);
        QCOMPARE(dedup.value(0, 0).toString(), QStringLiteral("req-1"));
        QCOMPARE(dedup.value(0, 1).toString(), QStringLiteral("SUCCESS"));
        const qint64 coupons = reader.count(QStringLiteral("SELECT COUNT(*) FROM coupon_grants"));
        const qint64 keyed =
            reader.count(QStringLiteral("SELECT COUNT(*) FROM coupon_grants WHERE grant_key = ?"),
                         {QStringLiteral("req-1:coupon")});
        if (QLatin1String(variant) == QLatin1String("entry-only")) {
            QCOMPARE(coupons, 2);
            QCOMPARE(keyed, 0);
        } else {
            QCOMPARE(coupons, 1);
            QCOMPARE(keyed, 1);
            // The retried call got the first grant back: the entry stored it.
            const qint64 grantId =
                reader.count(QStringLiteral("SELECT id FROM coupon_grants WHERE grant_key = ?"),
                             {QStringLiteral("req-1:coupon")});
            QCOMPARE(dedup.value(0, 2).toLongLong(), grantId);
        }
    }
}

QTEST_GUILESS_MAIN(DownstreamTest)
#include "downstream_test.moc"
