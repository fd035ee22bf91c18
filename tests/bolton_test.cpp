// 误区二 (bolt-on): every cell for both sources, every timing, seeds 1-5 and
// duplicates 1-3; the lost dedup record in the trace and the tables; the
// designed-in model answering the repeat with the first refund.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

using namespace idem;
using idem::test::Cell;

namespace {
const QStringList kTimings{"concurrent", "retry", "compensation", "cross-day"};
const QStringList kSources{"gateway-retry", "double-click"};
}  // namespace

class BoltOnTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void theStoreForgetsBetweenTwoDeliveries();
    void designedInAnswersTheFirstRefund();
};

void BoltOnTest::truthTable_data() {
    QList<Cell> cells;
    for (const QString& source : kSources) {
        for (const QString& t : kTimings) {
            // While the layer remembers, both are exactly once ...
            cells << Cell{"dedup-layer-only", t, "", {}, 1, 3, "exactly-once", source};
            cells << Cell{"designed-in", t, "", {}, 1, 3, "exactly-once", source};
            // ... once it forgets, only the business model can tell.
            cells << Cell{"dedup-layer-only", t,     "dedup-store-lost", {}, 1, 3,
                          "duplicated",       source};
            cells << Cell{"designed-in", t, "dedup-store-lost", {}, 1, 3, "exactly-once", source};
        }
        // No repeat, nothing to forget it for.
        for (const char* v : {"dedup-layer-only", "designed-in"})
            cells << Cell{v, "retry", "dedup-store-lost", {}, 0, 0, "exactly-once", source};
    }
    test::addCellRows("bolt-on", cells);
}

void BoltOnTest::theStoreForgetsBetweenTwoDeliveries() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto run = test::finishedRun(
            "bolt-on", Cell{"dedup-layer-only", "retry", "dedup-store-lost", {}, 1, 1, ""}, 1,
            seed);
        int lost = 0;
        qint64 lostAt = -1;
        QList<qint64> claims;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.kindId() == QLatin1String("dedup-store-lost")) {
                ++lost;
                lostAt = e.tMs;
                QCOMPARE(e.attempt, 1);
                QCOMPARE(e.fields.number("rows"), 1);
            }
            if (e.is(EventKind::Guard) && e.fields.text("decision") == QLatin1String("claimed"))
                claims << e.tMs;
        }
        // Attempt 1 claims, the store forgets, attempt 2 claims anew.
        QCOMPARE(lost, 1);
        QCOMPARE(claims.size(), 2);
        QVERIFY(claims[0] < lostAt && lostAt < claims[1]);
        QCOMPARE(run->summary().effects.value("refunds"), 2);
    }
}

void BoltOnTest::designedInAnswersTheFirstRefund() {
    for (const QString& t : kTimings) {
        for (int d = 1; d <= 3; ++d) {
            for (quint32 seed = 1; seed <= 5; ++seed) {
                auto run = test::finishedRun(
                    "bolt-on", Cell{"designed-in", t, "dedup-store-lost", {}, d, d, ""}, d, seed);
                const Summary& s = run->summary();
                QVERIFY(s.wrongAnswers.isEmpty());
                QCOMPARE(s.effects.value("refunds"), 1);
                // Every success carries the one refund's id.
                QSet<QString> results;
                for (const TraceEvent& e : run->trace().events()) {
                    if (e.is(EventKind::Response) &&
                        e.fields.text("response") == QLatin1String("success"))
                        results << e.fields.text("result");
                }
                QCOMPARE(results.size(), 1);
                auto db = run->openReader();
                Reader reader(*db);
                QCOMPARE(
                    reader.query(QStringLiteral("SELECT status FROM orders")).value().toString(),
                    QStringLiteral("REFUNDED"));
            }
        }
    }
}

QTEST_GUILESS_MAIN(BoltOnTest)
#include "bolton_test.moc"
