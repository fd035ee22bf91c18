// What a server does to transactions that collide, shown whole: at the step
// InnoDB breaks a deadlock the Locks view's graph draws every waiter and
// holder of the cycle (the victim's refused request included), and the
// outcome panel counts lock waits, deadlocks and serialization failures,
// in Compare beside the other database's, where a difference is drawn as
// one. Skips where a server's package is missing.
#include "compareview.h"
#include "comparison.h"
#include "livestage.h"
#include "locksview.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "playback.h"
#include "registry.h"
#include "runcontroller.h"
#include "serverinstall.h"
#include "stagedirector.h"
#include "stepcaption.h"
#include "tablemodel.h"
#include "tableview.h"
#include "waitforgraph.h"

#include <QApplication>
#include <QComboBox>
#include <QTabWidget>
#include <QTest>

using namespace idem;

namespace {

#define SKIP_WITHOUT(backend)                                                          \
    do {                                                                               \
        if (const QString missing = missingServerPackage(backend); !missing.isEmpty()) \
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (package %2)")        \
                                 .arg(backendName(backend), missing)));                \
    } while (false)

RunConfig checkForUpdate(const QString& backend) {
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.backend = backend;
    c.variant = "check-for-update";
    c.timing = Timing::Concurrent;
    return c;
}

}  // namespace

class ConflictsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void theDeadlockIsDrawnWhole();
    void theOutcomeAndCompareCountWhatTheServersDid();
};

void ConflictsTest::theDeadlockIsDrawnWhole() {
    SKIP_WITHOUT("mariadb");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QString error;
    QVERIFY2(w.fire(checkForUpdate("mariadb"), &error), qPrintable(error));
    LiveStage* stage = w.liveStage();
    LocksView* locks = stage->locksView();
    int deadlockSteps = 0;
    while (w.playback().position() < w.playback().length()) {
        w.playback().stepForward();
        w.jobs()->finishNow();
        w.director()->showLaterNow();
        const QString caption = w.caption()->caption();
        if (!caption.contains("Deadlock: the server rolled back"))
            continue;
        ++deadlockSteps;
        QVERIFY(locks->showsDeadlock());
        // In front, the cycle drawn in the refusal colour: the victim
        // waiting for #1 and #1 waiting for it.
        QCOMPARE(stage->tableTabs()->currentWidget(), locks);
        const WaitForGraph* graph = locks->graph();
        QVERIFY(graph->isVisible());
        QVERIFY2(graph->hasCycle(), qPrintable(graph->toolTip()));
        const QString victim = caption.section("rolled back ", 1).section("'s transaction", 0, 0);
        QVERIFY2(graph->nodes().contains(victim) && graph->nodes().contains("#1"),
                 qPrintable(graph->nodes().join(',') + " / " + victim));
        bool refused = false, waitedOn = false;
        for (const WaitForGraph::Edge& e : graph->edges()) {
            refused =
                refused || (e.waiter == victim && e.lock == QLatin1String("refused: deadlock"));
            waitedOn = waitedOn || e.holder == victim;
        }
        QVERIFY2(refused && waitedOn, qPrintable(graph->toolTip()));
    }
    // InnoDB refuses both #2 and #3 (SPEC section 8's table: deadlocks ≥ 1).
    QVERIFY(deadlockSteps >= 1);
    // The counts in the outcome panel.
    const QString details = w.outcome()->detailsText();
    QVERIFY2(details.contains("The database's conflicts") && details.contains("deadlock"),
             qPrintable(details));
}

void ConflictsTest::theOutcomeAndCompareCountWhatTheServersDid() {
    SKIP_WITHOUT("mariadb");
    SKIP_WITHOUT("postgres");
    CompareView view;
    view.resize(1280, 720);
    const Scenario& scenario = *findScenario("order-create");
    view.setInput(scenario, checkForUpdate("mariadb"));
    view.outcome(0);  // builds the page
    view.setBackend(0, "mariadb");
    view.setBackend(1, "postgres");
    for (const char* name : {"compareVariant0", "compareVariant1"}) {
        auto* box = view.findChild<QComboBox*>(name);
        QVERIFY(box);
        box->setCurrentIndex(box->findData("check-for-update"));
    }
    const auto runs = view.prepare();
    QVERIFY(runs);
    runComparison(*runs);
    QVERIFY2(runs->sides[0].ok() && runs->sides[1].ok(),
             qPrintable(runs->sides[0].error + runs->sides[1].error));
    view.show(runs);
    const RunCost maria = runs->sides[0].summary.cost;
    const RunCost postgres = runs->sides[1].summary.cost;
    // SPEC section 8: the same verdict, what differs is how the servers got there.
    QCOMPARE(view.outcome(0)->verdictId(), QStringLiteral("exactly-once"));
    QCOMPARE(view.outcome(1)->verdictId(), QStringLiteral("exactly-once"));
    QVERIFY(maria.deadlocks >= 1);
    QCOMPARE(postgres.deadlocks, 0);
    const QString left = view.outcome(0)->detailsText();
    const QString right = view.outcome(1)->detailsText();
    QVERIFY2(left.contains(
                 QStringLiteral("deadlocks: %1</b></span> (0 on PostgreSQL)").arg(maria.deadlocks)),
             qPrintable(left));
    QVERIFY2(right.contains(
                 QStringLiteral("deadlocks: 0</b></span> (%1 on MariaDB)").arg(maria.deadlocks)),
             qPrintable(right));
    // The variant keeps no guard table: each side shows its orders, not an
    // empty table "not used".
    for (int side = 0; side < 2; ++side) {
        QCOMPARE(view.table(side)->table(), QStringLiteral("orders"));
        QVERIFY(view.table(side)->exists());
        QCOMPARE(view.table(side)->model()->rowCount(), 1);
    }
    // What both did alike is not marked: the lock waits, where they agree.
    if (maria.lockWaits == postgres.lockWaits)
        QVERIFY2(left.contains(QStringLiteral("lock waits: %1 ·").arg(maria.lockWaits)),
                 qPrintable(left));
}

QTEST_MAIN(ConflictsTest)
#include "conflicts_test.moc"
