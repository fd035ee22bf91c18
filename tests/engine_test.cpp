// The engine itself: SQLite's own locking, crashes that roll back, many
// intents in one run, and the database left whole after every crash point.
#include "playback.h"
#include "playedrun.h"
#include "registry.h"
#include "run.h"
#include "rundatabase.h"
#include "runner.h"
#include "sqlconnection.h"
#include "sqliteconnection.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

#include <sys/file.h>
#include <unistd.h>

using namespace idem;
using idem::test::Cell;

class EngineTest : public QObject {
    Q_OBJECT
private slots:
    void busyDatabaseParksTheProcess();
    void theCostOfATechniqueIsCountedFromItsStatements();
    void crashRollsBackTheOpenTransaction();
    void integrityAfterEveryCrashPoint();
    void manyIntentsAreJudgedOneByOne();
    void dbFileIsKeptForInspection();
    void aRunWithoutADbKeepsItInMemoryAndRemovesIt();
    void whatEndedProcessesLeftIsRemoved();
    void dbPathThatIsADirectoryIsRefused();
    void answersAreKeptAsTheyWereGiven();
    void planningIsCancelled();
    void aSeekBackStoppedKeepsTheRunOnScreen();
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
            if (v.serverOnly)
                continue;  // a server's alone (SPEC section 8)
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

namespace {
// $TMPDIR as it was before a test changed it, again at the test's end.
struct RestoresTmpdir {
    QByteArray was = qgetenv("TMPDIR");
    ~RestoresTmpdir() {
        if (was.isNull())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", was);
    }
};
}  // namespace

// A run without --db keeps its database in /dev/shm (removing a file on a
// disk waited for the disk), or where $TMPDIR says; it is gone at the end.
void EngineTest::aRunWithoutADbKeepsItInMemoryAndRemovesIt() {
    const RestoresTmpdir restore;
    qunsetenv("TMPDIR");
    const bool shm = QFileInfo(QStringLiteral("/dev/shm")).isDir() &&
                     QFileInfo(QStringLiteral("/dev/shm")).isWritable();
    QCOMPARE(RunDatabase::scratchFolder(), shm ? QStringLiteral("/dev/shm") : QDir::tempPath());
    QString path;
    {
        Cell cell{"dedup-table", "concurrent", "", {}, 2, 2, "exactly-once"};
        Run run(test::cellConfig("order-create", cell, 2, 1), *findScenario("order-create"));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        path = run.databasePath();
        QVERIFY2(path.startsWith(RunDatabase::scratchFolder() + QLatin1Char('/')),
                 qPrintable(path));
        QVERIFY(QFileInfo::exists(path));
        run.runToEnd();
    }
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(!QFileInfo::exists(QFileInfo(path).path()));
    QTemporaryDir chosen;
    qputenv("TMPDIR", chosen.path().toLocal8Bit());
    QCOMPARE(RunDatabase::scratchFolder(), QDir::tempPath());
    QCOMPARE(QDir(RunDatabase::scratchFolder()).canonicalPath(),
             QDir(chosen.path()).canonicalPath());
}

// A process killed mid-run leaves its scratch folder behind; the next one
// removes the folders of processes that are gone, not those of live ones,
// and of them only what a run makes.
void EngineTest::whatEndedProcessesLeftIsRemoved() {
    const RestoresTmpdir restore;
    QTemporaryDir scratch;
    qputenv("TMPDIR", scratch.path().toLocal8Bit());
    // What a run makes: its database and the lock it holds while it lives.
    auto leftover = [&](qint64 pid) {
        const QString path = scratch.filePath(QStringLiteral("idemlab-run-%1-aB3dE5").arg(pid));
        QDir().mkpath(path);
        for (const char* name : {"/run.sqlite", "/alive.lock"}) {
            QFile file(path + QLatin1String(name));
            file.open(QIODevice::WriteOnly);
        }
        return path;
    };
    // No process has an id above Linux's largest (2^22): that one is gone.
    const QString dead = leftover(999'999'999);
    // The parent of this process is alive: its folder stays.
    const QString alive = leftover(qint64(getppid()));
    const QString own = leftover(qint64(getpid()));
    const QString other = scratch.filePath(QStringLiteral("idemlab-run-notapid"));
    QDir().mkpath(other);
    // A folder of the user's named like a run's (no alive.lock), and a run's
    // folder the user put a file in: the lab removes only what it made.
    const QString users = scratch.filePath(QStringLiteral("idemlab-run-999999997-myproject"));
    QDir().mkpath(users);
    QFile notes(users + QStringLiteral("/notes.txt"));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.close();
    const QString shared = leftover(999'999'996);
    QFile mine(shared + QStringLiteral("/mine.txt"));
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.close();
    // A run in another PID namespace: its process id means nothing here,
    // its lock says it lives. Once the lock is let go, it is a leftover.
    const QString elsewhere = leftover(999'999'998);
    QFile lock(elsewhere + QStringLiteral("/alive.lock"));
    QVERIFY(lock.open(QIODevice::ReadWrite));
    QCOMPARE(flock(lock.handle(), LOCK_SH), 0);
    RunDatabase::removeLeftovers();
    QVERIFY(QFileInfo::exists(elsewhere));
    lock.close();
    RunDatabase::removeLeftovers();
    QVERIFY(!QFileInfo::exists(elsewhere));
    QVERIFY(!QFileInfo::exists(dead));
    QVERIFY(QFileInfo::exists(alive));
    QVERIFY(QFileInfo::exists(own));
    QVERIFY(QFileInfo::exists(other));
    QVERIFY(QFileInfo::exists(users + QStringLiteral("/notes.txt")));
    QVERIFY(QFileInfo::exists(shared + QStringLiteral("/mine.txt")));
    QVERIFY(!QFileInfo::exists(shared + QStringLiteral("/run.sqlite")));
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
    SqliteConnection c(path, "check");
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

// The judge reads every attempt's answer from the run's compact store: each
// intent's answers, in order, are the response events the trace recorded.
void EngineTest::answersAreKeptAsTheyWereGiven() {
    const QList<std::pair<QString, Cell>> cells{
        {"order-create", {"dedup-table", "concurrent", "", {}, 3, 3, ""}},
        {"order-create", {"check-then-insert", "retry", "before-response", {}, 2, 2, ""}},
        {"tcc", {"", "concurrent", "", {}, 2, 2, ""}},
    };
    for (const auto& [scenarioId, cell] : cells) {
        RunConfig c = test::cellConfig(scenarioId, cell, cell.minDuplicates, 3);
        if (c.variant.isEmpty())
            c.variant = findScenario(scenarioId)->info().recommendedVariant();
        c.intents = 4;
        const RunResult r = runToEnd(c, *findScenario(scenarioId), {}, true);
        QVERIFY2(r.ok(), qPrintable(r.error));
        std::vector<std::vector<Run::Answer>> told(std::size_t(c.intents));
        for (const TraceEvent& e : r.run->trace().events()) {
            if (e.kind != EventKind::Response)
                continue;
            told[std::size_t(e.intent)].push_back(
                Run::Answer{e.attempt,
                            *responseFromId(e.fields.text("response")),
                            e.fields.text("result"),
                            false,
                            {}});
        }
        int answers = 0;
        for (int i = 0; i < c.intents; ++i) {
            const std::vector<Run::Answer> kept = r.run->answersOf(i);
            QCOMPARE(kept.size(), told[std::size_t(i)].size());
            for (std::size_t k = 0; k < kept.size(); ++k) {
                QCOMPARE(kept[k].attempt, told[std::size_t(i)][k].attempt);
                QCOMPARE(kept[k].response, told[std::size_t(i)][k].response);
                QCOMPARE(kept[k].result.english(), told[std::size_t(i)][k].result.english());
                ++answers;
            }
        }
        QVERIFY2(answers > c.intents, qPrintable(scenarioId));
    }
}

// A very large plan is counted at the start; Escape or Ctrl+C stops the
// counting too, not only the steps after it: a stop asked for before the
// start is heard while counting (nothing else in start() reads it), and
// nothing is stepped.
void EngineTest::planningIsCancelled() {
    Cell cell{"dedup-table", "concurrent", "", {}, 1000, 1000, ""};
    RunConfig c = test::cellConfig("order-create", cell, 1000, 1);
    c.intents = 20'000;
    const std::atomic<bool> cancel = true;
    RunOptions options = RunOptions::untraced();
    options.cancel = &cancel;
    Run run(c, *findScenario("order-create"), options);
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    QCOMPARE(run.failure(), RunFailure::Cancelled);
    QVERIFY(run.atEnd());
    QVERIFY(!run.step());
}

// Escape during a seek back (which starts the run again from step 0, and
// plans it first) leaves the run that was on screen where it was, not a
// fresh run at step 0 nor none at all.
void EngineTest::aSeekBackStoppedKeepsTheRunOnScreen() {
    Playback playback;
    QString error;
    QVERIFY2(playback.load(defaultConfig(*findScenario("order-create")),
                           *findScenario("order-create"), &error),
             qPrintable(error));
    playback.seek(6);
    QCOMPARE(playback.position(), 6);
    const Run* onScreen = playback.run();
    const qsizetype events = playback.eventCount();
    // As a worker's job does: the run is lent, advanced, handed back.
    std::unique_ptr<PlayedRun> lent = playback.lend();
    QVERIFY(playback.isLent());
    QVERIFY(playback.run() == nullptr);
    const std::atomic<bool> stopped = true;
    lent->advance(2, &stopped);
    QCOMPARE(&lent->run(), onScreen);
    QCOMPARE(lent->position(), 6);
    QCOMPARE(lent->eventCount(), events);
    playback.handBack(std::move(lent));
    playback.publish();
    QCOMPARE(playback.run(), onScreen);
    playback.stepForward();
    QCOMPARE(playback.position(), 7);
    // Not stopped, the same seek goes back.
    lent = playback.lend();
    lent->advance(2);
    playback.handBack(std::move(lent));
    playback.publish();
    QCOMPARE(playback.position(), 2);
    QVERIFY(playback.run() != nullptr);
}

// The summary's cost is what the attempts sent: every traced statement of an
// attempt counted, set-up left out; traced or not, the same counts; and a
// dedup table pays more per intent than a unique key (the article's "a
// generic scheme is heavy").
void EngineTest::theCostOfATechniqueIsCountedFromItsStatements() {
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.duplicates = 2;
    c.variant = QStringLiteral("unique-key");
    const std::unique_ptr<Run> unique = test::finishedRun(c);
    qint64 statements = 0, begins = 0, written = 0;
    for (const TraceEvent& e : unique->trace().events()) {
        if (!e.is(EventKind::Sql) || e.attempt <= 0)
            continue;
        ++statements;
        const QString verb = e.sql.trimmed().section(QLatin1Char(' '), 0, 0).toUpper();
        if (verb == QLatin1String("BEGIN") && !e.failed())
            ++begins;
        if ((verb == QLatin1String("INSERT") || verb == QLatin1String("UPDATE") ||
             verb == QLatin1String("DELETE")) &&
            !e.failed())
            written += e.rows;
    }
    const RunCost& cost = unique->summary().cost;
    QVERIFY(statements > 0);
    QCOMPARE(cost.statements, statements);
    QCOMPARE(cost.transactions, begins);
    QCOMPARE(cost.rowsWritten, written);
    const RunResult untraced = runToEnd(c, *findScenario("order-create"), RunOptions::untraced());
    QVERIFY(untraced.summary.cost == cost);
    c.variant = QStringLiteral("dedup-table");
    const RunCost dedup = test::finishedRun(c)->summary().cost;
    QVERIFY2(dedup.statements > cost.statements && dedup.rowsWritten > cost.rowsWritten,
             qPrintable(QStringLiteral("dedup %1/%2, unique %3/%4")
                            .arg(dedup.statements)
                            .arg(dedup.rowsWritten)
                            .arg(cost.statements)
                            .arg(cost.rowsWritten)));
    // Written with the summary from version 4 on, and read back.
    const QJsonObject json = unique->summary().toJson(4);
    QCOMPARE(json.value("cost").toObject().value("statements").toInteger(), statements);
    QVERIFY(!unique->summary().toJson(3).contains("cost"));
    Summary back;
    QString error;
    QVERIFY2(Summary::fromJson(json, &back, &error), qPrintable(error));
    QVERIFY(back.cost == cost);
}

QTEST_GUILESS_MAIN(EngineTest)
#include "engine_test.moc"
