// What a transaction has not committed, and what its rollback takes away,
// drawn the same on every database (IDEM_TEST_BACKEND: sqlite, mariadb,
// postgres; registered once per server as undone_test_on_mariadb ...): the
// hatched rows in the tables, the pending move on the state diagram, and at
// a crash before the commit the move undone (↺), a ROLLBACK on the sequence
// diagram and a caption that lists what went. On a server nothing the lab
// reads to draw it goes through an attempt's own session.
#include "livestage.h"
#include "mainwindow.h"
#include "playback.h"
#include "recordedbackend.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "sequenceview.h"
#include "serverinstall.h"
#include "stagedirector.h"
#include "statemachineview.h"
#include "stepcaption.h"
#include "tablemodel.h"
#include "tableview.h"
#include "testsupport.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;
using idem::test::testBackend;

namespace {

#define SKIP_WITHOUT_SERVER()                                                          \
    do {                                                                               \
        const QString backend = testBackend();                                         \
        if (backend == QLatin1String("sqlite"))                                        \
            break;                                                                     \
        if (const QString missing = missingServerPackage(backend); !missing.isEmpty()) \
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (package %2)")        \
                                 .arg(backendName(backend), missing)));                \
    } while (false)

DatabaseTableView* tableNamed(MainWindow& w, const QString& table) {
    for (DatabaseTableView* v : w.liveStage()->tables()) {
        if (v->table() == table)
            return v;
    }
    return nullptr;
}

// Steps the window's run to `position`, each step in its worker as a key
// would, then lets the views take it in.
void stepTo(MainWindow& w, int position) {
    while (w.playback().position() < position) {
        const int before = w.playback().position();
        w.playback().stepForward();
        w.jobs()->finishNow();
        QCOMPARE(w.playback().position(), before + 1);
    }
    w.director()->showLaterNow();
}

QStringList inOrder(const QStringList& lines, const QStringList& parts) {
    QStringList missing = parts;
    qsizetype next = 0;
    for (const QString& line : lines) {
        if (next < missing.size() && line.contains(missing[next]))
            ++next;
    }
    return missing.mid(next);
}

}  // namespace

class UndoneTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void aCrashBeforeTheCommitIsDrawnUndone();
    void itsRecordingDrawsTheSame();
    void anUncommittedInsertIsHatchedInItsTable();
    void aJumpPastTheCrashTellsTheRollbackOnce();

private:
    void checkUndone(const RunConfig& c);
    void checkHatched(const RunConfig& c);
    void record(const RunConfig& c, const QString& path, RunConfig* played);
};

namespace {

RunConfig crashBeforeTheCommit() {
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.backend = testBackend();
    c.variant = "unique-and-state";
    c.crash = CrashPoint::BeforeCommit;
    c.crashAttempt = 1;
    return c;
}

// The pattern that makes a server wait: each attempt's INSERT stays
// uncommitted for a step or more while the other's statements wait.
RunConfig checkForUpdate() {
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.backend = testBackend();
    c.variant = "check-for-update";
    c.timing = Timing::Concurrent;
    return c;
}

}  // namespace

void UndoneTest::aCrashBeforeTheCommitIsDrawnUndone() {
    SKIP_WITHOUT_SERVER();
    checkUndone(crashBeforeTheCommit());
}

// A lesson played where the server is not installed runs from the trace
// of the server's run: the same rows hatched, the same rollback drawn.
void UndoneTest::itsRecordingDrawsTheSame() {
    SKIP_WITHOUT_SERVER();
    if (testBackend() == QLatin1String("sqlite"))
        QSKIP("an SQLite run's trace is no recording: a replay runs SQLite itself");
    QTemporaryDir dir;
    RunConfig played;
    record(crashBeforeTheCommit(), dir.filePath("crash.json"), &played);
    if (QTest::currentTestFailed())
        return;
    checkUndone(played);
    record(checkForUpdate(), dir.filePath("waits.json"), &played);
    if (QTest::currentTestFailed())
        return;
    checkHatched(played);
}

// Runs c on its server with a trace at path; *played: c from that recording.
void UndoneTest::record(const RunConfig& c, const QString& path, RunConfig* played) {
    {
        Run run(c, *findScenario(c.scenario));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        QVERIFY2(run.finish(&error), qPrintable(error));
        QVERIFY2(run.trace().save(path, run.config(), run.summary().toJson(), &error),
                 qPrintable(error));
    }
    QString error;
    const std::optional<RunConfig> config = recordedConfig(c, path, &error);
    QVERIFY2(config && config->recording, qPrintable(error));
    *played = *config;
}

void UndoneTest::checkUndone(const RunConfig& c) {
    MainWindow w(false);
    w.resize(1600, 1000);
    w.show();
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));

    // Step 4: #1 has written its pay_flow row and moved the order to PAID,
    // neither committed.
    stepTo(w, 4);
    DatabaseTableView* payFlow = tableNamed(w, "pay_flow");
    DatabaseTableView* orders = tableNamed(w, "orders");
    QVERIFY(payFlow && orders);
    QCOMPARE(payFlow->model()->rowCount(), 1);
    QCOMPARE(payFlow->uncommittedRows(), 1);
    QCOMPARE(payFlow->model()->index(0, 0).data(TableModel::UncommittedRole).toString(),
             QStringLiteral("inserted"));
    QCOMPARE(orders->uncommittedRows(), 1);
    const int status = 1;  // orders (order_id, status, ...)
    QCOMPARE(orders->model()->index(0, status).data().toString(), QStringLiteral("PAID"));
    QCOMPARE(orders->model()->index(0, status).data(TableModel::UncommittedRole).toString(),
             QStringLiteral("changed"));
    QCOMPARE(w.stateView()->uncommittedState(0), QStringLiteral("PAID"));

    // Step 5: the crash. Nothing of it stays, and every view says so.
    stepTo(w, 5);
    QCOMPARE(payFlow->model()->rowCount(), 0);
    QCOMPARE(payFlow->uncommittedRows(), 0);
    QCOMPARE(orders->uncommittedRows(), 0);
    QCOMPARE(orders->model()->index(0, status).data().toString(), QStringLiteral("PAYING"));
    QCOMPARE(tableNamed(w, "ledger")->model()->rowCount(), 0);
    QCOMPARE(w.stateView()->uncommittedState(0), QString());
    const StateTally& tally = w.stateView()->tally();
    QVERIFY(!tally.anyPending());
    QCOMPARE(tally.rolledBack({"PAYING", "PAID"}), 1);
    QVERIFY(tally.freshRolledBack({"PAYING", "PAID"}));
    QCOMPARE(tally.current().value(0), QStringLiteral("PAYING"));
    const QString caption = w.caption()->caption();
    QVERIFY2(caption.contains("dies before committing") &&
                 caption.contains("Nothing of its open transaction stays") &&
                 caption.contains("ledger") && caption.contains("pay_flow") &&
                 caption.contains("the move of P20250001 to PAID"),
             qPrintable(caption));
    // The crash, then the rollback, then the answer that never came.
    const QStringList drawn = w.sequenceView()->labels();
    const QStringList missing =
        inOrder(drawn, {"#1 INSERT INTO ledger", "crash: before commit", "#1 ", "no answer"});
    QVERIFY2(missing.isEmpty(), qPrintable(drawn.join('\n')));
    QVERIFY2(std::any_of(drawn.cbegin(), drawn.cend(),
                         [](const QString& l) {
                             return l.startsWith("#1 ") && l.contains("ROLLBACK") &&
                                    l.contains("crash");
                         }),
             qPrintable(drawn.join('\n')));

    // Step 8: #2's retry commits; the undone move stays counted as undone.
    stepTo(w, 8);
    QCOMPARE(w.stateView()->tally().rolledBack({"PAYING", "PAID"}), 1);
    QVERIFY(w.stateView()->uncommittedState(0).isEmpty() ||
            w.stateView()->uncommittedState(0) == QLatin1String("PAID"));
}

void UndoneTest::anUncommittedInsertIsHatchedInItsTable() {
    SKIP_WITHOUT_SERVER();
    if (testBackend() == QLatin1String("sqlite"))
        QSKIP("SQLite has no SELECT ... FOR UPDATE (check-for-update exits 2 there)");
    checkHatched(checkForUpdate());
}

void UndoneTest::checkHatched(const RunConfig& c) {
    MainWindow w(false);
    w.resize(1600, 1000);
    w.show();
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    DatabaseTableView* orders = tableNamed(w, "orders");
    QVERIFY(orders);
    int seen = 0;
    while (w.playback().position() < w.playback().length()) {
        stepTo(w, w.playback().position() + 1);
        const QString caption = w.caption()->caption();
        if (!caption.contains("inserts a row into") || !caption.contains("not yet committed"))
            continue;
        ++seen;
        // The row the caption names is in the table, hatched.
        QVERIFY2(
            orders->uncommittedRows() >= 1,
            qPrintable(QStringLiteral("step %1: %2").arg(w.playback().position()).arg(caption)));
        bool inserted = false;
        for (int r = 0; r < orders->model()->rowCount(); ++r)
            inserted = inserted || orders->model()->index(r, 0).data(TableModel::UncommittedRole) ==
                                       QStringLiteral("inserted");
        QVERIFY(inserted);
    }
    QVERIFY(seen >= 1);
    // At the end every transaction has ended: nothing is hatched.
    QCOMPARE(orders->uncommittedRows(), 0);
}

// A seek over the crash (a worker catches the views and the captions up)
// leaves the crash's rollback behind: the next step's caption does not
// tell it again, and the diagram counts it once.
void UndoneTest::aJumpPastTheCrashTellsTheRollbackOnce() {
    SKIP_WITHOUT_SERVER();
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.backend = testBackend();
    c.variant = "unique-and-state";
    c.crash = CrashPoint::BeforeCommit;
    c.crashAttempt = 1;
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().seek(6);
    w.jobs()->finishNow();
    w.director()->showLaterNow();
    QCOMPARE(w.playback().position(), 6);
    for (int step : {6, 7}) {
        stepTo(w, step);
        const QString caption = w.caption()->caption();
        QVERIFY2(!caption.contains("Nothing of its open transaction stays"),
                 qPrintable(QStringLiteral("step %1: %2").arg(step).arg(caption)));
    }
    QCOMPARE(w.stateView()->tally().rolledBack({"PAYING", "PAID"}), 1);
    QVERIFY(!w.stateView()->tally().anyPending());
}

QTEST_MAIN(UndoneTest)
#include "undone_test.moc"
