// Every cell of SPEC section 3's outbox table (seeds 1-5, duplicates 1-3),
// and what the tables and the trace must show: the relay's second publish
// after an after-publish crash, the inbox refusing it, the phantom event of
// publish-first, the event dual-write never sends.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

using test::finishedRun;

RunConfig config(const QString& variant, const QString& crash, int duplicates, quint32 seed) {
    Cell cell{variant, "retry", crash, {}, duplicates, duplicates, {}};
    return test::cellConfig(QStringLiteral("outbox"), cell, duplicates, seed);
}

int notes(const Run& run, const char* kind, const QString& actor) {
    int n = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Note) && e.kindId() == QLatin1String(kind) && e.actorName() == actor)
            ++n;
    }
    return n;
}

}  // namespace

class OutboxTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void publishFirstWithoutRetriesLeavesPointsForNoOrder();
    void relayPublishesAgainAfterDyingBeforeMarkingSent();
    void inboxRefusesTheSecondDelivery();
    void dualWriteNeverPublishesAfterTheCrash();
    void everyIntentHasItsOwnPartition();
};

void OutboxTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* noCrash;
        const char* afterBusiness;  // nullptr: the point does not exist
        const char* beforeCommit;
        const char* afterPublish;
    };
    const Row rows[] = {
        {"dual-write", "exactly-once", "lost", nullptr, nullptr},
        {"publish-first", "exactly-once", nullptr, "duplicated", nullptr},
        {"outbox", "exactly-once", "exactly-once", nullptr, "duplicated"},
        {"outbox-inbox", "exactly-once", "exactly-once", nullptr, "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* source : {"gateway-retry", "double-click"}) {
            for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
                cells << Cell{r.variant, t, "", {}, 1, 3, r.noCrash, source};
            }
        }
        const QList<QPair<const char*, const char*>> crashes{{"after-business", r.afterBusiness},
                                                             {"before-commit", r.beforeCommit},
                                                             {"after-publish", r.afterPublish}};
        for (const auto& [point, expected] : crashes) {
            if (expected)
                cells << Cell{r.variant, "retry", point, {}, 1, 3, expected};
        }
    }
    test::addCellRows("outbox", cells);
}

void OutboxTest::publishFirstWithoutRetriesLeavesPointsForNoOrder() {
    // SPEC: "with --max-retries 0: inconsistent". A duplicate request would
    // create the order as a retry does, so this cell has none.
    for (quint32 seed = 1; seed <= 5; ++seed) {
        RunConfig c = config("publish-first", "before-commit", 0, seed);
        c.maxRetries = 0;
        auto run = finishedRun(c);
        QVERIFY(run);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("inconsistent"));
        QCOMPARE(run->summary().effects.value("orders"), 0);
        QCOMPARE(run->summary().effects.value("points"), 1);
        QVERIFY(run->summary().integrity == QLatin1String("ok"));
    }
}

void OutboxTest::relayPublishesAgainAfterDyingBeforeMarkingSent() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto run = finishedRun(config("outbox", "after-publish", 1, seed));
        QVERIFY(run);
        QCOMPARE(notes(*run, "publish", QStringLiteral("relay")), 2);
        bool crashedRelay = false, sent = false;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.is(EventKind::Crash)) {
                QCOMPARE(e.actorName(), QStringLiteral("relay"));
                QCOMPARE(e.attempt, 1);
                crashedRelay = true;
            }
            if (e.is(EventKind::Transition) && e.fields.text("from_state") == "PENDING" &&
                e.fields.text("to_state") == "SENT" && e.fields.flag("accepted")) {
                QCOMPARE(e.attempt, 2);  // the relay's second pass
                sent = true;
            }
        }
        QVERIFY(crashedRelay);
        QVERIFY(sent);
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM broker")), 2);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM broker")), 1);
        const SqlResult row = reader.query(QStringLiteral("SELECT status, attempts FROM outbox"));
        QCOMPARE(row.value(0, 0).toString(), QStringLiteral("SENT"));
        QCOMPARE(row.value(0, 1).toInt(), 2);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM points")), 2);
        // The service's callers were answered once each, with the one order.
        QCOMPARE(run->summary().responseCount(Response::Success), 2);
    }
}

void OutboxTest::inboxRefusesTheSecondDelivery() {
    auto run = finishedRun(config("outbox-inbox", "after-publish", 1, 1));
    QVERIFY(run);
    int refused = 0;
    for (const TraceEvent& e : run->trace().events()) {
        if (e.is(EventKind::Sql) && e.sql.startsWith(QLatin1String("INSERT INTO inbox")) &&
            e.failed()) {
            ++refused;
        }
    }
    QCOMPARE(refused, 1);
    auto db = run->openReader();
    Reader reader(*db);
    QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM inbox")), 1);
    QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM points")), 1);
    // Both deliveries were acked: the broker is done with them.
    QCOMPARE(run->summary().extras.value("broker").toObject().value("acked").toInt(), 2);
}

void OutboxTest::dualWriteNeverPublishesAfterTheCrash() {
    for (int d = 1; d <= 3; ++d) {
        auto run = finishedRun(config("dual-write", "after-business", d, 1));
        QVERIFY(run);
        QCOMPARE(notes(*run, "publish", QStringLiteral("service")), 0);
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM orders")), 1);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM broker")), 0);
        // The retry and every duplicate were told the order exists.
        QCOMPARE(run->summary().responseCount(Response::Success), d + 1);
    }
}

void OutboxTest::everyIntentHasItsOwnPartition() {
    // Intents start a quarter of a second apart: each relay publishes only
    // its own user's rows, so no event leaves twice without a crash.
    for (const char* variant : {"outbox", "outbox-inbox"}) {
        RunConfig c = config(variant, "", 2, 3);
        c.intents = 8;
        auto run = finishedRun(c);
        QVERIFY(run);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM broker")), 8);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM outbox WHERE status = 'SENT'")),
                 8);
    }
}

QTEST_GUILESS_MAIN(OutboxTest)
#include "outbox_test.moc"
