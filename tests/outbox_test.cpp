// Every cell of SPEC section 3's outbox table (seeds 1-20, duplicates 1-3),
// with and without the broker's redeliveries, and what the tables and the
// trace must show: the relay's second publish after an after-publish crash,
// the inbox refusing it, the phantom event of publish-first, the event
// dual-write never sends, the answers held against the orders.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QMap>
#include <QSet>
#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

using test::finishedRun;

RunConfig config(const QString& variant, const QString& crash, int duplicates, quint32 seed,
                 const QStringList& params = {}) {
    Cell cell{variant, "retry", crash, params, duplicates, duplicates, {}};
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
    void redeliveryTable_data();
    void redeliveryTable() { test::checkCellRow(); }
    void publishFirstWithoutRetriesLeavesPointsForNoOrder();
    void publishFirstWithoutRetriesButARepeatIsDuplicated();
    void brokerRedeliversWhatWasNotAcked();
    void answersNameTheOrderThatExists();
    void relayPublishesAgainAfterDyingBeforeMarkingSent();
    void inboxRefusesTheSecondDelivery();
    void dualWriteNeverPublishesAfterTheCrash();
    void everyIntentHasItsOwnPartition();
    void helpersAreNumberedApartFromTheRequests();
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
    test::addCellRows("outbox", cells, 20);
}

// --param redeliveries=N: every message is delivered N more times. Only the
// inbox absorbs the broker's repeats; a crash changes nothing about that.
void OutboxTest::redeliveryTable_data() {
    struct Row {
        const char* variant;
        const char* crash;
        const char* expected;
    };
    const Row rows[] = {
        {"dual-write", "", "duplicated"},
        {"dual-write", "after-business", "lost"},  // nothing published: nothing to redeliver
        {"publish-first", "", "duplicated"},
        {"publish-first", "before-commit", "duplicated"},
        {"outbox", "", "duplicated"},
        {"outbox", "after-business", "duplicated"},
        {"outbox", "after-publish", "duplicated"},
        {"outbox-inbox", "", "exactly-once"},
        {"outbox-inbox", "after-business", "exactly-once"},
        {"outbox-inbox", "after-publish", "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* n : {"redeliveries=1", "redeliveries=3"}) {
            cells << Cell{r.variant, "retry", r.crash, {n}, 1, 3, r.expected};
            if (!*r.crash) {
                cells << Cell{r.variant, "concurrent", "", {n}, 1, 3, r.expected, "double-click"};
            }
        }
    }
    test::addCellRows("outbox", cells, 20);
}

void OutboxTest::publishFirstWithoutRetriesLeavesPointsForNoOrder() {
    // SPEC: "with --max-retries 0: inconsistent". A duplicate request would
    // create the order as a retry does, so this cell has none.
    for (quint32 seed = 1; seed <= 20; ++seed) {
        RunConfig c = config("publish-first", "before-commit", 0, seed);
        c.maxRetries = 0;
        auto run = finishedRun(c);
        QVERIFY(run);
        QCOMPARE(run->summary().verdictId(), QStringLiteral("inconsistent"));
        QCOMPARE(run->summary().effects.value("orders"), 0);
        QCOMPARE(run->summary().effects.value("points"), 1);
        QVERIFY(run->summary().integrity == QLatin1String("ok"));
        // The only attempt crashed: nobody was told anything.
        QCOMPARE(run->summary().responseCount(Response::None), 1);
        QVERIFY(run->summary().wrongAnswers.isEmpty());
    }
}

void OutboxTest::publishFirstWithoutRetriesButARepeatIsDuplicated() {
    // Without retries, a duplicate request still comes: it finds no order
    // (the first one rolled back), creates it and publishes again, as a
    // retry would. The phantom's points stay, the real order gets its own.
    for (quint32 seed = 1; seed <= 20; ++seed) {
        RunConfig c = config("publish-first", "before-commit", 1, seed);
        c.maxRetries = 0;
        auto run = finishedRun(c);
        QVERIFY(run);
        const Summary& s = run->summary();
        QCOMPARE(s.verdictId(), QStringLiteral("duplicated"));
        QCOMPARE(s.effects.value("orders"), 1);
        QCOMPARE(s.effects.value("points"), 2);
        QCOMPARE(s.inconsistencies.size(), 1);  // the phantom's points, outranked
        QCOMPARE(s.responseCount(Response::None), 1);
        QCOMPARE(s.responseCount(Response::Success), 1);
        QVERIFY(s.wrongAnswers.isEmpty());
        auto db = run->openReader();
        Reader reader(*db);
        // The duplicate (attempt 2) numbered the order that exists.
        QCOMPARE(reader.query(QStringLiteral("SELECT order_no FROM orders")).value().toString(),
                 QStringLiteral("O20250001-2"));
        QCOMPARE(reader.count(
                     QStringLiteral("SELECT COUNT(*) FROM points WHERE order_no = 'O20250001-1'")),
                 1);
    }
}

void OutboxTest::brokerRedeliversWhatWasNotAcked() {
    for (const char* variant : {"outbox", "outbox-inbox"}) {
        for (quint32 seed = 1; seed <= 3; ++seed) {
            auto run = finishedRun(config(variant, "", 1, seed, {"redeliveries=2"}));
            QVERIFY(run);
            QCOMPARE(notes(*run, "deliver", QStringLiteral("broker")), 1);
            QCOMPARE(notes(*run, "redeliver", QStringLiteral("broker")), 2);
            QCOMPARE(notes(*run, "ack-lost", QStringLiteral("consumer")), 2);
            QCOMPARE(notes(*run, "ack", QStringLiteral("consumer")), 1);
            // Each redelivery waits out the visibility timeout of the one before.
            qint64 last = -1;
            for (const TraceEvent& e : run->trace().events()) {
                if (!e.is(EventKind::Note) || e.kindId() != QLatin1String("redeliver"))
                    continue;
                if (last >= 0)
                    QVERIFY(e.tMs - last >= run->config().visibilityMs);
                last = e.tMs;
            }
            auto db = run->openReader();
            Reader reader(*db);
            const SqlResult b =
                reader.query(QStringLiteral("SELECT status, deliveries, event_id FROM broker"));
            QCOMPARE(b.data.size(), 1);
            QCOMPARE(b.value(0, 0).toString(), QStringLiteral("ACKED"));
            QCOMPARE(b.value(0, 1).toInt(), 3);
            const bool inbox = QLatin1String(variant) == QLatin1String("outbox-inbox");
            QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM points")), inbox ? 1 : 3);
            QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM points")),
                     1);
            QCOMPARE(run->summary().extras.value("broker").toObject().value("deliveries").toInt(),
                     3);
        }
    }
    // Without the param the broker delivers once and sets no timer.
    auto run = finishedRun(config("outbox", "", 1, 1));
    QVERIFY(run);
    QCOMPARE(notes(*run, "redeliver", QStringLiteral("broker")), 0);
    QCOMPARE(notes(*run, "ack-lost", QStringLiteral("consumer")), 0);
}

void OutboxTest::answersNameTheOrderThatExists() {
    // Every create request told success names the one order of its request
    // id; the crashed ones were told nothing. No variant answers wrongly:
    // the order is unique per request id, so whatever goes wrong goes wrong
    // in the points, which no caller is told about.
    const QList<QPair<const char*, const char*>> configs{
        {"dual-write", ""},
        {"dual-write", "after-business"},
        {"publish-first", ""},
        {"publish-first", "before-commit"},
        {"outbox", ""},
        {"outbox", "after-business"},
        {"outbox", "after-publish"},
        {"outbox-inbox", "after-publish"},
    };
    for (const auto& [variant, crash] : configs) {
        for (int d = 0; d <= 3; ++d) {
            for (quint32 seed = 1; seed <= 20; ++seed) {
                auto run = finishedRun(config(variant, crash, d, seed, {"redeliveries=1"}));
                QVERIFY(run);
                auto db = run->openReader();
                Reader reader(*db);
                const QString order =
                    reader.query(QStringLiteral("SELECT order_no FROM orders")).value().toString();
                QVERIFY(!order.isEmpty());
                const std::vector<AnswerTruth> truth =
                    findScenario(QStringLiteral("outbox"))->answerTruthOfAll(reader, 1);
                QVERIFY(truth[0].checked && truth[0].happened);
                QCOMPARE(truth[0].result.english(), order);
                for (const TraceEvent& e : run->trace().events()) {
                    if (e.is(EventKind::Response) && e.fields.text("response") == "success")
                        QCOMPARE(e.fields.text("result"), order);
                }
                QVERIFY(run->summary().wrongAnswers.isEmpty());
            }
        }
    }
    // No order at all: a success would be wrong, and the judge has the words.
    RunConfig c = config("publish-first", "before-commit", 0, 1);
    c.maxRetries = 0;
    auto run = finishedRun(c);
    QVERIFY(run);
    auto db = run->openReader();
    Reader reader(*db);
    const std::vector<AnswerTruth> truth =
        findScenario(QStringLiteral("outbox"))->answerTruthOfAll(reader, 1);
    QVERIFY(truth[0].checked && !truth[0].happened);
    QCOMPARE(truth[0].shows.english(), QStringLiteral("no order exists for req-1"));
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
                QCOMPARE(e.attempt, -1);  // relay R1
                crashedRelay = true;
            }
            if (e.is(EventKind::Transition) && e.fields.text("from_state") == "PENDING" &&
                e.fields.text("to_state") == "SENT" && e.fields.flag("accepted")) {
                QCOMPARE(e.attempt, -2);  // the relay's second pass, R2
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

// "#2" names one request everywhere: the relay's passes, the broker's and
// the consumer's work are numbered per actor, -1, -2 ... in the trace.
void OutboxTest::helpersAreNumberedApartFromTheRequests() {
    const QSet<QString> helpers{"relay", "broker", "consumer"};
    for (const char* variant : {"outbox", "outbox-inbox", "publish-first", "dual-write"}) {
        for (quint32 seed = 1; seed <= 3; ++seed) {
            auto run = finishedRun(config(variant, "", 2, seed, {"redeliveries=1"}));
            QVERIFY(run);
            QSet<int> fired, requests;
            QMap<QString, QSet<int>> own;  // actor -> its numbers
            for (const TraceEvent& e : run->trace().events()) {
                if (e.is(EventKind::Fire))
                    fired << e.attempt;
                if (helpers.contains(e.actorName())) {
                    QVERIFY2(e.attempt < 0, qPrintable(e.actorName() + " " + e.kindId()));
                    own[e.actorName()] << -e.attempt;
                } else if (e.attempt > 0) {
                    requests << e.attempt;
                }
            }
            QCOMPARE(requests, fired);
            QCOMPARE(int(run->summary().attempts), int(fired.size()));
            QVERIFY(own.contains("broker") && own.contains("consumer"));
            QCOMPARE(own.contains("relay"), QString(variant).startsWith("outbox"));
            for (auto it = own.cbegin(); it != own.cend(); ++it) {
                // Each actor counts 1, 2 ... without a gap.
                for (int n = 1; n <= it.value().size(); ++n)
                    QVERIFY2(it.value().contains(n), qPrintable(it.key()));
            }
        }
    }
}

QTEST_GUILESS_MAIN(OutboxTest)
#include "outbox_test.moc"
