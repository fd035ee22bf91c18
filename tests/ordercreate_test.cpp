// Every cell of SPEC section 3's order-create table, for seeds 1-5 and
// duplicates 1-3, plus the per-click request id and the race's anatomy.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

using namespace idem;
using idem::test::Cell;

class OrderCreateTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void checkThenInsertRaceIsTwoSelectsBeforeInserts();
    void perClickRequestIdDefeatsTheDedupTable();
    void gatewayRetrySlowFirstAttempt();
};

void OrderCreateTest::truthTable_data() {
    QList<Cell> cells;
    const QStringList later{"retry", "compensation", "cross-day"};
    struct Row {
        const char* variant;
        const char* concurrent;
        const char* later;
        const char* afterGuard;  // nullptr: the point does not exist
        const char* afterBusiness;
        const char* beforeResponse;
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", nullptr, nullptr, "duplicated"},
        {"check-then-insert", "duplicated", "exactly-once", nullptr, nullptr, "exactly-once"},
        {"unique-key", "exactly-once", "exactly-once", nullptr, nullptr, "exactly-once"},
        {"dedup-table", "exactly-once", "exactly-once", "exactly-once", "exactly-once",
         "exactly-once"},
        {"dedup-no-expiry", "exactly-once", "exactly-once", "lost", "stuck", "exactly-once"},
        {"dedup-no-recheck", "exactly-once", "exactly-once", "exactly-once", "duplicated",
         "exactly-once"},
        {"dedup-same-tx", "exactly-once", "exactly-once", nullptr, nullptr, "exactly-once"},
    };
    for (const Row& r : rows) {
        cells << Cell{r.variant, "concurrent", "", {}, 1, 3, r.concurrent};
        for (const QString& t : later) cells << Cell{r.variant, t, "", {}, 1, 3, r.later};
        if (r.afterGuard)
            cells << Cell{r.variant, "retry", "after-guard", {}, 1, 3, r.afterGuard};
        if (r.afterBusiness) {
            cells << Cell{r.variant, "retry", "after-business", {}, 1, 3, r.afterBusiness};
        }
        cells << Cell{r.variant, "retry", "before-response", {}, 1, 3, r.beforeResponse};
    }
    test::addCellRows("order-create", cells);
}

void OrderCreateTest::checkThenInsertRaceIsTwoSelectsBeforeInserts() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        Cell cell{"check-then-insert", "concurrent", "", {}, 1, 1, "duplicated"};
        Run run(test::cellConfig("order-create", cell, 1, seed), *findScenario("order-create"));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        test::finish(run);
        // Read the interleaving from the trace: both SELECTs see no order
        // before either INSERT runs.
        QStringList order;
        QSet<QString> connections;
        for (const TraceEvent& e : run.trace().events()) {
            if (!e.is(EventKind::Sql) || e.attempt == 0)
                continue;
            if (e.sql.startsWith("SELECT")) {
                QCOMPARE(e.rows, 0);
                order << QStringLiteral("S%1").arg(e.attempt);
            } else if (e.sql.startsWith("INSERT")) {
                QCOMPARE(e.rows, 1);
                order << QStringLiteral("I%1").arg(e.attempt);
            }
            connections << e.connectionName();
        }
        QCOMPARE(order.size(), 4);
        QVERIFY2(order[0].startsWith('S') && order[1].startsWith('S'), qPrintable(order.join(' ')));
        QVERIFY2(order[2].startsWith('I') && order[3].startsWith('I'), qPrintable(order.join(' ')));
        QCOMPARE(connections.size(), 2);  // one connection per process
        QCOMPARE(run.summary().verdictId(), QStringLiteral("duplicated"));
    }
}

void OrderCreateTest::perClickRequestIdDefeatsTheDedupTable() {
    for (const char* timing : {"concurrent", "retry"}) {
        for (int d = 1; d <= 3; ++d) {
            Cell cell{"dedup-table", timing, "", {"request-id=per-click"}, d, d, "duplicated"};
            const Summary s = test::runToSummary(test::cellConfig("order-create", cell, d, 1));
            QCOMPARE(s.verdictId(), QStringLiteral("duplicated"));
            QCOMPARE(s.effects.value("orders"), d + 1);
        }
    }
}

void OrderCreateTest::gatewayRetrySlowFirstAttempt() {
    // The gateway gives up on the slow first attempt after 3 s and retries:
    // check-then-insert's SELECT cannot see the order that is still being made.
    Cell naive{"check-then-insert", "retry", "", {}, 1, 1, "duplicated", "gateway-retry"};
    QCOMPARE(test::runToSummary(test::cellConfig("order-create", naive, 1, 1)).verdictId(),
             QStringLiteral("duplicated"));
    Cell rec{"dedup-table", "retry", "", {}, 1, 1, "exactly-once", "gateway-retry"};
    const Summary s = test::runToSummary(test::cellConfig("order-create", rec, 1, 1));
    QCOMPARE(s.verdictId(), QStringLiteral("exactly-once"));
    QVERIFY(s.responseCount(Response::InProgress) >= 1);
}

QTEST_GUILESS_MAIN(OrderCreateTest)
#include "ordercreate_test.moc"
