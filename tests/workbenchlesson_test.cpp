// The lesson that introduces the workbench, played in the real window off
// screen with a presentation remote's keys: the double click on the stage,
// the starter on the Workbench page, Check, the smallest failing run on the
// stage at its two INSERTs, and back to the editor for the fix; the
// student's own saved handler is never written over by the lesson's starter.
// Also the run a worker started and another thread steps (a lesson's frame
// goes to its pause in a worker): the handler's engine follows the thread.
#include "attack.h"
#include "challenge.h"
#include "challengescenario.h"
#include "compareview.h"
#include "handlereditor.h"
#include "lessonplayer.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "playback.h"
#include "playedrun.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "serverinstall.h"
#include "stepcaption.h"
#include "trace.h"
#include "workbenchview.h"

#include <QAction>
#include <QFile>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace idem;

namespace {

constexpr int kCheckMs = 120'000;

void pageDown(MainWindow& w) {
    QWidget* target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &w, Qt::Key_PageDown);
    for (int i = 0; i < 100 && (w.jobs()->isBusy() || w.lessonPlayer()->arriving()); ++i) {
        w.lessonPlayer()->finishArriving();
        w.jobs()->finishNow();
        QCoreApplication::processEvents();
    }
}

QString fileText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The statements the run on the stage has sent so far, in order.
QStringList sentStatements(const MainWindow& w) {
    QStringList sent;
    const QList<TraceEvent>& events = w.playback().played()->run().trace().events();
    for (qsizetype i = 0; i < std::min<qsizetype>(w.playback().eventCount(), events.size()); ++i) {
        const TraceEvent& e = events.at(i);
        if (e.kind == EventKind::Sql && e.attempt > 0)
            sent << QStringLiteral("#%1 %2").arg(e.attempt).arg(
                e.sql.section(QLatin1Char(' '), 0, 0));
    }
    return sent;
}

}  // namespace

class WorkbenchLessonTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void theLessonGoesFromTheDoubleClickToTheFix();
    void aRunStartedByOneThreadIsSteppedByAnother();
    void aFailingRunIsComparedOnTwoDatabases();

private:
    QTemporaryDir dir_;
};

void WorkbenchLessonTest::initTestCase() {
    QVERIFY(dir_.isValid());
    QApplication::setApplicationName("idemlab-test");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath("settings"));
}

void WorkbenchLessonTest::theLessonGoesFromTheDoubleClickToTheFix() {
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    WorkbenchView* view = w.workbenchView();
    const Challenge& first = *findChallenge(QStringLiteral("double-click"));
    // The student's own handler, saved before the lesson.
    view->openChallenge(first.id);
    const QString own = first.starter + QStringLiteral("// my first try\n");
    view->editor()->setPlainText(own);
    QVERIFY(view->save());
    const QString path = view->handlerPath();
    QCOMPARE(fileText(path), own);

    QString error;
    QVERIFY2(w.startLesson(QStringLiteral("write-the-fix"), 0, &error), qPrintable(error));
    LessonPlayer* lesson = w.lessonPlayer();
    lesson->finishArriving();
    QCOMPARE(lesson->frame(), 0);
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
    pageDown(w);  // the answer: two orders
    QVERIFY(lesson->answerShown());
    pageDown(w);
    QCOMPARE(lesson->frame(), 1);
    QCOMPARE(w.playback().finalSummary().verdict, Verdict::Duplicated);

    // The Workbench, the starter in the editor; the student's file as it was.
    pageDown(w);
    QCOMPARE(lesson->frame(), 2);
    QCOMPARE(w.tabs()->currentWidget(), view);
    QCOMPARE(view->challengeId(), first.id);
    QCOMPARE(view->editor()->toPlainText(), first.starter);
    QCOMPARE(fileText(path), own);
    // Page Down is the remote's even with the focus in the editor.
    view->editor()->setFocus();
    QVERIFY(w.action("step")->isEnabled());

    // Check: it fails, and the file is still the student's.
    pageDown(w);
    QCOMPARE(lesson->frame(), 3);
    QCOMPARE(w.tabs()->currentWidget(), view);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isChecking(), kCheckMs);
    QVERIFY(view->lastResult());
    QCOMPARE(int(view->lastResult()->outcome), int(AttackResult::Outcome::Failed));
    QVERIFY(view->results()->item(0, 2)->text().startsWith(QStringLiteral("failed")));
    QCOMPARE(fileText(path), own);

    // The smallest failing run on the stage: the one Check found.
    pageDown(w);
    QCOMPARE(lesson->frame(), 4);
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
    QCOMPARE(w.playback().config().workbench.value("challenge").toString(), first.id);
    QCOMPARE(w.playback().config().workbench.value("schedule").toObject(),
             view->lastResult()->counterexample->config.workbench.value("schedule").toObject());
    QCOMPARE(w.playback().position(), 0);
    pageDown(w);  // the answer, read from the run
    QVERIFY(lesson->answerShown());
    QCOMPARE(w.playback().finalSummary().verdict, Verdict::Duplicated);

    // Its pause: #1's INSERT after both SELECTs and #2's INSERT, stepped in a
    // worker that did not start the run. No attempt was answered with an error.
    pageDown(w);
    QCOMPARE(lesson->frame(), 5);
    QCOMPARE(sentStatements(w), (QStringList{"#1 SELECT", "#2 SELECT", "#2 INSERT", "#1 INSERT"}));
    QVERIFY(w.caption()->isVisible());
    QVERIFY2(w.caption()->caption().contains(QStringLiteral("#1")),
             qPrintable(w.caption()->caption()));
    for (const TraceEvent& e : w.playback().played()->run().trace().events())
        QVERIFY2(
            !(e.kind == EventKind::Response && e.fields.text("response") == QLatin1String("error")),
            "an attempt was answered with an error");

    // Back to the editor for the fix; the student's text is one undo away.
    pageDown(w);
    QCOMPARE(lesson->frame(), 6);
    QCOMPARE(w.tabs()->currentWidget(), view);
    view->editor()->undo();
    QCOMPARE(view->editor()->toPlainText(), own);
    // Leaving the challenge with the starter on screen writes nothing over it.
    view->editor()->redo();
    QCOMPARE(view->editor()->toPlainText(), first.starter);
    view->openChallenge(allChallenges().at(1).id);
    QCOMPARE(fileText(path), own);
}

void WorkbenchLessonTest::aRunStartedByOneThreadIsSteppedByAnother() {
    registerChallengeScenarios();
    const Challenge& first = *findChallenge(QStringLiteral("double-click"));
    AttackOptions options;
    const AttackResult r = attackHandler(first, first.starter, "double-click.js", options);
    QVERIFY(r.counterexample);
    const RunConfig config = r.counterexample->config;
    const Scenario* scenario = findScenario(config.scenario);
    QVERIFY(scenario);
    // Started in one thread (a fired run's worker), which then ends ...
    const Playback::Measure measured = Playback::measure(config, *scenario);
    QVERIFY2(measured.ok, qPrintable(measured.error));
    QVERIFY(measured.steps > 3);
    std::unique_ptr<PlayedRun> played;
    QString error;
    std::thread([&] {
        played = PlayedRun::start(config, *scenario, int(measured.steps), &error);
    }).join();
    QVERIFY2(played, qPrintable(error));
    // ... stepped in another (a frame's way to its pause), then here.
    std::thread([&] { played->advance(3); }).join();
    QCOMPARE(played->position(), 3);
    while (played->stepForward()) {
    }
    QStringList sent;
    bool errors = false;
    for (const TraceEvent& e : played->run().trace().events()) {
        if (e.kind == EventKind::Sql && e.attempt > 0)
            sent << QStringLiteral("#%1 %2").arg(e.attempt).arg(e.sql.section(' ', 0, 0));
        errors = errors || (e.kind == EventKind::Response &&
                            e.fields.text("response") == QLatin1String("error"));
    }
    QCOMPARE(sent, (QStringList{"#1 SELECT", "#2 SELECT", "#2 INSERT", "#1 INSERT"}));
    QVERIFY(!errors);

    // A check on this thread meanwhile (the page's checkNow) leaves a run
    // begun here as it was.
    std::unique_ptr<PlayedRun> here =
        PlayedRun::start(config, *scenario, int(measured.steps), &error);
    QVERIFY2(here, qPrintable(error));
    here->advance(1);
    QCOMPARE(int(attackHandler(first, first.starter, "double-click.js", options).outcome),
             int(AttackResult::Outcome::Failed));
    while (here->stepForward()) {
    }
    for (const TraceEvent& e : here->run().trace().events())
        QVERIFY2(
            !(e.kind == EventKind::Response && e.fields.text("response") == QLatin1String("error")),
            "an attempt was answered with an error after a check on its thread");
}

// Compare (Ctrl+K) with a student's failing run on the stage: the same
// handler and schedule on the database it failed on and on SQLite, each run
// in Compare's worker: the check-then-insert in a transaction that SQLite's
// single writer saves and MariaDB's snapshot does not.
void WorkbenchLessonTest::aFailingRunIsComparedOnTwoDatabases() {
    if (!missingServerPackage(QStringLiteral("mariadb")).isEmpty())
        QSKIP("MariaDB is not installed here");
    registerChallengeScenarios();
    const Challenge& first = *findChallenge(QStringLiteral("double-click"));
    QFile wrongFix(QStringLiteral(IDEM_SOURCE_DIR "/tests/workbench/double-click.check-in-tx.js"));
    QVERIFY(wrongFix.open(QIODevice::ReadOnly));
    AttackOptions options;
    options.backend = QStringLiteral("mariadb");
    options.preemptions = 1;
    const AttackResult r =
        attackHandler(first, QString::fromUtf8(wrongFix.readAll()), "double-click.js", options);
    QVERIFY2(r.counterexample, qPrintable(r.message));

    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QString error;
    QVERIFY2(w.fire(r.counterexample->config, &error), qPrintable(error));
    CompareView* compare = w.compareView();
    compare->setBackend(1, QStringLiteral("sqlite"));
    w.action("compare")->trigger();
    QCOMPARE(w.tabs()->currentWidget(), compare);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && !compare->isShowing(), kCheckMs);
    QCOMPARE(compare->backend(0), QStringLiteral("mariadb"));
    QCOMPARE(compare->outcome(0)->verdictId(), QStringLiteral("duplicated"));
    QCOMPARE(compare->outcome(1)->verdictId(), QStringLiteral("exactly-once"));
}

QTEST_MAIN(WorkbenchLessonTest)
#include "workbenchlesson_test.moc"
