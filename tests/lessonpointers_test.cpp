// Every frame of every bundled lesson, walked with Page Down as a teacher
// would on a 1280x720 projector in presenter mode, in Chinese and English:
// what the frame points at (a table, the Locks view, a lane, a state) is in
// front and inside the window, and the frame's title is in sight, read from
// the widgets' geometry rather than from the lesson file. Run where the
// servers are hidden, so that the server frames play their recordings.
#include "lesson.h"
#include "lessonbook.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "locksview.h"
#include "mainwindow.h"
#include "playback.h"
#include "runcontroller.h"
#include "sequenceview.h"
#include "sqllogview.h"
#include "statemachineview.h"
#include "tableview.h"

#include <QDeadlineTimer>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTest>

using namespace idem;

namespace {

// The views a hand-over leaves for the next frames are drawn by then: the
// tables and the SQL log a frame after it, the sequence diagram the next.
void settle(MainWindow& w) {
    w.lessonPlayer()->finishArriving();
    while (w.jobs()->isBusy()) w.jobs()->finishNow();
    const auto drawn = [&w] {
        return !w.playback().isLoaded() || w.playback().isLent() ||
               w.liveStage()->sequenceView()->drawnUpTo() == w.playback().eventCount();
    };
    QDeadlineTimer deadline(5000);
    while (!drawn() && !deadline.hasExpired()) QTest::qWait(2);
    QVERIFY(drawn());
    for (int pass = 0; pass < 3; ++pass) QCoreApplication::processEvents();
}

// The part of `widget` its parents and the window leave in sight, in the
// window's coordinates.
QRect shownRect(const QWidget* widget, const MainWindow& w) {
    QRect shown(widget->mapTo(&w, QPoint(0, 0)), widget->size());
    for (const QWidget* p = widget->parentWidget(); p && p != &w; p = p->parentWidget())
        shown &= QRect(p->mapTo(&w, QPoint(0, 0)), p->size());
    return shown & w.rect();
}

// The whole of `widget` is shown: visible, not clipped by its parents, and
// inside the window.
bool whole(const QWidget* widget, const MainWindow& w) {
    return widget->isVisible() &&
           shownRect(widget, w) == QRect(widget->mapTo(&w, QPoint(0, 0)), widget->size());
}

// Shown in the window with room to read it: at least `least` pixels each way.
bool inSight(const QWidget* widget, const MainWindow& w, int least) {
    const QRect shown = shownRect(widget, w);
    return widget->isVisible() && shown.width() >= least && shown.height() >= least;
}

// What is wrong with the screen of `frame`: empty when its pointer and title hold.
QStringList misses(MainWindow& w, const Lesson& lesson, int frame) {
    QStringList wrong;
    const auto* title = w.findChild<QLabel*>(QStringLiteral("lessonTitle"));
    if (!title || title->text() != lesson.frames.at(frame).title.in(w.language()) ||
        !whole(title, w))
        wrong << QStringLiteral("title out of sight");
    // ... and, until a reveal brings the answer into view, the narration's
    // first two lines under it.
    const auto* words = w.findChild<QScrollArea*>(QStringLiteral("lessonWords"));
    if (!w.lessonPlayer()->answerShown() && words) {
        const QRect firstLines(0, 0, words->viewport()->width(),
                               words->fontMetrics().lineSpacing() * 2);
        const QWidget* inside = words->widget();
        const QRect shown(inside->mapTo(words->viewport(), firstLines.topLeft()),
                          firstLines.size());
        if (!words->viewport()->rect().contains(shown))
            wrong << QStringLiteral("the narration's first lines are out of sight");
    }
    const LessonHighlight& h = lesson.frames.at(frame).highlight;
    if (h.isEmpty())
        return wrong;
    LiveStage* live = w.liveStage();
    if (w.tabs()->currentWidget() != w.liveView())
        wrong << QStringLiteral("the Live page is not in front");
    QTabWidget* tabs = live->tableTabs();
    if (h.locks) {
        if (tabs->currentWidget() != live->locksView() || !inSight(live->locksView(), w, 60))
            wrong << QStringLiteral("the Locks view is not in front");
    } else if (!h.table.isEmpty()) {
        const auto* front = qobject_cast<DatabaseTableView*>(tabs->currentWidget());
        if (!front || front->table() != h.table)
            wrong << QStringLiteral("table %1 is not in front (%2 is)")
                         .arg(h.table, tabs->tabText(tabs->currentIndex()));
        else if (!inSight(front, w, 60))
            wrong << QStringLiteral("table %1 is out of sight").arg(h.table);
    }
    if (h.sqlLog && (!inSight(live->sqlLog(), w, 60) || (tabs->indexOf(live->sqlLog()) >= 0 &&
                                                         tabs->currentWidget() != live->sqlLog())))
        wrong << QStringLiteral("the SQL log is not in front");
    if (!h.lane.isEmpty()) {
        SequenceView* sequence = live->sequenceView();
        const QRect lane = sequence->pointedLaneRect();
        const QRect names = sequence->laneNamesRect();
        if (!sequence->isVisible() || lane.isEmpty() || !names.contains(lane) ||
            !shownRect(sequence, w)
                 .contains(QRect(sequence->mapTo(&w, lane.topLeft()), lane.size())))
            wrong << QStringLiteral("lane %1 is out of sight (%2 %3,%4 %5x%6 in %7,%8 %9x%10)")
                         .arg(h.lane)
                         .arg(sequence->isVisible())
                         .arg(lane.x())
                         .arg(lane.y())
                         .arg(lane.width())
                         .arg(lane.height())
                         .arg(names.x())
                         .arg(names.y())
                         .arg(names.width())
                         .arg(names.height());
    }
    if (!h.state.isEmpty() && !inSight(live->stateView(), w, 100))
        wrong << QStringLiteral("the state diagram is out of sight (%1 %2 %3x%4)")
                     .arg(live->stateView()->isVisible())
                     .arg(live->stateView()->visibleRegion().boundingRect().width())
                     .arg(live->stateView()->width())
                     .arg(live->stateView()->height());
    return wrong;
}

}  // namespace

class LessonPointersTest : public QObject {
    Q_OBJECT
private slots:
    void everyPointerIsOnScreen_data();
    void everyPointerIsOnScreen();
};

void LessonPointersTest::everyPointerIsOnScreen_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenter");
    QTest::newRow("zh 1280x720 presenter") << "zh" << QSize(1280, 720) << true;
    QTest::newRow("en 1280x720 presenter") << "en" << QSize(1280, 720) << true;
}

void LessonPointersTest::everyPointerIsOnScreen() {
    QFETCH(QString, lang);
    QFETCH(QSize, size);
    QFETCH(bool, presenter);
    MainWindow w(false);
    w.setTheme(false, presenter, 100);
    w.setLanguage(lang);
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QStringList failures;
    int screens = 0;
    int pointers = 0;
    for (const Lesson& lesson : bundledLessons()) {
        QString error;
        QVERIFY2(w.startLesson(lesson.id, 0, &error), qPrintable(error));
        LessonPlayer* player = w.lessonPlayer();
        for (int frame = 0; frame < lesson.frames.size(); ++frame) {
            settle(w);
            QCOMPARE(player->frame(), frame);
            // Before a prediction's reveal and after it: both screens.
            const bool question = lesson.frames.at(frame).question.has_value();
            for (int screen = 0; screen < (question ? 2 : 1); ++screen) {
                if (screen == 1) {
                    QTest::keyClick(&w, Qt::Key_PageDown);
                    settle(w);
                    QVERIFY(player->answerShown());
                }
                ++screens;
                pointers += lesson.frames.at(frame).highlight.isEmpty() ? 0 : 1;
                for (const QString& miss : misses(w, lesson, frame))
                    failures << QStringLiteral("%1 frame %2%3: %4")
                                    .arg(lesson.id)
                                    .arg(frame + 1)
                                    .arg(screen == 1 ? QStringLiteral(" (revealed)") : QString(),
                                         miss);
            }
            QTest::keyClick(&w, Qt::Key_PageDown);
        }
        w.action("leave-lesson")->trigger();
    }
    for (const QString& failure : std::as_const(failures)) qWarning("%s", qPrintable(failure));
    qInfo("%d screens, %d with a pointer, %lld misses", screens, pointers,
          qlonglong(failures.size()));
    QVERIFY2(failures.isEmpty(), "a frame points at what the class cannot see (listed above)");
}

QTEST_MAIN(LessonPointersTest)
#include "lessonpointers_test.moc"
