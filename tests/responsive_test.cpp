// The window never waits: long work runs in the background with a progress
// bar and Cancel, the event loop keeps turning meanwhile, Escape stops the
// work and leaves a usable window, and a run above the cost limit is asked
// about first.
#include "compareview.h"
#include "comparison.h"
#include "configcheck.h"
#include "experiment.h"
#include "experimentview.h"
#include "frame.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "runner.h"
#include "scenario.h"
#include "sequenceview.h"
#include "sqlconnection.h"
#include "sqllogmodel.h"
#include "statemachineview.h"
#include "statetally.h"
#include "sweeper.h"
#include "tablemodel.h"
#include "tableview.h"
#include "trace.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

using namespace idem;

namespace {

// Guards against a hang, not measures: under the sanitizers, beside other
// tests on two cores, a long seek has taken a minute and an experiment over
// two.
constexpr int kJobGuardMs = 180'000;
constexpr int kExperimentGuardMs = 300'000;

// Counts the ticks of a 1 ms timer: the event loop turning. How long a turn
// takes is measured by tests/bench (heartbeat_bench), not by the tests.
struct Heartbeat {
    QTimer timer;
    int beats = 0;
    Heartbeat() {
        timer.setInterval(1);
        timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&timer, &QTimer::timeout, [this] { ++beats; });
        timer.start();
    }
};

// What the SQL log and the state diagram show when they took in the run's
// events one step at a time: its statements and lock waits, and the moves
// counted over the whole trace so far.
qsizetype loggedRows(const Playback& playback) {
    const QList<TraceEvent>& events = playback.run()->trace().events();
    qsizetype rows = 0;
    for (qsizetype i = 0; i < playback.eventCount(); ++i)
        rows += events[i].is(EventKind::Sql) || events[i].is(EventKind::LockWait);
    return rows;
}

// Every move's counts on the diagram equal those of a tally over [0, eventCount).
bool stateMatchesTrace(const MainWindow& w, QString* why) {
    StateTally expected;
    expected.setMachine(w.playback().scenario()->info().stateMachine);
    expected.advance(w.playback().run()->trace().events(), w.playback().eventCount(), 0);
    const StateTally& shown = w.liveStage()->stateView()->tally();
    for (const StateEdge& e : w.playback().scenario()->info().stateMachine.edges) {
        if (shown.accepted({e.from, e.to}) != expected.accepted({e.from, e.to}) ||
            shown.rejected({e.from, e.to}) != expected.rejected({e.from, e.to})) {
            *why = QStringLiteral("%1 -> %2: shown %3/%4, trace %5/%6")
                       .arg(e.from, e.to)
                       .arg(shown.accepted({e.from, e.to}))
                       .arg(shown.rejected({e.from, e.to}))
                       .arg(expected.accepted({e.from, e.to}))
                       .arg(expected.rejected({e.from, e.to}));
            return false;
        }
    }
    return shown.applied() == w.playback().eventCount() && shown.current() == expected.current();
}

// The rows every table of the stage shows, cell by cell.
QStringList shownTables(const MainWindow& w) {
    QStringList out;
    for (const DatabaseTableView* t : w.liveStage()->tables()) {
        out << t->table();
        const QAbstractItemModel* m = t->model();
        for (int r = 0; r < m->rowCount(); ++r) {
            QStringList cells;
            for (int col = 0; col < m->columnCount(); ++col)
                cells << m->index(r, col).data().toString();
            out << cells.join(QLatin1Char('|'));
        }
    }
    return out;
}

// The tables show what the database holds now.
bool tablesMatchDatabase(const MainWindow& w, QString* why) {
    const std::unique_ptr<SqlConnection> reader = w.playback().run()->openReader();
    QStringList expected;
    for (const DatabaseTableView* t : w.liveStage()->tables()) {
        TableModel read;
        read.setTable(t->table());
        read.refresh(*reader, w.playback().writer());  // an open transaction's rows too
        expected << t->table();
        for (int r = 0; r < read.rowCount(); ++r) {
            QStringList cells;
            for (int col = 0; col < read.columnCount(); ++col)
                cells << read.index(r, col).data().toString();
            expected << cells.join(QLatin1Char('|'));
        }
    }
    const QStringList shown = shownTables(w);
    if (shown == expected)
        return true;
    *why = QStringLiteral("shown %1 rows, the database %2").arg(shown.size()).arg(expected.size());
    return false;
}

RunConfig config(const QString& scenario, int intents, int duplicates) {
    RunConfig c = defaultConfig(*findScenario(scenario));
    c.intents = intents;
    c.duplicates = duplicates;
    return c;
}

// The window at a classroom projector's size, shown; false with the reason
// when it was not.
[[nodiscard]] bool showAtProjectorSize(MainWindow& w, QString* why) {
    w.resize(1280, 720);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        *why = QStringLiteral("the window was not exposed");
        return false;
    }
    return true;
}

// ... with `c` fired; false with the reason when it was not shown or the
// run did not start.
[[nodiscard]] bool showAndFire(MainWindow& w, const RunConfig& c, QString* why) {
    return showAtProjectorSize(w, why) && w.fire(c, why);
}

// Waits until every one-frame timer started before the call has fired: Qt
// fires due timers in the order of their deadlines, and this one's is the
// latest. False if the event loop never got there.
[[nodiscard]] bool waitAFrame() {
    QTimer frame;
    frame.setSingleShot(true);
    frame.setTimerType(Qt::PreciseTimer);
    QSignalSpy fired(&frame, &QTimer::timeout);
    frame.start(kFrameMs);
    return fired.wait(kJobGuardMs);
}

// Runs `then` on the window's thread right after the event loop has handed
// each job over: the window's own delivery is queued before it by the same
// signal, so no timer a hand-over started has fired yet.
void onEachHandOver(MainWindow& w, const QObject* context, std::function<void()> then) {
    QObject::connect(w.jobs(), &RunController::workerEnded, context,
                     [then = std::move(then)](quint64) { then(); });
}

}  // namespace

class ResponsiveTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void aLongFireLeavesTheWindowResponsiveAndEscapeStopsIt();
    void escapeStopsALongSeekWhereItGot();
    void aLongSeekShowsWhatStepByStepWould();
    void theLogTablesAndSequenceFollowALongSeekAFrameLater();
    void theSqlLogKeepsItsRowsInOrderInPieces();
    void pausingInstantPlayShowsTheTablesAndLogAsTheyAre();
    void aFiredRunsFirstStepComesAFrameAfterItsHandOver();
    void aComparisonsRightSideComesAFrameAfterItsLeft();
    void aFinishedJobsBarLingersAndTheNextJobTakesItOver();
    void aJobsWorkerGivesWayToTheWindow();
    void theSweeperLetsGoOfALongRunBetweenFrames();
    void aRunAboveTheCostLimitIsAskedAboutFirst();
    void aLessonAboveTheCostLimitIsAskedAboutFirst();
    void saveTraceWritesTheRunOnScreen();
    void messagesFloatOverTheStageWithoutMovingIt();
    void aStepsTextsLayOutNothingAroundThemWhileTheyFit();
    void theExperimentChartIsUpdatedInPlace();
    void theExperimentRunsWithoutAWindowAndStops();
    void aScenarioChosenMidExperimentShowsOnlyItsOwnResults();
};

void ResponsiveTest::aLongFireLeavesTheWindowResponsiveAndEscapeStopsIt() {
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QString error;
    QVERIFY2(w.fire(config("order-create", 3, 1), &error), qPrintable(error));
    const RunConfig before = w.playback().config();
    // The fire panel's maximum: 50 intents, 1000 duplicates each (seconds of work).
    w.fireInBackground(config("order-create", 50, 1000));
    QVERIFY(w.jobs()->isBusy());
    // The event loop keeps turning meanwhile: a 1 ms timer beats, and the
    // job's bar comes up. How long a turn may take is a performance target,
    // measured by tests/bench (heartbeat_bench), not here.
    Heartbeat heart;
    QTRY_VERIFY_WITH_TIMEOUT(heart.beats >= 3 && w.jobs()->progressBar()->isVisible(), kJobGuardMs);
    QVERIFY(w.jobs()->isBusy());
    QVERIFY(w.jobs()->cancelButton()->isVisible());
    QVERIFY(w.action("cancel")->isEnabled());
    QTest::keyClick(&w, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 5000);
    // The run on screen is the one before, and the window says why.
    QCOMPARE(w.playback().config().duplicates, before.duplicates);
    QVERIFY2(w.messages()->currentMessage().contains("Stopped"),
             qPrintable(w.messages()->currentMessage()));
    QTRY_VERIFY(!w.jobs()->progressBar()->isVisible());  // it lingers a moment
    QVERIFY(!w.action("cancel")->isEnabled());
    QVERIFY(w.action("step")->isEnabled());
    // Usable again: a step, and a fresh fire.
    const int at = w.playback().position();
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 1);
    w.fireInBackground(config("order-create", 2, 1));
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 10000);
    QCOMPARE(w.playback().config().intents, 2);
    QTRY_COMPARE(w.playback().position(), 1);
}

void ResponsiveTest::escapeStopsALongSeekWhereItGot() {
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QString error;
    QVERIFY2(w.fire(config("order-create", 20, 300), &error), qPrintable(error));
    const int length = w.playback().length();
    QVERIFY2(length > 20 * Playback::kInlineSteps, qPrintable(QString::number(length)));
    QTest::keyClick(&w, Qt::Key_End);
    QVERIFY(w.jobs()->isBusy());
    // While the worker holds the run, the bar waits; the keys are kept
    // for when it is back (Playback::takeQueued).
    QVERIFY(w.action("step")->isEnabled());
    QVERIFY(!w.playbackBar()->isEnabled());
    // The event loop turns meanwhile: a 1 ms timer beats (a few times at
    // least, however busy the machine's cores are with other work).
    Heartbeat heart;
    // Escape once the worker is under way (a loaded machine or a sanitizer
    // build can make it late, or quick: a fixed wait is either).
    QTRY_VERIFY_WITH_TIMEOUT(heart.beats >= 3 && w.jobs()->doneSoFar() > 1, kJobGuardMs);
    // A step asked for meanwhile goes with the seek Escape stops.
    QTest::keyClick(&w, Qt::Key_Left);
    QTest::keyClick(&w, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 5000);
    QVERIFY2(heart.beats >= 3, qPrintable(QString::number(heart.beats)));
    const int at = w.playback().position();
    QVERIFY2(at > 1 && at < length, qPrintable(QString::number(at)));
    QVERIFY2(w.messages()->currentMessage().contains(QString::number(at)),
             qPrintable(w.messages()->currentMessage()));
    QVERIFY(w.action("step")->isEnabled());
    QVERIFY(w.playbackBar()->isEnabled());
    // The views show where it stopped, and stepping goes on from there.
    QCOMPARE(w.playback().eventCount(), w.playback().run()->trace().size());
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(w.playback().position(), at + 1);
    // End again, left to finish.
    QTest::keyClick(&w, Qt::Key_End);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), kJobGuardMs);
    QVERIFY(w.playback().atEnd());
}

// End, Home and End again go to a worker, which also counts for the views
// (the SQL log's rows, the state diagram's moves): the window only hands
// them over. What they show must be what stepping one step at a time shows.
// After a seek in the background the window first paints the state
// diagram, the outcome and the caption, then the SQL log, the tables and the
// sequence diagram a frame later: all of it at once overran a frame. A step
// taken in that frame brings them up to date itself, in order, and the late
// showing then changes nothing.
void ResponsiveTest::theLogTablesAndSequenceFollowALongSeekAFrameLater() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("order-create", 20, 300), &error), qPrintable(error));
    for (int i = 0; i < 5; ++i) QTest::keyClick(&w, Qt::Key_Right);
    SequenceView* sequence = w.sequenceView();
    const SqlLogModel* log = w.liveStage()->sqlLogModel();
    QCOMPARE(sequence->drawnUpTo(), w.playback().eventCount());
    const qsizetype before = sequence->drawnUpTo();
    const qsizetype rowsBefore = log->totalRows();
    const QStringList tablesBefore = shownTables(w);
    QString why;

    QTest::keyClick(&w, Qt::Key_End);
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->finishNow();
    QVERIFY(w.playback().atEnd());
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));  // at once
    QCOMPARE(sequence->drawnUpTo(), before);                // not yet
    QCOMPARE(log->totalRows(), rowsBefore);
    QCOMPARE(shownTables(w), tablesBefore);
    QTRY_COMPARE(sequence->drawnUpTo(), w.playback().eventCount());
    QCOMPARE(log->totalRows(), loggedRows(w.playback()));
    QVERIFY2(tablesMatchDatabase(w, &why), qPrintable(why));

    // A step within the frame: shown at once after what the hand-over left,
    // and the late showing keeps it.
    QTest::keyClick(&w, Qt::Key_Home);
    w.jobs()->finishNow();
    QCOMPARE(w.playback().position(), 0);
    w.playback().seek(7);
    const qsizetype at7 = w.playback().eventCount();
    const qsizetype rowsAt7 = loggedRows(w.playback());
    QCOMPARE(sequence->drawnUpTo(), at7);
    QCOMPARE(log->totalRows(), rowsAt7);
    QCOMPARE(log->leftOut(), 0);
    QVERIFY2(tablesMatchDatabase(w, &why), qPrintable(why));
    QVERIFY(waitAFrame());
    QCOMPARE(sequence->drawnUpTo(), at7);
    QCOMPARE(log->totalRows(), loggedRows(w.playback()));
    QVERIFY2(tablesMatchDatabase(w, &why), qPrintable(why));
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));

    // Two hand-overs within one frame: the log takes the first's rows, then
    // the second's after them.
    QTest::keyClick(&w, Qt::Key_Home);
    w.jobs()->finishNow();
    QTest::keyClick(&w, Qt::Key_End);
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->finishNow();
    QVERIFY(w.playback().atEnd());
    QCOMPARE(log->totalRows(), rowsAt7);  // not yet
    QTRY_COMPARE(sequence->drawnUpTo(), w.playback().eventCount());
    QCOMPARE(log->totalRows(), loggedRows(w.playback()));
    QVERIFY2(tablesMatchDatabase(w, &why), qPrintable(why));
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));
}

void ResponsiveTest::aLongSeekShowsWhatStepByStepWould() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("order-create", 20, 300), &error), qPrintable(error));
    QVERIFY(w.playback().length() > 4 * Playback::kInlineSteps);
    for (int i = 0; i < 5; ++i) QTest::keyClick(&w, Qt::Key_Right);
    const SqlLogModel* log = w.liveStage()->sqlLogModel();
    QCOMPARE(log->rowCount(), loggedRows(w.playback()));
    QString why;
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));

    QTest::keyClick(&w, Qt::Key_End);
    QVERIFY(w.jobs()->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), kJobGuardMs);
    QVERIFY(w.playback().atEnd());
    QTRY_COMPARE(log->totalRows(), loggedRows(w.playback()));  // a frame after the hand-over
    QVERIFY(log->totalRows() > 10'000);
    QCOMPARE(log->rowCount(), std::min(log->totalRows(), SqlLogModel::kShownRows));
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));
    // The last row is the run's last statement.
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    qsizetype last = w.playback().eventCount() - 1;
    while (!events[last].is(EventKind::Sql) && !events[last].is(EventKind::LockWait)) --last;
    QCOMPARE(log->data(log->index(log->rowCount() - 1, SqlLogModel::Statement), Qt::ToolTipRole)
                 .toString(),
             events[last].sql);

    // Home from far into a long run lets go of it in the worker too.
    QTest::keyClick(&w, Qt::Key_Home);
    QVERIFY(w.jobs()->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), kJobGuardMs);
    QCOMPARE(w.playback().position(), 0);
    QTRY_COMPARE(log->rowCount(), loggedRows(w.playback()));
    QCOMPARE(log->leftOut(), 0);
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));

    // Play at the end goes back in the worker, then plays from the start.
    QTest::keyClick(&w, Qt::Key_End);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && w.playback().atEnd(), kJobGuardMs);
    w.playbackBar()->play();
    QVERIFY(w.jobs()->isBusy());
    QVERIFY(!w.playbackBar()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), kJobGuardMs);
    QTRY_VERIFY_WITH_TIMEOUT(w.playbackBar()->isPlaying() && w.playback().position() > 0, 5000);
    w.playbackBar()->pause();
    QCOMPARE(log->rowCount(), loggedRows(w.playback()));
    QVERIFY2(stateMatchesTrace(w, &why), qPrintable(why));
}

// The log keeps its rows in pieces (a long seek's in one): every row is where
// a single list would have it, and a reset starts over.
void ResponsiveTest::theSqlLogKeepsItsRowsInOrderInPieces() {
    // As many statements as the table lists (every third event is not one).
    const qsizetype events = SqlLogModel::kShownRows * 3 / 2;
    Trace trace;
    for (int i = 0; i < events; ++i) {
        TraceEvent e;
        e.seq = i;
        e.kind = i % 3 == 2 ? EventKind::Work : EventKind::Sql;
        e.sql = QStringLiteral("SELECT %1").arg(i);
        trace.add(e);
    }
    const QList<TraceEvent> all = SqlLogModel::rowsOf(trace.events(), 0, trace.size());
    QCOMPARE(all.size(), SqlLogModel::kShownRows);
    SqlLogModel model;
    // Steps of a few events, then a long seek's (most of the trace), then steps again.
    qsizetype at = 0;
    for (; at < events / 10; at += 7) model.append(trace, at, at + 7);
    model.appendRows(SqlLogModel::rowsOf(trace.events(), at, at + events * 8 / 10));
    at += events * 8 / 10;
    for (; at < trace.size(); at += 5) model.append(trace, at, at + 5);
    QCOMPARE(model.rowCount(), all.size());
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.data(model.index(row, SqlLogModel::Statement)).toString() != all[row].sql)
            QFAIL(qPrintable(QStringLiteral("row %1").arg(row)));
    }
    QCOMPARE(model.toCsv().count(QLatin1String("\r\n")), all.size() + 1);
    QCOMPARE(model.leftOut(), 0);
    // A table lists the latest kShownRows: steps past them push the
    // earliest out, a long seek starts the table over; the model keeps all.
    Trace longer;
    for (int i = 0; i < 3 * SqlLogModel::kShownRows; ++i) {
        TraceEvent e;
        e.kind = EventKind::Sql;
        e.sql = QStringLiteral("SELECT %1").arg(i);
        longer.add(e);
    }
    SqlLogModel window;
    QSignalSpy leftOut(&window, &SqlLogModel::leftOutChanged);
    const qsizetype steps = SqlLogModel::kShownRows - 10;
    for (qsizetype i = 0; i < steps; i += 1000) window.append(longer, i, std::min(steps, i + 1000));
    QCOMPARE(window.leftOut(), 0);
    window.append(longer, steps, steps + 25);  // 15 pushed out
    QCOMPARE(window.leftOut(), 15);
    QCOMPARE(window.rowCount(), int(SqlLogModel::kShownRows));
    QCOMPARE(window.data(window.index(0, SqlLogModel::Statement)).toString(),
             QStringLiteral("SELECT 15"));
    window.appendRows(SqlLogModel::rowsOf(longer.events(), steps + 25, longer.size()));
    QCOMPARE(window.totalRows(), longer.size());
    QCOMPARE(window.rowCount(), int(SqlLogModel::kShownRows));
    QCOMPARE(window.leftOut(), longer.size() - SqlLogModel::kShownRows);
    QCOMPARE(window.data(window.index(window.rowCount() - 1, SqlLogModel::Statement)).toString(),
             longer.events().last().sql);
    QCOMPARE(window.data(window.index(0, SqlLogModel::Statement)).toString(),
             longer.events()[longer.size() - SqlLogModel::kShownRows].sql);
    QCOMPARE(leftOut.size(), 2);
    QCOMPARE(window.toCsv().count(QLatin1String("\r\n")), longer.size() + 1);

    // A seek from a few rows in brings more rows than the table lists at
    // once, though fewer than would start it over by count: the few rows and
    // the earliest new ones leave, the latest kShownRows are listed.
    SqlLogModel seeked;
    QAbstractItemModelTester checked(&seeked,
                                     QAbstractItemModelTester::FailureReportingMode::QtTest);
    seeked.append(longer, 0, 3);
    const qsizetype seekTo = 3 + SqlLogModel::kShownRows + SqlLogModel::kShownRows / 5;
    seeked.appendRows(SqlLogModel::rowsOf(longer.events(), 3, seekTo));
    QCOMPARE(seeked.rowCount(), int(SqlLogModel::kShownRows));
    QCOMPARE(seeked.leftOut(), seekTo - SqlLogModel::kShownRows);
    QCOMPARE(seeked.data(seeked.index(0, SqlLogModel::Statement)).toString(),
             longer.events()[seekTo - SqlLogModel::kShownRows].sql);
    QCOMPARE(seeked.data(seeked.index(seeked.rowCount() - 1, SqlLogModel::Statement)).toString(),
             longer.events()[seekTo - 1].sql);

    model.resetRows(SqlLogModel::rowsOf(trace.events(), 0, 30));
    QCOMPARE(model.rowCount(), 20);
    QCOMPARE(model.data(model.index(19, SqlLogModel::Statement)).toString(),
             QStringLiteral("SELECT 28"));
}

// Playing at "instant" the tables are read, and the SQL log given its rows,
// a few times a second, not at every frame; wherever the playing is paused,
// they show what the database holds and every statement up to that step.
void ResponsiveTest::pausingInstantPlayShowsTheTablesAndLogAsTheyAre() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("order-create", 50, 10), &error), qPrintable(error));
    const auto shown = [&w] {
        QStringList csv;
        for (const DatabaseTableView* v : w.liveStage()->tables()) csv << v->model()->toCsv();
        return csv;
    };
    const auto read = [&w] {
        QStringList csv;
        for (const DatabaseTableView* v : w.liveStage()->tables()) {
            DatabaseTableView fresh;
            fresh.setTable(v->table());
            // An open transaction's rows are shown too (marked uncommitted).
            fresh.refresh(*w.playback().reader(), w.playback().writer());
            csv << fresh.model()->toCsv();
        }
        return csv;
    };
    const SqlLogModel* log = w.liveStage()->sqlLogModel();
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    PlaybackBar* bar = w.playbackBar();
    bar->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
    const QStringList first = shown();
    int held = 0;  // times the log was behind while playing
    for (int pause = 0; pause < 12 && !w.playback().atEnd(); ++pause) {
        bar->play();
        // Paused as soon as the log is behind the steps (or the run is at
        // its end), wherever that is.
        const int from = w.playback().position();
        QTRY_VERIFY_WITH_TIMEOUT(
            w.playback().atEnd() ||
                (w.playback().position() > from && log->totalRows() < loggedRows(w.playback())),
            kJobGuardMs);
        held += log->totalRows() < loggedRows(w.playback());
        bar->pause();
        QCOMPARE(shown(), read());
        QCOMPARE(log->totalRows(), loggedRows(w.playback()));
        // The last row is the last statement so far.
        qsizetype last = w.playback().eventCount() - 1;
        while (last >= 0 && !events[last].is(EventKind::Sql) &&
               !events[last].is(EventKind::LockWait))
            --last;
        if (last >= 0) {
            QCOMPARE(
                log->data(log->index(log->rowCount() - 1, SqlLogModel::Statement), Qt::ToolTipRole)
                    .toString(),
                events[last].sql);
        }
    }
    QVERIFY(w.playback().position() > 1);
    QVERIFY(shown() != first);
    QVERIFY2(held > 0, "the log took every frame's rows");
}

// A job's worker runs at a lower share of the CPU than the window's thread
// (Qt's LowPriority alone changes nothing on Linux); the window's thread
// keeps its own.
namespace {
int niceOfThisThread() {
    return getpriority(PRIO_PROCESS, id_t(gettid()));
}
}  // namespace

void ResponsiveTest::aJobsWorkerGivesWayToTheWindow() {
    const int window = niceOfThisThread();
    QStatusBar bar;
    RunController jobs(&bar);
    int worker = window;
    QVERIFY(jobs.start(
        QStringLiteral("measure"), [&](RunController::Progress&) { worker = niceOfThisThread(); },
        [](bool) {}));
    jobs.finishNow();
    QVERIFY2(worker >= 10, qPrintable(QString::number(worker)));
    QCOMPARE(niceOfThisThread(), window);
}

// A finished job's bar stays a moment (its going, and what lay under it
// painted again, not in the frame that shows the job's work), then goes;
// a job started meanwhile takes the bar over with its own words.
// A run fired in a worker is handed over at its start, and the window paints
// it so; its first step comes a frame later, on its own. A step taken in
// that frame is the only one.
void ResponsiveTest::aFiredRunsFirstStepComesAFrameAfterItsHandOver() {
    MainWindow w(false);
    QString why;
    QVERIFY2(showAtProjectorSize(w, &why), qPrintable(why));
    w.jobs()->finishNow();  // the first scenario's load
    // Where a fired run stands once the event loop has handed it over,
    // before any timer the hand-over started can fire (other jobs end too,
    // such as a comparison: only the fired run's hand-over counts).
    int firedIntents = 0;
    int handedOverAt = -1;
    std::function<void()> also;
    const auto atHandOver = [&](int intents, std::function<void()> then = {}) {
        firedIntents = intents;
        handedOverAt = -1;
        also = std::move(then);
    };
    const QObject handOvers;
    onEachHandOver(w, &handOvers, [&] {
        if (handedOverAt >= 0 || w.playback().config().intents != firedIntents)
            return;
        handedOverAt = w.playback().position();
        if (also)
            also();
    });
    atHandOver(3);
    w.fireInBackground(config("order-create", 3, 2));
    QTRY_VERIFY_WITH_TIMEOUT(handedOverAt >= 0, kJobGuardMs);
    QCOMPARE(w.playback().config().intents, 3);
    QCOMPARE(handedOverAt, 0);
    QTRY_COMPARE(w.playback().position(), 1);
    QVERIFY(waitAFrame());
    QCOMPARE(w.playback().position(), 1);

    // A step taken in the frame after the hand-over is the only one.
    atHandOver(4, [&w] { w.action("step")->trigger(); });
    w.fireInBackground(config("order-create", 4, 2));
    QTRY_VERIFY_WITH_TIMEOUT(handedOverAt >= 0, kJobGuardMs);
    QCOMPARE(w.playback().config().intents, 4);
    QCOMPARE(handedOverAt, 0);
    QCOMPARE(w.playback().position(), 1);
    QVERIFY(waitAFrame());
    QCOMPARE(w.playback().position(), 1);

    // Fired with Compare in front, which starts comparing the new run at its
    // hand-over: the run still takes its first step.
    w.tabs()->setCurrentWidget(w.compareView());
    bool comparing = false;
    atHandOver(50, [&w, &comparing] { comparing = w.jobs()->isBusy(); });
    w.fireInBackground(config("order-create", 50, 50));
    QTRY_VERIFY_WITH_TIMEOUT(handedOverAt >= 0, kJobGuardMs);
    QCOMPARE(handedOverAt, 0);
    QVERIFY(comparing);
    QTRY_COMPARE(w.playback().position(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), kJobGuardMs);

    // Delivered by finishNow, whose caller wants it done: the step is there.
    w.fireInBackground(config("order-create", 5, 2));
    w.jobs()->finishNow();
    QCOMPARE(w.playback().config().intents, 5);
    QCOMPARE(w.playback().position(), 1);
}

// A comparison handed over by a worker shows its left side at once and its
// right side a frame later; a new input meanwhile leaves the old right side
// unshown, and both runs are still let go of.
void ResponsiveTest::aComparisonsRightSideComesAFrameAfterItsLeft() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, defaultConfig(*findScenario("payment-callback")), &error),
             qPrintable(error));
    CompareView* compare = w.compareView();
    auto runs = compare->prepare();
    QVERIFY(runs);
    runComparison(*runs);
    compare->show(runs, true);
    QCOMPARE(compare->outcome(0)->verdictId(), QStringLiteral("duplicated"));
    QCOMPARE(compare->outcome(1)->verdictId(), QString());
    QVERIFY(compare->isShowing());
    QTRY_COMPARE(compare->outcome(1)->verdictId(), QStringLiteral("exactly-once"));
    QVERIFY(!compare->isShowing());
    QCOMPARE(compare->table(1)->model()->rowCount(), 1);
    QVERIFY(compare->ranOn().scenario == QStringLiteral("payment-callback"));
    QTRY_VERIFY(w.playback().sweeper()->idle());

    // Another fire before the right side's frame.
    auto older = compare->prepare();
    runComparison(*older);
    compare->show(older, true);
    QVERIFY(w.fire(defaultConfig(*findScenario("order-create")), &error));
    QVERIFY(waitAFrame());  // the old right side's frame is over
    QVERIFY(!compare->isShowing());
    QCOMPARE(compare->outcome(1)->verdictId(), QString());
    QVERIFY(compare->ranOn().scenario.isEmpty());
    QTRY_VERIFY(w.playback().sweeper()->idle());
}

void ResponsiveTest::aFinishedJobsBarLingersAndTheNextJobTakesItOver() {
    // Each job works until the test lets it end (or it is stopped): the bar
    // shows for a job that has run a while, however busy the machine.
    std::atomic<bool> firstMayEnd = false, secondMayEnd = false;
    const auto until = [](std::atomic<bool>& mayEnd) {
        return [&mayEnd](RunController::Progress& p) {
            while (!mayEnd && !p.cancel) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        };
    };
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    RunController* jobs = w.jobs();
    bool lingered = false, cancelOff = false, tookOver = false;
    QVERIFY(jobs->start(QStringLiteral("first"), until(firstMayEnd), [&](bool) {
        // The first job is done: its bar is still there, Cancel off.
        lingered = jobs->progressBar()->isVisible();
        cancelOff = !jobs->cancelButton()->isEnabled();
        tookOver = jobs->start(QStringLiteral("second"), until(secondMayEnd), [](bool) {}) &&
                   jobs->label()->text() == QStringLiteral("second") &&
                   jobs->cancelButton()->isEnabled();
    }));
    QTRY_VERIFY(jobs->progressBar()->isVisible());
    firstMayEnd = true;
    QTRY_VERIFY(tookOver);
    QVERIFY(lingered);
    QVERIFY(cancelOff);
    QVERIFY(jobs->isBusy());
    QVERIFY(jobs->progressBar()->isVisible());
    secondMayEnd = true;
    QTRY_VERIFY(!jobs->isBusy());
    QTRY_VERIFY(!jobs->progressBar()->isVisible());
}

// What a long run leaves behind is let go of on the sweeper's thread, a
// slice per turn of the event loop: handed over from another thread too, all
// of it goes in the end, and the run itself with it.
void ResponsiveTest::theSweeperLetsGoOfALongRunBetweenFrames() {
    Sweeper sweeper;
    auto run =
        std::make_shared<Run>(config("order-create", 20, 100), *findScenario("order-create"));
    QString error;
    QVERIFY2(run->start(&error), qPrintable(error));
    while (run->step()) {
    }
    const qsizetype events = run->trace().size();
    QVERIFY(events > 4 * Sweeper::kSlice);
    std::weak_ptr<Run> watch = run;
    std::vector<QList<TraceEvent>> rows(2, run->trace().events());
    for (QList<TraceEvent>& piece : rows) piece.detach();
    std::thread other([&sweeper, &run, &rows] {
        sweeper.take(std::move(run));
        sweeper.take(std::move(rows));
    });
    other.join();
    QVERIFY(!sweeper.idle());
    QVERIFY(!watch.expired());
    QTRY_VERIFY_WITH_TIMEOUT(sweeper.idle(), 20'000);
    QVERIFY(watch.expired());
}

void ResponsiveTest::aRunAboveTheCostLimitIsAskedAboutFirst() {
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("order-create", 3, 1), &error), qPrintable(error));
    // Above the limit through the retries (quick to plan, long to run).
    RunConfig large = config("order-create", 2000, 100);
    large.maxRetries = kMaxRetries;
    QVERIFY(estimatedStatements(large, findScenario(large.scenario)->info()) >
            kMaxEstimatedStatements);
    QString asked;
    auto answer = [&asked](QMessageBox::StandardButton button) {
        QTimer::singleShot(0, [&asked, button] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            QCOMPARE(box->objectName(), QStringLiteral("largeRunQuestion"));
            asked = box->text();
            box->button(button)->click();
        });
    };
    answer(QMessageBox::No);
    w.fireInBackground(large);
    QVERIFY2(asked.contains(QLocale().toString(kMaxEstimatedStatements)), qPrintable(asked));
    QVERIFY2(!w.jobs()->isBusy(), qPrintable(w.jobs()->label()->text()));
    QCOMPARE(w.playback().config().intents, 3);
    QVERIFY(w.messages()->currentMessage().contains("Not run"));
    // Yes runs it, in the background, and it can still be stopped.
    asked.clear();
    answer(QMessageBox::Yes);
    w.fireInBackground(large);
    QVERIFY(!asked.isEmpty());
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 5000);
    QCOMPARE(w.playback().config().intents, 3);
    // Under the limit nothing is asked.
    w.fireInBackground(config("order-create", 4, 1));
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->finishNow();
    QCOMPARE(w.playback().config().intents, 4);
}

// A lesson file with a frame above the cost limit: asked about before any
// of its runs starts (No by default: nothing runs, the call returns at
// once); Yes checks its frames in the background, where Cancel stops it.
void ResponsiveTest::aLessonAboveTheCostLimitIsAskedAboutFirst() {
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("order-create", 3, 1), &error), qPrintable(error));
    const QString path = QFINDTESTDATA("safety/over-limit-lesson.json");
    QVERIFY(!path.isEmpty());
    QString asked;
    bool busyWhenAsked = true;
    QPointer<QMessageBox> question;
    auto answer = [&](QMessageBox::StandardButton button) {
        QTimer::singleShot(0, [&, button] {
            question = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(question);
            QCOMPARE(question->objectName(), QStringLiteral("largeLessonQuestion"));
            QCOMPARE(question->defaultButton(), question->button(QMessageBox::No));
            asked = question->text();
            busyWhenAsked = w.jobs()->isBusy();
            question->button(button)->click();
        });
    };
    // Asked before anything runs; No: nothing runs at all.
    answer(QMessageBox::No);
    w.openLessonFileAt(path);
    QVERIFY(!busyWhenAsked);
    QVERIFY2(
        asked.contains("Everyone at once") && asked.contains(QLocale().toString(3'203'200'000LL)),
        qPrintable(asked));
    QVERIFY(!w.jobs()->isBusy());
    QVERIFY(!w.lessonPlayer()->isActive());
    QCOMPARE(w.playback().config().intents, 3);
    QVERIFY(w.messages()->currentMessage().contains("Not opened"));
    // Yes: the frames are checked in a worker; the window stays free.
    asked.clear();
    busyWhenAsked = true;
    answer(QMessageBox::Yes);
    w.openLessonFileAt(path);
    QVERIFY(!asked.isEmpty());
    QVERIFY(!busyWhenAsked);
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 5000);
    QVERIFY(!w.lessonPlayer()->isActive());
    QCOMPARE(w.playback().config().intents, 3);
}

// A job's bar and a message lie over the bottom right of the stage: the
// stage keeps its size (nothing is laid out again when they come and go), and
// the message is shown whole.
// Counts the layout requests a widget is sent.
class LayoutRequests : public QObject {
public:
    int count = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        count += event->type() == QEvent::LayoutRequest;
        return false;
    }
};

// Each step writes a new caption, a new position and new counts. The window
// is laid out again only when one of them needs more room or another table
// comes to the front; and no text is cut.
void ResponsiveTest::aStepsTextsLayOutNothingAroundThemWhileTheyFit() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("order-create", 10, 3), &error), qPrintable(error));
    w.playback().seek(120);  // the tables have their rows
    QCoreApplication::processEvents();
    QLabel* caption = nullptr;
    for (QLabel* label : w.findChild<QWidget*>("stepCaption")->findChildren<QLabel*>()) {
        if (label->wordWrap())
            caption = label;
    }
    QLabel* position = nullptr;
    for (QLabel* label : w.playbackBar()->findChildren<QLabel*>()) {
        if (label->text().contains(QStringLiteral("step ")))
            position = label;
    }
    auto* tables = w.findChild<QTabWidget*>("tableTabs");
    QVERIFY(caption && position && tables);
    LayoutRequests requests;
    w.installEventFilter(&requests);
    QSet<QString> captions;
    int quiet = 0;  // steps that needed no more room and kept the table in front
    for (int i = 0; i < 60 && !w.playback().atEnd(); ++i) {
        const int tab = tables->currentIndex();
        const QSize captionRoom = caption->size(), positionRoom = position->size();
        const int before = requests.count;
        w.playback().stepForward();
        // A request climbs one parent per turn of the event loop.
        for (int turn = 0; turn < 12; ++turn) QCoreApplication::processEvents();
        const bool needed = caption->heightForWidth(caption->width()) > captionRoom.height() ||
                            position->sizeHint().width() > positionRoom.width() ||
                            tables->currentIndex() != tab;
        if (!needed) {
            ++quiet;
            QVERIFY2(requests.count == before, qPrintable(caption->text()));
        }
        QTRY_VERIFY2(position->width() >= position->sizeHint().width(),
                     qPrintable(position->text()));
        QTRY_VERIFY2(caption->height() >= caption->heightForWidth(caption->width()),
                     qPrintable(caption->text()));
        captions.insert(caption->text());
    }
    w.removeEventFilter(&requests);
    QVERIFY(captions.size() > 20);
    QVERIFY2(quiet > 30, qPrintable(QString::number(quiet)));
}

void ResponsiveTest::messagesFloatOverTheStageWithoutMovingIt() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("payment-callback", 4, 2), &error), qPrintable(error));
    QCoreApplication::processEvents();
    QWidget* stage = w.centralWidget();
    const QRect before = stage->geometry();
    QVERIFY(!w.messages()->isVisible());
    QTemporaryDir dir;
    w.saveTraceTo(dir.filePath("trace.json"));
    w.jobs()->finishNow();
    QCoreApplication::processEvents();
    QStatusBar* bar = w.messages();
    QVERIFY(bar->currentMessage().contains("Saved"));
    QVERIFY(bar->isVisible());
    QCOMPARE(stage->geometry(), before);
    const QRect where(bar->mapTo(&w, QPoint()), bar->size());
    QVERIFY2(before.contains(where), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                    .arg(where.x())
                                                    .arg(where.y())
                                                    .arg(where.width())
                                                    .arg(where.height())));
    QCOMPARE(where.bottomRight(), before.bottomRight());
    QVERIFY(where.width() > bar->fontMetrics().horizontalAdvance(bar->currentMessage()));
    bar->clearMessage();
    QTRY_VERIFY(!bar->isVisible());
    QCOMPARE(stage->geometry(), before);
}

void ResponsiveTest::saveTraceWritesTheRunOnScreen() {
    MainWindow w(false);
    w.show();
    QString error;
    const RunConfig c = config("payment-callback", 4, 2);
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().stepForward();
    const qsizetype shown = w.playback().eventCount();
    QTemporaryDir dir;
    const QString path = dir.filePath("trace.json");
    w.saveTraceTo(path);
    QVERIFY(w.jobs()->isBusy());
    w.jobs()->finishNow();
    QVERIFY2(w.messages()->currentMessage().contains("Saved"),
             qPrintable(w.messages()->currentMessage()));
    // The run on screen went to its end; its judged events are not steps.
    QVERIFY(w.playback().atEnd());
    QVERIFY(w.playback().eventCount() > shown);
    QVERIFY(w.playback().run()->trace().size() > w.playback().eventCount());
    // Byte for byte what a fresh run streams to a file (as --trace does).
    const QString again = dir.filePath("again.json");
    TraceFileWriter writer;
    QVERIFY2(writer.open(again, c, &error), qPrintable(error));
    const RunResult run = runToEnd(c, *findScenario(c.scenario), RunOptions::untraced(&writer));
    QVERIFY(run.ok());
    QVERIFY2(writer.commit(run.summary.toJson(), &error), qPrintable(error));
    QFile saved(path), fresh(again);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(fresh.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), fresh.readAll());
    // Stepping back still works after the save.
    w.playback().stepBack();
    QCOMPARE(w.playback().position(), w.playback().length() - 1);
}

void ResponsiveTest::theExperimentChartIsUpdatedInPlace() {
    MainWindow w(false);
    w.show();
    QString error;
    QVERIFY2(w.fire(config("order-create", 3, 1), &error), qPrintable(error));
    ExperimentView* experiment = w.experimentView();
    auto* view = experiment->findChild<QChartView*>();
    QVERIFY(view);
    QChart* chart = view->chart();
    experiment->intentsBox()->setValue(50);
    QSignalSpy finished(experiment, &ExperimentView::finished);
    experiment->start();
    QVERIFY(finished.wait(kExperimentGuardMs));
    QCOMPARE(view->chart(), chart);
    QVERIFY(!experiment->results().isEmpty());
}

// The experiment's runner lives in models/: it runs headless, reports each
// batch, counts every intent once, and stops at the batch in progress.
void ResponsiveTest::theExperimentRunsWithoutAWindowAndStops() {
    const Scenario& scenario = *findScenario("order-create");
    ExperimentPlan plan;
    plan.variants = {"none", "dedup-table"};
    plan.intentsPerVariant = 30;
    plan.batch = 10;
    int batches = 0;
    const std::vector<ExperimentTally> whole =
        runExperiment(scenario, plan, nullptr,
                      [&batches](const QString&, const std::array<qint64, kVerdictCount>&,
                                 const RunCost&, int done, int total) {
                          ++batches;
                          QCOMPARE(total, 6);
                          QCOMPARE(done, batches);
                      });
    QCOMPARE(batches, 6);
    QCOMPARE(whole.size(), std::size_t(2));
    for (const ExperimentTally& t : whole) {
        qint64 sum = 0;
        for (qint64 n : t.verdicts) sum += n;
        QCOMPARE(t.intents, 30);
        QCOMPARE(sum, 30);
    }
    for (const ExperimentTally& t : whole) {
        if (t.variant == QLatin1String("dedup-table"))
            QCOMPARE(t.verdicts[std::size_t(Verdict::ExactlyOnce)], 30);
    }
    // Stopped after its second batch: the first two batches' counts only.
    std::atomic<bool> stop{false};
    int seen = 0;
    const std::vector<ExperimentTally> stopped =
        runExperiment(scenario, plan, &stop,
                      [&](const QString&, const std::array<qint64, kVerdictCount>&, const RunCost&,
                          int done, int) {
                          seen = done;
                          if (done == 2)
                              stop = true;
                      });
    QCOMPARE(seen, 2);
    qint64 counted = 0;
    for (const ExperimentTally& t : stopped) counted += t.intents;
    QCOMPARE(counted, 20);
}

// Another scenario chosen while the experiment runs: the old scenario's
// batches still on their way are dropped, and the chart holds only what the
// new scenario's experiment counts.
void ResponsiveTest::aScenarioChosenMidExperimentShowsOnlyItsOwnResults() {
    MainWindow w(false);
    QString error;
    QVERIFY2(showAndFire(w, config("order-create", 2, 1), &error), qPrintable(error));
    ExperimentView* e = w.experimentView();
    w.tabs()->setCurrentWidget(e);
    e->intentsBox()->setValue(e->intentsBox()->maximum());
    e->start();
    QVERIFY(e->isRunning());
    // Batches of order-create are arriving.
    QTRY_VERIFY_WITH_TIMEOUT(!e->results().isEmpty(), kExperimentGuardMs);
    QVERIFY2(w.fire(config("payment-callback", 2, 1), &error), qPrintable(error));
    QVERIFY(!e->isRunning());  // its worker stopped and joined
    // Whatever the old worker queued before it ended is delivered now.
    QCoreApplication::sendPostedEvents();
    QVERIFY2(e->results().isEmpty(), qPrintable(QStringList(e->results().keys()).join(' ')));
    e->intentsBox()->setValue(20);
    QSignalSpy finished(e, &ExperimentView::finished);
    e->start();
    QVERIFY(finished.wait(kExperimentGuardMs));
    QStringList variants;
    for (const VariantInfo& v : findScenario("payment-callback")->info().variants) variants << v.id;
    const auto results = e->results();
    QVERIFY(!results.isEmpty());
    for (auto it = results.cbegin(); it != results.cend(); ++it) {
        QVERIFY2(variants.contains(it.key()), qPrintable(it.key()));
        int sum = 0;
        for (int n : it.value()) sum += n;
        QCOMPARE(sum, 20);
    }
}

QTEST_MAIN(ResponsiveTest)
#include "responsive_test.moc"
