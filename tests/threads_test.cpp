// Each thread its data: while a worker's job holds the run on screen, the
// window can be closed, quit, themed, zoomed, put in presenter mode, switched
// to another language or shown the lab's internals, and none of it reaches
// the run. Closing stops the job and waits for it; a redraw during a job
// leaves the run alone and draws it again when the job hands it back.
#include "livestage.h"
#include "mainwindow.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "scenario.h"
#include "statemachineview.h"
#include "statetally.h"
#include "stepcaption.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPointer>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

using namespace idem;

namespace {

// Guards against a hang, not a measure: a sanitizer's build beside other
// tests on two cores is many times slower.
constexpr int kJobGuardMs = 300'000;
// A thread of Qt's (a pool's) has ended its work when its wait() returns, and
// leaves the process a moment later.
constexpr int kThreadExitMs = 10'000;

// The fire panel's largest run: 50 intents, 1000 duplicates each.
RunConfig largest() {
    RunConfig c = defaultConfig(*findScenario(QStringLiteral("order-create")));
    c.intents = 50;
    c.duplicates = 1000;
    return c;
}

// The threads of this process now, by name (Linux lists each under
// /proc/self/task), once Qt's shared pool has let its idle threads go (its
// own work, images scaled in pieces, comes and goes).
QStringList threads() {
    QThreadPool::globalInstance()->waitForDone();
    QStringList names;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString& task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(task + QStringLiteral("/comm")));
        if (comm.open(QIODevice::ReadOnly))
            names << QString::fromUtf8(comm.readAll().trimmed());
    }
    names.sort();
    return names;
}

// A shown window with `c` on screen; false with the reason.
[[nodiscard]] bool showAndFire(MainWindow& w, const RunConfig& c, QString* why) {
    w.resize(1280, 720);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        *why = QStringLiteral("the window was not exposed");
        return false;
    }
    return w.fire(c, why);
}

// The worker has taken a few steps of the job in progress.
bool underWay(const MainWindow& w) {
    return w.jobs()->isBusy() && w.jobs()->doneSoFar() > 1;
}

}  // namespace

class ThreadsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void closingQuittingOrLettingGoOfTheWindowStopsTheJobFirst();
    void redrawsDuringALongSeekBackLeaveTheRunToTheWorker();
};

// On the fire panel's largest run (one fire: it takes a while), three jobs:
// End, closed during it; Save trace, quit during it; End again, the window
// let go of during it (as when the event loop returns with a job running).
// Each stops the job at its next step and waits for it: nothing crashes,
// nothing is left running, no half-written trace stays behind.
void ThreadsTest::closingQuittingOrLettingGoOfTheWindowStopsTheJobFirst() {
    const QStringList threadsBefore = threads();
    auto w = std::make_unique<MainWindow>(false);
    QString error;
    QVERIFY2(showAndFire(*w, largest(), &error), qPrintable(error));
    const Playback& playback = w->playback();
    const int length = playback.length();

    // The window manager's close button, during End.
    w->action("end")->trigger();
    QVERIFY(playback.isLent());
    QTRY_VERIFY_WITH_TIMEOUT(underWay(*w), kJobGuardMs);
    QVERIFY(w->close());
    QVERIFY(!w->jobs()->isBusy());
    // The run is back, where the job stopped, and drawn there.
    QVERIFY(!playback.isLent());
    const int at = playback.position();
    QVERIFY2(at > 0 && at < length, qPrintable(QString::number(at)));
    QCOMPARE(w->liveStage()->stateView()->tally().applied(), playback.eventCount());

    // File → Quit during Save trace.
    w->show();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("largest.idemlab.json"));
    w->saveTraceTo(path);
    QVERIFY(playback.isLent());
    QTRY_VERIFY_WITH_TIMEOUT(underWay(*w), kJobGuardMs);
    w->action("quit")->trigger();
    QVERIFY(!w->isVisible());
    QVERIFY(!w->jobs()->isBusy());
    QVERIFY(!playback.isLent());
    // Stopped before the end: no trace, whole or half written.
    QVERIFY2(QDir(dir.path()).isEmpty(), qPrintable(QDir(dir.path()).entryList().join(' ')));

    // Let go of during End.
    w->show();
    w->action("end")->trigger();
    QVERIFY(playback.isLent());
    QTRY_VERIFY_WITH_TIMEOUT(underWay(*w), kJobGuardMs);
    w.reset();
    QTRY_COMPARE_WITH_TIMEOUT(threads(), threadsBefore, kThreadExitMs);
}

// Every redraw trigger, during a long seek back: at once (while the worker
// starts the run again and lets go of the one it had) and once it steps.
// The views keep what they showed; the hand-over draws the run as it is.
void ThreadsTest::redrawsDuringALongSeekBackLeaveTheRunToTheWorker() {
    const QStringList threadsBefore = threads();
    auto w = std::make_unique<MainWindow>(false);
    QString error;
    RunConfig c = largest();
    c.intents = 10;
    c.duplicates = 300;
    QVERIFY2(showAndFire(*w, c, &error), qPrintable(error));
    Playback& playback = w->playback();
    playback.seek(std::min(playback.length(), 8 * Playback::kInlineSteps));
    const int target = playback.position() / 2;
    QVERIFY2(target > Playback::kInlineSteps, qPrintable(QString::number(target)));
    const QString captionBefore = w->caption()->caption();
    // Each twice: the window ends as it began.
    const QStringList triggers{"dark",     "zoom-in",   "presenter", "lang-zh",   "internals",
                               "zoom-out", "presenter", "lang-en",   "internals", "dark"};
    playback.requestSeek(target);
    QVERIFY(playback.isLent());
    for (const QString& id : triggers) w->action(id)->trigger();
    // Nothing was drawn of the run meanwhile.
    QVERIFY(playback.isLent());
    QCOMPARE(w->caption()->caption(), captionBefore);
    QTRY_VERIFY_WITH_TIMEOUT(underWay(*w) || !w->jobs()->isBusy(), kJobGuardMs);
    for (const QString& id : triggers) w->action(id)->trigger();
    if (playback.isLent())
        QCOMPARE(w->caption()->caption(), captionBefore);
    QTRY_VERIFY_WITH_TIMEOUT(!w->jobs()->isBusy(), kJobGuardMs);
    QCOMPARE(playback.position(), target);
    // Handed back, the run is drawn again as it now is.
    QCOMPARE(w->liveStage()->stateView()->tally().applied(), playback.eventCount());
    QVERIFY(w->caption()->caption() != captionBefore);
    QCOMPARE(w->language(), QStringLiteral("en"));
    w.reset();
    QTRY_COMPARE_WITH_TIMEOUT(threads(), threadsBefore, kThreadExitMs);
}

QTEST_MAIN(ThreadsTest)
#include "threads_test.moc"
