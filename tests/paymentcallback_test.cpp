// Every cell of SPEC section 3's payment-callback table, for seeds 1-5 and
// duplicates 1-3, and the state machine's accepted and rejected transitions.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

using namespace idem;
using idem::test::Cell;

class PaymentCallbackTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void lateFailureIsRejectedByTheStateMachine();
};

void PaymentCallbackTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* duplicates;
        const char* lateFailure;
        const char* beforeCommit;
        const char* afterGuard;  // nullptr: the point does not exist
        const char* beforeResponse;
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", "duplicated", nullptr, "duplicated"},
        {"unique-key", "exactly-once", "inconsistent", "exactly-once", nullptr, "exactly-once"},
        {"state-machine", "exactly-once", "exactly-once", "exactly-once", nullptr, "exactly-once"},
        {"unique-and-state", "exactly-once", "exactly-once", "exactly-once", nullptr,
         "exactly-once"},
        {"unique-separate-tx", "exactly-once", "exactly-once", "inconsistent", "inconsistent",
         "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
            cells << Cell{r.variant, t, "", {}, 1, 3, r.duplicates};
            cells << Cell{r.variant, t, "", {"late-failure=1"}, 1, 3, r.lateFailure};
        }
        cells << Cell{r.variant, "retry", "before-commit", {}, 1, 3, r.beforeCommit};
        if (r.afterGuard)
            cells << Cell{r.variant, "retry", "after-guard", {}, 1, 3, r.afterGuard};
        cells << Cell{r.variant, "retry", "before-response", {}, 1, 3, r.beforeResponse};
    }
    test::addCellRows("payment-callback", cells);
}

void PaymentCallbackTest::lateFailureIsRejectedByTheStateMachine() {
    Cell cell{"unique-and-state", "retry", "", {"late-failure=1"}, 2, 2, "exactly-once"};
    Run run(test::cellConfig("payment-callback", cell, 2, 1), *findScenario("payment-callback"));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    test::finish(run);
    int paid = 0, failedRejected = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (!e.is(EventKind::Transition))
            continue;
        const QString to = e.fields.value("to_state").toString();
        const bool accepted = e.fields.value("accepted").toBool();
        if (to == QLatin1String("PAID") && accepted)
            ++paid;
        if (to == QLatin1String("FAILED") && !accepted)
            ++failedRejected;
    }
    QCOMPARE(paid, 1);
    QCOMPARE(failedRejected, 1);
    QCOMPARE(run.summary().responseCount(Response::Rejected), 1);
}

QTEST_GUILESS_MAIN(PaymentCallbackTest)
#include "paymentcallback_test.moc"
