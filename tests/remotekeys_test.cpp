// Lessons played the way a teacher plays them: presenter mode at 1280×720,
// a presentation remote's keys (Page Down and Up, Space, the arrows, Home,
// End) sent to whatever has the focus, in Chinese and in English, with the
// animations left to run between keys. First the exact keys that once
// crashed the first lesson a teacher opens, then seeded random keys over
// every bundled lesson. Under the sanitizers (CI's second stage) a deleted
// item touched by an animation is a failure.
#include "lesson.h"
#include "lessonbook.h"
#include "lessonplayer.h"
#include "mainwindow.h"
#include "playback.h"
#include "runcontroller.h"

#include <QApplication>
#include <QInputDialog>
#include <QRandomGenerator>
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

}  // namespace

class RemoteKeysTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void theKeysThatCrashedTheUniqueKeyLesson_data();
    void theKeysThatCrashedTheUniqueKeyLesson();
    void randomRemoteKeysOverEveryLesson_data();
    void randomRemoteKeysOverEveryLesson();
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
    w.jobs()->finishNow();
    QVERIFY2(w.isVisible(), qPrintable(pressed.join(QLatin1Char(' '))));
    // Wherever the keys left it, the lesson still answers Page Down.
    const int before = w.lessonPlayer()->frame();
    const bool answer = w.lessonPlayer()->answerShown();
    w.lessonPlayer()->next();
    QVERIFY2(w.lessonPlayer()->frame() > before || w.lessonPlayer()->answerShown() != answer ||
                 before == frames - 1,
             qPrintable(pressed.join(QLatin1Char(' '))));
}

QTEST_MAIN(RemoteKeysTest)
#include "remotekeys_test.moc"
