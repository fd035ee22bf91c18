// The window as a classroom stage: presenter mode fits a 1280×720 projector
// with the verdict, the caption and the diagrams in sight and 20 px text;
// normal mode works down to 1024×600; labels and table cells are never cut.
#include "firepanel.h"
#include "livestage.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "scenariopicker.h"
#include "sequenceview.h"
#include "sqlconnection.h"
#include "sqllogmodel.h"
#include "sqllogview.h"
#include "stageheader.h"
#include "stagelayout.h"
#include "statemachineview.h"
#include "statusdelegate.h"
#include "stepcaption.h"
#include "tablemodel.h"
#include "tableview.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QGraphicsView>
#include <QHeaderView>
#include <QLayout>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextLayout>

using namespace idem;

namespace {

// What makes a window wider or taller than it may be: each widget whose own
// minimum is over the limit, deepest first.
QString tooBig(QWidget* root, QSize limit) {
    QStringList out;
    for (QWidget* w : root->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisibleTo(root))
            continue;
        const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
        out << QStringLiteral("[%1 %2: %3x%4]")
                   .arg(QLatin1String(w->metaObject()->className()), w->objectName())
                   .arg(m.width())
                   .arg(m.height());
    }
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root) && !qobject_cast<QStackedWidget*>(w->parentWidget()) && false)
            continue;
        const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
        if (m.width() > limit.width() * 2 / 3 || m.height() > limit.height() * 2 / 3) {
            out << QStringLiteral("%1 %2: %3x%4")
                       .arg(QLatin1String(w->metaObject()->className()), w->objectName())
                       .arg(m.width())
                       .arg(m.height());
        }
    }
    return out.join(QStringLiteral("; "));
}

bool onScreen(const QWidget* w, const QWidget* window) {
    const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    return w->isVisible() && window->rect().contains(r);
}

}  // namespace

class StageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void presenterModeFitsA1280x720Projector_data();
    void presenterModeFitsA1280x720Projector();
    void normalModeWorksAt1024x600();
    void diagramTextFollowsPresenterModeAndZoom();
    void presenterDiagramAndTabsAreWhole_data();
    void presenterDiagramAndTabsAreWhole();
    void sequenceLabelsAreNeverCut();
    void sequenceLanesFitEveryCrashPoint_data();
    void sequenceLanesFitEveryCrashPoint();
    void tableCellsAreWhole();
    void pickerRowsAreWhole_data();
    void pickerRowsAreWhole();
    void stepCaptionDescribesTheStep();
    void theEffectTableIsInFront_data();
    void theEffectTableIsInFront();
    void theTableAStepChangedComesToFront();
    void theTablesShowWhatAReadAtEveryStepWould();
    void theLabsInternalsAreHiddenUnlessAskedFor();
    void theSameCastFiredAgainShowsWhatAFreshWindowWould();
    void internalsAreDeclaredLanesAndTables();
};

void StageTest::presenterModeFitsA1280x720Projector_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("dark");
    QTest::newRow("en light") << "en" << false;
    QTest::newRow("zh dark") << "zh" << true;
}

void StageTest::presenterModeFitsA1280x720Projector() {
    QFETCH(QString, language);
    QFETCH(bool, dark);
    MainWindow w(false);
    w.setLanguage(language);
    w.setTheme(dark, true, 100);
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.variant = "none";
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    const QSize screen(1280, 720);
    const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(least.width() <= screen.width() && least.height() <= screen.height(),
             qPrintable(QStringLiteral("window needs %1x%2: %3")
                            .arg(least.width())
                            .arg(least.height())
                            .arg(tooBig(&w, screen))));
    w.resize(screen);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), screen);
    w.playback().toEnd();
    QApplication::processEvents();
    // The banner across the top, the caption, both diagrams and the outcome.
    QVERIFY(onScreen(w.stageHeader(), &w));
    QCOMPARE(w.stageHeader()->width(),
             w.width() - 2 * w.stageHeader()->mapTo(&w, QPoint(0, 0)).x());
    QVERIFY(w.stageHeader()->verdictText().contains("DUPLICATED") ||
            w.stageHeader()->verdictText().contains("重复"));
    QVERIFY(!w.stageHeader()->settingsText().isEmpty());
    QVERIFY(onScreen(w.caption(), &w));
    QVERIFY(!w.caption()->caption().isEmpty());
    QVERIFY(onScreen(w.stateView(), &w));
    QVERIFY(onScreen(w.sequenceView(), &w));
    QVERIFY(w.stateView()->height() >= 200);
    QVERIFY(w.sequenceView()->height() >= 160);
    auto* outcome = w.findChild<QScrollArea*>("outcomeScroll");
    QVERIFY(onScreen(outcome, &w));
    QVERIFY2(outcome->width() >= 220, qPrintable(QString::number(outcome->width())));
    // The fire panel is folded into the header's line; its button unfolds it.
    auto* settings = w.findChild<QDockWidget*>("scenarioDock");
    QVERIFY(!settings->isVisible());
    QTest::mouseClick(w.stageHeader()->expandButton(), Qt::LeftButton);
    QVERIFY(settings->isVisible());
    QTest::mouseClick(w.stageHeader()->expandButton(), Qt::LeftButton);
    QVERIFY(!settings->isVisible());
    // Back to normal: the side panel and the outcome's own verdict return.
    w.setTheme(dark, false, 100);
    QVERIFY(settings->isVisible());
    QVERIFY(!w.stageHeader()->isVisible());
}

void StageTest::normalModeWorksAt1024x600() {
    MainWindow w(false);
    w.setTheme(false, false, 100);
    const QSize screen(1024, 600);
    const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(least.width() <= screen.width() && least.height() <= screen.height(),
             qPrintable(QStringLiteral("window needs %1x%2: %3")
                            .arg(least.width())
                            .arg(least.height())
                            .arg(tooBig(&w, screen))));
    w.resize(screen);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), screen);
    QVERIFY(onScreen(w.firePanel()->fireButton()->parentWidget(), &w));
    QVERIFY(onScreen(w.caption(), &w));
    QVERIFY(onScreen(w.outcome(), &w));
}

void StageTest::diagramTextFollowsPresenterModeAndZoom() {
    MainWindow w(false);
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.fire(defaultConfig(*findScenario("payment-callback")), &error));
    w.playback().toEnd();
    const double presenter = w.stateView()->textPixelSize();
    QVERIFY2(presenter >= 20, qPrintable(QString::number(presenter)));
    QVERIFY(QFontInfo(w.sequenceView()->font()).pixelSize() >= 20);
    QVERIFY(QFontInfo(w.caption()->font()).pixelSize() >= 20);
    // Zooming in makes the diagram's text larger, never smaller; out, smaller.
    w.setTheme(false, true, 130);
    QApplication::processEvents();
    const double larger = w.stateView()->textPixelSize();
    QVERIFY2(larger > presenter, qPrintable(QStringLiteral("%1 → %2").arg(presenter).arg(larger)));
    w.setTheme(false, false, 80);
    QApplication::processEvents();
    QVERIFY(w.stateView()->textPixelSize() < presenter);
}

void StageTest::presenterDiagramAndTabsAreWhole_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("dark");
    QTest::newRow("en light") << "en" << false;
    QTest::newRow("zh dark") << "zh" << true;
}

// In presenter mode at 1280×720 the state diagram is whole in its view (its
// title and start dot too, not scrolled off the left), its text at least
// 20 px (a state's two names side by side where the view is short and wide,
// the title and the legend in empty corners),
// every lane of the sequence diagram is in sight (the database lane of the
// outbox's six included), and every table tab is in the tab bar (no bar
// scrolled to the last tab): the one in front whole, the others shortened
// only where the diagram needs the room, their names in their tooltips.
void StageTest::presenterDiagramAndTabsAreWhole() {
    QFETCH(QString, language);
    QFETCH(bool, dark);
    MainWindow w(false);
    w.setLanguage(language);
    w.setTheme(dark, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), QSize(1280, 720));
    QStringList problems;
    for (const Scenario* scenario : allScenarios()) {
        const QString id = scenario->info().id;
        for (const auto& variant : scenario->info().variants) {
            if (variant.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            RunConfig c = defaultConfig(*scenario);
            c.variant = variant.id;
            QString error;
            QVERIFY2(w.fire(c, &error), qPrintable(error));
            w.playback().toEnd();
            QApplication::processEvents();
            const QString what = id + QLatin1Char(' ') + c.variant;
            auto* view = w.stateView()->findChild<QGraphicsView*>();
            QVERIFY(view);
            const QRect drawn =
                view->mapFromScene(w.stateView()->scene()->itemsBoundingRect()).boundingRect();
            if (!view->viewport()->rect().contains(drawn))
                problems << (QStringLiteral("%1: diagram %2,%3 %4x%5 in a %6x%7 view")
                                 .arg(what)
                                 .arg(drawn.x())
                                 .arg(drawn.y())
                                 .arg(drawn.width())
                                 .arg(drawn.height())
                                 .arg(view->viewport()->width())
                                 .arg(view->viewport()->height()));
            if (w.stateView()->hasMachine() && w.stateView()->textPixelSize() < 19.95)
                problems
                    << (QStringLiteral("%1: %2 px").arg(what).arg(w.stateView()->textPixelSize()));
            // Every lane of the sequence diagram in sight, five or six of them included.
            if (!w.sequenceView()->allLanesInSight())
                problems << (QStringLiteral("%1: lanes %2 not all in sight")
                                 .arg(what, w.sequenceView()->lanes().join(QLatin1Char(','))));
            QTabBar* bar = w.liveStage()->tableTabs()->tabBar();
            for (int i = 0; i < bar->count(); ++i) {
                if (!bar->isTabVisible(i))
                    continue;
                if (!bar->rect().contains(bar->tabRect(i)))
                    problems << (QStringLiteral("%1: tab \"%2\" at %3..%4 in a %5 px bar")
                                     .arg(what, bar->tabText(i))
                                     .arg(bar->tabRect(i).left())
                                     .arg(bar->tabRect(i).right())
                                     .arg(bar->width()));
                // A tab may be shortened, never its name lost: the whole
                // name in its tooltip, and the tab in front whole.
                if (!bar->tabToolTip(i).contains(bar->tabText(i).remove(QLatin1Char('&'))) &&
                    bar->tabText(i) != QLatin1String("SQL"))
                    problems << (QStringLiteral("%1: tab \"%2\" has the tooltip \"%3\"")
                                     .arg(what, bar->tabText(i), bar->tabToolTip(i)));
            }
            const int front = bar->currentIndex();
            const int whole = bar->fontMetrics().horizontalAdvance(bar->tabText(front)) +
                              (bar->tabIcon(front).isNull() ? 0 : bar->iconSize().width());
            if (bar->tabRect(front).width() < whole)
                problems << (QStringLiteral("%1: the tab in front, \"%2\", is %3 px for %4 px")
                                 .arg(what, bar->tabText(front))
                                 .arg(bar->tabRect(front).width())
                                 .arg(whole));
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
}

void StageTest::sequenceLabelsAreNeverCut() {
    MainWindow w(false);
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (const char* scenario : {"payment-callback", "order-create", "mq-consume"}) {
        RunConfig c = defaultConfig(*findScenario(scenario));
        c.variant = findScenario(scenario)->info().variants.first().id;
        c.crash = CrashPoint::None;
        QString error;
        QVERIFY2(w.fire(c, &error), qPrintable(error));
        while (!w.playback().atEnd()) {
            w.playback().stepForward();
            for (const QString& line : w.sequenceView()->labels())
                QVERIFY2(!line.endsWith(QStringLiteral("…")), qPrintable(line));
        }
        // Every lane's centre is inside the view: the database lane included.
        QVERIFY(w.sequenceView()->lanes().contains("database"));
        QVERIFY2(w.sequenceView()->allLanesInSight(), scenario);
    }
}

void StageTest::sequenceLanesFitEveryCrashPoint_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << "en";
    QTest::newRow("zh") << "zh";
}

// Every variant at every crash point, in presenter mode at 1280×720: every
// lane in sight and no label cut, whatever the crash's caption says (a
// Chinese one has no spaces to break at).
void StageTest::sequenceLanesFitEveryCrashPoint() {
    QFETCH(QString, language);
    MainWindow w(false);
    w.setLanguage(language);
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), QSize(1280, 720));
    QStringList problems;
    int runs = 0;
    for (const Scenario* scenario : allScenarios()) {
        for (const auto& variant : scenario->info().variants) {
            if (variant.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            QList<CrashPoint> crashes{CrashPoint::None};
            crashes << variant.crashPoints;
            for (CrashPoint crash : std::as_const(crashes)) {
                RunConfig c = defaultConfig(*scenario);
                c.variant = variant.id;
                c.crash = crash;
                QString error;
                if (!w.fire(c, &error))
                    continue;  // a combination the configuration check refuses
                ++runs;
                w.playback().toEnd();
                QApplication::processEvents();
                const QString what =
                    QStringLiteral("%1 %2 %3").arg(scenario->info().id, variant.id, toId(crash));
                if (!w.sequenceView()->allLanesInSight())
                    problems << what + QStringLiteral(": lanes not all in sight");
                for (const QString& line : w.sequenceView()->labels())
                    if (line.endsWith(QStringLiteral("…")))
                        problems << what + QStringLiteral(": cut label ") + line;
            }
        }
    }
    QVERIFY(runs > 100);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
}

void StageTest::pickerRowsAreWhole_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenter");
    for (const char* language : {"en", "zh"}) {
        QTest::addRow("%s 1280x720", language) << language << QSize(1280, 720) << false;
        QTest::addRow("%s 1920x1080", language) << language << QSize(1920, 1080) << false;
        QTest::addRow("%s 1920x1080 presenter", language) << language << QSize(1920, 1080) << true;
    }
}

// Every row of the scenario picker is as tall as its wrapped text, group
// headings included ("Naturally idempotent operations (天然幂等)" on two lines).
void StageTest::pickerRowsAreWhole() {
    QFETCH(QString, language);
    QFETCH(QSize, size);
    QFETCH(bool, presenter);
    MainWindow w(false);
    w.setLanguage(language);
    w.setTheme(false, presenter, 100);
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_COMPARE(w.size(), size);
    QTableWidget* table = w.picker()->table();
    if (presenter) {
        QTest::mouseClick(w.stageHeader()->expandButton(), Qt::LeftButton);
        // Unfolded, the side panel is widened once the event loop turns.
        auto* side = w.findChild<QDockWidget*>(QStringLiteral("scenarioDock"));
        QVERIFY(side && side->isAncestorOf(table));
        QTRY_VERIFY(side->isVisible() && side->width() >= StageLayout::kUnfoldedMinWidth);
    }
    // Laid out for that room: a layout request climbs one parent per turn
    // of the event loop.
    for (int turn = 0; turn < 12; ++turn) QCoreApplication::processEvents();
    QStringList cut;
    for (int row = 0; row < table->rowCount(); ++row) {
        const QTableWidgetItem* item = table->item(row, 0);
        if (!item)
            continue;
        int width = 0;
        for (int c = 0; c < table->columnSpan(row, 0); ++c)
            if (!table->isColumnHidden(c))
                width += table->columnWidth(c);
        // The text laid out line by line as the delegate draws it (a few
        // pixels of margin each side), each line as tall as its fonts.
        QTextLayout layout(item->text(), item->font());
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        double height = 0;
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width - 8);
            height += line.height();
        }
        layout.endLayout();
        const int need = int(height);
        if (need > table->rowHeight(row))
            cut << QStringLiteral("%1: needs %2 px, has %3 (width %4)")
                       .arg(item->text())
                       .arg(need)
                       .arg(table->rowHeight(row))
                       .arg(width);
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
}

void StageTest::tableCellsAreWhole() {
    MainWindow w(false);
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.fire(defaultConfig(*findScenario("order-create")), &error));
    w.playback().toEnd();
    QApplication::processEvents();
    // Status pills and ids: each column at least as wide as its widest cell.
    for (DatabaseTableView* table : w.liveStage()->tables()) {
        QTableView* view = table->view();
        for (int c = 0; c < view->model()->columnCount(); ++c) {
            for (int r = 0; r < view->model()->rowCount(); ++r) {
                QStyleOptionViewItem option;
                option.initFrom(view);
                option.font = view->font();
                option.fontMetrics = QFontMetrics(view->font());
                const QSize need =
                    view->itemDelegate()->sizeHint(option, view->model()->index(r, c));
                QVERIFY2(view->columnWidth(c) >= need.width() ||
                             view->horizontalHeader()->stretchLastSection(),
                         qPrintable(QStringLiteral("%1 column %2: %3 < %4")
                                        .arg(table->table())
                                        .arg(c)
                                        .arg(view->columnWidth(c))
                                        .arg(need.width())));
            }
        }
    }
    // The SQL log's times whole; the statement takes the rest.
    QTableView* log = w.liveStage()->sqlLog()->view();
    const QFontMetrics fm(log->font());
    const int widestTime =
        fm.horizontalAdvance(SqlLogModel::formatTime(w.playback().virtualTime()));
    QVERIFY2(
        log->columnWidth(SqlLogModel::Time) > widestTime,
        qPrintable(
            QStringLiteral("%1 <= %2").arg(log->columnWidth(SqlLogModel::Time)).arg(widestTime)));
    QCOMPARE(log->horizontalHeader()->sectionResizeMode(SqlLogModel::Statement),
             QHeaderView::Stretch);
}

void StageTest::stepCaptionDescribesTheStep() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.variant = "unique-key";
    QString error;
    QVERIFY(w.fire(c, &error));
    bool sawUnique = false;
    while (!w.playback().atEnd()) {
        w.playback().stepForward();
        QVERIFY(!w.caption()->caption().isEmpty());
        // Narrated: what happened and why it matters.
        sawUnique |= w.caption()->caption().contains(
            "The database refuses #2's insert into pay_flow: a row with the same unique key is "
            "already there");
    }
    QVERIFY(sawUnique);
    // Back to the start and forward again: told the same way.
    const QString last = w.caption()->caption();
    w.playback().reset();
    w.playback().toEnd();
    QCOMPARE(w.caption()->caption(), last);
    // The caption's text can be set from outside (narrated captions later).
    w.caption()->setCaption("narrated", "hint");
    QCOMPARE(w.caption()->caption(), QString("narrated"));
}

void StageTest::theEffectTableIsInFront_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("table");
    QTest::newRow("order-create") << "order-create"
                                  << ""
                                  << "orders";
    QTest::newRow("order-create none (no dedup table)") << "order-create"
                                                        << "none"
                                                        << "orders";
    QTest::newRow("payment-callback") << "payment-callback"
                                      << ""
                                      << "ledger";
    QTest::newRow("mq-consume") << "mq-consume"
                                << ""
                                << "coupons";
    QTest::newRow("stock-deduct") << "stock-deduct"
                                  << ""
                                  << "stock";
    QTest::newRow("scheduled-task") << "scheduled-task"
                                    << ""
                                    << "payouts";
    QTest::newRow("natural-ops increment") << "natural-ops"
                                           << "increment"
                                           << "accounts";
    QTest::newRow("natural-ops notify") << "natural-ops"
                                        << "send-notification"
                                        << "notifications";
    QTest::newRow("downstream") << "downstream"
                                << ""
                                << "coupon_grants";
    QTest::newRow("ttl-window") << "ttl-window"
                                << ""
                                << "points_ledger";
    QTest::newRow("duplicate-alert") << "duplicate-alert"
                                     << ""
                                     << "payments";
}

void StageTest::theEffectTableIsInFront() {
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, table);
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario(scenario));
    if (!variant.isEmpty())
        c.variant = variant;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    DatabaseTableView* front = w.liveStage()->frontTable();
    QVERIFY(front);
    QCOMPARE(front->table(), table);
    QVERIFY(front->exists());
}

void StageTest::theTableAStepChangedComesToFront() {
    MainWindow w(false);
    w.show();
    // The dedup claim, the order, the claim marked done: three commits.
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.timing = Timing::Retry;
    QString error;
    QVERIFY(w.fire(c, &error));
    QStringList fronts;
    while (!w.playback().atEnd()) {
        w.playback().stepForward();
        DatabaseTableView* front = w.liveStage()->frontTable();
        if (front->changedLastRefresh() && (fronts.isEmpty() || fronts.last() != front->table()))
            fronts << front->table();
        // Whatever changed is what is in front.
        for (DatabaseTableView* t : w.liveStage()->tables()) {
            if (t->changedLastRefresh())
                QVERIFY2(front->changedLastRefresh(), qPrintable(t->table()));
        }
    }
    QVERIFY2(fronts.mid(0, 3) == QStringList({"dedup", "orders", "dedup"}),
             qPrintable(fronts.join(", ")));
    // Stepping back brings the undone change to the front too.
    w.playback().seek(w.playback().length() / 2);
    w.playback().stepBack();
    QVERIFY(w.liveStage()->frontTable()->exists());
}

// A step that commits nothing leaves the tables unread: what they show, and
// which cells are marked as the last change, is what reading every table at
// every step gives.
void StageTest::theTablesShowWhatAReadAtEveryStepWould() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.timing = Timing::Retry;
    c.intents = 3;
    QString error;
    QVERIFY(w.fire(c, &error));
    const std::unique_ptr<SqlConnection> probe = w.playback().run()->openReader();
    QVERIFY(probe->othersCommittedSinceAsked());
    QList<TableModel*> shadows;
    for (const DatabaseTableView* t : w.liveStage()->tables()) {
        shadows << new TableModel(&w);
        shadows.last()->setTable(t->table());
        shadows.last()->refresh(*probe);
    }
    int quiet = 0;
    int committed = 0;
    while (!w.playback().atEnd()) {
        w.playback().stepForward();
        (probe->othersCommittedSinceAsked() ? committed : quiet) += 1;
        const QList<DatabaseTableView*> tables = w.liveStage()->tables();
        for (int i = 0; i < tables.size(); ++i) {
            // What an open transaction has not committed is shown too, read
            // through its own connection.
            shadows[i]->refresh(*probe, w.playback().writer());
            const QAbstractItemModel* shown = tables[i]->model();
            const QString where = QStringLiteral("%1 at step %2")
                                      .arg(tables[i]->table())
                                      .arg(w.playback().position());
            QVERIFY2(shown->rowCount() == shadows[i]->rowCount(), qPrintable(where));
            QVERIFY2(tables[i]->changedLastRefresh() == shadows[i]->changedLastRefresh(),
                     qPrintable(where));
            for (int r = 0; r < shown->rowCount(); ++r) {
                for (int col = 0; col < shown->columnCount(); ++col) {
                    for (int role : {int(Qt::DisplayRole), TableModel::ChangedRole,
                                     TableModel::UncommittedRole}) {
                        QVERIFY2(
                            shown->index(r, col).data(role) == shadows[i]->index(r, col).data(role),
                            qPrintable(QStringLiteral("%1, row %2, column %3")
                                           .arg(where)
                                           .arg(r)
                                           .arg(col)));
                    }
                }
            }
        }
    }
    // Both kinds of step were taken.
    QVERIFY2(quiet > committed && committed >= 3,
             qPrintable(QStringLiteral("%1 quiet, %2 committed").arg(quiet).arg(committed)));
}

void StageTest::theSameCastFiredAgainShowsWhatAFreshWindowWould() {
    // What the live stage shows: every table's rows with their marks, the
    // table in front, the state diagram's counts.
    auto shown = [](MainWindow& w) {
        QStringList out;
        for (const DatabaseTableView* t : w.liveStage()->tables()) {
            out << t->table() + (t->exists() ? QString() : QStringLiteral(" (unused)"));
            const QAbstractItemModel* m = t->model();
            for (int r = 0; r < m->rowCount(); ++r) {
                QStringList cells;
                for (int col = 0; col < m->columnCount(); ++col) {
                    const QModelIndex i = m->index(r, col);
                    cells << i.data().toString() +
                                 (i.data(TableModel::ChangedRole).toBool() ? "*" : "");
                }
                out << cells.join(QLatin1Char('|'));
            }
        }
        out << QStringLiteral("front: ") + w.liveStage()->frontTable()->table();
        const StateMachineView* state = w.liveStage()->stateView();
        for (const StateEdge& e : findScenario("order-create")->info().stateMachine.edges) {
            out << QStringLiteral("%1->%2 %3/%4")
                       .arg(e.from, e.to)
                       .arg(state->acceptedCount(e.from, e.to))
                       .arg(state->rejectedCount(e.from, e.to));
        }
        return out;
    };
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.variant = "dedup-table";
    c.timing = Timing::Retry;
    c.intents = 3;
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    w.playback().toEnd();
    const QList<DatabaseTableView*> views = w.liveStage()->tables();
    const QPointer<DatabaseTableView> kept = views.first();
    w.liveStage()->tableTabs()->setCurrentWidget(views.first());

    // Another timing, fewer intents: the views are kept, and show the new
    // run alone, as a window that never showed the first would.
    RunConfig again = c;
    again.timing = Timing::Concurrent;
    again.intents = 1;
    QVERIFY2(w.fire(again, &error), qPrintable(error));
    QVERIFY(kept);
    QCOMPARE(w.liveStage()->tables(), views);
    MainWindow fresh(false);
    fresh.show();
    QVERIFY2(fresh.fire(again, &error), qPrintable(error));
    QCOMPARE(shown(w), shown(fresh));
    w.playback().toEnd();
    fresh.playback().toEnd();
    QCOMPARE(shown(w), shown(fresh));

    // Another variant: the views are built for it.
    RunConfig other = again;
    other.variant = "none";
    QVERIFY2(w.fire(other, &error), qPrintable(error));
    QVERIFY(!kept);
}

void StageTest::theLabsInternalsAreHiddenUnlessAskedFor() {
    MainWindow w(false);
    w.show();
    RunConfig c = defaultConfig(*findScenario("natural-ops"));
    c.variant = "increment";
    QString error;
    QVERIFY(w.fire(c, &error));
    w.playback().toEnd();
    auto tabShown = [&w](const QString& table) {
        for (DatabaseTableView* t : w.liveStage()->tables()) {
            if (t->table() == table)
                return w.liveStage()->tableTabs()->isTabVisible(
                    w.liveStage()->tableTabs()->indexOf(t));
        }
        return false;
    };
    QVERIFY(!w.sequenceView()->lanes().contains("observer"));
    QVERIFY(!tabShown("snapshots"));
    for (const QString& line : w.sequenceView()->labels())
        QVERIFY2(!line.contains("set-up"), qPrintable(line));
    QAction* internals = w.action("internals");
    QVERIFY(internals && internals->isCheckable() && !internals->isChecked());
    internals->trigger();
    QVERIFY(w.sequenceView()->lanes().contains("observer"));
    QVERIFY(tabShown("snapshots"));
    QVERIFY(w.sequenceView()->labels().join(" ").contains("set-up"));
    internals->trigger();
    QVERIFY(!w.sequenceView()->lanes().contains("observer"));

    // What is internal is the scenario's declaration: pagination's records of
    // the feed at the start and of where the reader stopped.
    QVERIFY(w.fire(defaultConfig(*findScenario("pagination")), &error));
    QVERIFY(tabShown("page_reads"));
    QVERIFY(!tabShown("feed_at_start"));
    QVERIFY(!tabShown("scroll_ends"));
    internals->trigger();
    QVERIFY(tabShown("feed_at_start"));
    internals->trigger();
}

void StageTest::internalsAreDeclaredLanesAndTables() {
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        for (const QString& lane : info.internalLanes)
            QVERIFY2(info.lanes.contains(lane), qPrintable(info.id + " " + lane));
        for (const QString& table : info.internalTables) {
            QVERIFY2(info.tables.contains(table), qPrintable(info.id + " " + table));
            QVERIFY2(table != info.guardTable && table != info.effectTable,
                     qPrintable(info.id + " " + table));
        }
    }
}

QTEST_MAIN(StageTest)
#include "stage_test.moc"
