// Live mode in the window (SPEC sections 5 and 8), with the real widgets off
// screen: what the fire panel offers on each database, a server started
// while the window keeps answering, a missing server said in one message
// while SQLite goes on working, and a server's waits, holders, locks,
// deadlocks and serialization failures on the sequence diagram and in the
// captions. Functions that need a server skip when its package is missing.
#include "compareview.h"
#include "comparison.h"
#include "firepanel.h"
#include "livestage.h"
#include "locksmodel.h"
#include "locksview.h"
#include "lockwaits.h"
#include "mainwindow.h"
#include "narration.h"
#include "outcomepanel.h"
#include "playback.h"
#include "playbackbar.h"
#include "privateredis.h"
#include "rediskeys.h"
#include "redisview.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "runner.h"
#include "sequencesteps.h"
#include "sequenceview.h"
#include "serverbackend.h"
#include "serverinstall.h"
#include "sqllogview.h"
#include "stagedirector.h"
#include "stepcaption.h"
#include "tablemodel.h"
#include "tableview.h"
#include "texts.h"
#include "trace.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTranslator>

using namespace idem;

namespace {

void choose(QComboBox* box, const QString& id) {
    const int i = box->findData(id);
    QVERIFY2(i >= 0, qPrintable(id));
    box->setCurrentIndex(i);
}

bool offered(QComboBox* box, const QString& id) {
    const int i = box->findData(id);
    const auto* items = qobject_cast<QStandardItemModel*>(box->model());
    return i >= 0 && items && items->item(i)->isEnabled();
}

QString tooltipOf(QComboBox* box, const QString& id) {
    return box->itemData(box->findData(id), Qt::ToolTipRole).toString();
}

QStringList dataOf(QComboBox* box) {
    QStringList ids;
    for (int i = 0; i < box->count(); ++i) ids << box->itemData(i).toString();
    return ids;
}

#define SKIP_WITHOUT(backend)                                                          \
    do {                                                                               \
        if (const QString missing = missingServerPackage(backend); !missing.isEmpty()) \
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (package %2)")        \
                                 .arg(backendName(backend), missing)));                \
    } while (false)

RunConfig orderCreate(const QString& backend, const QString& variant,
                      const QString& isolation = {}) {
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.backend = backend;
    c.variant = variant;
    c.isolation = isolation;
    c.timing = Timing::Concurrent;
    return c;
}

QList<TraceEvent> eventsOf(const RunConfig& c) {
    const Scenario& scenario = *findScenario(c.scenario);
    Run run(c, scenario);
    QString error;
    if (!run.start(&error))
        qWarning() << "the run did not start:" << error;
    run.runToEnd();
    return run.trace().events();
}

QStringList captionsOf(const RunConfig& c, const QList<TraceEvent>& events) {
    Narrator narrator(c.intents, &findScenario(c.scenario)->info().words);
    QStringList captions;
    for (const TraceEvent& e : events) captions << narrator.caption(e);
    return captions;
}

bool anyContains(const QStringList& lines, const QString& part) {
    return std::any_of(lines.cbegin(), lines.cend(),
                       [&](const QString& line) { return line.contains(part); });
}

}  // namespace

class LiveWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void theFirePanelOffersWhatEachDatabaseHas();
    void theChoosersAreReachedByKeyAndNamedInBothLanguages();
    void theFirePanelOffersRedisWhereTheVariantHasIt();
    void theRedisTabShowsTheStreamsPendingEntries();
    void startingAServerKeepsTheWindowTurning();
    void aMissingServerIsOneMessageAndSqliteGoesOn();
    void aServerTraceOpensAsItsRecording();
    void theDiagramShowsTheWaitTheHolderTheLockAndTheDeadlock();
    void theCaptionsSayTheWaitAndTheDeadlockInBothLanguages();
    void aSerializationFailureIsMarkedWhereTheServerRefused();
    void compareRunsOneVariantOnTwoDatabases();
    void theLocksViewShowsTheWaitingRow_data();
    void theLocksViewShowsTheWaitingRow();
    void keysPressedWhileAStepWaitsAreKept();
    void theSqlLogSaysWhatEachSessionWasTold();
};

void LiveWindowTest::theFirePanelOffersWhatEachDatabaseHas() {
    FirePanel panel;
    const Scenario& scenario = *findScenario("order-create");
    panel.setScenario(scenario);
    QComboBox* backend = panel.backendBox();
    QComboBox* isolation = panel.isolationBox();
    QComboBox* variant = panel.variantBox();
    QCOMPARE(dataOf(backend), QStringList({"sqlite", "mariadb", "postgres"}));
    QCOMPARE(backend->currentData().toString(), QStringLiteral("sqlite"));
    // SQLite's one level is shown, not offered.
    QCOMPARE(dataOf(isolation), QStringList({"serializable"}));
    QVERIFY(!isolation->isEnabled());
    QVERIFY(!isolation->toolTip().isEmpty());
    // FOR UPDATE needs a server: greyed on SQLite, saying why.
    QVERIFY(variant->findData("check-for-update") >= 0);
    QVERIFY(!offered(variant, "check-for-update"));
    QVERIFY2(tooltipOf(variant, "check-for-update").contains("FOR UPDATE"),
             qPrintable(tooltipOf(variant, "check-for-update")));
    QVERIFY(offered(variant, "check-in-tx"));  // it runs on SQLite: the trap of a SQLite test suite
    QVERIFY(offered(variant, "none"));

    for (const QString& server : {QStringLiteral("mariadb"), QStringLiteral("postgres")}) {
        choose(backend, server);
        QCOMPARE(dataOf(isolation), isolationIds(server));
        QVERIFY(isolation->isEnabled());
        QCOMPARE(isolation->currentIndex(), 0);  // the server's own level
        for (int i = 0; i < isolation->count(); ++i)
            QVERIFY(!isolation->itemData(i, Qt::ToolTipRole).toString().isEmpty());
        // Read at run time: each variant is offered where its SQL has this
        // server's form, greyed with the reason elsewhere.
        for (const VariantInfo& v : scenario.info().variants) {
            QVERIFY2(offered(variant, v.id) == v.servers.contains(server),
                     qPrintable(server + " " + v.id));
            if (!v.servers.contains(server))
                QVERIFY(tooltipOf(variant, v.id).contains(backendName(server)));
        }
        QVERIFY(offered(variant, "check-for-update"));
        QVERIFY(offered(variant, variant->currentData().toString()));
    }

    // A choice the new database lacks falls back to one it has.
    choose(backend, "mariadb");
    choose(variant, "check-for-update");
    choose(isolation, "read-committed");
    RunConfig c = panel.config();
    QCOMPARE(c.backend, QStringLiteral("mariadb"));
    QCOMPARE(c.isolation, QStringLiteral("read-committed"));
    QCOMPARE(c.variant, QStringLiteral("check-for-update"));
    QVERIFY(FirePanel::problemText(c, scenario.info()).isEmpty() ||
            !missingServerPackage("mariadb").isEmpty());
    choose(backend, "sqlite");
    c = panel.config();
    QCOMPARE(c.backend, QStringLiteral("sqlite"));
    QVERIFY(c.isolation.isEmpty());
    QVERIFY(c.variant != QLatin1String("check-for-update"));
    QVERIFY(offered(variant, c.variant));
    QVERIFY(scenario.info().variant(c.variant)->recommended);
    QVERIFY(FirePanel::problemText(c, scenario.info()).isEmpty());

    // A configuration from elsewhere (a trace, a lesson) shows its database.
    panel.setConfig(orderCreate("postgres", "check-in-tx", "serializable"));
    QCOMPARE(panel.config().backend, QStringLiteral("postgres"));
    QCOMPARE(panel.config().isolation, QStringLiteral("serializable"));
    QCOMPARE(panel.config().variant, QStringLiteral("check-in-tx"));
    // ... and a server-only variant on SQLite is refused in the panel's words.
    const QString refused =
        FirePanel::problemText(orderCreate("sqlite", "check-for-update"), scenario.info());
    QVERIFY2(refused.contains("FOR UPDATE"), qPrintable(refused));
}

void LiveWindowTest::theChoosersAreReachedByKeyAndNamedInBothLanguages() {
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    FirePanel* panel = w.firePanel();
    QTest::keyClick(&w, Qt::Key_B, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), panel->backendBox());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
    QCOMPARE(panel->backendBox()->currentData().toString(), QStringLiteral("mariadb"));
    // The level is the next field: the panel's letters are all taken.
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), panel->isolationBox());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
    QCOMPARE(panel->isolationBox()->currentData().toString(), QStringLiteral("read-committed"));
    QCOMPARE(panel->backendBox()->accessibleName(), QStringLiteral("Database the run uses"));

    w.setLanguage("zh");
    QCOMPARE(panel->backendBox()->accessibleName(), QStringLiteral("本次运行使用的数据库"));
    QCOMPARE(panel->isolationBox()->accessibleName(), QStringLiteral("本次运行中事务的隔离级别"));
    QCOMPARE(panel->findChild<QLabel*>("backendLabel")->text(), QStringLiteral("数据库(&B)"));
    QCOMPARE(panel->findChild<QLabel*>("isolationLabel")->text(), QStringLiteral("隔离级别"));
    // The choice survives the language, in the new language's words.
    QCOMPARE(panel->isolationBox()->currentData().toString(), QStringLiteral("read-committed"));
    QCOMPARE(panel->isolationBox()->currentText(), QStringLiteral("读已提交"));
    w.setLanguage("en");
}

// SPEC section 10: a real Redis is a choice of the fire panel, offered to
// a variant with a Redis form where redis-server is installed; the run
// fired with it sends its commands to a private server.
void LiveWindowTest::theFirePanelOffersRedisWhereTheVariantHasIt() {
    const bool installed = PrivateRedis::missingPackage().isEmpty();
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    FirePanel* panel = w.firePanel();
    panel->setScenario(*findScenario("scheduled-task"));
    QComboBox* redis = panel->redisBox();
    QCOMPARE(dataOf(redis), QStringList({"off", "private"}));
    choose(panel->variantBox(), "lock-only");
    QVERIFY(!redis->isEnabled());
    QCOMPARE(redis->toolTip(), QStringLiteral("This variant keeps nothing in Redis."));
    QCOMPARE(panel->config().redis, QStringLiteral("off"));
    choose(panel->variantBox(), "redis-lock");
    QCOMPARE(redis->isEnabled(), installed);
    QCOMPARE(offered(redis, "private"), installed);
    if (!installed) {
        QVERIFY2(tooltipOf(redis, "private").contains("redis-server"),
                 qPrintable(tooltipOf(redis, "private")));
        QCOMPARE(panel->config().redis, QStringLiteral("off"));
        return;
    }
    choose(redis, "private");
    choose(panel->crashBox(), "long-pause");
    RunConfig c = panel->config();
    QCOMPARE(c.redis, QStringLiteral("private"));
    QVERIFY(FirePanel::settingsText(c).contains(QStringLiteral("real Redis")));
    // A variant without a Redis form runs without it.
    choose(panel->variantBox(), "lock-only");
    QCOMPARE(panel->config().redis, QStringLiteral("off"));
    panel->setConfig(c);
    QCOMPARE(panel->config().redis, QStringLiteral("private"));
    QCOMPARE(panel->config().variant, QStringLiteral("redis-lock"));

    w.fireInBackground(panel->config());
    w.jobs()->finishNow();
    QVERIFY(w.playback().isLoaded());
    QCOMPARE(w.playback().config().redis, QStringLiteral("private"));
    w.playback().toEnd();
    w.jobs()->finishNow();
    QStringList commands;
    for (const TraceEvent& e : w.playback().run()->trace().events())
        if (e.kindId() == QLatin1String("redis"))
            commands << e.fields.text("command").section(QLatin1Char(' '), 0, 0);
    QCOMPARE(commands, QStringList({"SET", "PTTL", "SET", "EVAL", "EVAL"}));
    QCOMPARE(w.playback().finalSummary().verdictId(), QStringLiteral("duplicated"));

    // The Redis tab: the keys at each step, read from the trace.
    LiveStage* stage = w.liveStage();
    QTabWidget* tabs = stage->tableTabs();
    QVERIFY(tabs->isTabVisible(tabs->indexOf(stage->redisView())));
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    qsizetype aSets = -1, bSets = -1, bFrees = -1;
    for (qsizetype i = 0; i < events.size(); ++i) {
        const TraceEvent& e = events[i];
        if (e.kindId() != QLatin1String("redis"))
            continue;
        const QString command = e.fields.text("command");
        if (command.startsWith(QLatin1String("SET ")))
            (e.attempt == 1 ? aSets : bSets) = i;
        if (command.startsWith(QLatin1String("EVAL ")) && e.attempt == 2)
            bFrees = i;
    }
    QVERIFY(aSets >= 0 && bSets > aSets && bFrees > bSets);
    QList<RedisKey> keys = redisKeysAt(events, aSets + 1);
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys[0].key, QStringLiteral("lock:settle:2025-03-01"));
    QCOMPARE(keys[0].value, QStringLiteral("node-a#1"));
    QCOMPARE(keys[0].expiresAt, c.leaseMs);
    keys = redisKeysAt(events, bSets + 1);
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys[0].value, QStringLiteral("node-b#2"));
    QCOMPARE(keys[0].expiresAt, events[bSets].tMs + c.leaseMs);
    QVERIFY(redisKeysAt(events, bFrees + 1).isEmpty());
    // On screen at the end: none left, and said so.
    QCOMPARE(stage->redisView()->table()->rowCount(), 0);
    QCOMPARE(stage->redisView()->about(),
             QStringLiteral("Redis holds none of the run's keys at this step."));
    // B holds the lock while A sleeps: its row, with its time left.
    const QTableWidget* shown = stage->redisView()->table();
    bool bHolds = false;
    for (int position = 0; position <= w.playback().length() && !bHolds; ++position) {
        w.playback().seek(position);
        w.jobs()->finishNow();
        bHolds = shown->rowCount() == 1 && shown->item(0, 1)->text() == QLatin1String("node-b#2");
    }
    QVERIFY(bHolds);
    QCOMPARE(stage->redisView()->table()->item(0, 0)->text(),
             QStringLiteral("lock:settle:2025-03-01"));
    QVERIFY(!stage->redisView()->table()->item(0, 4)->text().isEmpty());

    w.setLanguage("zh");
    QCOMPARE(panel->findChild<QLabel*>("redisLabel")->text(), QStringLiteral("Redis"));
    QCOMPARE(redis->currentText(), QStringLiteral("真实的 Redis（私有服务器）"));
    w.setLanguage("en");
}

// SPEC section 10: mq-consume on a Redis stream. The Redis tab lists the
// entry, pending with consumer-1 after the crash, then claimed by
// consumer-2 (2 deliveries) and acked; in both languages.
void LiveWindowTest::theRedisTabShowsTheStreamsPendingEntries() {
    if (!PrivateRedis::missingPackage().isEmpty())
        QSKIP("redis-server is not installed");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    FirePanel* panel = w.firePanel();
    panel->setScenario(*findScenario("mq-consume"));
    choose(panel->variantBox(), "none");
    QVERIFY(panel->redisBox()->isEnabled());
    choose(panel->redisBox(), "private");
    choose(panel->crashBox(), "before-ack");
    panel->duplicatesBox()->setValue(0);
    w.fireInBackground(panel->config());
    w.jobs()->finishNow();
    QVERIFY(w.playback().isLoaded());
    RedisView* view = w.liveStage()->redisView();
    const QTableWidget* stream = view->streamTable();
    // The step of the broker's XPENDING that finds the crashed delivery.
    int pendingStep = -1;
    for (int position = 0; position <= w.playback().length() && pendingStep < 0; ++position) {
        w.playback().seek(position);
        w.jobs()->finishNow();
        if (stream->isVisibleTo(view) && stream->rowCount() == 1 &&
            stream->item(0, 6)->text() == QLatin1String("pending: handed over, not acked") &&
            stream->item(0, 3)->text() == QLatin1String("consumer-1") &&
            stream->item(0, 5)->text() == QLatin1String("10.000 s"))
            pendingStep = position;
    }
    QVERIFY2(pendingStep >= 0, "the crashed delivery never showed pending, 10 s idle");
    QCOMPARE(stream->item(0, 0)->text(), QStringLiteral("coupon-events:50001"));
    QCOMPARE(stream->item(0, 4)->text(), QStringLiteral("1"));
    QVERIFY(!view->table()->isVisibleTo(view));  // no plain keys: the stream has the room
    w.playback().toEnd();
    w.jobs()->finishNow();
    QCOMPARE(stream->item(0, 3)->text(), QStringLiteral("consumer-2"));
    QCOMPARE(stream->item(0, 4)->text(), QStringLiteral("2"));
    QCOMPARE(stream->item(0, 6)->text(), QStringLiteral("acked"));
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    QCOMPARE(streamEntriesAt(events, events.size()).value(0).deliveries, 2);
    QCOMPARE(w.playback().finalSummary().verdictId(), QStringLiteral("duplicated"));
    w.setLanguage("zh");
    QCOMPARE(stream->horizontalHeaderItem(4)->text(), QStringLiteral("投递次数"));
    QCOMPARE(stream->item(0, 6)->text(), QStringLiteral("已确认"));
    w.setLanguage("en");
}

void LiveWindowTest::startingAServerKeepsTheWindowTurning() {
    SKIP_WITHOUT("mariadb");
    // A cache of its own: the first start initialises the server's template
    // (seconds), the longest the window has to keep answering.
    QTemporaryDir cache;
    QVERIFY(cache.isValid());
    const QByteArray oldCache = qgetenv("XDG_CACHE_HOME");
    qputenv("XDG_CACHE_HOME", QFile::encodeName(cache.path()));
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.fireInBackground(defaultConfig(*findScenario("order-create")));
    w.jobs()->finishNow();
    FirePanel* panel = w.firePanel();
    choose(panel->backendBox(), "mariadb");
    choose(panel->variantBox(), "check-for-update");
    choose(panel->timingBox(), "concurrent");

    // The event loop's turns, counted while the server starts in the worker
    // (timed for the log: how long a turn may take is tests/bench's to
    // measure, heartbeat_bench).
    QElapsedTimer clock;
    qint64 last = 0;
    qint64 longestGap = 0;
    int beats = 0;
    QStringList said;
    QTimer beat;
    beat.setInterval(5);
    connect(&beat, &QTimer::timeout, &w, [&] {
        const qint64 now = clock.elapsed();
        longestGap = std::max(longestGap, now - last);
        last = now;
        ++beats;
        const QString text = w.jobs()->label()->text();
        if (w.jobs()->label()->isVisible() && !said.contains(text))
            said << text;
    });
    clock.start();
    beat.start();
    QTest::mouseClick(panel->fireButton(), Qt::LeftButton);
    QVERIFY(w.jobs()->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 120000);
    beat.stop();
    const qint64 took = clock.elapsed();
    qputenv("XDG_CACHE_HOME", oldCache);
    QVERIFY2(w.messages()->currentMessage().isEmpty(), qPrintable(w.messages()->currentMessage()));
    QCOMPARE(w.playback().config().backend, QStringLiteral("mariadb"));
    QVERIFY(w.playback().length() > 0);
    qInfo("the fire took %lld ms; the longest event-loop gap was %lld ms; the status said: %s",
          took, longestGap, qPrintable(said.join(QStringLiteral(" | "))));
    QVERIFY2(beats >= 3, qPrintable(QString::number(beats)));
    QVERIFY2(anyContains(said, QStringLiteral("Starting MariaDB… (first start initialises it")),
             qPrintable(said.join('\n')));

    // Played, each step in a worker, to the end, the window answering.
    PlaybackBar* bar = w.playbackBar();
    bar->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
    longestGap = 0;
    beats = 0;
    clock.restart();
    last = 0;
    beat.start();
    bar->play();
    QTRY_VERIFY_WITH_TIMEOUT(w.playback().atEnd(), 60000);
    beat.stop();
    qInfo("played %d steps in %lld ms; the longest event-loop gap was %lld ms",
          w.playback().length(), clock.elapsed(), longestGap);
    QVERIFY2(beats >= 3, qPrintable(QString::number(beats)));
}

void LiveWindowTest::aMissingServerIsOneMessageAndSqliteGoesOn() {
    // Run by tests/without_servers.sh, which hides the servers' programs in
    // a mount namespace of its own, as on a machine without their packages.
    if (missingServerPackage("mariadb").isEmpty())
        QSKIP("MariaDB is installed: tests/without_servers.sh runs this without it");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.fireInBackground(defaultConfig(*findScenario("order-create")));
    w.jobs()->finishNow();
    FirePanel* panel = w.firePanel();
    choose(panel->backendBox(), "mariadb");
    QVERIFY(panel->backendNote()->isVisible());
    const QString note = panel->backendNote()->text();
    // The command that installs it, one that works in an installed lab too
    // (no script of the source tree's).
    QVERIFY2(note.contains("sudo apt install mariadb-server-core mariadb-client-core") &&
                 !note.contains("run.sh") && !note.contains("setup.sh"),
             qPrintable(note));
    w.messages()->clearMessage();
    QTest::mouseClick(panel->fireButton(), Qt::LeftButton);
    QVERIFY(!w.jobs()->isBusy());  // refused before anything starts
    QCOMPARE(w.messages()->currentMessage(), note);
    QCOMPARE(w.playback().config().backend, QStringLiteral("sqlite"));  // the run before stays

    w.setLanguage("zh");
    QVERIFY2(panel->backendNote()->text().contains("mariadb-server-core") &&
                 panel->backendNote()->text().contains("缺少"),
             qPrintable(panel->backendNote()->text()));
    w.setLanguage("en");

    choose(panel->backendBox(), "sqlite");
    QVERIFY(!panel->backendNote()->isVisible());
    choose(panel->variantBox(), "unique-key");
    QTest::mouseClick(panel->fireButton(), Qt::LeftButton);
    w.jobs()->finishNow();
    QCOMPARE(w.playback().config().variant, QStringLiteral("unique-key"));
    QVERIFY(w.playback().length() > 0);
}

void LiveWindowTest::aServerTraceOpensAsItsRecording() {
    // Run by tests/without_servers.sh, after recorded_record saved the
    // traces on the servers (tests/recorded_test.cpp).
    if (missingServerPackage("mariadb").isEmpty())
        QSKIP("MariaDB is installed: tests/without_servers.sh runs this without it");
    const QString path = QDir(qEnvironmentVariable("IDEM_RECORDINGS"))
                             .filePath(QStringLiteral("mariadb-check-for-update.json"));
    if (!QFileInfo::exists(path))
        QSKIP("no recording: MariaDB was not installed where the traces were recorded");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.openTraceAt(path);
    w.jobs()->finishNow();  // reads the trace
    w.jobs()->finishNow();  // fires its run
    QVERIFY(w.playback().isLoaded());
    QVERIFY(w.playback().config().recording);
    FirePanel* panel = w.firePanel();
    QVERIFY(panel->backendNote()->isVisible());
    const QString note = panel->backendNote()->text();
    QVERIFY2(note.startsWith("Plays the recording mariadb-check-for-update.json: MariaDB is not "
                             "installed on this computer"),
             qPrintable(note));
    // The recorded run's outcome, and Fire plays the recording again.
    Trace::Loaded stored;
    QString error;
    QVERIFY2(Trace::load(path, &stored, &error), qPrintable(error));
    QCOMPARE(w.playback().finalSummary().toJson().value("verdict"),
             stored.summary.value("verdict"));
    QVERIFY(panel->config().recording);
    w.setLanguage("zh");
    QVERIFY2(panel->backendNote()->text().startsWith(QStringLiteral("正在播放录制")),
             qPrintable(panel->backendNote()->text()));
    w.setLanguage("en");
    // Another database: the recording is not that run's.
    choose(panel->isolationBox(), "read-committed");
    QVERIFY(!panel->config().recording);
}

void LiveWindowTest::theDiagramShowsTheWaitTheHolderTheLockAndTheDeadlock() {
    SKIP_WITHOUT("mariadb");
    const RunConfig c = orderCreate("mariadb", "check-for-update");
    const QList<TraceEvent> events = eventsOf(c);
    const ScenarioInfo& info = findScenario(c.scenario)->info();
    const QList<SequenceStep> steps =
        SequenceSteps::build(events, 0, events.size(), events.size(), &info);
    // Each attempt's session, from its own events.
    auto attemptOn = [&](const QString& session, qsizetype before) {
        for (qsizetype i = before - 1; i >= 0; --i) {
            if (events[i].attempt > 0 && events[i].connectionName() == session)
                return events[i].attempt;
        }
        return 0;
    };
    int waits = 0, deadlocks = 0, released = 0;
    for (const SequenceStep& s : steps) {
        const TraceEvent& e = events[s.event];
        if (isServerLockWait(e)) {
            ++waits;
            QVERIFY(s.hourglass);
            QVERIFY2(s.label.startsWith(QStringLiteral("#%1 waits for #").arg(e.attempt)),
                     qPrintable(s.label));
            QVERIFY2(s.label.contains("uk_orders_request_id"), qPrintable(s.label));
            for (const QString& session : e.fields.text("holder").split(", "))
                QVERIFY2(s.label.contains(QStringLiteral("#%1").arg(attemptOn(session, s.event))),
                         qPrintable(s.label + " / " + session));
        }
        if (e.is(EventKind::Sql) && e.outcome() == SqlOutcome::Deadlock) {
            ++deadlocks;
            QCOMPARE(s.tone, SequenceStep::Tone::Bad);
            QVERIFY2(s.label.startsWith(QStringLiteral("#%1 ").arg(e.attempt)) &&
                         s.label.contains("deadlock: victim"),
                     qPrintable(s.label));
        }
        if (s.waitedFrom >= 0) {
            ++released;
            const TraceEvent& wait = events[s.waitedFrom];
            QVERIFY(isServerLockWait(wait));
            QCOMPARE(wait.attempt, e.attempt);
            QVERIFY(e.is(EventKind::Sql));
            QVERIFY(s.waitedFrom < s.event);
        }
    }
    QVERIFY(waits >= 1);
    QVERIFY(deadlocks >= 1);
    QCOMPARE(released, waits);
    // A gap lock is named so.
    QVERIFY(std::any_of(steps.cbegin(), steps.cend(), [](const SequenceStep& s) {
        return s.label.contains("gap lock on uk_orders_request_id");
    }));

    // The streamed steps (the exports) say the same.
    SequenceSteps::Stream stream(false, &info);
    QList<SequenceStep> streamed;
    for (const TraceEvent& e : events) stream.add(e, &streamed);
    stream.finish(&streamed);
    QStringList built, fromStream;
    for (const SequenceStep& s : steps) built << s.label;
    for (const SequenceStep& s : streamed) fromStream << s.label;
    QCOMPARE(fromStream, built);

    // The window draws them: fired, then played to the end.
    MainWindow w(false);
    w.resize(1920, 1080);
    w.show();
    QString error;
    QVERIFY2(w.fire(c, &error), qPrintable(error));
    // Stepped as the arrow key steps it: a step on a server waits for the
    // server (a lock wait is certain only once it says so), in a worker;
    // the window's thread only asks for it.
    qint64 longestAsk = 0;
    qint64 longestStep = 0;
    QElapsedTimer clock;
    while (w.playback().position() < w.playback().length()) {
        const int before = w.playback().position();
        clock.start();
        w.playback().stepForward();
        longestAsk = std::max(longestAsk, clock.elapsed());
        // Asked, not taken: the step is the worker's.
        QVERIFY(w.jobs()->isBusy());
        QCOMPARE(w.playback().position(), before);
        w.jobs()->finishNow();
        longestStep = std::max(longestStep, clock.elapsed());
        QCOMPARE(w.playback().position(), before + 1);
    }
    qInfo(
        "%d steps on MariaDB: the longest took %lld ms in its worker, %lld ms on the window's "
        "thread",
        w.playback().length(), longestStep, longestAsk);
    w.director()->showLaterNow();
    // The caption tells the last step, as after steps on the window's thread.
    QVERIFY2(w.caption()->caption().contains("#4 answers the client"),
             qPrintable(w.caption()->caption()));
    const QStringList drawn = w.sequenceView()->labels();
    QVERIFY2(anyContains(drawn, "deadlock: victim"), qPrintable(drawn.join('\n')));
    QVERIFY2(anyContains(drawn, "uk_orders_request_id"), qPrintable(drawn.join('\n')));
}

void LiveWindowTest::theCaptionsSayTheWaitAndTheDeadlockInBothLanguages() {
    SKIP_WITHOUT("mariadb");
    const RunConfig c = orderCreate("mariadb", "check-for-update");
    const QList<TraceEvent> events = eventsOf(c);
    QStringList english = captionsOf(c, events);
    QVERIFY2(anyContains(english, "#1 waits for the gap lock #2, #3 hold on uk_orders_request_id"),
             qPrintable(english.join('\n')));
    QVERIFY2(anyContains(english, "Deadlock: the server rolled back #2's transaction"),
             qPrintable(english.join('\n')));
    QVERIFY2(anyContains(english, "#4 waits for the lock #5 holds on uk_orders_request_id."),
             qPrintable(english.join('\n')));
    // The error answer says what the server's words mean, its code beside
    // (the words themselves are in the SQL log).
    QVERIFY2(anyContains(english, "with an error (a deadlock, the server's error 1213)"),
             qPrintable(english.join('\n')));

    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")));
    QCoreApplication::installTranslator(&zh);
    Narrator::untranslated();
    const QStringList chinese = captionsOf(c, events);
    const QStringList untranslated = Narrator::untranslated();
    QCoreApplication::removeTranslator(&zh);
    QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join('\n')));
    QVERIFY2(anyContains(chinese, "#1 等待 #2、#3 持有的 uk_orders_request_id 上的间隙锁"),
             qPrintable(chinese.join('\n')));
    QVERIFY2(anyContains(chinese, "死锁：服务器回滚了 #2 的事务"), qPrintable(chinese.join('\n')));
    QVERIFY2(anyContains(chinese, "#4 等待 #5 持有的 uk_orders_request_id 上的锁"),
             qPrintable(chinese.join('\n')));
    QVERIFY2(anyContains(chinese, "返回错误（死锁，服务器错误码 1213）"),
             qPrintable(chinese.join('\n')));

    // On SQLite a wait is still the database's one write lock.
    RunConfig sqlite = orderCreate("sqlite", "check-in-tx");
    const QList<TraceEvent> local = eventsOf(sqlite);
    const QStringList said = captionsOf(sqlite, local);
    QVERIFY(std::any_of(local.cbegin(), local.cend(),
                        [](const TraceEvent& e) { return e.is(EventKind::LockWait); }));
    QVERIFY2(anyContains(said, "waits: another transaction holds the database's write lock"),
             qPrintable(said.join('\n')));
}

void LiveWindowTest::aSerializationFailureIsMarkedWhereTheServerRefused() {
    SKIP_WITHOUT("postgres");
    const RunConfig c = orderCreate("postgres", "check-in-tx", "serializable");
    const QList<TraceEvent> events = eventsOf(c);
    const ScenarioInfo& info = findScenario(c.scenario)->info();
    const QList<SequenceStep> steps =
        SequenceSteps::build(events, 0, events.size(), events.size(), &info);
    const QStringList captions = captionsOf(c, events);
    int refused = 0;
    for (const SequenceStep& s : steps) {
        const TraceEvent& e = events[s.event];
        if (!e.is(EventKind::Sql) || e.outcome() != SqlOutcome::SerializationFailure)
            continue;
        ++refused;
        QCOMPARE(s.tone, SequenceStep::Tone::Bad);
        QVERIFY2(s.label.startsWith(QStringLiteral("#%1 COMMIT").arg(e.attempt)) &&
                     s.label.contains("serialization failure"),
                 qPrintable(s.label));
        QVERIFY2(anyContains(captions, QStringLiteral("Serialization failure: the server "
                                                      "refuses #%1's COMMIT")
                                           .arg(e.attempt)),
                 qPrintable(captions.join('\n')));
    }
    QVERIFY(refused >= 1);
}

// "Green on SQLite, red on MySQL": check-in-tx on SQLite beside MariaDB on
// the same input. SQLite's second writer waits for the first and finds its
// order; on MariaDB both check before either inserts. Both sides' outcomes
// and sequence diagrams are shown, and the choosers say which side is which.
void LiveWindowTest::compareRunsOneVariantOnTwoDatabases() {
    SKIP_WITHOUT("mariadb");
    CompareView view;
    view.resize(1280, 720);
    const Scenario& scenario = *findScenario("order-create");
    view.setInput(scenario, orderCreate("sqlite", "check-in-tx"));
    view.outcome(0);  // builds the page
    QCOMPARE(view.backend(0), QStringLiteral("sqlite"));
    view.setBackend(1, "mariadb");
    QCOMPARE(view.backend(1), QStringLiteral("mariadb"));
    auto* variants = view.findChild<QComboBox*>("compareVariant1");
    auto* left = view.findChild<QComboBox*>("compareVariant0");
    QVERIFY(variants && left);
    choose(left, "check-in-tx");
    choose(variants, "check-in-tx");
    const auto runs = view.prepare();
    QVERIFY(runs);
    QCOMPARE(runs->configs[0].backend, QStringLiteral("sqlite"));
    QCOMPARE(runs->configs[1].backend, QStringLiteral("mariadb"));
    QVERIFY(runs->keepTrace[0] && runs->keepTrace[1]);
    runComparison(*runs);
    QVERIFY2(runs->sides[1].ok(), qPrintable(runs->sides[1].error));
    view.show(runs);
    QCOMPARE(view.outcome(0)->verdictId(), QStringLiteral("exactly-once"));
    QCOMPARE(view.outcome(1)->verdictId(), QStringLiteral("duplicated"));
    QVERIFY(view.inputText().contains(QStringLiteral("MariaDB")));
    // Both diagrams drew the run's steps, not an empty page.
    for (int side = 0; side < 2; ++side) {
        QVERIFY(view.sequence(side)->drawnUpTo() > 0);
        QVERIFY(view.sequence(side)->arrowCount() >= 2);  // two fires at least
    }
    // MariaDB's side shows its sessions' locks: a wait or an insert that
    // went through beside the other's.
    QVERIFY(runs->sides[1].run->trace().size() > 0);
    auto* backend = view.findChild<QComboBox*>("compareBackend1");
    QVERIFY(backend);
    QCOMPARE(backend->accessibleName(), QStringLiteral("Right side's database"));
    const QString english = left->currentText();
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")));
    setCurrentLanguage(Language::Chinese);
    QCoreApplication::installTranslator(&zh);
    QTRY_COMPARE(backend->accessibleName(), QStringLiteral("右侧的数据库"));
    QVERIFY(view.inputText().contains(QStringLiteral("两个数据库")));
    // The variants are named in the language now shown, the choice kept.
    QCOMPARE(left->currentData().toString(), QStringLiteral("check-in-tx"));
    QCOMPARE(left->currentText(), Texts::instance().variantTitle("order-create", "check-in-tx"));
    QVERIFY(left->currentText() != english);
    setCurrentLanguage(Language::English);
    QCoreApplication::removeTranslator(&zh);
    QTRY_COMPARE(backend->accessibleName(), QStringLiteral("Right side's database"));
    QCOMPARE(left->currentText(), english);
}

void LiveWindowTest::theLocksViewShowsTheWaitingRow_data() {
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("awaited");  // the waiting row's lock, in the lab's words
    QTest::newRow("mariadb") << "mariadb"
                             << "insert intention";
    QTest::newRow("postgres") << "postgres"
                              << "transaction id";
}

void LiveWindowTest::theLocksViewShowsTheWaitingRow() {
    QFETCH(QString, backend);
    QFETCH(QString, awaited);
    SKIP_WITHOUT(backend);
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    QString error;
    QVERIFY2(w.fire(orderCreate(backend, "check-for-update"), &error), qPrintable(error));
    LiveStage* stage = w.liveStage();
    LocksView* locks = stage->locksView();
    // Row versions are PostgreSQL's: elsewhere off, saying why.
    QCOMPARE(stage->rowVersionsBox()->isEnabled(), backend == QLatin1String("postgres"));
    QVERIFY(!stage->rowVersionsBox()->toolTip().isEmpty());
    QVERIFY(!stage->rowVersionsBox()->accessibleName().isEmpty());
    int row = -1;
    while (row < 0 && w.playback().position() < w.playback().length()) {
        w.playback().stepForward();
        w.jobs()->finishNow();
        w.director()->showLaterNow();
        for (int r = 0; r < locks->model()->rowCount(); ++r) {
            if (locks->model()->index(r, 0).data(LocksModel::WaitingRole).toBool())
                row = r;
        }
    }
    QVERIFY2(row >= 0, "no step showed a waiting lock");
    // The wait brought the Locks view to the front, its row highlighted.
    QCOMPARE(stage->tableTabs()->currentWidget(), locks);
    const QAbstractItemModel* model = locks->table()->model();
    auto cell = [&](int column) {
        return model->index(row, column).data().toString();
    };
    QCOMPARE(cell(LocksModel::Lock), awaited);
    QVERIFY2(cell(LocksModel::State).startsWith("waits for #"),
             qPrintable(cell(LocksModel::State)));
    QVERIFY(cell(LocksModel::Attempt).startsWith('#'));
    QVERIFY(model->index(row, 0).data(Qt::BackgroundRole).isValid());
    QCOMPARE(row, 0);  // the waits first
    if (backend == QLatin1String("mariadb"))
        QCOMPARE(cell(LocksModel::Index), QStringLiteral("uk_orders_request_id"));
    QVERIFY(locks->about().startsWith("Locks awaited"));
    QVERIFY(locks->source().contains(backend == QLatin1String("mariadb") ? "InnoDB" : "pg_locks"));

    // Row versions beside the rows, on PostgreSQL.
    if (backend == QLatin1String("postgres")) {
        stage->rowVersionsBox()->setChecked(true);
        w.director()->showLaterNow();
        DatabaseTableView* orders = nullptr;
        for (DatabaseTableView* t : stage->tables()) {
            if (t->table() == QLatin1String("orders"))
                orders = t;
        }
        QVERIFY(orders);
        const QAbstractItemModel* rows = orders->model();
        QStringList headers;
        for (int c = 0; c < rows->columnCount(); ++c)
            headers << rows->headerData(c, Qt::Horizontal).toString();
        QVERIFY2(headers.contains("xmin") && headers.contains("xmax"),
                 qPrintable(headers.join(',')));
        // Each transaction named by whose it is, its id after.
        static const QRegularExpression named(QStringLiteral("^(#\\d+|set-up) · \\d+$"));
        const int xmin = int(headers.indexOf("xmin"));
        w.playback().seek(w.playback().length());  // the order committed
        w.director()->showLaterNow();
        QVERIFY(rows->rowCount() > 0);
        for (int r = 0; r < rows->rowCount(); ++r) {
            const QString text = rows->index(r, xmin).data().toString();
            QVERIFY2(named.match(text).hasMatch(), qPrintable(text));
        }
    }
}

// A step on a server is a worker's, up to a few hundred ms: the keys a
// teacher presses meanwhile count (Playback::takeQueued), each of them.
void LiveWindowTest::keysPressedWhileAStepWaitsAreKept() {
    SKIP_WITHOUT("mariadb");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QString error;
    QVERIFY2(w.fire(orderCreate("mariadb", "check-for-update"), &error), qPrintable(error));
    Playback& playback = w.playback();
    const int fired = playback.position();  // a fire shows its first step
    const int length = playback.length();
    QVERIFY(length > 6);
    auto press = [&](Qt::Key k) {
        QWidget* target = QApplication::focusWidget();
        QTest::keyClick(target ? target : &w, k);
    };

    // Three Right presses at once: the first step goes to the worker, the
    // two others are kept, and the run ends three steps on.
    press(Qt::Key_Right);
    QVERIFY(w.director()->isHeld());
    press(Qt::Key_Right);
    press(Qt::Key_Right);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && playback.position() == fired + 3, 30000);
    QTest::qWait(200);
    QCOMPARE(playback.position(), fired + 3);
    QVERIFY(w.playbackBar()->isEnabled());  // the run is back: the bar answers again
    // ... and looks it: its icons are in the enabled colour, though the bar
    // paused (and drew them again) while it was disabled.
    const QColor ink = w.playbackBar()->palette().color(QPalette::Active, QPalette::ButtonText);
    for (QToolButton* b : w.playbackBar()->findChildren<QToolButton*>()) {
        const QImage icon = b->icon().pixmap(b->iconSize(), QIcon::Normal).toImage();
        bool inked = false;
        for (int y = 0; y < icon.height() && !inked; ++y) {
            for (int x = 0; x < icon.width() && !inked; ++x) {
                const QColor c = icon.pixelColor(x, y);
                inked = c.alpha() == 255 && c.rgb() == ink.rgb();
            }
        }
        QVERIFY2(inked, qPrintable(b->toolTip()));
    }

    // Right then Left: back where it was.
    press(Qt::Key_Right);
    QVERIFY(w.director()->isHeld());
    press(Qt::Key_Left);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && playback.position() == fired + 3, 30000);

    // End pressed while a step waits: the run goes to its end.
    press(Qt::Key_Right);
    QVERIFY(w.director()->isHeld());
    press(Qt::Key_End);
    // Heard: the status bar says where the run goes next.
    QCOMPARE(w.messages()->currentMessage(),
             QStringLiteral("Then to the end (step %1).").arg(length));
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && playback.atEnd(), 60000);
    QVERIFY(!w.messages()->currentMessage().startsWith("Then to"));

    // Space plays from the start; Space again, while the worker takes a
    // step, pauses: the run stops within a step of where it was.
    press(Qt::Key_Home);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy() && playback.position() == 0, 30000);
    w.playbackBar()->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
    press(Qt::Key_Space);
    QTRY_VERIFY_WITH_TIMEOUT(playback.position() >= 2 && w.director()->isHeld(), 30000);
    press(Qt::Key_Space);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->isBusy(), 30000);
    const int paused = playback.position();
    QTest::qWait(600);
    QCOMPARE(playback.position(), paused);
    QVERIFY(!w.playbackBar()->isPlaying());
    QVERIFY(paused < length);
}

// SPEC section 8, what the server was told: the settings every session got
// before its first statement, above the SQL log, in both languages; none on
// SQLite.
void LiveWindowTest::theSqlLogSaysWhatEachSessionWasTold() {
    SKIP_WITHOUT("postgres");
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    auto* log = qobject_cast<SqlLogView*>(w.viewWidget(QStringLiteral("sql")));
    QVERIFY(log);
    w.fireInBackground(orderCreate("postgres", "check-for-update", "repeatable-read"));
    w.jobs()->finishNow();
    QVERIFY(w.playback().isLoaded());
    const QStringList told = w.playback().finalSummary().sessionSettings;
    QVERIFY2(told.contains(QStringLiteral(
                 "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ")),
             qPrintable(told.join(" | ")));
    QVERIFY(log->settingsLabel()->isVisibleTo(log));
    const QString text = log->settingsLabel()->text();
    QVERIFY2(text.startsWith(QStringLiteral("Every session was told first: ")) &&
                 text.contains(QStringLiteral("ISOLATION LEVEL REPEATABLE READ")) &&
                 text.contains(QStringLiteral("SET search_path TO idemlab_")),
             qPrintable(text));
    w.setLanguage("zh");
    QVERIFY2(log->settingsLabel()->text().startsWith(QStringLiteral("每个会话一开始先收到")),
             qPrintable(log->settingsLabel()->text()));
    w.setLanguage("en");
    w.fireInBackground(orderCreate("sqlite", "unique-key"));
    w.jobs()->finishNow();
    QCOMPARE(w.playback().config().backend, QStringLiteral("sqlite"));
    QVERIFY(w.playback().finalSummary().sessionSettings.isEmpty());
    QVERIFY2(!log->settingsLabel()->isVisibleTo(log), qPrintable(log->settingsLabel()->text()));
}

QTEST_MAIN(LiveWindowTest)
#include "livewindow_test.moc"
