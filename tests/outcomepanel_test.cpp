// The outcome panel as the window shows it, fed with summaries of real runs:
// a tolerated duplicate reads "accepted cost", wrong answers are listed, an
// alert shows its count when it fired and at the end.
#include "outcomepanel.h"
#include "registry.h"
#include "runner.h"

#include <QLabel>
#include <QTest>

#include <functional>

using namespace idem;

namespace {

Summary summaryOf(const QString& scenario, const QString& variant,
                  const std::function<void(RunConfig&)>& adjust = {}) {
    const Scenario* s = findScenario(scenario);
    RunConfig c = defaultConfig(*s);
    c.variant = variant;
    if (adjust)
        adjust(c);
    const RunResult r = runToEnd(c, *s, RunOptions::untraced());
    if (!r.ok())
        qFatal("%s", qPrintable(r.error));
    return r.summary;
}

// Everything the panel shows, as plain text.
QString shownText(const OutcomePanel& panel) {
    QStringList texts;
    for (const QLabel* label : panel.findChildren<QLabel*>()) {
        if (!label->isHidden())
            texts << label->text();
    }
    return texts.join('\n');
}

}  // namespace

class OutcomePanelTest : public QObject {
    Q_OBJECT
private slots:
    void toleratedDuplicateIsAnAcceptedCost();
    void wrongAnswersAreListed();
    void alertShowsBothCounts();
    void aRedrawIntervalHoldsSummariesBackButNotTheLast();
    void anOffsetHoldsTheFirstDrawingBackThatLong();
    void aSummaryOfTheSameHeightLaysNothingOut();
};

void OutcomePanelTest::toleratedDuplicateIsAnAcceptedCost() {
    OutcomePanel panel;
    panel.showSummary(summaryOf("natural-ops", "send-notification"), true);
    QVERIFY2(panel.verdictText().contains("DUPLICATED"), qPrintable(panel.verdictText()));
    QVERIFY2(panel.verdictText().contains("accepted cost"), qPrintable(panel.verdictText()));
    // A duplicate the business does not accept says nothing of the kind.
    panel.showSummary(summaryOf("natural-ops", "increment"), true);
    QVERIFY(panel.verdictText().contains("DUPLICATED"));
    QVERIFY2(!shownText(panel).contains("accepted cost"), qPrintable(shownText(panel)));
}

void OutcomePanelTest::wrongAnswersAreListed() {
    OutcomePanel panel;
    panel.showSummary(
        summaryOf("stock-deduct", "version", [](RunConfig& c) { c.timing = Timing::Concurrent; }),
        true);
    QVERIFY2(panel.verdictText().contains("MISANSWERED"), qPrintable(panel.verdictText()));
    const QString text = shownText(panel);
    // "attempt 2 was told “rejected (VERSION_CONFLICT)”, but it was done: DEDUCTED"
    QVERIFY2(text.contains("rejected (VERSION_CONFLICT)"), qPrintable(text));
    QVERIFY2(text.contains("but it was done: DEDUCTED"), qPrintable(text));
    // Every answer right: no such line.
    panel.showSummary(summaryOf("stock-deduct", "version-from-request",
                                [](RunConfig& c) { c.timing = Timing::Concurrent; }),
                      true);
    QVERIFY2(!shownText(panel).contains("was told"), qPrintable(shownText(panel)));
}

void OutcomePanelTest::alertShowsBothCounts() {
    OutcomePanel panel;
    const Summary s = summaryOf("duplicate-alert", "alerting");
    QCOMPARE(s.alerts.size(), 1);
    panel.showSummary(s, true);
    QVERIFY(panel.alertVisible());
    const QString text = shownText(panel);
    // The judge's final count of the window, without the window's help.
    QVERIFY2(text.contains(QStringLiteral("raised at %1 duplicates").arg(s.alerts.first().count)),
             qPrintable(text));
    QVERIFY2(text.contains(
                 QStringLiteral("(%1 by the end of the run)").arg(s.alerts.first().finalCount)),
             qPrintable(text));
}

// Playing at "instant" the panel is drawn a few times a second: a summary
// mid-run waits for the interval, the run's last is drawn at once, and
// lifting the interval draws the one that waited.
void OutcomePanelTest::aRedrawIntervalHoldsSummariesBackButNotTheLast() {
    const Summary one = summaryOf("order-create", "check-then-insert");
    const Summary three =
        summaryOf("order-create", "check-then-insert", [](RunConfig& c) { c.intents = 3; });
    OutcomePanel panel;
    panel.setRedrawInterval(60'000);
    panel.showSummary(one, false);  // the first is drawn: nothing was
    const QString first = panel.detailsText();
    QVERIFY(!first.isEmpty());
    panel.showSummary(three, false);
    QCOMPARE(panel.detailsText(), first);
    panel.setRedrawInterval(0);
    const QString held = panel.detailsText();
    QVERIFY(held != first);
    QVERIFY2(held.contains(QLatin1String("<b>Intents</b>: 3")), qPrintable(held));
    // The last summary is drawn at once, whatever the interval.
    panel.setRedrawInterval(60'000);
    panel.showSummary(one, false);
    QCOMPARE(panel.detailsText(), held);
    panel.showSummary(one, true);
    QVERIFY(panel.detailsText() != held);
    QVERIFY(panel.verdictText().contains(QLatin1String("EXACTLY ONCE")) ||
            panel.verdictText().contains(QLatin1String("DUPLICATED")));
    // Drawn at once also means nothing is left waiting.
    QTest::qWait(20);
    QVERIFY(panel.detailsText().contains(QLatin1String("<b>Intents</b>: 1")));
}

// Playing at "instant" the views held back draw each at an offset of its
// own, not all in one frame: started with an offset, the interval holds the
// next summary back that long, even when the last drawing is older than the
// interval; without one it is drawn at once.
void OutcomePanelTest::anOffsetHoldsTheFirstDrawingBackThatLong() {
    const Summary one = summaryOf("order-create", "check-then-insert");
    const Summary three =
        summaryOf("order-create", "check-then-insert", [](RunConfig& c) { c.intents = 3; });
    OutcomePanel panel;
    panel.showSummary(one, false);
    const QString first = panel.detailsText();
    QTest::qWait(30);
    panel.setRedrawInterval(10, 400);
    panel.showSummary(three, false);
    QCOMPARE(panel.detailsText(), first);
    QTRY_VERIFY_WITH_TIMEOUT(panel.detailsText().contains(QLatin1String("<b>Intents</b>: 3")),
                             5000);

    panel.setRedrawInterval(0);
    panel.showSummary(one, false);
    QTest::qWait(30);
    panel.setRedrawInterval(10);
    panel.showSummary(three, false);
    QVERIFY(panel.detailsText().contains(QLatin1String("<b>Intents</b>: 3")));
}

// At each step of a run the details change their numbers, not their height:
// the panel (and the scroll area the window puts it in) is not laid out
// again. A summary with more lines is, and is shown whole.
namespace {
class LayoutCounter : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return QObject::eventFilter(watched, event);
    }
    int count = 0;
};
}  // namespace

void OutcomePanelTest::aSummaryOfTheSameHeightLaysNothingOut() {
    const Summary one = summaryOf("order-create", "dedup-table");
    const Summary two =
        summaryOf("order-create", "dedup-table", [](RunConfig& c) { c.intents = 2; });
    OutcomePanel panel;
    panel.resize(320, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showSummary(one, false);
    QCoreApplication::processEvents();
    const QLabel* details = nullptr;
    for (const QLabel* label : panel.findChildren<QLabel*>()) {
        if (label->text() == panel.detailsText())
            details = label;
    }
    QVERIFY(details);
    LayoutCounter counter;
    panel.installEventFilter(&counter);
    panel.showSummary(two, false);
    QCoreApplication::processEvents();
    QVERIFY(panel.detailsText().contains(QLatin1String("<b>Intents</b>: 2")));
    QCOMPARE(counter.count, 0);
    // The end adds the verdict of each intent: a line more.
    const int before = details->height();
    panel.showSummary(two, true);
    QCoreApplication::processEvents();
    QVERIFY(counter.count > 0);
    QVERIFY(details->height() > before);
    QVERIFY(details->height() >= details->heightForWidth(details->width()));
}

QTEST_MAIN(OutcomePanelTest)
#include "outcomepanel_test.moc"
