// Every cell of SPEC section 3's payment-callback table and its further rows,
// for seeds 1-5 and duplicates 1-3, the state machine's accepted and rejected
// transitions, the provider query (主动查询) and the retry edge.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

using namespace idem;
using idem::test::Cell;

namespace {

// Accepted moves of the order after the set-up, in the order they happened
// (the user's second payment is a helper process: attempt 0).
QStringList acceptedMoves(const Run& run) {
    QStringList moves;
    bool started = false;
    for (const TraceEvent& e : run.trace().events()) {
        started |= e.is(EventKind::Fire);
        if (started && e.is(EventKind::Transition) && e.fields.value("accepted").toBool()) {
            moves << e.fields.value("from_state").toString() + "->" +
                         e.fields.value("to_state").toString();
        }
    }
    return moves;
}

int notes(const Run& run, const char* kind) {
    int n = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Note) && e.kindId() == QLatin1String(kind))
            ++n;
    }
    return n;
}

}  // namespace

class PaymentCallbackTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void aStaleFailureIsAcknowledgedNotApplied();
    void aRefusedNoticeIsSentAgainOnTheProvidersSchedule();
    void aFailureOfTheFirstPaymentLeavesTheSecondAlone_data();
    void aFailureOfTheFirstPaymentLeavesTheSecondAlone();
    void moreRows_data();
    void moreRows() { test::checkCellRow(); }
    void providerQueryTakesTheOrderBackThroughPaying();
    void failedThenRetryTakesTheRetryEdge();
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
        {"unique-state-query", "exactly-once", "exactly-once", "exactly-once", nullptr,
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

// The recommended service answers a stale FAILED notice as the providers
// ask: success, without applying it (the state machine refuses the move),
// recorded in stale_notices and raised as an alert.
void PaymentCallbackTest::aStaleFailureIsAcknowledgedNotApplied() {
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
    QCOMPARE(run.summary().responseCount(Response::Rejected), 0);
    QCOMPARE(run.summary().responseCount(Response::Success), 4);
    QCOMPARE(run.summary().alerts.size(), 1);
    const auto reader = run.openReader();
    QCOMPARE(reader->exec("SELECT out_trade_no, order_status FROM stale_notices").data,
             (QList<QVariantList>{{QStringLiteral("T88000001"), QStringLiteral("PAID")}}));
}

// A variant that answers the same notice "rejected" gets it again, on the
// provider's schedule (10 s, 10 s, 20 s …), up to --max-retries times.
void PaymentCallbackTest::aRefusedNoticeIsSentAgainOnTheProvidersSchedule() {
    Cell cell{"state-machine", "retry", "", {"late-failure=1"}, 2, 2, "exactly-once"};
    RunConfig c = test::cellConfig("payment-callback", cell, 2, 1);
    Run run(c, *findScenario("payment-callback"));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    test::finish(run);
    QCOMPARE(run.summary().verdict, Verdict::ExactlyOnce);
    QCOMPARE(run.summary().responseCount(Response::Rejected), 1 + c.maxRetries);
    QList<qint64> refusedAt;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Response) && e.fields.text("response") == QLatin1String("rejected"))
            refusedAt << e.tMs;
        if (e.is(EventKind::Retry))
            QCOMPARE(e.fields.text("after"), QStringLiteral("rejected"));
    }
    QCOMPARE(refusedAt.size(), 4);
    QList<qint64> gaps;
    for (qsizetype i = 1; i < refusedAt.size(); ++i) gaps << refusedAt[i] - refusedAt[i - 1];
    QCOMPARE(gaps, (QList<qint64>{10'000, 10'000, 20'000}));
}

// The first payment fails and the user pays again; the first payment's
// FAILED notice comes once more while the second is under way. It names the
// first trade number, so it fails nothing: the order ends PAID, credited once.
void PaymentCallbackTest::aFailureOfTheFirstPaymentLeavesTheSecondAlone_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("verdict");
    QTest::newRow("none") << "none"
                          << "duplicated";
    for (const char* v : {"state-machine", "unique-and-state", "unique-state-query"})
        QTest::newRow(v) << v << "exactly-once";
}

void PaymentCallbackTest::aFailureOfTheFirstPaymentLeavesTheSecondAlone() {
    QFETCH(QString, variant);
    QFETCH(QString, verdict);
    for (quint32 seed = 1; seed <= 3; ++seed) {
        Cell cell{variant, "retry", "", {"failed-then-retry=1", "late-failure=1"}, 1, 2, verdict};
        Run run(test::cellConfig("payment-callback", cell, 1, seed),
                *findScenario("payment-callback"));
        QString error;
        QVERIFY(run.start(&error));
        run.runToEnd();
        test::finish(run);
        QCOMPARE(toId(run.summary().verdict), verdict);
        if (variant == QLatin1String("none"))
            continue;
        bool refused = false;
        for (const TraceEvent& e : run.trace().events()) {
            refused |= e.is(EventKind::Transition) && e.fields.text("to_state") == "FAILED" &&
                       !e.fields.flag("accepted") && e.tMs >= 3'000 && e.tMs < 4'000;
        }
        QVERIFY2(refused, "the first payment's late FAILED is refused");
        const auto reader = run.openReader();
        QCOMPARE(reader->exec("SELECT status FROM orders").data.value(0).value(0).toString(),
                 QStringLiteral("PAID"));
    }
}

// SPEC section 3, payment-callback's further rows (timing retry).
void PaymentCallbackTest::moreRows_data() {
    QList<Cell> cells;
    // The SUCCESS rolls back, the stale FAILED lands first: only asking the
    // provider gets the money where it belongs.
    cells << Cell{"unique-and-state", "retry", "before-commit", {"late-failure=1"}, 0, 0, "lost"};
    cells << Cell{"unique-state-query", "retry", "before-commit", {"late-failure=1"}, 0, 0,
                  "exactly-once"};
    // The first payment really fails and the user pays again.
    cells << Cell{"none", "retry", "", {"failed-then-retry=1"}, 1, 3, "duplicated"};
    for (const char* v : {"unique-key", "state-machine", "unique-and-state", "unique-separate-tx",
                          "unique-state-query"}) {
        cells << Cell{v, "retry", "", {"failed-then-retry=1"}, 1, 3, "exactly-once"};
    }
    test::addCellRows("payment-callback", cells);
}

void PaymentCallbackTest::providerQueryTakesTheOrderBackThroughPaying() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        Cell cell{"unique-state-query", "retry", "before-commit", {"late-failure=1"}, 0, 0,
                  "exactly-once"};
        const auto run = test::finishedRun("payment-callback", cell, 0, seed);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
        QCOMPARE(notes(*run, "provider-query"), 1);
        QCOMPARE(notes(*run, "provider-answer"), 1);
        // The SUCCESS's own move rolled back with it; the stale FAILED moved
        // the order, and the provider's answer took it back to PAID.
        QCOMPARE(acceptedMoves(*run),
                 (QStringList{"PAYING->PAID", "PAYING->FAILED", "FAILED->PAYING", "PAYING->PAID"}));
        auto db = run->openReader();
        QCOMPARE(db->exec("SELECT status FROM orders").value().toString(), QStringLiteral("PAID"));
        QCOMPARE(db->exec("SELECT COUNT(*) FROM ledger").value().toInt(), 1);
    }
}

void PaymentCallbackTest::failedThenRetryTakesTheRetryEdge() {
    for (const char* variant : {"unique-and-state", "unique-state-query"}) {
        Cell cell{variant, "retry", "", {"failed-then-retry=1"}, 2, 2, "exactly-once"};
        const auto run = test::finishedRun("payment-callback", cell, 2, 1);
        QCOMPARE(acceptedMoves(*run),
                 (QStringList{"PAYING->FAILED", "FAILED->PAYING", "PAYING->PAID"}));
        auto db = run->openReader();
        QCOMPARE(db->exec("SELECT status FROM orders").value().toString(), QStringLiteral("PAID"));
        QCOMPARE(db->exec("SELECT out_trade_no FROM pay_flow").value().toString(),
                 QStringLiteral("T88000001-2"));
        QCOMPARE(db->exec("SELECT COUNT(*) FROM ledger").value().toInt(), 1);
    }
}

QTEST_GUILESS_MAIN(PaymentCallbackTest)
#include "paymentcallback_test.moc"
