// The engine itself: SQLite's own locking, crashes that roll back, many
// intents in one run, and the database left whole after every crash point.
#include "registry.h"
#include "run.h"
#include "rundatabase.h"
#include "runner.h"
#include "sqlconnection.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;
using idem::test::Cell;

class EngineTest : public QObject {
    Q_OBJECT
private slots:
    void busyDatabaseParksTheProcess();
    void crashRollsBackTheOpenTransaction();
    void integrityAfterEveryCrashPoint();
    void manyIntentsAreJudgedOneByOne();
    void dbFileIsKeptForInspection();
    void dbPathThatIsADirectoryIsRefused();
};

void EngineTest::busyDatabaseParksTheProcess() {
    // Concurrent callbacks all BEGIN IMMEDIATE at once: SQLite refuses all but
    // one, and they wait for the holder's COMMIT.
    Cell cell{"unique-and-state", "concurrent", "", {}, 3, 3, "exactly-once"};
    Run run(test::cellConfig("payment-callback", cell, 3, 1), *findScenario("payment-callback"));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    test::finish(run);
    int waits = 0, busy = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::LockWait)) {
            ++waits;
            QVERIFY(!e.fields.value("holder").toString().isEmpty());
        }
        if (e.is(EventKind::Sql) && sqlite::primary(e.code) == sqlite::Busy)
            ++busy;
    }
    QVERIFY(waits >= 3);
    QCOMPARE(busy, waits);
    QCOMPARE(run.summary().verdictId(), QStringLiteral("exactly-once"));
}

void EngineTest::crashRollsBackTheOpenTransaction() {
    Cell cell{"unique-and-state", "retry", "before-commit", {}, 1, 1, "exactly-once"};
    Run run(test::cellConfig("payment-callback", cell, 1, 1), *findScenario("payment-callback"));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    test::finish(run);
    bool crashed = false, rolledBack = false, noAnswer = false;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.attempt != 1)
            continue;
        if (e.is(EventKind::Crash))
            crashed = true;
        if (crashed && e.is(EventKind::Sql) && e.sql == QLatin1String("ROLLBACK")) {
            rolledBack = e.fields.value("cause").toString() == QLatin1String("crash");
        }
        if (e.is(EventKind::Response) &&
            e.fields.value("response").toString() == QLatin1String("none")) {
            noAnswer = true;
        }
    }
    QVERIFY(crashed);
    QVERIFY(rolledBack);
    QVERIFY(noAnswer);
}

void EngineTest::integrityAfterEveryCrashPoint() {
    for (const Scenario* s : allScenarios()) {
        for (const VariantInfo& v : s->info().variants) {
            for (CrashPoint p : v.crashPoints) {
                for (const char* timing : {"concurrent", "retry"}) {
                    Cell cell{v.id, timing, toId(p), {}, 2, 2, ""};
                    const Summary summary =
                        test::runToSummary(test::cellConfig(s->info().id, cell, 2, 3));
                    QVERIFY2(summary.integrity == QLatin1String("ok"),
                             qPrintable(s->info().id + '/' + v.id + '/' + toId(p)));
                }
            }
        }
    }
}

void EngineTest::manyIntentsAreJudgedOneByOne() {
    Cell cell{"check-then-insert", "concurrent", "", {}, 1, 1, "duplicated"};
    RunConfig c = test::cellConfig("order-create", cell, 1, 7);
    c.intents = 50;
    const Summary s = test::runToSummary(c);
    QCOMPARE(s.intents, 50);
    QCOMPARE(s.verdictCount(Verdict::Duplicated), 50);
    QCOMPARE(s.effects.value("orders"), 100);
    QCOMPARE(s.expectedEffects.value("orders"), 50);

    c.variant = "dedup-table";
    c.intents = 200;
    const Summary rec = test::runToSummary(c);
    QCOMPARE(rec.verdictCount(Verdict::ExactlyOnce), 200);
}

void EngineTest::dbFileIsKeptForInspection() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    Cell cell{"dedup-no-recheck", "retry", "after-business", {}, 1, 1, "duplicated"};
    {
        const RunResult r = runToEnd(test::cellConfig("order-create", cell, 1, 1),
                                     *findScenario("order-create"), RunOptions::keptAt(path));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.summary.verdictId(), QStringLiteral("duplicated"));
    }
    // The file stands alone: no write-ahead log beside it.
    QVERIFY(!QFile::exists(path + "-wal"));
    QVERIFY(RunDatabase::isRunDatabase(path));
    SqlConnection c(path, "check");
    QVERIFY(c.isOpen());
    QCOMPARE(c.exec("SELECT COUNT(*) FROM orders").value().toInt(), 2);
    QCOMPARE(c.exec("SELECT status FROM dedup").value().toString(), QStringLiteral("SUCCESS"));
}

void EngineTest::dbPathThatIsADirectoryIsRefused() {
    QTemporaryDir dir;
    Cell cell{"dedup-table", "retry", "", {}, 1, 1, ""};
    const RunResult r = runToEnd(test::cellConfig("order-create", cell, 1, 1),
                                 *findScenario("order-create"), RunOptions::keptAt(dir.path()));
    QCOMPARE(r.failure, RunFailure::BadInput);
    QVERIFY2(r.error.contains("folder"), qPrintable(r.error));
}

QTEST_GUILESS_MAIN(EngineTest)
#include "engine_test.moc"
