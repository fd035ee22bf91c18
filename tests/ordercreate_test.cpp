// Every cell of SPEC section 3's order-create table and its production rows,
// for seeds 1-5 and duplicates 1-3, plus the per-click request id, the race's
// anatomy, and what the trace shows of fingerprints and failed claims.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

using namespace idem;
using idem::test::Cell;

namespace {

// What each attempt was told, from the trace: response id and result.
QList<QPair<QString, QString>> answers(const Run& run) {
    QList<QPair<QString, QString>> out;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Response)) {
            out << qMakePair(e.fields.value("response").toString(),
                             e.fields.value("result").toString());
        }
    }
    return out;
}

QList<const TraceEvent*> guardEvents(const Run& run, const QString& decision) {
    QList<const TraceEvent*> out;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Guard) && e.fields.value("decision").toString() == decision)
            out << &e;
    }
    return out;
}

bool transitionSeen(const Run& run, const QString& from, const QString& to) {
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Transition) && e.fields.value("accepted").toBool() &&
            e.fields.value("from_state").toString() == from &&
            e.fields.value("to_state").toString() == to) {
            return true;
        }
    }
    return false;
}

// SPEC's production row: the owner is still working when its claim expires.
RunConfig slowOwner(const QString& variant, int duplicates, quint32 seed) {
    Cell cell{variant, "retry", "", {}, duplicates, duplicates, "", "gateway-retry"};
    RunConfig c = test::cellConfig("order-create", cell, duplicates, seed);
    c.expiryMs = 2'000;
    return c;
}

}  // namespace

class OrderCreateTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void checkThenInsertRaceIsTwoSelectsBeforeInserts();
    void perClickRequestIdDefeatsTheDedupTable();
    void gatewayRetrySlowFirstAttempt();
    void productionRows_data();
    void productionRows() { test::checkCellRow(); }
    void expiredClaimOfALiveOwnerDuplicates();
    void databaseBackstopAnswersTheFirstOrder();
    void reusedKeyIsRefusedWithBothHashes();
    void onlyTheFingerprintRefusesAChangedRequest();
    void aChangedRequestMayGetToTheKeyFirst();
    void failedClaimIsClaimedAgain();
    void cachedErrorIsAnsweredToEveryRetry();
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
        // Production variants: with their payload unchanged and no business
        // error, each holds wherever dedup-table holds.
        {"dedup-and-unique", "exactly-once", "exactly-once", "exactly-once", "exactly-once",
         "exactly-once"},
        {"dedup-fingerprint", "exactly-once", "exactly-once", "exactly-once", "exactly-once",
         "exactly-once"},
        {"dedup-cache-error", "exactly-once", "exactly-once", "exactly-once", "exactly-once",
         "exactly-once"},
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

// SPEC section 3, order-create's production rows (the gateway-retry row with
// its expiry of 2 s is expiredClaimOfALiveOwnerDuplicates and
// databaseBackstopAnswersTheFirstOrder). The business error hits the
// attempt that claimed the key, whichever came first under concurrent.
void OrderCreateTest::productionRows_data() {
    const QStringList every{"concurrent", "retry", "compensation", "cross-day"};
    QList<Cell> cells;
    for (const QString& t : every) {
        cells << Cell{"dedup-table", t, "", {"payload=changed"}, 1, 3, "misanswered"};
        cells << Cell{"dedup-fingerprint", t, "", {"payload=changed"}, 1, 3, "exactly-once"};
        cells << Cell{"dedup-table", t, "", {"business-error=1"}, 1, 3, "exactly-once"};
        cells << Cell{"dedup-fingerprint", t, "", {"business-error=1"}, 1, 3, "exactly-once"};
        cells << Cell{"dedup-cache-error", t, "", {"business-error=1"}, 1, 3, "lost"};
    }
    // No duplicate at all: the caller's own retry of the error claims again.
    cells << Cell{"dedup-table", "retry", "", {"business-error=1"}, 0, 0, "exactly-once"};
    cells << Cell{"dedup-cache-error", "retry", "", {"business-error=1"}, 0, 0, "lost"};
    test::addCellRows("order-create", cells);
}

void OrderCreateTest::expiredClaimOfALiveOwnerDuplicates() {
    // The first attempt takes 4 s; its claim expires after 2 s, so the
    // gateway's retry at 3 s takes it over, finds no order yet and creates
    // one, and then the first attempt creates its own.
    for (quint32 seed = 1; seed <= 5; ++seed) {
        for (int d = 1; d <= 3; ++d) {
            const Summary s = test::runToSummary(slowOwner("dedup-table", d, seed));
            QCOMPARE(s.verdictId(), QStringLiteral("duplicated"));
            QCOMPARE(s.effects.value("orders"), 2);
        }
    }
}

void OrderCreateTest::databaseBackstopAnswersTheFirstOrder() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        for (int d = 1; d <= 3; ++d) {
            const auto run = test::finishedRun(slowOwner("dedup-and-unique", d, seed));
            QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
            QCOMPARE(run->summary().effects.value("orders"), 1);
            // The slow owner's INSERT hit UNIQUE(request_id) and answered the
            // order that the takeover created: every success names it.
            QVERIFY(!guardEvents(*run, "duplicate").isEmpty());
            QSet<QString> ids;
            int successes = 0;
            for (const auto& [response, result] : answers(*run)) {
                if (response == QLatin1String("success")) {
                    ids << result;
                    ++successes;
                }
            }
            QCOMPARE(successes, d + 1);
            QCOMPARE(ids.size(), 1);
        }
    }
}

void OrderCreateTest::reusedKeyIsRefusedWithBothHashes() {
    for (const char* timing : {"concurrent", "retry"}) {
        Cell cell{"dedup-fingerprint", timing, "", {"payload=changed"}, 2, 2, "exactly-once"};
        const auto run = test::finishedRun("order-create", cell, 2, 1);
        const auto reused = guardEvents(*run, "key-reused");
        QCOMPARE(reused.size(), 2);
        for (const TraceEvent* e : reused) {
            const QString stored = e->fields.value("stored_hash").toString();
            const QString asked = e->fields.value("request_hash").toString();
            QCOMPARE(stored.size(), 16);
            QCOMPARE(asked.size(), 16);
            QVERIFY(stored != asked);
        }
        int refused = 0;
        for (const auto& [response, result] : answers(*run)) {
            if (response == QLatin1String("rejected")) {
                QCOMPARE(result, QStringLiteral("key-reused"));
                ++refused;
            }
        }
        QCOMPARE(refused, 2);
        QCOMPARE(run->summary().responseCount(Response::Success), 1);
        QVERIFY(run->summary().wrongAnswers.isEmpty());
    }
}

void OrderCreateTest::onlyTheFingerprintRefusesAChangedRequest() {
    // Every other guard answers the changed request with the first order.
    for (const char* variant : {"check-then-insert", "unique-key", "dedup-same-tx",
                                "dedup-and-unique", "dedup-cache-error"}) {
        Cell cell{variant, "retry", "", {"payload=changed"}, 1, 1, "misanswered"};
        const Summary s = test::runToSummary(test::cellConfig("order-create", cell, 1, 1));
        QVERIFY2(s.verdictId() == QStringLiteral("misanswered"), variant);
        QCOMPARE(s.wrongAnswers.size(), 1);
        QCOMPARE(s.wrongAnswers.first().told, Response::Success);
    }
    Cell none{"none", "retry", "", {"payload=changed"}, 1, 1, "duplicated"};
    QCOMPARE(test::runToSummary(test::cellConfig("order-create", none, 1, 1)).verdictId(),
             QStringLiteral("duplicated"));
}

// Under concurrent timing the seed orders the attempts, whatever their
// payload: for some seeds the duplicate that reuses the key with another
// amount claims it first. The key then holds that request, and the intent's
// own payload is the one that must be refused (SPEC section 2, Answers).
void OrderCreateTest::aChangedRequestMayGetToTheKeyFirst() {
    constexpr quint32 kSeeds = 20;
    int changedFirst = 0;
    for (quint32 seed = 1; seed <= kSeeds; ++seed) {
        Cell fingerprint{"dedup-fingerprint", "concurrent", "", {"payload=changed"}, 1, 1,
                         "exactly-once"};
        const auto run = test::finishedRun("order-create", fingerprint, 1, seed);
        auto db = run->openReader();
        const qint64 amount = db->exec("SELECT amount FROM orders").value().toLongLong();
        if (amount == 199)  // intent 1's own amount: the original came first
            continue;
        ++changedFirst;
        QCOMPARE(amount, 299);  // the duplicate's
        QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
        for (const Run::Answer& a : run->answersOf(0)) {
            if (a.response == Response::InProgress)
                continue;
            // The changed request was carried out and told so; the original
            // (and its retries) reused the key with another payload.
            QCOMPARE(a.response, a.changedPayload ? Response::Success : Response::Rejected);
        }
        // Without the fingerprint the original is told success with the
        // changed request's order.
        Cell table{"dedup-table", "concurrent", "", {"payload=changed"}, 1, 1, "misanswered"};
        const Summary s = test::runToSummary(test::cellConfig("order-create", table, 1, seed));
        QCOMPARE(s.verdictId(), QStringLiteral("misanswered"));
        QVERIFY(!s.wrongAnswers.isEmpty());
        for (const WrongAnswer& w : s.wrongAnswers) QCOMPARE(w.told, Response::Success);
    }
    QVERIFY2(changedFirst > 0 && changedFirst < int(kSeeds),
             qPrintable(QString::number(changedFirst)));
}

void OrderCreateTest::failedClaimIsClaimedAgain() {
    Cell cell{"dedup-table", "retry", "", {"business-error=1"}, 1, 1, "exactly-once"};
    const auto run = test::finishedRun("order-create", cell, 1, 1);
    QVERIFY(transitionSeen(*run, "PROCESSING", "FAILED"));
    QVERIFY(transitionSeen(*run, "FAILED", "PROCESSING"));
    QVERIFY(transitionSeen(*run, "PROCESSING", "SUCCESS"));
    QCOMPARE(answers(*run).first().first, QStringLiteral("error"));
    auto db = run->openReader();
    QCOMPARE(db->exec("SELECT status FROM dedup").value().toString(), QStringLiteral("SUCCESS"));
}

void OrderCreateTest::cachedErrorIsAnsweredToEveryRetry() {
    Cell cell{"dedup-cache-error", "retry", "", {"business-error=1"}, 1, 1, "lost"};
    const auto run = test::finishedRun("order-create", cell, 1, 1);
    QVERIFY(transitionSeen(*run, "PROCESSING", "FAILED"));
    QVERIFY(!transitionSeen(*run, "FAILED", "PROCESSING"));
    // The original, its duplicate and every retry of both hear the stored error.
    const auto told = answers(*run);
    QCOMPARE(told.size(), 2 * (1 + 3));
    for (const auto& [response, result] : told) {
        QCOMPARE(response, QStringLiteral("error"));
        QCOMPARE(result, QStringLiteral("risk service unavailable (503)"));
    }
    auto db = run->openReader();
    QCOMPARE(db->exec("SELECT status FROM dedup").value().toString(), QStringLiteral("FAILED"));
}

QTEST_GUILESS_MAIN(OrderCreateTest)
#include "ordercreate_test.moc"
