// The window never tells the room something false: mid-run the outcome says
// only what is already certain, Compare never shows an old input's outcome,
// pagination says which strategies it judges, BEGIN and COMMIT have no row
// count, a move the diagram forbids has its own colour, an alert reports its
// count at the end as well.
#include "alertcounts.h"
#include "compareview.h"
#include "contrast.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "paginationview.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "sqllogmodel.h"
#include "stageheader.h"
#include "statemachineview.h"
#include "statusdelegate.h"
#include "tablemodel.h"
#include "tableview.h"

#include <QApplication>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QTabWidget>
#include <QTest>

using namespace idem;

namespace {

RunConfig configOf(const QString& scenario, const QString& variant) {
    RunConfig c = defaultConfig(*findScenario(scenario));
    if (!variant.isEmpty())
        c.variant = variant;
    return c;
}

}  // namespace

class SignalsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void naturalOpsQueryNeverShowsDuplicated_data();
    void naturalOpsQueryNeverShowsDuplicated();
    void naturalOpsIncrementShowsDuplicatedOnlyAfterARepeat();
    void noLostBeforeTheLastStep();
    void noRedCountBeforeItIsCertain();
    void compareFollowsTheFiredInput();
    void paginationJudgesAllThreeStrategies();
    void leavingPaginationReturnsToLive();
    void transactionControlRowsHaveNoRowCount();
    void aForbiddenMoveHasItsOwnColour();
    void theAlertBannerReportsTheCountAtTheEnd();
};

void SignalsTest::naturalOpsQueryNeverShowsDuplicated_data() {
    QTest::addColumn<QString>("timing");
    QTest::newRow("concurrent") << "concurrent";
    QTest::newRow("retry") << "retry";
}

void SignalsTest::naturalOpsQueryNeverShowsDuplicated() {
    QFETCH(QString, timing);
    MainWindow w(false);
    RunConfig c = configOf("natural-ops", "query");
    c.timing = *timingFromId(timing);
    c.duplicates = 3;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().reset();
    do {
        QVERIFY2(w.outcome()->verdictId() != "duplicated" || !w.playback().atEnd(),
                 "the judge's last word on a query");
        QVERIFY2(!w.outcome()->verdictText().contains("DUPLICATED"),
                 qPrintable(QStringLiteral("step %1: %2")
                                .arg(w.playback().position())
                                .arg(w.outcome()->verdictText())));
        QVERIFY(!w.stageHeader()->verdictText().contains("DUPLICATED"));
        w.playback().stepForward();
    } while (!w.playback().atEnd());
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("exactly-once"));
}

void SignalsTest::naturalOpsIncrementShowsDuplicatedOnlyAfterARepeat() {
    MainWindow w(false);
    RunConfig c = configOf("natural-ops", "increment");
    c.timing = Timing::Concurrent;
    QString error;
    QVERIFY(w.fire(c, &error));
    w.playback().reset();
    bool repeatWrote = false;
    bool shown = false;
    while (!w.playback().atEnd()) {
        w.playback().stepForward();
        const Trace& trace = w.playback().run()->trace();
        const QStringList& internal = w.playback().run()->scenario().info().internalLanes;
        repeatWrote =
            repeatWrote || OutcomePanel::repeatWrote(trace.events(), 0, trace.size(), internal);
        const bool says = w.outcome()->verdictText().contains("DUPLICATED");
        QVERIFY2(!says || repeatWrote, qPrintable(QString::number(w.playback().position())));
        shown = shown || says;
    }
    QVERIFY(shown);
    QCOMPARE(w.outcome()->verdictId(), QStringLiteral("duplicated"));
}

void SignalsTest::noLostBeforeTheLastStep() {
    MainWindow w(false);
    RunConfig c = configOf("order-create", "dedup-no-expiry");
    c.timing = Timing::Retry;
    c.crash = CrashPoint::AfterGuard;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    QCOMPARE(w.playback().finalSummary().verdictId(), QStringLiteral("lost"));
    w.playback().reset();
    while (!w.playback().atEnd()) {
        const QString shown = w.outcome()->verdictText() + w.outcome()->detailsText() +
                              w.stageHeader()->verdictText();
        QVERIFY2(!shown.contains("LOST"), qPrintable(shown));
        w.playback().stepForward();
    }
    QVERIFY(w.outcome()->verdictText().contains("LOST"));
}

void SignalsTest::noRedCountBeforeItIsCertain() {
    MainWindow w(false);
    QString error;
    QVERIFY(w.fire(configOf("payment-callback", ""), &error));  // exactly once in the end
    // As the panel shows them: readable on its background.
    const QColor ground = w.outcome()->palette().color(QPalette::Window);
    const QString red = readableOn(verdictColor("duplicated"), ground).name();
    const QString green = readableOn(verdictColor("exactly-once"), ground).name();
    w.playback().reset();
    while (!w.playback().atEnd()) {
        QVERIFY2(!w.outcome()->detailsText().contains(red), qPrintable(w.outcome()->detailsText()));
        QVERIFY(!w.outcome()->detailsText().contains(green));
        w.playback().stepForward();
    }
    QVERIFY(w.outcome()->detailsText().contains(green));
    // A repeat's excess is certain the moment it is written.
    QVERIFY(w.fire(configOf("payment-callback", "none"), &error));
    w.playback().toEnd();
    w.playback().stepBack();
    QVERIFY(w.outcome()->detailsText().contains(red));
}

void SignalsTest::compareFollowsTheFiredInput() {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.fire(configOf("payment-callback", ""), &error));
    w.tabs()->setCurrentWidget(w.compareView());
    w.jobs()->finishNow();  // compared in the background
    CompareView* compare = w.compareView();
    QCOMPARE(compare->ranOn().scenario, QStringLiteral("payment-callback"));
    QCOMPARE(compare->outcome(0)->verdictId(), QStringLiteral("duplicated"));
    // A new scenario fired while Compare is on screen: compared again at once.
    QVERIFY(w.fire(configOf("order-create", ""), &error));
    QCOMPARE(compare->ranOn().scenario, QStringLiteral("order-create"));
    QCOMPARE(compare->table(1)->table(), QStringLiteral("dedup"));
    QVERIFY2(compare->inputText().contains("Order creation"), qPrintable(compare->inputText()));
    // A changed input fired from elsewhere: the old outcomes are gone at once.
    w.tabs()->setCurrentWidget(w.liveView());
    RunConfig more = configOf("order-create", "");
    more.duplicates = 3;
    QVERIFY(w.fire(more, &error));
    QVERIFY(compare->outcome(0)->verdictId().isEmpty());
    QVERIFY(compare->ranOn().scenario.isEmpty());
    QVERIFY(compare->inputText().contains("3"));
    w.tabs()->setCurrentWidget(compare);
    w.jobs()->finishNow();
    QCOMPARE(compare->ranOn().duplicates, 3);
    QVERIFY(!compare->outcome(1)->verdictId().isEmpty());
}

void SignalsTest::paginationJudgesAllThreeStrategies() {
    MainWindow w(false);
    RunConfig c = configOf("pagination", "keyset");
    c.params.insert("inserts-per-page", "3");
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    QVERIFY2(w.outcome()->verdictText().startsWith("Keyset"),
             qPrintable(w.outcome()->verdictText()));
    const QString details = w.outcome()->detailsText();
    for (const char* strategy : {"offset", "cursor", "keyset"})
        QVERIFY2(details.contains(strategy, Qt::CaseInsensitive), qPrintable(details));
    QVERIFY(details.contains("DUPLICATED"));  // offset shows rows twice under inserts
}

void SignalsTest::leavingPaginationReturnsToLive() {
    MainWindow w(false);
    QString error;
    QVERIFY(w.fire(configOf("pagination", ""), &error));
    QCOMPARE(w.tabs()->currentWidget(), w.paginationView());
    QVERIFY(w.fire(configOf("order-create", ""), &error));
    QCOMPARE(w.tabs()->currentWidget(), w.liveView());
}

void SignalsTest::transactionControlRowsHaveNoRowCount() {
    MainWindow w(false);
    QString error;
    QVERIFY(w.fire(configOf("payment-callback", ""), &error));
    w.playback().toEnd();
    SqlLogModel* log = w.sqlLog();
    int control = 0, counted = 0;
    for (int r = 0; r < log->rowCount(); ++r) {
        const QString sql = log->index(r, SqlLogModel::Statement).data().toString();
        const QVariant rows = log->index(r, SqlLogModel::Rows).data();
        if (sql.startsWith("BEGIN") || sql.startsWith("COMMIT") || sql.startsWith("ROLLBACK")) {
            QVERIFY2(!rows.isValid(), qPrintable(sql));
            ++control;
        } else if (sql.startsWith("INSERT") || sql.startsWith("UPDATE")) {
            QVERIFY(rows.isValid());
            ++counted;
        }
    }
    QVERIFY(control > 2);
    QVERIFY(counted > 2);
}

void SignalsTest::aForbiddenMoveHasItsOwnColour() {
    for (bool dark : {false, true}) {
        MainWindow w(false);
        w.setTheme(dark, false, 100);
        RunConfig c = configOf("payment-callback", "unique-key");
        c.params.insert("late-failure", "1");
        QString error;
        QVERIFY(w.fire(c, &error));
        w.playback().toEnd();
        StateMachineView* state = w.stateView();
        QVERIFY(state->forbiddenMoves().contains(qMakePair(QString("PAID"), QString("FAILED"))));
        const QColor forbidden = state->forbiddenColor();
        const QPalette p = state->palette();
        QVERIFY(forbidden != p.color(QPalette::Text));
        // Neither the accepted green nor the rejected red, and a legend in it.
        bool legend = false;
        for (QGraphicsItem* item : state->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (text && text->data(0).toString() == "legend" &&
                text->brush().color() == forbidden) {
                legend = true;
                QVERIFY(text->font().bold());
                QCOMPARE(text->font().pointSizeF(), state->font().pointSizeF());
            }
        }
        QVERIFY(legend);
    }
}

void SignalsTest::theAlertBannerReportsTheCountAtTheEnd() {
    MainWindow w(false);
    QString error;
    QVERIFY2(w.fire(configOf("duplicate-alert", "alerting"), &error), qPrintable(error));
    QCOMPARE(w.playback().finalSummary().alerts.size(), 1);
    const AlertRecord raised = w.playback().finalSummary().alerts.first();
    // The first step with the banner up (it stays up once raised): found by
    // halving, as stepping through a hundred intents one by one takes long.
    int lo = 0, hi = w.playback().length();
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        w.playback().seek(mid);
        if (w.outcome()->alertVisible())
            hi = mid;
        else
            lo = mid + 1;
    }
    w.playback().seek(lo);
    QVERIFY(w.outcome()->alertVisible());
    QVERIFY(!w.playback().atEnd());
    QVERIFY2(w.outcome()->alertText().contains(QString::number(raised.count)),
             qPrintable(w.outcome()->alertText()));
    QVERIFY(!w.outcome()->alertText().contains("by the end"));
    w.playback().toEnd();
    const QMap<QString, qint64> atEnd = alertCountsAtEnd(*w.playback().reader());
    QVERIFY(atEnd.value(raised.key) > raised.count);
    QVERIFY2(w.outcome()->alertText().contains(
                 QStringLiteral("%1 by the end of the run").arg(atEnd.value(raised.key))),
             qPrintable(w.outcome()->alertText()));
}

QTEST_MAIN(SignalsTest)
#include "signals_test.moc"
