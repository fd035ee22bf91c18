// The window on a classroom projector: presenter mode at 1280×720, in both
// languages. One view can fill the window (F6 to F9) and come back; alone,
// the sequence diagram shows at least six rows with the latest whole, and
// the state diagram is drawn larger than beside the tables.
#include "compareview.h"
#include "experimentview.h"
#include "firepanel.h"
#include "lesson.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "mainwindow.h"
#include "names.h"
#include "outcomepanel.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "scenariopicker.h"
#include "sequenceview.h"
#include "soloview.h"
#include "stageheader.h"
#include "stagelayout.h"
#include "statemachineview.h"
#include "tableview.h"
#include "traceevent.h"
#include "verdictglossary.h"
#include "vocabulary.h"

#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace idem;

namespace {

[[nodiscard]] bool showAtProjector(MainWindow& w, const QString& language) {
    w.setLanguage(language);
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

void press(MainWindow& w, Qt::Key key) {
    QWidget* target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &w, key);
    w.jobs()->finishNow();
    QApplication::processEvents();
}

}  // namespace

class ProjectorTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void oneViewFillsTheWindowAndComesBack_data();
    void oneViewFillsTheWindowAndComesBack();
    void compareHasRoomForThreeRowsASideAndItsOwnVerdicts_data();
    void compareHasRoomForThreeRowsASideAndItsOwnVerdicts();
    void experimentNamesEveryVariantWhole();
    void theFoldedFirePanelAnswersItsKeysAndUnfoldsWide_data();
    void theFoldedFirePanelAnswersItsKeysAndUnfoldsWide();
    void aLongRunPlaysAtInstantInLeapsWithAnEstimate();
    void ctrlRightPlaysToTheNextTurn();
    void aStudentAloneIsShownWhereToBegin_data();
    void aStudentAloneIsShownWhereToBegin();
    void theFirePanelsChoicesAreWholeOnAWideScreen_data();
    void theFirePanelsChoicesAreWholeOnAWideScreen();
};

void ProjectorTest::oneViewFillsTheWindowAndComesBack_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("zh") << "zh";
    QTest::newRow("en") << "en";
}

void ProjectorTest::oneViewFillsTheWindowAndComesBack() {
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showAtProjector(w, language));
    // The README's three callbacks and a late failure: many rows.
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.params.insert("late-failure", "1");
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    w.jobs()->finishNow();
    QApplication::processEvents();
    auto* outcomeDock = w.findChild<QDockWidget*>(QStringLiteral("outcomeDock"));
    QVERIFY(outcomeDock->isVisible());
    SequenceView* sequence = w.liveStage()->sequenceView();
    const int together = sequence->rowsInSight();
    const double stateText = w.stateView()->textPixelSize();

    press(w, Qt::Key_F6);
    QCOMPARE(w.soloView()->shown(), SoloView::View::Sequence);
    QVERIFY(w.action("solo-sequence")->isChecked());
    QVERIFY(!outcomeDock->isVisible());
    QVERIFY(!w.stateView()->isVisible());
    QTRY_VERIFY2(sequence->rowsInSight() >= 6,
                 qPrintable(QString::number(sequence->rowsInSight())));
    QVERIFY(sequence->rowsInSight() > together);
    QVERIFY(sequence->latestRowInSight());
    // Stepping on alone: the latest row stays whole.
    press(w, Qt::Key_Home);
    for (int i = 0; i < 9; ++i) press(w, Qt::Key_Right);
    QVERIFY(sequence->latestRowInSight());

    press(w, Qt::Key_F6);  // back
    QCOMPARE(w.soloView()->shown(), SoloView::View::None);
    QVERIFY(outcomeDock->isVisible());
    QVERIFY(w.stateView()->isVisible());
    QVERIFY(sequence->isVisible());

    press(w, Qt::Key_End);
    press(w, Qt::Key_F7);
    QCOMPARE(w.soloView()->shown(), SoloView::View::State);
    QVERIFY(!sequence->isVisible());
    QTRY_VERIFY(w.stateView()->textPixelSize() > stateText);

    press(w, Qt::Key_F8);  // from one view straight to another
    QCOMPARE(w.soloView()->shown(), SoloView::View::Tables);
    QVERIFY(!w.stateView()->isVisible());
    QVERIFY(w.liveStage()->tableTabs()->isVisible());

    press(w, Qt::Key_F9);
    QCOMPARE(w.soloView()->shown(), SoloView::View::Compare);
    QVERIFY(w.findChild<CompareView*>()->isVisible());
    QVERIFY(!outcomeDock->isVisible());
    // Another page by its key brings the stage back.
    QTest::keyClick(&w, Qt::Key_1, Qt::AltModifier);
    QCOMPARE(w.soloView()->shown(), SoloView::View::None);
    QVERIFY(outcomeDock->isVisible());
    QVERIFY(w.stateView()->isVisible());
}

void ProjectorTest::compareHasRoomForThreeRowsASideAndItsOwnVerdicts_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("zh") << "zh";
    QTest::newRow("en") << "en";
}

void ProjectorTest::compareHasRoomForThreeRowsASideAndItsOwnVerdicts() {
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showAtProjector(w, language));
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QTest::keyClick(&w, Qt::Key_2, Qt::AltModifier);
    w.jobs()->finishNow();
    auto* compare = w.findChild<CompareView*>();
    QVERIFY(compare->isVisible());
    for (int side = 0; side < 2; ++side) {
        QTableView* view = compare->table(side)->view();
        // Shown and laid out once the event loop has turned.
        QTRY_VERIFY(view->isVisible());
        const int row = view->verticalHeader()->defaultSectionSize();
        QTRY_VERIFY2(view->viewport()->height() >= 3 * row,
                     qPrintable(QStringLiteral("side %1: %2 px for rows of %3 px")
                                    .arg(side)
                                    .arg(view->viewport()->height())
                                    .arg(row)));
        QTRY_VERIFY(compare->outcome(side)->isVisible());
    }
    // Both verdicts side by side, at the same height, each in full view:
    // the outcomes are measured after their text is drawn.
    QTRY_COMPARE(compare->outcome(0)->parentWidget()->height(),
                 compare->outcome(1)->parentWidget()->height());
    for (int side = 0; side < 2; ++side) {
        auto* verdict = compare->outcome(side)->findChild<QLabel*>("verdict");
        QVERIFY(verdict);
        const QPoint top = verdict->mapTo(compare, QPoint(0, 0));
        const QPoint other =
            compare->outcome(1 - side)->findChild<QLabel*>("verdict")->mapTo(compare, QPoint(0, 0));
        QCOMPARE(top.y(), other.y());
        QVERIFY2(verdict->visibleRegion().boundingRect().height() == verdict->height(),
                 qPrintable(QStringLiteral("side %1's verdict is cut").arg(side)));
    }
    // The banner over the window is the Live run's: on Compare, whose two
    // sides each have their own, it stands aside.
    QVERIFY(!w.stageHeader()->isVerdictShown());
    QTest::keyClick(&w, Qt::Key_1, Qt::AltModifier);
    QVERIFY(w.stageHeader()->isVerdictShown());
}

// Ten variants under their bars: each name whole (a line per part of the id),
// and whole again in the chart's description for a screen reader.
void ProjectorTest::experimentNamesEveryVariantWhole() {
    MainWindow w(false);
    QVERIFY(showAtProjector(w, QStringLiteral("en")));
    RunConfig c = defaultConfig(*findScenario("order-create"));
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    auto* experiment = w.findChild<ExperimentView*>();
    QTest::keyClick(&w, Qt::Key_4, Qt::AltModifier);
    experiment->intentsBox()->setValue(10);
    experiment->runNow();
    QApplication::processEvents();
    QChart* chart = experiment->chartView()->chart();
    auto* axis = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
    QVERIFY(axis);
    const double room = chart->plotArea().width() / axis->count();
    const QFontMetricsF fm(axis->labelsFont());
    const QStringList description =
        experiment->chartView()->accessibleDescription().split(QStringLiteral("; "));
    // The window runs on SQLite: a server's lessons are not in its lists.
    QList<VariantInfo> variants;
    for (const VariantInfo& v : findScenario("order-create")->info().variants) {
        if (!v.serverLesson)
            variants << v;
    }
    QCOMPARE(axis->count(), variants.size());
    for (qsizetype i = 0; i < variants.size(); ++i) {
        const VariantInfo& v = variants[i];
        const QString label = axis->categories().value(int(i));
        QCOMPARE(QString(label).remove(QStringLiteral("<br>")).remove(QLatin1Char('-')),
                 QString(v.id).remove(QLatin1Char('-')));
        for (const QString& line : label.split(QStringLiteral("<br>")))
            QVERIFY2(fm.horizontalAdvance(line) <= room,
                     qPrintable(QStringLiteral("%1: %2 px in %3")
                                    .arg(line)
                                    .arg(fm.horizontalAdvance(line))
                                    .arg(room)));
        QVERIFY2(std::any_of(description.cbegin(), description.cend(),
                             [&](const QString& d) { return d.startsWith(v.id + ": "); }),
                 qPrintable(v.id));
    }
}

void ProjectorTest::theFoldedFirePanelAnswersItsKeysAndUnfoldsWide_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("zh") << "zh";
    QTest::newRow("en") << "en";
}

// Presenter mode folds the fire panel into one line; its Alt+letters
// (Alt+N the variant, Alt+D the duplicates) unfold it and go to the field,
// and unfolded it is wide enough to read the variant's name.
void ProjectorTest::theFoldedFirePanelAnswersItsKeysAndUnfoldsWide() {
    QFETCH(QString, language);
    MainWindow w(false);
    QVERIFY(showAtProjector(w, language));
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    auto* settings = w.findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
    QVERIFY(!settings->isVisible());
    auto* panel = w.findChild<FirePanel*>();
    QTest::keyClick(&w, Qt::Key_N, Qt::AltModifier);
    QTRY_VERIFY(settings->isVisible());
    QTRY_COMPARE(QApplication::focusWidget(), panel->variantBox());
    QTRY_VERIFY(settings->width() >= StageLayout::kUnfoldedMinWidth);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_D, Qt::AltModifier);
    QTRY_VERIFY(panel->duplicatesBox()->hasFocus());
    // Folded again: the keys unfold it again.
    settings->hide();
    QApplication::processEvents();
    QTest::keyClick(&w, Qt::Key_D, Qt::AltModifier);
    QTRY_VERIFY(settings->isVisible());
    QTRY_VERIFY(panel->duplicatesBox()->hasFocus());
}

// 300,000 steps took twenty minutes at "instant", a few steps a tick. Now
// the run leaps (each leap a seek in the background) and says how long the
// rest will take; Escape stops it where it got.
void ProjectorTest::aLongRunPlaysAtInstantInLeapsWithAnEstimate() {
    MainWindow w(false);
    QVERIFY(showAtProjector(w, QStringLiteral("en")));
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.intents = 1000;
    c.duplicates = 3;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.jobs()->finishNow();
    QVERIFY2(w.playback().length() > PlaybackBar::kLeapRun,
             qPrintable(QString::number(w.playback().length())));
    PlaybackBar* bar = w.playbackBar();
    bar->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
    bar->play();
    bool estimated = false;
    const auto leapt = [&] {
        estimated = estimated || bar->status()->text().contains(" s to the end");
        return w.playback().position() > w.playback().length() / 5;
    };
    QTRY_VERIFY_WITH_TIMEOUT(leapt(), 60'000);
    QVERIFY2(estimated, qPrintable(bar->status()->text()));
    QVERIFY(bar->isPlaying());
    // Escape: the leaping stops where it got, also between two leaps, when
    // no worker holds the run (the leap just done, the next not yet asked).
    w.jobs()->finishNow();
    QVERIFY(!w.jobs()->isBusy());
    QVERIFY(bar->isPlaying());
    QTest::keyClick(&w, Qt::Key_Escape);
    w.jobs()->finishNow();
    QApplication::processEvents();
    QTest::qWait(100);
    const int stoppedAt = w.playback().position();
    QVERIFY(!bar->isPlaying());
    QTest::qWait(300);
    QCOMPARE(w.playback().position(), stoppedAt);
    QVERIFY(stoppedAt < w.playback().length());
    // Played on to the end: it gets there in leaps, seconds rather than minutes.
    bar->play();
    QTRY_VERIFY_WITH_TIMEOUT(w.playback().atEnd(), 120'000);
    w.jobs()->finishNow();
    QVERIFY(!bar->isPlaying());
    QVERIFY(!bar->status()->text().contains("to the end"));
}

// Ctrl+Right plays on to the step that matters: here the crash of #1.
void ProjectorTest::ctrlRightPlaysToTheNextTurn() {
    MainWindow w(false);
    QVERIFY(showAtProjector(w, QStringLiteral("en")));
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.crash = CrashPoint::BeforeCommit;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().reset();
    QTest::keyClick(&w, Qt::Key_Right, Qt::ControlModifier);
    w.jobs()->finishNow();
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    const QList<TraceEvent> step = events.mid(w.playback().lastStepBegin());
    QVERIFY(std::any_of(step.cbegin(), step.cend(),
                        [](const TraceEvent& e) { return e.is(EventKind::Crash); }));
    // Nothing that matters before it.
    for (qsizetype i = 0; i < w.playback().lastStepBegin(); ++i)
        QVERIFY(!Playback::isTurn(events[i]));
    const int crashAt = w.playback().position();
    QTest::keyClick(&w, Qt::Key_Right, Qt::ControlModifier);
    w.jobs()->finishNow();
    QVERIFY(w.playback().position() > crashAt);
    const QList<TraceEvent> next = events.mid(w.playback().lastStepBegin());
    QVERIFY(std::any_of(next.cbegin(), next.cend(), &Playback::isTurn));
}

void ProjectorTest::aStudentAloneIsShownWhereToBegin_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("size");
    QTest::newRow("zh 1280") << "zh" << QSize(1280, 720);
    QTest::newRow("en 1920") << "en" << QSize(1920, 1080);
}

// The first start offers the five-minute lesson (Enter starts it); the
// picker shows each scenario's technique, however narrow it is; the verdict
// explains itself on hover and to a screen reader (reached with Tab), and
// Help lists all six.
void ProjectorTest::aStudentAloneIsShownWhereToBegin() {
    QFETCH(QString, language);
    QFETCH(QSize, size);
    MainWindow w(false);
    w.setLanguage(language);
    w.resize(size);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    w.jobs()->finishNow();

    // The picker: a technique beside or under every scenario's name.
    ScenarioPicker* picker = w.findChild<ScenarioPicker*>();
    QTableWidget* list = picker->table();
    int named = 0;
    for (int row = 0; row < list->rowCount(); ++row) {
        const QTableWidgetItem* name = list->item(row, 0);
        if (!name || name->flags() == Qt::NoItemFlags)
            continue;
        ++named;
        const bool beside = !list->isColumnHidden(1) && !list->item(row, 1)->text().isEmpty();
        const bool under =
            picker->isCompact() && !name->data(Qt::UserRole + 1).toString().isEmpty();
        QVERIFY2(beside || under, qPrintable(name->text()));
        // The row is tall enough for the name and the technique under it.
        if (under)
            QVERIFY(list->rowHeight(row) > 2 * list->fontMetrics().height());
    }
    QVERIFY(named >= 10);

    // The verdict: its meaning on hover, and for a screen reader with Tab.
    auto* verdict = w.findChild<QLabel*>(QStringLiteral("verdict"));
    QVERIFY(verdict);
    QCOMPARE(verdict->focusPolicy(), Qt::TabFocus);
    QVERIFY(!verdict->toolTip().isEmpty());
    QVERIFY(verdict->accessibleDescription().contains(verdictName("exactly-once")));

    // Help → the six verdicts.
    w.action("verdicts")->trigger();
    auto* glossary = w.findChild<VerdictGlossary*>();
    QTRY_VERIFY(glossary && glossary->isVisible());
    const QString all = glossary->findChild<QLabel*>()->text();
    for (const QString& id : verdictIds()) {
        QVERIFY2(all.contains(verdictName(id).toHtmlEscaped()), qPrintable(id));
        QVERIFY(!verdictMeaning(id).isEmpty());
    }
    glossary->close();

    // The offer of the first lesson: Enter takes it.
    w.offerFirstLesson();
    auto* offer = w.findChild<QWidget*>(QStringLiteral("firstLessonOffer"));
    QTRY_VERIFY(offer && offer->isVisible());
    // A card inside the window, not a window of its own, whole on screen.
    QVERIFY(!offer->isWindow());
    QVERIFY(w.rect().contains(QRect(offer->mapTo(&w, QPoint(0, 0)), offer->size())));
    QTRY_VERIFY(QApplication::focusWidget() && offer->isAncestorOf(QApplication::focusWidget()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_VERIFY(!offer->isVisible());
    QTRY_VERIFY(w.lessonPlayer()->isActive());
    QCOMPARE(w.lessonPlayer()->lesson().id, QStringLiteral("first-five-minutes"));
}

void ProjectorTest::theFirePanelsChoicesAreWholeOnAWideScreen_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << "en";
    QTest::newRow("zh") << "zh";
}

// At 1920×1080 the fire panel is wide enough that its choices read whole
// ("double click (front end)", "concurrent (same instant)"), not cut to
// "double click (fr".
void ProjectorTest::theFirePanelsChoicesAreWholeOnAWideScreen() {
    QFETCH(QString, language);
    MainWindow w(false);
    w.setLanguage(language);
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), QSize(1920, 1080));
    QApplication::processEvents();
    FirePanel* panel = w.firePanel();
    QStringList cut;
    for (QComboBox* box : panel->findChildren<QComboBox*>()) {
        if (!box->isVisible() || box == panel->variantBox())
            continue;  // a variant's name may be a sentence: its list shows it whole
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = box->isEditable();
        const QRect text = box->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                        QStyle::SC_ComboBoxEditField, box);
        for (int i = 0; i < box->count(); ++i) {
            const int wanted = box->fontMetrics().horizontalAdvance(box->itemText(i));
            if (wanted > text.width())
                cut << QStringLiteral("\"%1\" (%2 px in %3)")
                           .arg(box->itemText(i))
                           .arg(wanted)
                           .arg(text.width());
        }
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(", "))));
}

QTEST_MAIN(ProjectorTest)
#include "projector_test.moc"
