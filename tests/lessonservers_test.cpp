// The lessons on real servers (locks; Redis), played the way a teacher plays
// them: presenter mode at 1280×720, Page Down only, in Chinese and English.
// On a machine with both servers every frame runs on its server, stops at
// its pause, and each prediction's answer is read from that run. Without
// the servers' packages (tests/without_servers.sh) each server frame plays
// the run recorded with the lesson, says so, and gives the same answers.
#include "lesson.h"
#include "lessonbook.h"
#include "lessonpanel.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "locksview.h"
#include "mainwindow.h"
#include "playback.h"
#include "privateredis.h"
#include "run.h"
#include "runcontroller.h"
#include "serverinstall.h"
#include "traceevent.h"

#include <QApplication>
#include <QTabWidget>
#include <QTest>

using namespace idem;

namespace {

const QStringList kServerLessons{"gap-lock-deadlock", "green-on-sqlite", "unique-key-waits",
                                 "real-redis"};

void press(MainWindow& w, Qt::Key key) {
    QWidget* target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &w, key);
    QTest::qWait(10);
}

[[nodiscard]] bool showForClass(MainWindow& w, const QString& language) {
    w.setLanguage(language);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    if (!QTest::qWaitForWindowActive(&w))
        return false;
    press(w, Qt::Key_F11);
    QTest::qWait(100);
    return true;
}

// A frame on a server gets to its pause in a worker: the window answers
// meanwhile; the test waits for it as a teacher would.
void settle(MainWindow& w) {
    w.lessonPlayer()->finishArriving();
    w.jobs()->finishNow();
    QVERIFY(!w.lessonPlayer()->arriving());
}

bool serversInstalled() {
    return missingServerPackage("mariadb").isEmpty() &&
           missingServerPackage("postgres").isEmpty() && PrivateRedis::missingPackage().isEmpty();
}

bool noServerInstalled() {
    return !missingServerPackage("mariadb").isEmpty() &&
           !missingServerPackage("postgres").isEmpty() && !PrivateRedis::missingPackage().isEmpty();
}

// Plays `lesson` by Page Down in presenter mode, checking each frame;
// `recorded`: the servers are missing, and each server frame plays the run
// recorded with the lesson, saying so.
void playByPageDown(const QString& lesson, const QString& language, bool recorded) {
    const Lesson* l = findLesson(lesson);
    QVERIFY(l);
    MainWindow w(false);
    QVERIFY(showForClass(w, language));
    QString error;
    QVERIFY2(w.startLesson(lesson, 0, &error), qPrintable(error));
    LessonPlayer* player = w.lessonPlayer();
    LessonPanel* panel = w.lessonPanel();
    settle(w);
    int questions = 0;
    bool sawLocksInFront = false;
    bool pointsAtLocks = false;
    for (const LessonFrame& f : l->frames) pointsAtLocks |= f.highlight.locks;
    for (int frame = 0; frame < l->frames.size(); ++frame) {
        const LessonFrame& f = l->frames[frame];
        const QString where = QStringLiteral("%1 frame %2").arg(lesson).arg(frame + 1);
        QCOMPARE(player->frame(), frame);
        QVERIFY2(player->fireError().isEmpty(), qPrintable(where + ": " + player->fireError()));
        if (const std::optional<MissingServer> missing = frameMissingServer(*l, frame)) {
            QVERIFY2(recorded, qPrintable(where));
            QCOMPARE(player->notice(), LessonPanel::recordedRunText(*missing));
        } else {
            QVERIFY2(player->notice().isEmpty(), qPrintable(where));
        }
        QCOMPARE(panel->narration(), f.narration.in(language));
        const std::optional<RunConfig> config = frameConfig(*l, frame);
        QVERIFY(config);
        QCOMPARE(w.playback().config().backend, config->backend);
        QCOMPARE(w.playback().config().variant, config->variant);
        // Stopped at the frame's pause: an event pause's event is in the step on show.
        QCOMPARE(w.playback().position(), player->pausePosition(frame));
        if (f.pause.kind == PausePoint::Kind::Event) {
            const QList<TraceEvent>& events = w.playback().run()->trace().events();
            bool found = false;
            for (qsizetype i = w.playback().lastStepBegin(); i < events.size() && !found; ++i)
                found = f.pause.matches(events.at(i));
            QVERIFY2(found, qPrintable(where + ": not at " + f.pause.describe()));
        }
        if (f.highlight.locks) {
            const LiveStage* stage = w.liveStage();
            QVERIFY2(stage->tableTabs()->currentWidget() == stage->locksView(), qPrintable(where));
            sawLocksInFront = true;
        }
        // IDEM_LESSON_SHOTS=PREFIX: a picture of each frame as the class sees
        // it, PREFIX<lesson>-<language>-<frame>.png (and -answer.png after a reveal).
        const QString shots = qEnvironmentVariable("IDEM_LESSON_SHOTS");
        const auto shoot = [&](const QString& suffix) {
            if (!shots.isEmpty())
                w.grab().save(QStringLiteral("%1%2-%3-%4%5.png")
                                  .arg(shots, lesson, language)
                                  .arg(frame + 1, 2, 10, QLatin1Char('0'))
                                  .arg(suffix));
        };
        shoot(QString());
        if (f.question) {
            ++questions;
            QVERIFY(panel->answerText().isEmpty());
            press(w, Qt::Key_PageDown);
            settle(w);
            QCOMPARE(player->frame(), frame);
            QVERIFY(w.playback().atEnd());
            // What the window reveals is what the headless check reads from its run.
            const QString answer = lessonAnswer(f.question->answer, w.playback().finalSummary());
            QCOMPARE(answer, checkFrame(*l, frame).answer);
            QVERIFY2(panel->answerText().contains(lessonAnswerLabel(*f.question, answer, language)),
                     qPrintable(where + ": " + panel->answerText()));
            shoot(QStringLiteral("-answer"));
        }
        // The next frame's words are there as soon as the key is handled; a
        // run on a server follows from a worker (delivered by the event
        // loop, which this key press does not turn), the window answering.
        QWidget* focused = QApplication::focusWidget();
        QTest::keyClick(focused ? focused : &w, Qt::Key_PageDown);
        if (frame + 1 < l->frames.size()) {
            QCOMPARE(panel->narration(), l->frames[frame + 1].narration.in(language));
            if (l->frames[frame + 1].load && frameConfig(*l, frame + 1)->backend != "sqlite")
                QVERIFY2(player->arriving(), qPrintable(where));
        }
        settle(w);
    }
    QCOMPARE(player->frame(), int(l->frames.size()) - 1);
    QVERIFY(questions >= 3);
    QCOMPARE(sawLocksInFront, pointsAtLocks);
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("outcomeScroll"))->isVisible());
}

}  // namespace

class LessonServersTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void serverLessonsPlayByPageDown_data();
    void serverLessonsPlayByPageDown();
    void withoutServersTheRecordedRunsPlay_data();
    void withoutServersTheRecordedRunsPlay();
    void aRevealAskedOnTheWayWaitsForTheRun();
};

void LessonServersTest::serverLessonsPlayByPageDown_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("language");
    for (const QString& id : kServerLessons)
        for (const char* language : {"zh", "en"})
            QTest::newRow(qPrintable(id + ' ' + language)) << id << QString(language);
}

void LessonServersTest::serverLessonsPlayByPageDown() {
    if (!serversInstalled())
        QSKIP("MariaDB, PostgreSQL or Redis is not installed here");
    QFETCH(QString, lesson);
    QFETCH(QString, language);
    playByPageDown(lesson, language, false);
}

void LessonServersTest::withoutServersTheRecordedRunsPlay_data() {
    serverLessonsPlayByPageDown_data();
}

// The same lessons where neither server is installed: every server frame
// plays the run bundled with the lesson, to the same pauses, and the class
// gets the same answers.
void LessonServersTest::withoutServersTheRecordedRunsPlay() {
    if (!noServerInstalled())
        QSKIP("a server is installed here (tests/without_servers.sh hides them)");
    QFETCH(QString, lesson);
    QFETCH(QString, language);
    playByPageDown(lesson, language, true);
}

// Page Down on a prediction while its run is still on its way (a server
// starting, say): the answer comes once the run is there, read from it, with
// the run at its end; never from the run of the frame before.
void LessonServersTest::aRevealAskedOnTheWayWaitsForTheRun() {
    const Lesson* l = findLesson(QStringLiteral("gap-lock-deadlock"));
    QVERIFY(l);
    int asked = -1;
    for (int frame = 1; frame < l->frames.size() && asked < 0; ++frame) {
        const LessonFrame& f = l->frames[frame];
        if (f.question && f.load && frameConfig(*l, frame)->backend != "sqlite")
            asked = frame;
    }
    QVERIFY(asked > 0);
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("zh")));
    QString error;
    QVERIFY2(w.startLesson(l->id, asked - 1, &error), qPrintable(error));
    settle(w);
    LessonPlayer* player = w.lessonPlayer();
    QWidget* focused = QApplication::focusWidget();
    QTest::keyClick(focused ? focused : &w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), asked);
    QVERIFY(player->arriving());
    QTest::keyClick(focused ? focused : &w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), asked);
    QVERIFY(!player->answerShown());  // not yet: nothing to read it from
    settle(w);
    QVERIFY(player->answerShown());
    QVERIFY(w.playback().atEnd());
    const QString answer =
        lessonAnswer(l->frames[asked].question->answer, w.playback().finalSummary());
    QCOMPARE(answer, checkFrame(*l, asked).answer);
    QVERIFY(w.lessonPanel()->answerText().contains(
        lessonAnswerLabel(*l->frames[asked].question, answer, QStringLiteral("zh"))));
}

QTEST_MAIN(LessonServersTest)
#include "lessonservers_test.moc"
