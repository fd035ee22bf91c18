// The state machine and sequence diagrams drawn from real runs: the current
// state and the rejected late callback, one arrow per fire, response and
// retry, the same picture after stepping back and forward, and the export.
#include "diagramexport.h"
#include "lineitem.h"
#include "registry.h"
#include "run.h"
#include "sequenceview.h"
#include "sqlstatement.h"
#include "statemachineview.h"

#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QImage>
#include <QPaintEvent>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace idem;

namespace {

std::unique_ptr<Run> finishedRun(const QString& scenario, const QString& variant,
                                 const QMap<QString, QString>& params, const char* timing,
                                 int duplicates, int intents = 1, const QString& crash = {}) {
    const Scenario* s = findScenario(scenario);
    if (!s)
        return nullptr;
    RunConfig c = defaultConfig(*s);
    c.variant = variant;
    c.params = params;
    c.timing = *timingFromId(QString::fromLatin1(timing));
    c.duplicates = duplicates;
    c.intents = intents;
    if (!crash.isEmpty())
        c.crash = *crashPointFromId(crash);
    c.seed = 1;
    auto run = std::make_unique<Run>(c, *s);
    QString error;
    if (!run->start(&error)) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    run->runToEnd();
    QString finishError;
    if (!run->finish(&finishError))
        qFatal("%s", qPrintable(finishError));
    return run;
}

std::unique_ptr<Run> lateFailureRun() {
    return finishedRun("payment-callback", "unique-and-state", {{"late-failure", "1"}}, "retry", 2);
}

std::unique_ptr<Run> concurrentOrderRun() {
    return finishedRun("order-create", "check-then-insert", {}, "concurrent", 2);
}

QStringList texts(const QGraphicsScene* scene) {
    QStringList out;
    for (const QGraphicsItem* item : scene->items()) {
        if (auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            out << t->text();
        if (auto* t = dynamic_cast<const QGraphicsTextItem*>(item))
            out << t->toPlainText();
    }
    return out;
}

// Everything drawn, in drawing order: kind, place, size and text of each item.
QStringList snapshot(const QGraphicsScene* scene) {
    QStringList out;
    for (const QGraphicsItem* item : scene->items(Qt::AscendingOrder)) {
        const QRectF r = item->sceneBoundingRect();
        QString line = QStringLiteral("%1 %2,%3 %4x%5")
                           .arg(item->type())
                           .arg(r.x(), 0, 'f', 1)
                           .arg(r.y(), 0, 'f', 1)
                           .arg(r.width(), 0, 'f', 1)
                           .arg(r.height(), 0, 'f', 1);
        if (auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            line += " " + t->text();
        out << line;
    }
    return out;
}

int arrowEvents(const Trace& trace) {
    int n = 0;
    for (const TraceEvent& e : trace.events()) {
        if (e.is(EventKind::Fire) || e.is(EventKind::Response) || e.is(EventKind::Retry))
            ++n;
    }
    return n;
}

}  // namespace

class DiagramsTest : public QObject {
    Q_OBJECT
private slots:
    void stateMachineShowsPaidAndTheRejectedLateFailure();
    void freshMovesAreMarkedUntilTheNextStep();
    void aPulseOnlyTouchesItemsOfTheScene();
    void variantWithoutStateShowsANote();
    void sequenceDrawsOneArrowPerFireResponseAndRetry_data();
    void sequenceDrawsOneArrowPerFireResponseAndRetry();
    void sequenceNamesStatementsAndCrashes();
    void sequenceShowsTheBrokerRedelivering();
    void everyLaneDrawnIsDeclared();
    void arrowsShowTheDeclaredPayload();
    void stepBackThenForwardGivesTheSameView();
    void longRunsDrawOnlyTheLastEvents();
    void fastPlayLaysOutALeapsWorthAgain();
    void theNewestRowStaysInSightWhenTheViewGrowsShorter();
    void aStepPaintsItsOwnRowsAndScrollsTheRest();
    void aRedrawIntervalHoldsDrawingsBackButNotTheCounts();
    void steppingDrawsWhatAWholeDrawDoes();
    void exportWritesPngAndSvg();
    void exportToAnUnwritablePathFailsAndLeavesNoFile();
    void svgTextHasTheSizeItWasLaidOutAt();
    void aLineKnowsItsBoundsWithoutStrokingIt();
};

void DiagramsTest::stateMachineShowsPaidAndTheRejectedLateFailure() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    StateMachineView view;
    view.setMachine(run->scenario().info(), run->config().variant);
    view.showTrace(run->trace(), run->trace().size(), run->trace().size());
    QVERIFY(view.hasMachine());
    QCOMPARE(view.currentState(0), QStringLiteral("PAID"));
    QCOMPARE(view.acceptedCount("PAYING", "PAID"), 1);
    QCOMPARE(view.rejectedCount("PAYING", "FAILED"), 1);
    QCOMPARE(view.acceptedCount("PAYING", "FAILED"), 0);
    const QStringList shown = texts(view.scene());
    for (const char* state : {"PENDING", "PAYING", "PAID", "FAILED", "支付成功"}) {
        QVERIFY2(shown.contains(QString::fromUtf8(state)), state);
    }
    QVERIFY(shown.contains("#1"));  // the token on PAID
    QVERIFY(shown.contains(QString::fromUtf8("✗1")));
}

void DiagramsTest::freshMovesAreMarkedUntilTheNextStep() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    const QList<TraceEvent>& events = run->trace().events();
    qsizetype rejected = -1;
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (events[i].is(EventKind::Transition) && events[i].fields.value("to_state") == "FAILED")
            rejected = i;
    }
    QVERIFY(rejected > 0);
    StateMachineView view;
    view.setMachine(run->scenario().info(), run->config().variant);
    view.showTrace(run->trace(), rejected + 1, rejected);
    // The step's rejected move is written bold (and its edge red) in the final frame.
    bool boldReject = false;
    for (const QGraphicsItem* item : view.scene()->items()) {
        auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item);
        if (t && t->text() == QString::fromUtf8("✗1"))
            boldReject = t->font().bold();
    }
    QVERIFY(boldReject);
    view.showTrace(run->trace(), run->trace().size(), run->trace().size());
    for (const QGraphicsItem* item : view.scene()->items()) {
        auto* t = dynamic_cast<const QGraphicsSimpleTextItem*>(item);
        if (t && t->text() == QString::fromUtf8("✗1"))
            QVERIFY(!t->font().bold());
    }
}

// A short, wide view (a projector's stage) makes the diagram try its names
// side by side and drop that layout again; the glows of the dropped layout
// were deleted with it and must not be pulsed. A view hidden while its room
// changes (a lesson's layout) learns of the new room only when it draws the
// next step, with that step's glows.
void DiagramsTest::aPulseOnlyTouchesItemsOfTheScene() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    const QList<TraceEvent>& events = run->trace().events();
    qsizetype accepted = -1;
    for (qsizetype i = 0; i < events.size() && accepted < 0; ++i) {
        if (events[i].is(EventKind::Transition) && events[i].fields.flag("accepted") &&
            events[i].attempt > 0)
            accepted = i;
    }
    QVERIFY(accepted > 0);
    for (const QSize room : {QSize(900, 130), QSize(420, 200), QSize(1200, 110), QSize(260, 260)}) {
        StateMachineView view;
        QFont big = view.font();
        big.setPixelSize(28);
        view.setFont(big);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setMachine(run->scenario().info(), run->config().variant);
        view.hide();
        auto* port = view.findChild<QGraphicsView*>()->viewport();
        port->resize(room);
        view.showTrace(run->trace(), accepted + 1, accepted);
        // One glow per move of the step (a deleted one's address may be
        // taken by a new item: counted, not only looked up).
        QCOMPARE(view.pulsingItems().size(), 1);
        const QList<QGraphicsItem*> items = view.scene()->items();
        for (QGraphicsItem* glow : view.pulsingItems()) QVERIFY(items.contains(glow));
        view.show();
        // The pulse runs: its glow fades from fully visible (or, on a
        // machine slow enough, the whole pulse is over).
        const auto faded = [&view] {
            const QList<QGraphicsItem*>& glows = view.pulsingItems();
            return !glows.isEmpty() && glows.first()->opacity() < 1.0;
        };
        QTRY_VERIFY(faded() || !view.isPulsing());
        QCOMPARE(view.pulsingItems().size(), 1);
        const QList<QGraphicsItem*> after = view.scene()->items();
        for (QGraphicsItem* glow : view.pulsingItems()) QVERIFY(after.contains(glow));
    }
}

void DiagramsTest::variantWithoutStateShowsANote() {
    const auto run = concurrentOrderRun();
    QVERIFY(run);
    StateMachineView view;
    view.setMachine(run->scenario().info(), run->config().variant);
    view.showTrace(run->trace(), run->trace().size(), 0);
    QVERIFY(!view.hasMachine());
    const QStringList shown = texts(view.scene());
    QCOMPARE(shown.size(), 1);
    QVERIFY(shown.first().contains("keeps no state machine"));
}

void DiagramsTest::sequenceDrawsOneArrowPerFireResponseAndRetry_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("crash");
    QTest::newRow("payment late failure") << "payment-callback"
                                          << "unique-and-state"
                                          << "";
    QTest::newRow("order concurrent") << "order-create"
                                      << "check-then-insert"
                                      << "";
    QTest::newRow("order dedup crash") << "order-create"
                                       << "dedup-table"
                                       << "after-guard";
}

void DiagramsTest::sequenceDrawsOneArrowPerFireResponseAndRetry() {
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, crash);
    const auto run = scenario == "payment-callback"
                         ? lateFailureRun()
                         : finishedRun(scenario, variant, {}, "concurrent", 2, 1, crash);
    QVERIFY(run);
    SequenceView view;
    view.showTrace(run->trace(), run->trace().size(), 0);
    QVERIFY(arrowEvents(run->trace()) > 0);
    QCOMPARE(view.arrowCount(), arrowEvents(run->trace()));
    QVERIFY(view.lanes().contains("service"));
    QCOMPARE(view.lanes().last(), QStringLiteral("database"));
}

void DiagramsTest::sequenceNamesStatementsAndCrashes() {
    QCOMPARE(statementHead("INSERT INTO orders (request_id, user_id)\nVALUES (?, ?)"),
             QStringLiteral("INSERT INTO orders"));
    QCOMPARE(statementHead("UPDATE orders\nSET status = 'PAID'"), QStringLiteral("UPDATE orders"));
    QCOMPARE(statementHead("SELECT id FROM pay_flow WHERE out_trade_no = ?"),
             QString::fromUtf8("SELECT … FROM pay_flow"));
    QCOMPARE(statementHead("BEGIN IMMEDIATE"), QStringLiteral("BEGIN IMMEDIATE"));
    QCOMPARE(statementHead("COMMIT"), QStringLiteral("COMMIT"));

    const auto run = finishedRun("order-create", "dedup-table", {}, "retry", 2, 1, "after-guard");
    QVERIFY(run);
    SequenceView view;
    // Wide enough for whole labels: narrower windows cut them (the tooltip keeps them).
    view.resize(1400, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showTrace(run->trace(), run->trace().size(), run->trace().size());
    const QStringList shown = texts(view.scene());
    QVERIFY(shown.contains(QString::fromUtf8("#1 ✕ crash: after the guard record")));
    QVERIFY(shown.contains("#1 no answer (lost)"));
    QVERIFY(shown.contains(QString::fromUtf8("#1 original")));
    QVERIFY(std::any_of(shown.cbegin(), shown.cend(),
                        [](const QString& t) { return t.startsWith("#1 INSERT INTO dedup"); }));
}

void DiagramsTest::sequenceShowsTheBrokerRedelivering() {
    // Each lost ack is a broken arrow from the consumer to the broker; each
    // redelivery an arrow from the broker to the consumer.
    const auto run = finishedRun("outbox", "outbox-inbox", {{"redeliveries", "2"}}, "retry", 1);
    QVERIFY(run);
    const QList<TraceEvent>& events = run->trace().events();
    const ScenarioInfo& outbox = run->scenario().info();
    const QList<SequenceStep> steps =
        SequenceSteps::build(events, 0, events.size(), events.size(), &outbox);
    // Each note's arrow is labelled as the scenario names it.
    const QString redeliver = outbox.words.noteLabel("redeliver");
    const QString ackLost = outbox.words.noteLabel("ack-lost");
    const QString ack = outbox.words.noteLabel("ack");
    QVERIFY(redeliver != "redeliver" && ackLost != "ack-lost");
    // Each arrow names the broker's or the consumer's own process (B2, C1),
    // never a request's number.
    const auto by = [](const SequenceStep& s, const char* tag, const QString& label) {
        static const QRegularExpression number(QStringLiteral("^[BC][1-9][0-9]* "));
        return s.label.startsWith(QLatin1String(tag)) && s.label.contains(number) &&
               s.label.section(QLatin1Char(' '), 1) == label;
    };
    int redelivered = 0, lostAcks = 0, acks = 0;
    for (const SequenceStep& s : steps) {
        if (s.shape != SequenceStep::Shape::Arrow)
            continue;
        if (by(s, "B", redeliver) && s.from == "broker" && s.to == "consumer")
            ++redelivered;
        if (by(s, "C", ackLost) && s.from == "consumer" && s.to == "broker" && s.lost && s.dashed)
            ++lostAcks;
        if (by(s, "C", ack) && s.from == "consumer" && s.to == "broker" && !s.lost)
            ++acks;
    }
    QCOMPARE(redelivered, 2);
    QCOMPARE(lostAcks, 2);
    QCOMPARE(acks, 1);
    const QStringList lanes = SequenceSteps::lanes(steps, outbox.lanes);
    QVERIFY(lanes.indexOf("broker") >= 0 && lanes.indexOf("broker") < lanes.indexOf("consumer"));
}

void DiagramsTest::everyLaneDrawnIsDeclared() {
    // Each scenario names its lanes (ScenarioInfo::lanes): every variant from
    // every source draws only those and the database, in the declared order.
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        QVERIFY2(!info.lanes.isEmpty(), qPrintable(info.id));
        for (const VariantInfo& v : info.variants) {
            if (v.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            for (const Source source : info.sources) {
                RunConfig c = defaultConfig(*s);
                c.variant = v.id;
                c.source = source;
                c.intents = 2;
                c.seed = 3;
                Run run(c, *s);
                QString error;
                QVERIFY2(run.start(&error), qPrintable(error));
                run.runToEnd();
                QVERIFY2(run.finish(&error), qPrintable(error));
                const QList<TraceEvent>& events = run.trace().events();
                const QList<SequenceStep> steps =
                    SequenceSteps::build(events, 0, events.size(), events.size(), &info);
                QStringList lanes = SequenceSteps::lanes(steps, info.lanes);
                const QString where = info.id + " / " + v.id + " / " + toId(source);
                QVERIFY2(lanes.size() > 1 && lanes.takeLast() == "database", qPrintable(where));
                qsizetype last = -1;
                for (const QString& lane : std::as_const(lanes)) {
                    const qsizetype at = info.lanes.indexOf(lane);
                    QVERIFY2(at > last, qPrintable(where + ": lane " + lane));
                    last = at;
                }
            }
        }
    }
}

void DiagramsTest::arrowsShowTheDeclaredPayload() {
    // Payment callbacks declare trade_status: the late FAILED callback says so
    // on its arrow; without the declaration the arrow names the attempt only.
    const auto run = lateFailureRun();
    QVERIFY(run);
    const QList<TraceEvent>& events = run->trace().events();
    const QStringList askKeys = run->scenario().info().askKeys;
    QCOMPARE(askKeys, QStringList{"trade_status"});
    auto fireLabels = [&](const QStringList& keys) {
        ScenarioInfo cast = run->scenario().info();
        cast.askKeys = keys;
        QStringList labels;
        for (const SequenceStep& s :
             SequenceSteps::build(events, 0, events.size(), events.size(), &cast)) {
            if (s.shape == SequenceStep::Shape::Arrow && s.counted && s.tooltip.startsWith("fire"))
                labels << s.label;
        }
        return labels;
    };
    const QStringList declared = fireLabels(askKeys);
    QVERIFY(!declared.isEmpty());
    QVERIFY2(declared.filter(QStringLiteral(" · FAILED")).size() == 1,
             qPrintable(declared.join('|')));
    QVERIFY(declared.filter(QStringLiteral(" · SUCCESS")).size() >= 1);
    QVERIFY(fireLabels({}).filter(QStringLiteral(" · ")).isEmpty());
}

void DiagramsTest::stepBackThenForwardGivesTheSameView() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    const qsizetype end = run->trace().size();
    StateMachineView machine;
    machine.setMachine(run->scenario().info(), run->config().variant);
    SequenceView sequence;
    machine.showTrace(run->trace(), end, end - 1);
    sequence.showTrace(run->trace(), end, end - 1);
    const QStringList machineAtEnd = snapshot(machine.scene());
    const QStringList sequenceAtEnd = snapshot(sequence.scene());
    const int arrowsAtEnd = sequence.arrowCount();

    machine.showTrace(run->trace(), end / 2, end / 2 - 1);
    sequence.showTrace(run->trace(), end / 2, end / 2 - 1);
    QVERIFY(snapshot(sequence.scene()) != sequenceAtEnd);
    QVERIFY(sequence.arrowCount() < arrowsAtEnd);

    machine.showTrace(run->trace(), end, end - 1);
    sequence.showTrace(run->trace(), end, end - 1);
    QCOMPARE(snapshot(machine.scene()), machineAtEnd);
    QCOMPARE(snapshot(sequence.scene()), sequenceAtEnd);
    QCOMPARE(sequence.arrowCount(), arrowsAtEnd);
}

// Applying only each step's events gives the picture drawing everything
// again gives: the same counts and marks on the state diagram, the same rows,
// labels and arrows on the sequence diagram (whose oldest rows leave at the
// top; its lanes keep their width while stepping, so a label may wrap at
// another word).
void DiagramsTest::steppingDrawsWhatAWholeDrawDoes() {
    const auto run = finishedRun("order-create", "check-then-insert", {}, "concurrent", 2, 60);
    QVERIFY(run);
    const qsizetype end = run->trace().size();
    QVERIFY(end > SequenceView::kMaxEvents + 100);
    StateMachineView stepped, whole;
    stepped.setMachine(run->scenario().info(), run->config().variant);
    whole.setMachine(run->scenario().info(), run->config().variant);
    SequenceView steppedSequence, wholeSequence;
    steppedSequence.resize(900, 600);
    wholeSequence.resize(900, 600);
    stepped.showTrace(run->trace(), 1, 0);
    steppedSequence.showTrace(run->trace(), 1, 0);
    for (qsizetype at = 1; at < end;) {
        const qsizetype to = std::min(end, at + 1 + at % 3);  // steps of one to three events
        stepped.advanceTrace(run->trace(), to, at);
        steppedSequence.advanceTrace(run->trace(), to, at);
        if (to % 97 == 0 || to == end) {
            whole.showTrace(run->trace(), to, at);
            wholeSequence.showTrace(run->trace(), to, at);
            QCOMPARE(snapshot(stepped.scene()), snapshot(whole.scene()));
            const auto unwrapped = [](QStringList lines) {
                for (QString& line : lines) line.remove(QRegularExpression(QStringLiteral("\\s")));
                lines.sort();
                return lines;
            };
            QCOMPARE(steppedSequence.labels().join(QString()).remove(QRegularExpression("\\s")),
                     wholeSequence.labels().join(QString()).remove(QRegularExpression("\\s")));
            QCOMPARE(steppedSequence.arrowCount(), wholeSequence.arrowCount());
            QCOMPARE(unwrapped(texts(steppedSequence.scene())).join(QString()),
                     unwrapped(texts(wholeSequence.scene())).join(QString()));
        }
        at = to;
    }
}

void DiagramsTest::longRunsDrawOnlyTheLastEvents() {
    const auto run = finishedRun("order-create", "check-then-insert", {}, "concurrent", 2, 60);
    QVERIFY(run);
    QVERIFY(run->trace().size() > SequenceView::kMaxEvents);
    SequenceView view;
    view.showTrace(run->trace(), run->trace().size(), run->trace().size());
    const qsizetype earlier = run->trace().size() - SequenceView::kMaxEvents;
    const QStringList shown = texts(view.scene());
    QVERIFY(std::any_of(shown.cbegin(), shown.cend(), [&](const QString& t) {
        return t.contains(QString::number(earlier)) && t.contains("earlier");
    }));
    QVERIFY(view.arrowCount() < arrowEvents(run->trace()));

    // A leap over more than kMaxEvents (End) draws only the last
    // kLeapEvents; the steps after it add rows, and the note keeps counting
    // what is not drawn.
    const qsizetype size = run->trace().size();
    QVERIFY(size > 2 * SequenceView::kMaxEvents + 20);
    auto notes = [](const SequenceView& v) {
        QStringList found;
        for (const QString& t : texts(v.scene())) {
            if (t.contains("earlier"))
                found << t;
        }
        return found;
    };
    SequenceView leaping;
    leaping.showTrace(run->trace(), 10, 0);
    const qsizetype leapTo = size - 20;
    leaping.advanceTrace(run->trace(), leapTo, leapTo - 3);
    const qsizetype left = leapTo - SequenceView::kLeapEvents;
    QVERIFY2(notes(leaping).join(' ').contains(QString::number(left)),
             qPrintable(notes(leaping).join(' ')));
    for (qsizetype at = leapTo + 1; at <= size; ++at)
        leaping.advanceTrace(run->trace(), at, at - 1);
    QVERIFY2(notes(leaping).join(' ').contains(QString::number(left)),
             qPrintable(notes(leaping).join(' ')));
    QVERIFY(leaping.arrowCount() < view.arrowCount() + 1);
}

// Playing at "instant", a step that needs the lanes laid out again (here: a
// step back) draws only a leap's worth of rows again, not all kMaxEvents;
// otherwise all of them.
void DiagramsTest::fastPlayLaysOutALeapsWorthAgain() {
    const auto run = finishedRun("order-create", "check-then-insert", {}, "concurrent", 2, 60);
    QVERIFY(run);
    const qsizetype size = run->trace().size();
    QVERIFY(size > 2 * SequenceView::kMaxEvents + 20);
    auto earlierNote = [](const SequenceView& v) {
        for (const QString& t : texts(v.scene())) {
            if (t.contains("earlier"))
                return t;
        }
        return QString();
    };
    const qsizetype back = size - 30;
    for (const bool fast : {false, true}) {
        SequenceView view;
        view.resize(900, 600);
        view.setFastPlay(fast);
        view.showTrace(run->trace(), size, size - 1);
        view.advanceTrace(run->trace(), back, back - 1);
        const qsizetype drawn = fast ? SequenceView::kLeapEvents : SequenceView::kMaxEvents;
        const QString note = earlierNote(view);
        QVERIFY2(note.contains(QString::number(back - drawn)), qPrintable(note));
    }
}

// Counts what a widget paints: the area of each paint event's region.
class PaintedArea : public QObject {
public:
    qint64 area = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            for (const QRect& r : static_cast<QPaintEvent*>(event)->region())
                area += qint64(r.width()) * r.height();
        }
        return false;
    }
};

// A step late in a long run paints the rows it changed and the strip that
// scrolled into sight, not the whole view; what the screen then shows is
// what a drawing of the whole view shows, pixel for pixel.
void DiagramsTest::aStepPaintsItsOwnRowsAndScrollsTheRest() {
    const auto run = finishedRun("order-create", "check-then-insert", {}, "concurrent", 2, 60);
    QVERIFY(run);
    const qsizetype end = run->trace().size();
    SequenceView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QGraphicsView* rows = nullptr;
    for (QGraphicsView* v : view.findChildren<QGraphicsView*>()) {
        if (v->verticalScrollBarPolicy() == Qt::ScrollBarAlwaysOn)
            rows = v;
    }
    QVERIFY(rows);
    qsizetype at = end / 2;
    view.showTrace(run->trace(), at, at - 1);
    QCoreApplication::processEvents();
    QVERIFY(rows->verticalScrollBar()->maximum() > 0);  // full: every step scrolls
    PaintedArea painted;
    rows->viewport()->installEventFilter(&painted);
    const qint64 whole = qint64(rows->viewport()->width()) * rows->viewport()->height();
    int steps = 0;
    for (; at < end && steps < 30; ++at, ++steps) {
        view.advanceTrace(run->trace(), at + 1, at);
        QCoreApplication::processEvents();
    }
    rows->viewport()->removeEventFilter(&painted);
    QVERIFY2(painted.area < whole * steps / 2,
             qPrintable(QStringLiteral("%1 steps painted %2 views' worth")
                            .arg(steps)
                            .arg(double(painted.area) / double(whole))));
    // What the pixels copied up and the strips painted add up to.
    QWidget* port = rows->viewport();
    const QRect onWindow(port->mapTo(port->window(), QPoint(0, 0)), port->size());
    const QImage shown = QGuiApplication::primaryScreen()
                             ->grabWindow(port->window()->winId(), onWindow.x(), onWindow.y(),
                                          onWindow.width(), onWindow.height())
                             .toImage()
                             .convertToFormat(QImage::Format_RGB32);
    const QImage drawn = port->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(shown.size(), drawn.size());
    int differ = 0;
    for (int y = 0; y < drawn.height(); ++y) {
        for (int x = 0; x < drawn.width(); ++x) differ += shown.pixel(x, y) != drawn.pixel(x, y);
    }
    QCOMPARE(differ, 0);
    // The lanes' dashed lifelines run down the view: columns mostly not background.
    const QRgb background = drawn.pixel(drawn.width() - 1, drawn.height() / 2);
    int lifelines = 0;
    for (int x = 0; x < drawn.width(); ++x) {
        int marked = 0;
        for (int y = 0; y < drawn.height(); ++y) marked += drawn.pixel(x, y) != background;
        lifelines += marked > drawn.height() * 2 / 5;
    }
    QVERIFY2(lifelines >= view.lanes().size(), qPrintable(QString::number(lifelines)));
}

// At the end of a run the newest row is in sight; a dock or a splitter that
// makes the view shorter keeps it there, unless the reader scrolled away.
void DiagramsTest::theNewestRowStaysInSightWhenTheViewGrowsShorter() {
    const auto run = finishedRun("order-create", "check-then-insert", {}, "concurrent", 2, 10);
    QVERIFY(run);
    const qsizetype size = run->trace().size();
    for (const bool readerScrolledUp : {false, true}) {
        SequenceView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showTrace(run->trace(), size, size - 1);
        QScrollBar* rows = nullptr;
        for (QGraphicsView* v : view.findChildren<QGraphicsView*>()) {
            if (v->verticalScrollBarPolicy() == Qt::ScrollBarAlwaysOn)
                rows = v->verticalScrollBar();
        }
        QVERIFY(rows);
        QCoreApplication::processEvents();
        QVERIFY(rows->maximum() > 0);
        QCOMPARE(rows->value(), rows->maximum());
        if (readerScrolledUp)
            rows->setValue(0);
        const int before = rows->maximum();
        view.resize(900, 300);
        QCoreApplication::processEvents();
        QVERIFY(rows->maximum() > before);
        if (readerScrolledUp)
            QVERIFY(rows->value() < rows->maximum() / 2);  // near where the reader left it
        else
            QCOMPARE(rows->value(), rows->maximum());
    }
}

// Playing at "instant" the state diagram is drawn a few times a second: the
// counts are up to date at once, the drawing follows within the interval,
// and at once when the interval is lifted (the playing stops).
void DiagramsTest::aRedrawIntervalHoldsDrawingsBackButNotTheCounts() {
    const auto run = finishedRun("order-create", "dedup-table", {}, "concurrent", 2, 20);
    QVERIFY(run);
    StateMachineView view;
    view.setMachine(run->scenario().info(), run->config().variant);
    const qsizetype size = run->trace().size();
    view.showTrace(run->trace(), size / 4, 0);
    const QStringList early = snapshot(view.scene());
    view.setRedrawInterval(60'000);
    // Drawn a moment ago: these wait.
    view.advanceTrace(run->trace(), size / 2, size / 4);
    view.advanceTrace(run->trace(), size, size / 2);
    QCOMPARE(snapshot(view.scene()), early);
    QCOMPARE(view.tally().applied(), size);
    QVERIFY(view.hasMachine());
    view.setRedrawInterval(0);
    QVERIFY(snapshot(view.scene()) != early);
    QVERIFY(view.isPulsing());  // the latest moves, drawn now, pulse again
    // While drawings are held back, the latest moves are marked but do not
    // pulse (restarted at each drawing the pulse was a flicker).
    view.setRedrawInterval(60'000);
    QVERIFY(!view.isPulsing());
    view.setRedrawInterval(1);
    QTest::qWait(5);  // the interval is over: the next step draws at once
    const QStringList drawnWhole = snapshot(view.scene());
    view.showTrace(run->trace(), size / 2, size / 4);
    QCOMPARE(view.tally().applied(), size / 2);
    QVERIFY(snapshot(view.scene()) != drawnWhole);
    QVERIFY(!view.isPulsing());
    view.setRedrawInterval(0);
    view.showTrace(run->trace(), size, size / 2);
    QVERIFY(view.isPulsing());
    StateMachineView whole;
    whole.setMachine(run->scenario().info(), run->config().variant);
    whole.showTrace(run->trace(), size, size / 2);
    QCOMPARE(texts(view.scene()), texts(whole.scene()));
}

void DiagramsTest::exportWritesPngAndSvg() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    StateMachineView machine;
    machine.setMachine(run->scenario().info(), run->config().variant);
    machine.showTrace(run->trace(), run->trace().size(), 0);
    SequenceView sequence;
    sequence.showTrace(run->trace(), run->trace().size(), 0);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString png = dir.filePath("machine.png");
    const QString svg = dir.filePath("sequence.svg");
    QVERIFY2(exportScenePng(machine.scene(), png, &error), qPrintable(error));
    QVERIFY2(exportSceneSvg(sequence.scene(), svg, "payment-callback", &error), qPrintable(error));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 200 && image.height() > 100);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("<title>payment-callback</title>"));
    // The lanes' lifelines, a dashed line each (not a rectangle per dash).
    QVERIFY(text.contains("stroke-dasharray"));
    QVERIFY2(text.count("<rect") < 100, qPrintable(QString::number(text.count("<rect"))));
}

void DiagramsTest::exportToAnUnwritablePathFailsAndLeavesNoFile() {
    const auto run = lateFailureRun();
    QVERIFY(run);
    SequenceView sequence;
    sequence.showTrace(run->trace(), run->trace().size(), 0);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missingFolder = dir.filePath("no-such-folder/sequence.png");
    QString error;
    QVERIFY(!exportScenePng(sequence.scene(), missingFolder, &error));
    QVERIFY(error.contains("does not exist"));
    QVERIFY(!QFile::exists(missingFolder));

    error.clear();
    QVERIFY(!exportSceneSvg(sequence.scene(), dir.path(), "x", &error));
    QVERIFY(error.contains("folder"));

    // /proc refuses new files even to root, whom file permissions do not stop.
    const QString refused = QStringLiteral("/proc/idemlab-diagram.svg");
    error.clear();
    QVERIFY(!exportSceneSvg(sequence.scene(), refused, "x", &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(refused));

    QGraphicsScene empty;
    error.clear();
    QVERIFY(!exportScenePng(&empty, dir.filePath("empty.png"), &error));
    QVERIFY(error.contains("empty"));
    QVERIFY(!QFile::exists(dir.filePath("empty.png")));
}

// The SVG's text is as large as the scene drew it: a 9 pt font is 12 px on
// the screen the scene was laid out for, so the SVG says 12, not 9 (at 9
// the words of a mixed Chinese and Latin label drifted apart).
void DiagramsTest::svgTextHasTheSizeItWasLaidOutAt() {
    QGraphicsScene scene;
    QFont points = scene.font();
    points.setPointSize(9);
    scene.addSimpleText(QStringLiteral("#2 重复 · SUCCESS"), points);
    QFont pixels = scene.font();
    pixels.setPixelSize(20);
    scene.addSimpleText(QStringLiteral("PAID 支付成功"), pixels)->setPos(0, 40);
    QString error;
    const QString svg = QString::fromUtf8(sceneToSvg(&scene, QStringLiteral("t"), &error));
    QVERIFY2(!svg.isEmpty(), qPrintable(error));
    QSet<QString> sizes;
    const QRegularExpression size(QStringLiteral("<text[^>]*font-size=\"([0-9.]+)\""));
    for (auto m = size.globalMatch(svg); m.hasNext();) sizes.insert(m.next().captured(1));
    QVERIFY2(sizes.contains(QStringLiteral("12")),
             qPrintable(QStringList(sizes.values()).join(',')));
    QVERIFY2(sizes.contains(QStringLiteral("20")),
             qPrintable(QStringList(sizes.values()).join(',')));
    QVERIFY(!sizes.contains(QStringLiteral("9")));
}

// The diagrams' lines work out their bounds from their ends and their pen:
// never smaller than the stroked line's (nothing is cut off when it is
// drawn), and not much larger.
void DiagramsTest::aLineKnowsItsBoundsWithoutStrokingIt() {
    const QList<QLineF> lines{{0, 0, 200, 0}, {40, 10, 40, 900}, {0, 0, 30, 30}, {30, 0, 0, 12}};
    for (const QLineF& line : lines) {
        for (Qt::PenCapStyle cap : {Qt::SquareCap, Qt::FlatCap, Qt::RoundCap}) {
            for (qreal width : {1.0, 1.3, 2.2, 2.6}) {
                QPen pen(Qt::black, width, Qt::DashLine, cap);
                LineItem fast(line);
                fast.setPen(pen);
                QGraphicsLineItem stroked(line);
                stroked.setPen(pen);
                const QRectF exact = stroked.boundingRect();
                QVERIFY2(fast.boundingRect().contains(exact),
                         qPrintable(QStringLiteral("%1 x %2").arg(line.length()).arg(width)));
                QVERIFY(fast.boundingRect().width() <= exact.width() + 2 * width);
                QVERIFY(fast.boundingRect().height() <= exact.height() + 2 * width);
            }
        }
    }
}

QTEST_MAIN(DiagramsTest)
#include "diagrams_test.moc"
