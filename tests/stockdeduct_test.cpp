// Every cell of SPEC section 3's stock-deduct table for seeds 1-5,
// duplicates 1-3 and both sources; the stock never below zero; the version
// guard's conflicts and re-reads; the version from the request answering
// repeats from the deduction record and refusing a stale page; and the
// judge's lost-update check.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "runner.h"
#include "sqlconnection.h"
#include "sqliteconnection.h"
#include "testsupport.h"

// After the Qt-including headers: moc cannot parse <coroutine> on its own.
#include "stockdeduct.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

using test::finishedRun;

RunConfig config(const QString& variant, const QString& timing, const QString& crash,
                 int duplicates, quint32 seed, const QString& source = {}) {
    Cell cell{variant, timing, crash, {}, duplicates, duplicates, {}, source};
    return test::cellConfig(QStringLiteral("stock-deduct"), cell, duplicates, seed);
}

int guardDecisions(const Run& run, const QString& decision) {
    int n = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Guard) && e.fields.value("guard") == QLatin1String("version") &&
            e.fields.value("decision") == decision) {
            ++n;
        }
    }
    return n;
}

}  // namespace

class StockDeductTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void stockNeverBelowZero_data();
    void stockNeverBelowZero();
    void versionConflictIsRejected();
    void versionRetryRereadsAndDeductsAgain();
    void statusGuardMovesTheOrderOnce();
    void versionFromRequestAnswersRepeatsFromTheRecord();
    void versionFromRequestRefusesAStalePage();
    void anotherOrderFirst_data();
    void anotherOrderFirst() { test::checkCellRow(); }
    void theVersionRefusesAnOrderNobodyDeducted();
    void lostUpdateIsInconsistent();
    void judgingAsTheRunGoesEndsWhereJudgingAtTheEndDoes();
    void aChangedDatabaseHasEveryAnswerCheckedAgain();
};

void StockDeductTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* concurrent;
        const char* later;
        const char* beforeResponse;
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", "duplicated"},
        {"version", "misanswered", "duplicated", "duplicated"},
        {"version-from-request", "exactly-once", "exactly-once", "exactly-once"},
        {"status-guard", "exactly-once", "exactly-once", "exactly-once"},
        {"deduction-log", "exactly-once", "exactly-once", "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* source : {"gateway-retry", "double-click"}) {
            cells << Cell{r.variant, "concurrent", "", {}, 1, 3, r.concurrent, source};
            for (const char* t : {"retry", "compensation", "cross-day"}) {
                cells << Cell{r.variant, t, "", {}, 1, 3, r.later, source};
            }
            cells << Cell{r.variant, "retry", "before-response", {},
                          1,         3,       r.beforeResponse,  source};
        }
    }
    test::addCellRows("stock-deduct", cells);
}

void StockDeductTest::stockNeverBelowZero_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("timing");
    QTest::addColumn<QString>("crash");
    QTest::addColumn<int>("duplicates");
    for (const char* v :
         {"none", "version", "version-from-request", "status-guard", "deduction-log"}) {
        for (const char* t : {"concurrent", "retry"}) {
            for (const char* crash : {"", "before-response"}) {
                // 15 duplicates ask for more units than the sku holds.
                for (int d : {1, 3, 15}) {
                    QTest::addRow("%s %s %s d=%d", v, t, crash, d) << v << t << crash << d;
                }
            }
        }
    }
}

void StockDeductTest::stockNeverBelowZero() {
    QFETCH(QString, variant);
    QFETCH(QString, timing);
    QFETCH(QString, crash);
    QFETCH(int, duplicates);
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto run = finishedRun(config(variant, timing, crash, duplicates, seed));
        QVERIFY(run);
        auto db = run->openReader();
        Reader reader(*db);
        const qint64 lowest = reader.count(QStringLiteral("SELECT MIN(qty) FROM stock"));
        QVERIFY2(lowest >= 0, qPrintable(QString::number(lowest)));
        QCOMPARE(run->summary().integrity, QStringLiteral("ok"));
        if (variant == QLatin1String("none") && duplicates == 15) {
            // The CHECK refused every deduction past the last unit.
            QCOMPARE(lowest, 0);
            QVERIFY(run->summary().responseCount(Response::Rejected) > 0);
        }
    }
}

void StockDeductTest::versionConflictIsRejected() {
    for (int d = 1; d <= 3; ++d) {
        for (quint32 seed = 1; seed <= 5; ++seed) {
            auto run = finishedRun(config("version", "concurrent", "", d, seed));
            QVERIFY(run);
            // Everyone read version 1 before anyone wrote; one write landed.
            QCOMPARE(guardDecisions(*run, "read"), d + 1);
            QCOMPARE(guardDecisions(*run, "accepted"), 1);
            QCOMPARE(guardDecisions(*run, "conflict"), d);
            QCOMPARE(run->summary().responseCount(Response::Rejected), d);
            auto db = run->openReader();
            Reader reader(*db);
            QCOMPARE(reader.count(QStringLiteral("SELECT version FROM stock")),
                     StockDeduct::kInitialVersion + 1);
        }
    }
}

void StockDeductTest::versionRetryRereadsAndDeductsAgain() {
    auto run = finishedRun(config("version", "retry", "", 1, 1));
    QVERIFY(run);
    QList<qint64> versions;
    for (const TraceEvent& e : run->trace().events()) {
        if (e.is(EventKind::Guard) && e.fields.value("decision") == QLatin1String("accepted")) {
            versions << e.fields.value("expected_version").toLongLong();
        }
    }
    // The duplicate read the version the original wrote, so its write landed too.
    QCOMPARE(versions, (QList<qint64>{1, 2}));
    QCOMPARE(run->summary().verdictId(), QStringLiteral("duplicated"));
}

void StockDeductTest::statusGuardMovesTheOrderOnce() {
    for (const char* timing : {"concurrent", "retry", "cross-day"}) {
        auto run = finishedRun(config("status-guard", timing, "", 3, 4));
        QVERIFY(run);
        int accepted = 0, rejected = 0;
        for (const TraceEvent& e : run->trace().events()) {
            if (!e.is(EventKind::Transition) || e.attempt == 0) {
                continue;
            }
            (e.fields.value("accepted").toBool() ? accepted : rejected) += 1;
        }
        QCOMPARE(accepted, 1);
        QCOMPARE(rejected, 3);
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.query(QStringLiteral("SELECT status FROM orders")).value().toString(),
                 QStringLiteral("DEDUCTED"));
    }
}

void StockDeductTest::versionFromRequestAnswersRepeatsFromTheRecord() {
    for (const char* timing : {"concurrent", "retry", "cross-day"}) {
        for (int d = 1; d <= 3; ++d) {
            for (quint32 seed = 1; seed <= 5; ++seed) {
                auto run = finishedRun(config("version-from-request", timing, "", d, seed));
                QVERIFY(run);
                int found = 0;
                for (const TraceEvent& e : run->trace().events()) {
                    if (e.is(EventKind::Guard) &&
                        e.fields.value("guard") == QLatin1String("deduction-record")) {
                        QCOMPARE(e.fields.value("decision").toString(), QStringLiteral("found"));
                        ++found;
                    }
                }
                // Every repeat carried version 1, which the first write moved
                // on; each found the order's own record instead.
                QCOMPARE(guardDecisions(*run, "accepted"), 1);
                QCOMPARE(guardDecisions(*run, "conflict"), d);
                QCOMPARE(found, d);
                QCOMPARE(run->summary().responseCount(Response::Success), d + 1);
                QVERIFY(run->summary().wrongAnswers.isEmpty());
                auto db = run->openReader();
                Reader reader(*db);
                QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM deductions")), 1);
            }
        }
    }
}

void StockDeductTest::versionFromRequestRefusesAStalePage() {
    // Another order took a unit after the page was shown: the row's version
    // is no longer the one the request carries, and this order has no
    // deduction of its own yet.
    for (quint32 seed = 1; seed <= 5; ++seed) {
        Run run(config("version-from-request", "retry", "", 1, seed),
                *findScenario("stock-deduct"));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        {
            SqliteConnection other(run.databasePath(), QStringLiteral("another-order"));
            QVERIFY(
                other
                    .exec(QStringLiteral("UPDATE stock SET qty = qty - 1, version = version + 1 "
                                         "WHERE sku = ?"),
                          {StockDeduct::skuOf(0)})
                    .ok);
        }
        run.runToEnd();
        test::finish(run);
        QCOMPARE(run.summary().responseCount(Response::Rejected), 2);
        QCOMPARE(run.summary().responseCount(Response::Success), 0);
        auto db = run.openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM deductions")), 0);
        QCOMPARE(reader.count(QStringLiteral("SELECT qty FROM stock")),
                 StockDeduct::kInitialStock - 1);
    }
}

// --param other-order=1: another customer's order took a unit of the same
// sku after this order's page was shown. The version the page carries is
// stale for every attempt of this order, repeats or not: version-from-request
// never deducts it (lost), while the order's status or its deduction log,
// which look at this order alone, deduct it once. The others as in the table.
void StockDeductTest::anotherOrderFirst_data() {
    struct Row {
        const char* variant;
        const char* concurrent;
        const char* later;
        const char* beforeResponse;
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", "duplicated"},
        {"version", "misanswered", "duplicated", "duplicated"},
        {"version-from-request", "lost", "lost", "lost"},
        {"status-guard", "exactly-once", "exactly-once", "exactly-once"},
        {"deduction-log", "exactly-once", "exactly-once", "exactly-once"},
    };
    const QStringList other{"other-order=1"};
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* source : {"gateway-retry", "double-click"}) {
            cells << Cell{r.variant, "concurrent", "", other, 1, 3, r.concurrent, source};
            for (const char* t : {"retry", "cross-day"})
                cells << Cell{r.variant, t, "", other, 1, 3, r.later, source};
            cells << Cell{r.variant, "retry", "before-response", other,
                          1,         3,       r.beforeResponse,  source};
        }
    }
    test::addCellRows("stock-deduct", cells, 5);
}

void StockDeductTest::theVersionRefusesAnOrderNobodyDeducted() {
    for (int d = 0; d <= 2; ++d) {
        Cell cell{"version-from-request", "retry", "", {"other-order=1"}, d, d, "lost"};
        auto run = finishedRun(test::cellConfig("stock-deduct", cell, d, 1));
        QVERIFY(run);
        // Every attempt, the original included, is refused as a stale page;
        // none of them is wrong, none is a repeat of a done deduction.
        const Summary& s = run->summary();
        QCOMPARE(s.responseCount(Response::Rejected), d + 1);
        QCOMPARE(s.responseCount(Response::Success), 0);
        QVERIFY(s.wrongAnswers.isEmpty());
        QCOMPARE(s.effects.value("units"), 0);
        QCOMPARE(s.verdictId(), QStringLiteral("lost"));
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT qty FROM stock")),
                 StockDeduct::kInitialStock - 1);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM deductions WHERE order_id = ?"),
                              {StockDeduct::orderOf(0)}),
                 0);
        // The recommended guard deducts the same order once.
        Cell guarded{"status-guard", "retry", "", {"other-order=1"}, d, d, "exactly-once"};
        auto status = finishedRun(test::cellConfig("stock-deduct", guarded, d, 1));
        QVERIFY(status);
        QCOMPARE(status->summary().verdictId(), QStringLiteral("exactly-once"));
        QCOMPARE(status->summary().effects.value("units"), 1);
        auto db2 = status->openReader();
        Reader reader2(*db2);
        QCOMPARE(reader2.count(QStringLiteral("SELECT qty FROM stock")),
                 StockDeduct::kInitialStock - 2);
    }
}

void StockDeductTest::lostUpdateIsInconsistent() {
    auto run = finishedRun(config("status-guard", "retry", "", 1, 1));
    QVERIFY(run);
    QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
    {
        // A writer that read qty before the deduction and wrote back its own
        // value: the unit comes back although the row's version moved on.
        SqliteConnection writer(run->databasePath(), QStringLiteral("tamper"));
        QVERIFY(writer
                    .exec(QStringLiteral("UPDATE stock SET qty = ? WHERE sku = ?"),
                          {StockDeduct::kInitialStock, StockDeduct::skuOf(0)})
                    .ok);
    }
    auto db = run->openReader();
    Reader reader(*db);
    const Summary now = run->judgeNow(reader);
    QCOMPARE(now.verdict, Verdict::Inconsistent);
    QVERIFY(!now.inconsistencies.isEmpty());
    QVERIFY2(now.inconsistencies.first().english().contains(QLatin1String("lost an update")),
             qPrintable(now.inconsistencies.first().english()));
}

// The judge checks each intent's answers once for as long as what the
// database shows stays the same: judged after every step, a run ends with
// the summary of one judged only at its end (the verdict, every wrong
// answer listed).
void StockDeductTest::judgingAsTheRunGoesEndsWhereJudgingAtTheEndDoes() {
    RunConfig c = config("version", "concurrent", "", 3, 1);
    c.intents = 4;
    const auto once = test::finishedRun(c);
    QCOMPARE(once->summary().verdictId(), QStringLiteral("misanswered"));
    Run stepped(c, *findScenario(c.scenario));
    QString error;
    QVERIFY2(stepped.start(&error), qPrintable(error));
    auto db = stepped.openReader();
    Reader reader(*db);
    int judged = 0;
    QSet<QString> verdicts;
    while (stepped.step()) {
        verdicts << stepped.judgeNow(reader).verdictId();
        ++judged;
    }
    QVERIFY(judged > 20);
    QVERIFY(verdicts.size() > 1);  // what the database showed changed on the way
    test::finish(stepped);
    QVERIFY(!stepped.summary().wrongAnswers.isEmpty());
    QCOMPARE(QJsonDocument(stepped.summary().toJson()).toJson(),
             QJsonDocument(once->summary().toJson()).toJson());
}

// What the judge found of the answers holds only while the database shows
// the same: changed under a run already judged, the run is judged as one
// judged for the first time is.
void StockDeductTest::aChangedDatabaseHasEveryAnswerCheckedAgain() {
    const RunConfig c = config("status-guard", "retry", "", 2, 1);
    const auto judged = test::finishedRun(c);
    QVERIFY(judged->summary().wrongAnswers.isEmpty());
    Run unjudged(c, *findScenario(c.scenario));
    QString error;
    QVERIFY2(unjudged.start(&error), qPrintable(error));
    unjudged.runToEnd();
    QList<QByteArray> summaries;
    for (const Run* run :
         {static_cast<const Run*>(judged.get()), static_cast<const Run*>(&unjudged)}) {
        {
            // The units come back: every "deducted" answer is now untrue.
            SqliteConnection writer(run->databasePath(), QStringLiteral("tamper"));
            QVERIFY(
                writer
                    .exec(QStringLiteral("UPDATE stock SET qty = ?"), {StockDeduct::kInitialStock})
                    .ok);
        }
        auto db = run->openReader();
        Reader reader(*db);
        summaries << QJsonDocument(run->judgeNow(reader).toJson()).toJson();
    }
    QVERIFY(summaries[1].contains("wrong_answers"));
    QCOMPARE(summaries[0], summaries[1]);
}

QTEST_GUILESS_MAIN(StockDeductTest)
#include "stockdeduct_test.moc"
