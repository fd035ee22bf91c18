// Lessons played the way a teacher plays them: presenter mode at 1280×720,
// a presentation remote's keys (Page Down and Up, Space, the arrows, Home,
// End) sent to whatever has the focus, in Chinese and in English, with the
// animations left to run between keys. First the exact keys that once
// crashed the first lesson a teacher opens, then seeded random keys over
// every bundled lesson. Under the sanitizers (CI's second stage) a deleted
// item touched by an animation is a failure. Then the keys that once parted
// the frame's words from the stage (Escape, F5, Page Down while a frame is on
// its way), and the black screen of B and '.'.
#include "firepanel.h"
#include "keysoverlay.h"
#include "lesson.h"
#include "lessonbook.h"
#include "lessonplayer.h"
#include "mainwindow.h"
#include "playback.h"
#include "runcontroller.h"

#include <QApplication>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

using namespace idem;

namespace {

// How long the window runs between two keys: long enough for a glow's pulse
// and a table's flash to take a few frames, as they do on a real screen.
constexpr int kBetweenKeysMs = 25;

void press(MainWindow& w, Qt::Key key) {
    QWidget* target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &w, key);
    QTest::qWait(kBetweenKeysMs);
}

// The teacher's window: presenter mode by its key (F11), at a projector's size.
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

// Waits for whatever the keys sent to a worker, the frame's way to its pause
// included.
void settle(MainWindow& w) {
    for (int i = 0; i < 100 && (w.jobs()->isBusy() || w.lessonPlayer()->arriving()); ++i) {
        w.lessonPlayer()->finishArriving();
        w.jobs()->finishNow();
        QCoreApplication::processEvents();
    }
    QVERIFY(!w.jobs()->isBusy());
    QVERIFY(!w.lessonPlayer()->arriving());
}

// The lesson's frame and the stage agree: the frame's configuration, run to
// the frame's pause.
void verifyStageAtFrame(MainWindow& w, int frame) {
    LessonPlayer* player = w.lessonPlayer();
    QVERIFY(player->isActive());
    QCOMPARE(player->frame(), frame);
    const std::optional<RunConfig> config = playableFrameConfig(player->lesson(), frame);
    QVERIFY(config);
    QVERIFY(w.playback().isLoaded());
    QCOMPARE(w.playback().config().toJson(), config->toJson());
    const int pause = player->pausePosition(frame);
    QVERIFY(pause >= 0);
    QCOMPARE(w.playback().position(), pause);
}

// A check made in a helper: the test goes no further once it failed.
#define STOP_ON_FAILURE(check)          \
    do {                                \
        check;                          \
        if (QTest::currentTestFailed()) \
            return;                     \
    } while (false)

// Looked for by name: a window without one says so, rather than not building.
QWidget* blankCover(MainWindow& w) {
    return w.findChild<QWidget*>(QStringLiteral("blankCover"));
}

// Black over the whole window, above everything in it.
void verifyBlank(MainWindow& w) {
    QWidget* cover = blankCover(w);
    QVERIFY2(cover, "no black screen in the window");
    QVERIFY(cover->isVisible());
    QCOMPARE(cover->geometry(), w.rect());
    for (const QPoint& p : {w.rect().center(), QPoint(2, 2), w.rect().bottomRight() - QPoint(2, 2)})
        QCOMPARE(w.childAt(p), cover);
    const QImage shot = w.grab().toImage();
    QCOMPARE(shot.pixelColor(shot.rect().center()), QColor(Qt::black));
    // To look at: IDEMLAB_BLANK_SHOT=/tmp/blank.png
    if (const QString path = qEnvironmentVariable("IDEMLAB_BLANK_SHOT"); !path.isEmpty())
        QVERIFY(shot.save(path));
}

bool isBlank(MainWindow& w) {
    const QWidget* cover = blankCover(w);
    return cover && cover->isVisible();
}

}  // namespace

class RemoteKeysTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void theKeysThatCrashedTheUniqueKeyLesson_data();
    void theKeysThatCrashedTheUniqueKeyLesson();
    void randomRemoteKeysOverEveryLesson_data();
    void randomRemoteKeysOverEveryLesson();
    void escapeRightAfterChoosingAFrameKeepsIt_data();
    void escapeRightAfterChoosingAFrameKeepsIt();
    void f5ReplaysTheFrameOnScreen_data();
    void f5ReplaysTheFrameOnScreen();
    void pageDownsWhileAFrameArrivesAreKept();
    void blankingKeysBlankTheWindow_data();
    void blankingKeysBlankTheWindow();
    void blankingKeysInALesson();
    void blankingKeysTypeIntoAField();
    void theKeyListFitsAProjector_data();
    void theKeyListFitsAProjector();
};

void RemoteKeysTest::theKeysThatCrashedTheUniqueKeyLesson_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("zh") << "zh";
    QTest::newRow("en") << "en";
}

// F11, F2, Down Down Enter (the unique-key lesson), Page Down ×7, Space,
// Page Up: the state diagram's glow pulsed an item its rebuild had deleted.
void RemoteKeysTest::theKeysThatCrashedTheUniqueKeyLesson() {
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showForClass(w, language));
    QVERIFY(w.action("presenter")->isChecked());
    // F2 opens the lesson list, a dialog of its own: answered with the keys
    // once it is open (looked for while its event loop turns).
    bool chosen = false;
    QTimer lookForList;
    lookForList.setInterval(10);
    QObject::connect(&lookForList, &QTimer::timeout, &w, [&chosen, &lookForList] {
        QWidget* dialog = QApplication::activeModalWidget();
        if (!qobject_cast<QInputDialog*>(dialog))
            return;
        lookForList.stop();
        QWidget* list = dialog->focusWidget() ? dialog->focusWidget() : dialog;
        QTest::keyClick(list, Qt::Key_Down);
        QTest::keyClick(list, Qt::Key_Down);
        QTest::keyClick(dialog->focusWidget() ? dialog->focusWidget() : dialog, Qt::Key_Return);
        chosen = true;
    });
    lookForList.start();
    press(w, Qt::Key_F2);
    QTRY_VERIFY(chosen);
    QTRY_VERIFY(w.lessonPlayer()->isActive());
    QCOMPARE(w.lessonPlayer()->lesson().id, QStringLiteral("unique-key"));
    for (int i = 0; i < 7; ++i) press(w, Qt::Key_PageDown);
    press(w, Qt::Key_Space);
    QTest::qWait(400);  // the frame plays, step by step
    press(w, Qt::Key_PageUp);
    QTest::qWait(1200);  // every pulse and flash runs out
    w.jobs()->finishNow();
    QVERIFY(w.lessonPlayer()->isActive());
    QVERIFY(w.isVisible());
}

void RemoteKeysTest::randomRemoteKeysOverEveryLesson_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("language");
    for (const Lesson& l : bundledLessons()) {
        for (const char* language : {"zh", "en"})
            QTest::newRow(qPrintable(l.id + QLatin1Char(' ') + QLatin1String(language)))
                << l.id << QString::fromLatin1(language);
    }
}

// Seeded, so that a failure names keys that can be pressed again.
void RemoteKeysTest::randomRemoteKeysOverEveryLesson() {
    QFETCH(QString, lesson);
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showForClass(w, language));
    QString error;
    QVERIFY2(w.startLesson(lesson, 0, &error), qPrintable(error));
    const QList<Qt::Key> remote{Qt::Key_PageDown, Qt::Key_PageDown, Qt::Key_PageDown,
                                Qt::Key_PageUp,   Qt::Key_Space,    Qt::Key_Right,
                                Qt::Key_Left,     Qt::Key_Home,     Qt::Key_End};
    QRandomGenerator random(quint32(qHash(lesson + language)));
    QStringList pressed;
    const int frames = int(w.lessonPlayer()->lesson().frames.size());
    for (int i = 0; i < frames * 4; ++i) {
        const Qt::Key key = remote.at(int(random.bounded(quint32(remote.size()))));
        pressed << QKeySequence(key).toString();
        press(w, key);
        // A long seek runs in a worker; the keys go on meanwhile, as a
        // teacher's would, and its result lands between them.
        if (i % 7 == 6)
            w.jobs()->finishNow();
    }
    QTest::qWait(300);
    settle(w);
    QVERIFY2(w.isVisible(), qPrintable(pressed.join(QLatin1Char(' '))));
    // Wherever the keys left it, the lesson still answers Page Down (on a
    // frame still on its way: once it is there).
    const int before = w.lessonPlayer()->frame();
    const bool answer = w.lessonPlayer()->answerShown();
    w.lessonPlayer()->next();
    w.lessonPlayer()->finishArriving();
    QVERIFY2(w.lessonPlayer()->frame() > before || w.lessonPlayer()->answerShown() != answer ||
                 before == frames - 1,
             qPrintable(pressed.join(QLatin1Char(' '))));
}

void RemoteKeysTest::escapeRightAfterChoosingAFrameKeepsIt_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("frame");
    QTest::newRow("sqlite, loads its run") << "green-on-sqlite" << 0;
    QTest::newRow("sqlite, goes on with the run before") << "first-five-minutes" << 3;
    QTest::newRow("mariadb") << "gap-lock-deadlock" << 0;
    QTest::newRow("postgres, paused at a lock wait") << "gap-lock-deadlock" << 6;
}

// Escape within a fraction of a second of choosing a frame (it stops a
// worker's job): the frame still arrives, its words over its own run.
void RemoteKeysTest::escapeRightAfterChoosingAFrameKeepsIt() {
    QFETCH(QString, lesson);
    QFETCH(int, frame);
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("zh")));
    STOP_ON_FAILURE(settle(w));
    QString error;
    QVERIFY2(w.startLesson(lesson, frame, &error), qPrintable(error));
    press(w, Qt::Key_Escape);
    STOP_ON_FAILURE(settle(w));
    STOP_ON_FAILURE(verifyStageAtFrame(w, frame));
    // Escape again leaves it as it is: nothing to mend.
    press(w, Qt::Key_Escape);
    STOP_ON_FAILURE(settle(w));
    STOP_ON_FAILURE(verifyStageAtFrame(w, frame));
}

void RemoteKeysTest::f5ReplaysTheFrameOnScreen_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("frame");
    QTest::newRow("first-five-minutes, frame 4") << "first-five-minutes" << 3;
    QTest::newRow("green-on-sqlite, frame 3") << "green-on-sqlite" << 2;
    QTest::newRow("gap-lock-deadlock, frame 3") << "gap-lock-deadlock" << 2;
}

// F5 (a remote's "start the show" key) on a frame: the frame again, from its
// start to its pause, not the fire panel's run from step 1 under its words.
void RemoteKeysTest::f5ReplaysTheFrameOnScreen() {
    QFETCH(QString, lesson);
    QFETCH(int, frame);
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("en")));
    QString error;
    QVERIFY2(w.startLesson(lesson, 0, &error), qPrintable(error));
    STOP_ON_FAILURE(settle(w));
    // Page Down to the frame, each question answered on the way.
    while (w.lessonPlayer()->frame() < frame) {
        press(w, Qt::Key_PageDown);
        STOP_ON_FAILURE(settle(w));
    }
    STOP_ON_FAILURE(verifyStageAtFrame(w, frame));
    QVERIFY2(w.playback().position() > 1, "a frame that a first step would not reach");
    press(w, Qt::Key_F5);
    STOP_ON_FAILURE(settle(w));
    STOP_ON_FAILURE(verifyStageAtFrame(w, frame));
    QVERIFY(!w.lessonPlayer()->answerShown());
}

// Page Down twice on a question while its frame is on its way: the answer,
// then the next frame, as on a frame already there. Space meanwhile plays
// the frame once it is there.
void RemoteKeysTest::pageDownsWhileAFrameArrivesAreKept() {
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("en")));
    QString error;
    QVERIFY2(w.startLesson(QStringLiteral("first-five-minutes"), 1, &error), qPrintable(error));
    LessonPlayer* player = w.lessonPlayer();
    QVERIFY(player->lesson().frames.at(1).question);
    QVERIFY(player->arriving());
    player->next();
    player->next();
    STOP_ON_FAILURE(settle(w));
    QCOMPARE(player->frame(), 2);
    STOP_ON_FAILURE(verifyStageAtFrame(w, 2));
}

void RemoteKeysTest::blankingKeysBlankTheWindow_data() {
    QTest::addColumn<int>("key");
    QTest::addColumn<bool>("dark");
    QTest::newRow("b, light") << int(Qt::Key_B) << false;
    QTest::newRow("., light") << int(Qt::Key_Period) << false;
    QTest::newRow("b, dark") << int(Qt::Key_B) << true;
    QTest::newRow("., dark") << int(Qt::Key_Period) << true;
}

// B or . (a remote's black-screen key) covers the whole window in black; the
// same key brings it back, and so does any other, which still does its work.
void RemoteKeysTest::blankingKeysBlankTheWindow() {
    QFETCH(int, key);
    QFETCH(bool, dark);
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("zh")));
    STOP_ON_FAILURE(settle(w));
    if (dark) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_T, Qt::ControlModifier);
        QVERIFY(w.action("dark")->isChecked());
    }
    QVERIFY(!isBlank(w));
    press(w, Qt::Key(key));
    STOP_ON_FAILURE(verifyBlank(w));
    press(w, Qt::Key(key));
    QVERIFY(!isBlank(w));
    // Any key: the stage is back, and the key did what it does.
    press(w, Qt::Key(key));
    STOP_ON_FAILURE(verifyBlank(w));
    const int at = w.playback().position();
    press(w, Qt::Key_Right);
    STOP_ON_FAILURE(settle(w));
    QVERIFY(!isBlank(w));
    QCOMPARE(w.playback().position(), at + 1);
    // It keeps covering the window when the window changes size.
    press(w, Qt::Key(key));
    w.resize(1024, 700);
    QTRY_COMPARE(blankCover(w)->geometry(), w.rect());
    press(w, Qt::Key(key));
    QVERIFY(!isBlank(w));
    // The list of keys (?) names them, in the window's language.
    QVERIFY(KeysOverlay::keyTable().contains(QStringLiteral("B / .")));
    QVERIFY(KeysOverlay::keyTable().contains(QStringLiteral("黑屏")));
}

void RemoteKeysTest::theKeyListFitsAProjector_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("zh") << "zh";
    QTest::newRow("en") << "en";
}

// ? at 1280×720 in presenter mode: every row of the list on screen, the last
// line (how to close it) included.
void RemoteKeysTest::theKeyListFitsAProjector() {
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showForClass(w, language));
    STOP_ON_FAILURE(settle(w));
    press(w, Qt::Key_Question);
    auto* overlay = w.findChild<KeysOverlay*>();
    QVERIFY(overlay && overlay->isVisible());
    auto* list = overlay->findChild<QLabel*>();
    QVERIFY(list);
    QVERIFY(list->text().contains(QStringLiteral("B / .")));
    QVERIFY2(overlay->rect().contains(list->geometry()), qPrintable(QStringLiteral("%1x%2 in %3x%4")
                                                                        .arg(list->width())
                                                                        .arg(list->height())
                                                                        .arg(overlay->width())
                                                                        .arg(overlay->height())));
    QVERIFY(list->sizeHint().height() <= list->height());
    // To look at: IDEMLAB_KEYS_SHOT=/tmp/keys.png
    if (const QString path = qEnvironmentVariable("IDEMLAB_KEYS_SHOT"); !path.isEmpty())
        QVERIFY(w.grab().save(path));
    press(w, Qt::Key_Escape);
    QVERIFY(!overlay->isVisible());
}

// In a lesson too: blank, and Page Down brings the stage back at the next frame.
void RemoteKeysTest::blankingKeysInALesson() {
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("en")));
    QString error;
    QVERIFY2(w.startLesson(QStringLiteral("first-five-minutes"), 0, &error), qPrintable(error));
    STOP_ON_FAILURE(settle(w));
    press(w, Qt::Key_Period);
    STOP_ON_FAILURE(verifyBlank(w));
    press(w, Qt::Key_PageDown);
    STOP_ON_FAILURE(settle(w));
    QVERIFY(!isBlank(w));
    STOP_ON_FAILURE(verifyStageAtFrame(w, 1));
    press(w, Qt::Key_B);
    STOP_ON_FAILURE(verifyBlank(w));
    press(w, Qt::Key_B);
    QVERIFY(!isBlank(w));
    STOP_ON_FAILURE(verifyStageAtFrame(w, 1));
}

// Typed into a field of the fire panel, B and . are text, not the black screen.
void RemoteKeysTest::blankingKeysTypeIntoAField() {
    MainWindow w(false);
    QVERIFY(showForClass(w, QStringLiteral("en")));
    STOP_ON_FAILURE(settle(w));
    QSpinBox* duplicates = w.firePanel()->duplicatesBox();
    duplicates->setFocus(Qt::TabFocusReason);
    QCOMPARE(QApplication::focusWidget(), duplicates);
    press(w, Qt::Key_B);
    QVERIFY(!isBlank(w));
    press(w, Qt::Key_Period);
    QVERIFY(!isBlank(w));
    duplicates->selectAll();
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("3"));
    press(w, Qt::Key_B);
    QVERIFY(!isBlank(w));
    QCOMPARE(duplicates->value(), 3);
    // Out of the field, B blanks.
    w.tabs()->setFocus(Qt::TabFocusReason);
    press(w, Qt::Key_B);
    STOP_ON_FAILURE(verifyBlank(w));
}

QTEST_MAIN(RemoteKeysTest)
#include "remotekeys_test.moc"
