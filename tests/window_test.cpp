// The window, driven off screen like a person would: pick a scenario, set the
// fire panel, fire, step with the keyboard, and check what the views show.
#include "advisordialog.h"
#include "compareview.h"
#include "experimentview.h"
#include "explanationview.h"
#include "firepanel.h"
#include "idemversion.h"
#include "mainwindow.h"
#include "names.h"
#include "outcomepanel.h"
#include "paginationview.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "scenariopicker.h"
#include "sequenceview.h"
#include "sqllogmodel.h"
#include "statemachineview.h"
#include "stepcaption.h"
#include "sweeper.h"
#include "tablemodel.h"
#include "tableview.h"
#include "texts.h"
#include "trace.h"
#include "tracewords.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using namespace idem;

namespace {

void choose(QComboBox* box, const QString& id) {
    const int i = box->findData(id);
    QVERIFY2(i >= 0, qPrintable(id));
    box->setCurrentIndex(i);
}

void clickScenario(MainWindow& w, const QString& id) {
    QTableWidget* table = w.picker()->table();
    for (int row = 0; row < table->rowCount(); ++row) {
        QTableWidgetItem* item = table->item(row, 0);
        if (item && item->data(Qt::UserRole).toString() == id) {
            table->scrollToItem(item);
            const QRect r = table->visualItemRect(item);
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, r.center());
            w.jobs()->finishNow();  // the run is measured in the background
            return;
        }
    }
    QFAIL(qPrintable("no picker row for " + id));
}

QStringList column(const TableModel* m, const QString& name) {
    QStringList values;
    int c = -1;
    for (int i = 0; i < m->columnCount(); ++i) {
        if (m->headerData(i, Qt::Horizontal).toString() == name)
            c = i;
    }
    for (int r = 0; r < m->rowCount(); ++r) values << m->index(r, c).data().toString();
    return values;
}

int countKinds(const Trace& trace, const QStringList& kinds) {
    int n = 0;
    for (const TraceEvent& e : trace.events()) n += kinds.contains(e.kindId());
    return n;
}

struct Snapshot {
    QStringList dedup;
    QString state;
    QString verdict;
    int arrows;
    int sqlRows;
    bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(MainWindow& w) {
    return {column(w.guardTable()->model(), "status"), w.stateView()->currentState(0),
            w.outcome()->verdictText(), w.sequenceView()->arrowCount(), w.sqlLog()->rowCount()};
}

}  // namespace

class WindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void fireAndStepThroughOrderCreation();
    void keyboardDrivesPlayback();
    void stepBackThenForwardGivesTheSameView();
    void paymentStateMachineShowsRejectedFailure();
    void compareShowsBothOutcomes();
    void compareStartsWithTheDeclaredPair();
    void paginationViewHighlightsDuplicates();
    void paginationViewShowsTheWritesAfterEachPage();
    void languageSwitchesWhileRunning();
    void qtDialogsFollowTheLanguage();
    void aboutShowsTheVersion();
    void badConfigurationIsRefused();
    void configProblemsNameThePanelsFields();
    void advisorOpensTheMatchingScenario();
    void experimentRunsInTheBackground();
    void fireShowsTheFirstStepAndWhatToPress();
    void firingAgainKeepsTheExplanationWhereTheReaderIs();
    void theFirstExplanationIsLaidOutRightAfterTheFirstPaint();
    void autoPlayPlaysAtAClassroomPaceAndIsRemembered();
    void savingNeverWritesOverAnOpenedFile();
};

void WindowTest::fireAndStepThroughOrderCreation() {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    clickScenario(w, "order-create");
    QCOMPARE(w.picker()->currentScenario(), QStringLiteral("order-create"));
    FirePanel* fire = w.firePanel();
    choose(fire->variantBox(), "dedup-no-recheck");
    choose(fire->timingBox(), "retry");
    choose(fire->crashBox(), "after-business");
    fire->duplicatesBox()->setValue(1);
    QTest::mouseClick(fire->fireButton(), Qt::LeftButton);
    w.jobs()->finishNow();
    QCOMPARE(w.playback().config().variant, QStringLiteral("dedup-no-recheck"));
    QCOMPARE(w.playback().position(), 1);  // Fire shows the first step at once

    QAbstractItemModelTester tableTester(w.guardTable()->model());
    QAbstractItemModelTester logTester(w.sqlLog());
    while (!w.playback().atEnd()) w.playback().stepForward();

    // The takeover without re-check made a second order: SQLite's rows say so.
    QCOMPARE(column(w.guardTable()->model(), "status"), QStringList{"SUCCESS"});
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("duplicated"));
    QVERIFY(w.outcome()->verdictText().contains("DUPLICATED"));
    QCOMPARE(w.stateView()->currentState(0), QStringLiteral("SUCCESS"));
    const Trace& trace = w.playback().run()->trace();
    QCOMPARE(w.sequenceView()->arrowCount(), countKinds(trace, {"fire", "response", "retry"}));
    QCOMPARE(w.sqlLog()->rowCount(), countKinds(trace, {"sql", "lock-wait"}));
}

void WindowTest::keyboardDrivesPlayback() {
    MainWindow w(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    clickScenario(w, "payment-callback");
    QVERIFY(w.playback().isLoaded());
    const int length = w.playback().length();
    QVERIFY(length > 3);
    QCOMPARE(w.playback().position(), 1);
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(w.playback().position(), 2);
    QTest::keyClick(&w, Qt::Key_PageDown);
    QCOMPARE(w.playback().position(), 3);
    QTest::keyClick(&w, Qt::Key_PageUp);
    QCOMPARE(w.playback().position(), 2);
    QTest::keyClick(&w, Qt::Key_End);
    QCOMPARE(w.playback().position(), length);
    QTest::keyClick(&w, Qt::Key_Home);
    QCOMPARE(w.playback().position(), 0);
    QTest::keyClick(&w, Qt::Key_BracketRight);  // faster
    QTest::keyClick(&w, Qt::Key_BracketRight);  // instant
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(w.playbackBar()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(w.playback().atEnd(), 60'000);  // a bound, not a pace
    QVERIFY(!w.playbackBar()->isPlaying());
    QTest::keyClick(&w, Qt::Key_F5);  // fire again: back to the first step
    w.jobs()->finishNow();
    QCOMPARE(w.playback().position(), 1);
}

void WindowTest::stepBackThenForwardGivesTheSameView() {
    MainWindow w(false);
    w.show();
    RunConfig c;
    c.scenario = "order-create";
    c.variant = "check-then-insert";
    c.timing = Timing::Concurrent;
    c.duplicates = 2;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    for (int i = 0; i < 6; ++i) w.playback().stepForward();
    const Snapshot at6 = snapshot(w);
    w.playback().stepForward();
    const Snapshot at7 = snapshot(w);
    w.playback().stepBack();
    QCOMPARE(snapshot(w).arrows, at6.arrows);
    QVERIFY(snapshot(w) == at6);
    w.playback().stepForward();
    QVERIFY(snapshot(w) == at7);
    w.playback().toEnd();
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("duplicated"));
}

void WindowTest::paymentStateMachineShowsRejectedFailure() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("payment-callback"));  // unique-and-state
    c.params.insert("late-failure", "1");
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    QCOMPARE(w.stateView()->currentState(0), QStringLiteral("PAID"));
    QCOMPARE(w.stateView()->rejectedCount("PAYING", "FAILED"), 1);
    QCOMPARE(w.stateView()->acceptedCount("PAYING", "PAID"), 1);
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("exactly-once"));
}

void WindowTest::compareShowsBothOutcomes() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("payment-callback"));  // unique-and-state
    QString error;
    QVERIFY(w.fire(c, &error));
    w.compareView()->compare();
    QCOMPARE(w.compareView()->outcome(0)->verdictId(), QStringLiteral("duplicated"));
    QCOMPARE(w.compareView()->outcome(1)->verdictId(), QStringLiteral("exactly-once"));
    QCOMPARE(w.compareView()->table(1)->model()->rowCount(), 1);  // one pay_flow row
    QCOMPARE(w.compareView()->table(0)->model()->rowCount(), 3);  // three without the key
    // Both runs, shown, are let go of between frames (not all at once).
    QVERIFY(!w.playback().sweeper()->idle());
    QTRY_VERIFY(w.playback().sweeper()->idle());
    QCOMPARE(w.compareView()->outcome(1)->verdictId(), QStringLiteral("exactly-once"));
}

void WindowTest::compareStartsWithTheDeclaredPair() {
    // Left the scenario's baseline, right its recommended variant, whatever
    // the fired variant and whatever the variants are called.
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        if (!info.baseline.isEmpty()) {
            QVERIFY2(info.variant(info.baseline), qPrintable(info.id));
            QVERIFY2(info.baseline != info.recommendedVariant(), qPrintable(info.id));
        }
        CompareView view;
        RunConfig c = defaultConfig(*s);
        c.variant = info.variants.last().id;
        view.setInput(*s, c);
        view.outcome(0);  // builds the page
        const QComboBox* sides[2] = {view.findChild<QComboBox*>("compareVariant0"),
                                     view.findChild<QComboBox*>("compareVariant1")};
        QVERIFY(sides[0] && sides[1]);
        QCOMPARE(sides[0]->currentData().toString(), info.baselineVariant());
        QCOMPARE(sides[1]->currentData().toString(), info.recommendedVariant());
        // Both sides on the fired database until one is set apart.
        QCOMPARE(view.backend(0), c.backend);
        QCOMPARE(view.backend(1), c.backend);
    }
    // A scenario that declares none starts from its first variant.
    ScenarioInfo none;
    none.variants = {VariantInfo{.id = "a"}, VariantInfo{.id = "b", .recommended = true}};
    QCOMPARE(none.baselineVariant(), QStringLiteral("a"));
    none.baseline = "b";
    QCOMPARE(none.baselineVariant(), QStringLiteral("b"));
    none.baseline = "missing";
    QCOMPARE(none.baselineVariant(), QStringLiteral("a"));
}

void WindowTest::paginationViewHighlightsDuplicates() {
    MainWindow w(false);
    w.show();
    RunConfig c;
    c.scenario = "pagination";
    c.variant = "keyset";
    c.source = Source::DoubleClick;
    c.duplicates = 0;
    c.params.insert("inserts-per-page", "3");
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QCOMPARE(w.paginationView()->shownPages(), 0);
    w.playback().toEnd();
    QVERIFY(w.paginationView()->shownPages() >= 5);
    QVERIFY(w.paginationView()->duplicatedRows(0) > 0);  // offset
    QCOMPARE(w.paginationView()->duplicatedRows(1), 0);  // cursor
    QCOMPARE(w.paginationView()->duplicatedRows(2), 0);  // keyset
}

void WindowTest::paginationViewShowsTheWritesAfterEachPage() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("pagination"));
    c.params.insert("deletes-per-page", "2");
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    PaginationView* view = w.paginationView();
    // One column per variant the scenario declares, in its order.
    QStringList variants;
    for (const VariantInfo& v : findScenario("pagination")->info().variants) variants << v.id;
    QCOMPARE(view->strategies(), variants);
    const QList<QTreeWidget*> columns = view->findChildren<QTreeWidget*>();
    QCOMPARE(columns.size(), variants.size());
    for (QTreeWidget* column : columns) {
        // Page 1, what the others wrote meanwhile, page 2 ...: a line between
        // every two pages, and one after the last page with rows when the
        // reader went on to find an empty one.
        QStringList shape;
        for (int i = 0; i < column->topLevelItemCount(); ++i) {
            const QString text = column->topLevelItem(i)->text(0);
            shape << (text.startsWith("Page ") ? "page" : text);
        }
        const auto pages = shape.count("page");
        QVERIFY2(pages >= 2 && shape.size() >= 2 * pages - 1 && shape.size() <= 2 * pages,
                 qPrintable(shape.join(" | ")));
        for (int i = 0; i < shape.size(); ++i) {
            QCOMPARE(shape[i], i % 2 == 0 ? QStringLiteral("page")
                                          : QStringLiteral("writer: +3 new, −2 deleted"));
        }
    }
}

void WindowTest::languageSwitchesWhileRunning() {
    MainWindow w(false);
    w.show();
    clickScenario(w, "order-create");
    w.playback().stepForward();
    w.setLanguage("zh");
    QVERIFY2(w.firePanel()->fireButton()->text().contains("发射"),
             qPrintable(w.firePanel()->fireButton()->text()));
    QVERIFY(!w.firePanel()->fireButton()->text().contains("Fire"));
    QCOMPARE(w.playback().position(), 2);  // the run goes on
    w.setLanguage("en");
    QVERIFY(w.firePanel()->fireButton()->text().startsWith("Fire"));
}

// Qt's own strings (standard buttons, file dialogs) come from Qt's
// translations, which Debian installs in QLibraryInfo's TranslationsPath.
void WindowTest::qtDialogsFollowTheLanguage() {
    MainWindow w(false);
    w.setLanguage("zh");
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QString("取消"));
    QDialogButtonBox buttons(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), QString("取消"));
    w.setLanguage("en");
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QString("Cancel"));
}

void WindowTest::aboutShowsTheVersion() {
    MainWindow w(false);
    QString text;
    QTimer::singleShot(0, &w, [&text] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            text = box->text();
            box->accept();
        }
    });
    QAction* about = w.findChild<QAction*>("about");
    QVERIFY(about);
    about->trigger();
    QVERIFY2(text.contains(QStringLiteral("Version %1").arg(kVersion)), qPrintable(text));
}

void WindowTest::badConfigurationIsRefused() {
    MainWindow w(false);
    RunConfig c;
    c.scenario = "order-create";
    c.variant = "unique-key";
    c.crash = CrashPoint::AfterGuard;
    QString error;
    QVERIFY(!w.fire(c, &error));
    // The crash point and the variant by the names the panel shows them.
    QVERIFY2(error.contains(crashPointName(CrashPoint::AfterGuard)), qPrintable(error));
    QVERIFY2(error.contains(crashPointName(CrashPoint::BeforeResponse)), qPrintable(error));
    QVERIFY2(!error.contains("after-guard"), qPrintable(error));
}

void WindowTest::configProblemsNameThePanelsFields() {
    MainWindow w(false);
    w.show();
    const auto refusal = [&w](const RunConfig& c) {
        // The path an opened trace takes, and the one lessons and shots take.
        w.messages()->clearMessage();
        w.fireInBackground(c);
        const QString shown = w.messages()->currentMessage();
        QString error;
        if (w.fire(c, &error))
            return QStringLiteral("(ran)");
        if (shown != error)
            return QStringLiteral("(not the same: %1 / %2)").arg(shown, error);
        return error;
    };
    RunConfig tooMany = defaultConfig(*findScenario("order-create"));
    tooMany.duplicates = 5000;
    RunConfig badRows = defaultConfig(*findScenario("pagination"));
    badRows.params.insert("rows", "abc");
    RunConfig noSuchVariant = defaultConfig(*findScenario("order-create"));
    noSuchVariant.variant = "magic";
    RunConfig noSuchValue = defaultConfig(*findScenario("order-create"));
    noSuchValue.params.insert("request-id", "random");

    QCOMPARE(refusal(tooMany),
             QStringLiteral("Duplicates 5000 is out of range (allowed 0 to 1000)"));
    QCOMPARE(refusal(badRows),
             QStringLiteral("Rows in the feed abc is not a whole number (allowed 1 to 10000)"));
    QString text = refusal(noSuchVariant);
    QVERIFY2(text.startsWith("Order creation has no variant “magic”"), qPrintable(text));
    QVERIFY2(!text.contains("order-create") && !text.contains("--"), qPrintable(text));
    text = refusal(noSuchValue);
    QVERIFY2(!text.contains("--param") && !text.contains("request-id"), qPrintable(text));
    const ScenarioWords& orderWords = findScenario("order-create")->info().words;
    QVERIFY2(text.contains(orderWords.paramLabel("request-id")) && text.contains("random"),
             qPrintable(text));
    // Nothing to choose from: the panel's only choice, or no settings at all.
    RunConfig noCrashHere = defaultConfig(*findScenario("natural-ops"));
    noCrashHere.crash = CrashPoint::AfterGuard;
    text = refusal(noCrashHere);
    QVERIFY2(text.endsWith("(it offers: " + crashPointName(CrashPoint::None) + ")"),
             qPrintable(text));
    RunConfig noSettings = defaultConfig(*findScenario("scheduled-task"));
    noSettings.params.insert("colour", "red");
    text = refusal(noSettings);
    QVERIFY2(text.startsWith("Scheduled job has no settings of its own"), qPrintable(text));

    w.setLanguage("zh");
    QCOMPARE(refusal(tooMany), QStringLiteral("重复次数 5000 超出范围（允许 0 到 1000）"));
    QCOMPARE(refusal(badRows), QStringLiteral("列表总行数 abc 不是整数（允许 1 到 10000）"));
    text = refusal(noSuchVariant);
    QVERIFY2(text.contains("没有方案“magic”") && !text.contains("order-create"), qPrintable(text));
    text = refusal(noSuchValue);
    QVERIFY2(text.contains(orderWords.paramLabel("request-id")) && !text.contains("request-id"),
             qPrintable(text));
    w.setLanguage("en");
}

void WindowTest::advisorOpensTheMatchingScenario() {
    AdvisorDialog dialog;
    QVERIFY(dialog.question(5) != nullptr);  // the article's six questions
    // A payment provider's callback: retried for days, an external key, a state machine.
    auto answer = [&dialog](int q, const QString& id) {
        choose(dialog.question(q), id);
    };
    answer(0, "caller-retry");
    answer(1, "days");
    answer(2, "yes");
    answer(3, "yes");
    answer(4, "money");
    answer(5, "yes");
    const QJsonObject rule = dialog.currentRule();
    QVERIFY(!rule.value("scenario").toString().isEmpty());
    QSignalSpy opened(&dialog, &AdvisorDialog::openScenario);
    for (QPushButton* b : dialog.findChildren<QPushButton*>()) {
        if (b->isEnabled() && b->text().contains("Open"))
            QTest::mouseClick(b, Qt::LeftButton);
    }
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().at(0).toString(), rule.value("scenario").toString());
    // Naturally idempotent work needs no guard: a different recommendation.
    answer(4, "waste");
    QCOMPARE(dialog.currentRule().value("scenario").toString(), QStringLiteral("natural-ops"));
}

void WindowTest::experimentRunsInTheBackground() {
    MainWindow w(false);
    w.show();
    clickScenario(w, "order-create");
    ExperimentView* experiment = w.experimentView();
    experiment->intentsBox()->setValue(20);
    QSignalSpy finished(experiment, &ExperimentView::finished);
    experiment->start();
    QVERIFY(experiment->isRunning());
    // The window keeps stepping while the experiment runs.
    w.playback().stepForward();
    QCOMPARE(w.playback().position(), 2);
    // A guard against a hang: under the sanitizers, beside other tests on
    // two cores, the experiment has taken over two minutes.
    QVERIFY(finished.wait(300'000));
    const auto results = experiment->results();
    for (const char* variant : {"none", "dedup-table", "check-then-insert"}) {
        int sum = 0;
        for (int n : results.value(variant)) sum += n;
        QCOMPARE(sum, 20);
    }
    QCOMPARE(results.value("dedup-table").value("exactly-once"), 20);
    QCOMPARE(results.value("none").value("duplicated"), 20);
}

void WindowTest::fireShowsTheFirstStepAndWhatToPress() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    QString error;
    QVERIFY(w.fire(c, &error));
    QCOMPARE(w.playback().position(), 1);
    QVERIFY(!w.playbackBar()->isPlaying());
    // The first step is drawn: the first callback's arrow, and words for it.
    QCOMPARE(w.sequenceView()->arrowCount(), 1);
    QVERIFY2(w.caption()->caption().contains("#1"), qPrintable(w.caption()->caption()));
    QVERIFY2(w.caption()->hint().contains("Space"), qPrintable(w.caption()->hint()));
    w.playback().toEnd();
    QVERIFY2(w.caption()->hint().contains("Home"), qPrintable(w.caption()->hint()));
}

// The explanation depends on the scenario, the variant and the crash point,
// not on the counts: fired again with more duplicates, it stays where the
// reader scrolled it; another variant is a new text, from its top.
// The window appears before the first scenario's explanation is laid out
// (4-5 ms of text), and the explanation follows in the next turn of the loop.
namespace {
class FirstPaintSpy : public QObject {
public:
    explicit FirstPaintSpy(const ExplanationView* explanation) : explanation_(explanation) {}
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && textAtFirstPaint.isNull())
            textAtFirstPaint = explanation_->toPlainText();
        return QObject::eventFilter(watched, event);
    }
    QString textAtFirstPaint;

private:
    const ExplanationView* explanation_;
};
}  // namespace

void WindowTest::theFirstExplanationIsLaidOutRightAfterTheFirstPaint() {
    QSettings().clear();
    MainWindow w(false);
    auto* explanation = w.findChild<ExplanationView*>();
    QVERIFY(explanation);
    FirstPaintSpy spy(explanation);
    w.installEventFilter(&spy);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY(!spy.textAtFirstPaint.isNull());
    QCOMPARE(spy.textAtFirstPaint, QString());
    const QString title = Texts::instance().get(w.picker()->currentScenario(), "title");
    QVERIFY(!title.isEmpty());
    QTRY_VERIFY(explanation->toPlainText().startsWith(title));
}

void WindowTest::firingAgainKeepsTheExplanationWhereTheReaderIs() {
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* explanation = w.findChild<ExplanationView*>();
    QVERIFY(explanation);
    explanation->show();
    RunConfig c = defaultConfig(*findScenario("order-create"));
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QScrollBar* bar = explanation->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0);
    const QString text = explanation->toPlainText();
    bar->setValue(bar->maximum() / 2);
    const int scrolled = bar->value();
    QVERIFY(scrolled > 0);
    c.duplicates += 3;
    c.intents += 1;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QCOMPARE(bar->value(), scrolled);
    QCOMPARE(explanation->toPlainText(), text);
    const QList<VariantInfo>& variants = findScenario("order-create")->info().variants;
    QVERIFY(variants.size() > 1);
    c.variant = variants.last().id == c.variant ? variants.first().id : variants.last().id;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QVERIFY(explanation->toPlainText() != text);
    QCOMPARE(bar->value(), 0);
}

void WindowTest::autoPlayPlaysAtAClassroomPaceAndIsRemembered() {
    QTemporaryDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    {
        MainWindow w(true);
        QCOMPARE(w.playbackBar()->speedIndex(), PlaybackBar::kNormalSpeed);
        // Normal is about one step a second; slow motion is slower.
        QCOMPARE(w.playbackBar()->stepMs(), 1000);
        QVERIFY(PlaybackBar::kSpeeds[0] > PlaybackBar::kSpeeds[PlaybackBar::kNormalSpeed]);
        QVERIFY(!w.playbackBar()->autoPlay());
        QAction* autoplay = w.action("autoplay");
        QVERIFY(autoplay && autoplay->isCheckable());
        autoplay->trigger();
        QVERIFY(w.playbackBar()->autoPlay());
        QVERIFY(w.playbackBar()->autoPlayBox()->isChecked());
        QString error;
        QVERIFY(w.fire(defaultConfig(*findScenario("order-create")), &error));
        QVERIFY(w.playbackBar()->isPlaying());
        QCOMPARE(w.playback().position(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(w.playback().position(), 2, 60'000);  // a bound, not a pace
        w.playbackBar()->slower();
    }
    MainWindow again(true);
    QVERIFY(again.playbackBar()->autoPlay());
    QVERIFY(again.action("autoplay")->isChecked());
    QCOMPARE(again.playbackBar()->speedIndex(), PlaybackBar::kNormalSpeed - 1);
    again.playbackBar()->setAutoPlay(false);
}

// The trace the window opened is an input: Save trace to it (or to a link
// to it, or by another spelling of its path) is refused with a message, and the file stays as it
// was.
void WindowTest::savingNeverWritesOverAnOpenedFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("opened.json");
    MainWindow w(false);
    QString error;
    QVERIFY(w.fire(defaultConfig(*findScenario("order-create")), &error));
    w.saveTraceTo(path);
    w.jobs()->finishNow();
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray saved = file.readAll();
    file.close();
    QVERIFY(saved.startsWith("{\"format\":\"idemlab-trace\""));
    w.openTraceAt(path);
    w.jobs()->finishNow();  // read its header
    w.jobs()->finishNow();  // fired its configuration
    QVERIFY(!w.jobs()->isBusy());
    QVERIFY(QFile::link(path, dir.filePath("soft.json")));
    for (const QString& target : {path, dir.filePath("soft.json"), dir.filePath("./opened.json")}) {
        w.messages()->clearMessage();
        w.saveTraceTo(target);
        QVERIFY(!w.jobs()->isBusy());
        QVERIFY2(w.messages()->currentMessage().contains("is a file the window opened"),
                 qPrintable(w.messages()->currentMessage()));
    }
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), saved);
    // Another name is written as before.
    w.saveTraceTo(dir.filePath("other.json"));
    w.jobs()->finishNow();
    QVERIFY(QFile::exists(dir.filePath("other.json")));
}

QTEST_MAIN(WindowTest)
#include "window_test.moc"
