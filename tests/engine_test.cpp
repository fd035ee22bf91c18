// The engine itself: SQLite's own locking, crashes that roll back, many
// intents in one run, and the database left whole after every crash point.
#include "registry.h"
#include "run.h"
#include "sqlconnection.h"
#include "testsupport.h"

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
    run.finish();
    int waits = 0, busy = 0;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.kind == QLatin1String("lock-wait")) {
            ++waits;
            QVERIFY(!e.data.value("holder").toString().isEmpty());
        }
        if (e.kind == QLatin1String("sql") && e.error.contains("(5)"))
            ++busy;
    }
    QVERIFY(waits >= 3);
    QCOMPARE(busy, waits);
    QCOMPARE(run.summary().value("verdict").toString(), QStringLiteral("exactly-once"));
}

void EngineTest::crashRollsBackTheOpenTransaction() {
    Cell cell{"unique-and-state", "retry", "before-commit", {}, 1, 1, "exactly-once"};
    Run run(test::cellConfig("payment-callback", cell, 1, 1), *findScenario("payment-callback"));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    run.finish();
    bool crashed = false, rolledBack = false, noAnswer = false;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.attempt != 1)
            continue;
        if (e.kind == QLatin1String("crash"))
            crashed = true;
        if (crashed && e.kind == QLatin1String("sql") && e.sql == QLatin1String("ROLLBACK")) {
            rolledBack = e.data.value("cause").toString() == QLatin1String("crash");
        }
        if (e.kind == QLatin1String("response") &&
            e.data.value("response").toString() == QLatin1String("none")) {
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
                    const QJsonObject summary =
                        test::runToSummary(test::cellConfig(s->info().id, cell, 2, 3));
                    QVERIFY2(summary.value("integrity").toString() == QLatin1String("ok"),
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
    const QJsonObject s = test::runToSummary(c);
    QCOMPARE(s.value("intents").toInt(), 50);
    QCOMPARE(s.value("verdicts").toObject().value("duplicated").toInt(), 50);
    QCOMPARE(s.value("effects").toObject().value("orders").toInt(), 100);
    QCOMPARE(s.value("expected_effects").toObject().value("orders").toInt(), 50);

    c.variant = "dedup-table";
    c.intents = 200;
    const QJsonObject rec = test::runToSummary(c);
    QCOMPARE(rec.value("verdicts").toObject().value("exactly-once").toInt(), 200);
}

void EngineTest::dbFileIsKeptForInspection() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.sqlite");
    Cell cell{"dedup-no-recheck", "retry", "after-business", {}, 1, 1, "duplicated"};
    {
        Run run(test::cellConfig("order-create", cell, 1, 1), *findScenario("order-create"), path);
        QString error;
        QVERIFY(run.start(&error));
        run.runToEnd();
        QCOMPARE(run.finish().value("verdict").toString(), QStringLiteral("duplicated"));
    }
    SqlConnection c(path, "check");
    QVERIFY(c.isOpen());
    QCOMPARE(c.exec("SELECT COUNT(*) FROM orders").value().toInt(), 2);
    QCOMPARE(c.exec("SELECT status FROM dedup").value().toString(), QStringLiteral("SUCCESS"));
}

void EngineTest::dbPathThatIsADirectoryIsRefused() {
    QTemporaryDir dir;
    Cell cell{"dedup-table", "retry", "", {}, 1, 1, ""};
    Run run(test::cellConfig("order-create", cell, 1, 1), *findScenario("order-create"),
            dir.path());
    QString error;
    QVERIFY(!run.start(&error));
    QVERIFY2(error.contains("directory"), qPrintable(error));
}

QTEST_GUILESS_MAIN(EngineTest)
#include "engine_test.moc"
