// A lesson played in the real window with Page Down only, as a teacher with a
// presentation remote would: at every frame the narration shown, where the
// run stopped, and whether the outcome is hidden or revealed.
#include "lesson.h"
#include "lessonbook.h"
#include "lessonpanel.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "mainwindow.h"
#include "pausesentence.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "stageheader.h"
#include "stepcaption.h"
#include "tableview.h"
#include "traceevent.h"

#include "serverbackend.h"
#include "summary.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QTest>
#include <QTimer>
#include <QTranslator>

using namespace idem;

namespace {

// A key of the remote, then the frame's run where the frame shows it: a
// frame's run arrives in a worker, a moment after its words.
void turn(MainWindow& w, Qt::Key key) {
    QTest::keyClick(&w, key);
    w.lessonPlayer()->finishArriving();
}

bool outcomeShown(MainWindow& w) {
    return w.findChild<QWidget*>(QStringLiteral("outcomeScroll"))->isVisible();
}

// The events of the step the run stopped at.
QList<TraceEvent> lastStep(MainWindow& w) {
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    return events.mid(w.playback().lastStepBegin());
}

}  // namespace

class LessonTest : public QObject {
    Q_OBJECT
private slots:
    void bundledLessonsAreMany();
    void wholeLessonWithPageDownOnly();
    void pageUpGoesBackAndLeavingRestoresTheWindow();
    void chineseLessonInPresenterMode();
    void predictFirstHidesTheOutcomeUntilTheEnd();
    void aPauseNamesTheCountItWaitsFor();
    void everyPauseReadsAsASentence();
    void serverAnswersReadTheSummary();
    void aFrameNamesItsBackendAndIsolation();
    void everyServerFrameHasItsBundledTrace();
};

// Predictions about a server's locks (SPEC section 8's summary counts), as
// a number or as yes / no.
void LessonTest::serverAnswersReadTheSummary() {
    Summary s;
    s.cost.lockWaits = 2;
    s.cost.deadlocks = 1;
    s.cost.serializationFailures = 0;
    QCOMPARE(lessonAnswer("lock-waits", s), QString("2"));
    QCOMPARE(lessonAnswer("deadlocks", s), QString("1"));
    QCOMPARE(lessonAnswer("serialization-failures", s), QString("0"));
    QCOMPARE(lessonAnswer("any:lock-waits", s), QString("yes"));
    QCOMPARE(lessonAnswer("any:deadlocks", s), QString("yes"));
    QCOMPARE(lessonAnswer("any:serialization-failures", s), QString("no"));
    QVERIFY(lessonAnswer("any:verdict", s).isEmpty());
    QVERIFY(lessonAnswer("lock-wait", s).isEmpty());
    // The reader takes them, and refuses what no run answers.
    const auto lessonAsking = [](const QString& answer) {
        return QJsonObject{
            {"format", "idemlab-lesson"},
            {"version", 1},
            {"id", "asks"},
            {"title", QJsonObject{{"zh", "问"}, {"en", "asks"}}},
            {"summary", QJsonObject{{"zh", "问"}, {"en", "asks"}}},
            {"frames",
             QJsonArray{QJsonObject{
                 {"title", QJsonObject{{"zh", "问"}, {"en", "asks"}}},
                 {"narration", QJsonObject{{"zh", "问"}, {"en", "asks"}}},
                 {"pause", "start"},
                 {"question",
                  QJsonObject{
                      {"prompt", QJsonObject{{"zh", "问"}, {"en", "asks"}}},
                      {"answer", answer},
                      {"choices",
                       QJsonArray{
                           QJsonObject{{"value", "yes"},
                                       {"label", QJsonObject{{"zh", "是"}, {"en", "yes"}}}},
                           QJsonObject{{"value", "no"},
                                       {"label", QJsonObject{{"zh", "否"}, {"en", "no"}}}}}}}}}}}};
    };
    const auto noResolve = [](const QJsonObject&, RunConfig*, QString*) {
        return true;
    };
    Lesson lesson;
    QString error;
    // A question needs a run: the reader says so only after the answer reads.
    QVERIFY(!readLesson(lessonAsking("any:deadlocks"), noResolve, &lesson, &error));
    QVERIFY2(error.contains("no run is loaded to answer it"), qPrintable(error));
    QVERIFY(!readLesson(lessonAsking("any:deadlock"), noResolve, &lesson, &error));
    QVERIFY2(error.contains("is not something a run can answer"), qPrintable(error));
}

// A frame's load names its database and isolation level; a level the
// database lacks, or a Locks highlight on SQLite, is the lesson's problem.
void LessonTest::aFrameNamesItsBackendAndIsolation() {
    const auto write = [](const QString& load, const QString& highlight) {
        auto* file = new QTemporaryFile(QDir::tempPath() + "/lesson-XXXXXX.json");
        file->open();
        file->write(QStringLiteral(R"({"format": "idemlab-lesson", "version": 1, "id": "db",
            "title": {"zh": "库", "en": "db"}, "summary": {"zh": "库", "en": "db"},
            "frames": [{"title": {"zh": "库", "en": "db"}, "narration": {"zh": "库", "en": "db"},
                        "load": %1, "fire": false, "pause": "start", "highlight": %2}]})")
                        .arg(load, highlight)
                        .toUtf8());
        file->close();
        return file;
    };
    Lesson lesson;
    QString error;
    std::unique_ptr<QTemporaryFile> f(write(
        R"({"scenario": "order-create", "variant": "check-for-update", "backend": "mariadb", "isolation": "read-committed"})",
        R"({"locks": true})"));
    QVERIFY2(readLessonFile(f->fileName(), &lesson, &error), qPrintable(error));
    QCOMPARE(lesson.frames[0].load->backend, QString("mariadb"));
    QCOMPARE(lesson.frames[0].load->isolation, QString("read-committed"));
    QVERIFY(lesson.frames[0].highlight.locks);
    QCOMPARE(bundledTraceName(lesson, 0), QString("db-1.json"));
    QVERIFY(checkLesson(lesson).isEmpty());

    f.reset(
        write(R"({"scenario": "order-create", "backend": "sqlite", "isolation": "read-committed"})",
              "{}"));
    QVERIFY(!readLessonFile(f->fileName(), &lesson, &error));
    QVERIFY2(error.contains("SQLite has one level"), qPrintable(error));
    f.reset(write(R"({"scenario": "order-create", "backend": "oracle"})", "{}"));
    QVERIFY(!readLessonFile(f->fileName(), &lesson, &error));
    QVERIFY2(error.contains("unknown backend \"oracle\""), qPrintable(error));

    f.reset(write(R"({"scenario": "order-create"})", R"({"locks": true})"));
    QVERIFY2(readLessonFile(f->fileName(), &lesson, &error), qPrintable(error));
    QVERIFY(bundledTraceName(lesson, 0).isEmpty());
    const QStringList problems = checkLesson(lesson);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains("highlight.locks"), qPrintable(problems[0]));
}

// Each frame on a server comes with its run's trace, recorded with the
// frame's own configuration: a lesson edited without recording again
// (scripts/record-lesson-traces.sh) fails here. No trace is left over.
void LessonTest::everyServerFrameHasItsBundledTrace() {
    QStringList expected;
    int serverFrames = 0;
    for (const Lesson& l : bundledLessons()) {
        for (int i = 0; i < l.frames.size(); ++i) {
            const std::optional<RunConfig>& load = l.frames[i].load;
            // A frame on a server, or with a real Redis (SPEC section 10).
            if (!load ||
                (load->backend == QLatin1String("sqlite") && load->redis == QLatin1String("off")))
                continue;
            ++serverFrames;
            const QString where = QStringLiteral("%1, frame %2").arg(l.id).arg(i + 1);
            const QString path = bundledTracePath(l, i);
            QCOMPARE(path, QStringLiteral(":/lessons/traces/%1-%2.json").arg(l.id).arg(i + 1));
            expected << QFileInfo(path).fileName();
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(where + ": no " + path));
            const QJsonObject trace = QJsonDocument::fromJson(file.readAll()).object();
            RunConfig recorded;
            QString error;
            QVERIFY2(RunConfig::fromJson(trace.value("config").toObject(), &recorded, &error),
                     qPrintable(where + ": " + error));
            // The trace names the level the server ran at, its default included.
            RunConfig wanted = *load;
            if (wanted.isolation.isEmpty() && wanted.backend != QLatin1String("sqlite"))
                wanted.isolation = isolationIds(wanted.backend).value(0);
            QVERIFY2(recorded.toJson() == wanted.toJson(),
                     qPrintable(where + ": recorded with another configuration: record the "
                                        "lesson traces again"));
        }
    }
    QVERIFY(serverFrames >= 9);
    QStringList bundled = QDir(":/lessons/traces").entryList({"*.json"}, QDir::Files, QDir::Name);
    expected.sort();
    QCOMPARE(bundled, expected);
}

// A frame may stop at a statement by its count, named as the trace names it:
// rows_changed waits for a write, rows_returned for a read, and the older
// rows for either, never for BEGIN (whose change count is not its own).
void LessonTest::aPauseNamesTheCountItWaitsFor() {
    auto statement = [](const char* sql, RowCount counts) {
        TraceEvent e;
        e.kind = EventKind::Sql;
        e.attempt = 2;
        e.sql = QString::fromLatin1(sql);
        e.counts = counts;
        e.rows = 0;
        return e;
    };
    const TraceEvent begin = statement("BEGIN IMMEDIATE", RowCount::None);
    const TraceEvent update = statement("UPDATE orders SET status = 'PAID'", RowCount::Changed);
    const TraceEvent select = statement("SELECT status FROM orders", RowCount::Returned);
    auto pause = [](const char* key) {
        PausePoint p;
        p.kind = PausePoint::Kind::Event;
        p.event = QJsonObject{{"kind", "sql"}, {QLatin1String(key), 0}};
        return p;
    };
    QVERIFY(pause("rows_changed").matches(update));
    QVERIFY(!pause("rows_changed").matches(select));
    QVERIFY(!pause("rows_changed").matches(begin));
    QVERIFY(pause("rows_returned").matches(select));
    QVERIFY(!pause("rows_returned").matches(update));
    QVERIFY(!pause("rows_returned").matches(begin));
    QVERIFY(pause("rows").matches(update));
    QVERIFY(pause("rows").matches(select));
    QVERIFY(!pause("rows").matches(begin));
}

// The hand-out says where each frame stops as a teacher would, in both
// languages: no "attempt 2, code 2067", no field left over as "(key: value)".
void LessonTest::everyPauseReadsAsASentence() {
    PausePoint unique;
    unique.kind = PausePoint::Kind::Event;
    unique.event = QJsonObject{{"kind", "sql"}, {"attempt", 2}, {"code", 2067}};
    const ScenarioWords& none = ScenarioWords::none();
    QCOMPARE(pauseSentence(unique, none),
             QStringLiteral("The run stops as soon as a statement of attempt #2 hits a unique key "
                            "(error code 2067)."));
    // The lesson file's keys, an "attempt 2" without its "#", a field left
    // over, or the event's kind named as a filter would.
    static const QRegularExpression filter(QStringLiteral(
        "\\b(kind|to_state|from_state|rows_changed|rows_returned|decision|accepted)\\b|"
        "attempt \\d|\\([a-z_]+: |\\bevent\\b|事件|“(sql|guard|transition|fire|crash)”"));
    static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")));
    int events = 0;
    for (const bool chinese : {false, true}) {
        if (chinese)
            QCoreApplication::installTranslator(&zh);
        for (const Lesson& lesson : bundledLessons()) {
            for (int i = 0; i < int(lesson.frames.size()); ++i) {
                const std::optional<RunConfig> config = frameConfig(lesson, i);
                const Scenario* scenario = config ? findScenario(config->scenario) : nullptr;
                const QString said =
                    pauseSentence(lesson.frames[i].pause, scenario ? scenario->info().words : none);
                const QString where =
                    QStringLiteral("%1 frame %2: %3").arg(lesson.id).arg(i + 1).arg(said);
                QVERIFY2(said.endsWith(chinese ? QStringLiteral("。") : QStringLiteral(".")),
                         qPrintable(where));
                QVERIFY2(!said.contains(filter), qPrintable(where));
                QVERIFY2(said.contains(han) == chinese, qPrintable(where));
                events += lesson.frames[i].pause.kind == PausePoint::Kind::Event;
            }
        }
    }
    QCOMPARE(pauseSentence(unique, none),
             QStringLiteral("一旦#2的一条语句撞上唯一键（错误码 2067），运行就暂停。"));
    QCoreApplication::removeTranslator(&zh);
    QVERIFY(events >= 2 * 40);
}

void LessonTest::bundledLessonsAreMany() {
    QVERIFY2(bundledLessonErrors().isEmpty(), qPrintable(bundledLessonErrors().join("\n")));
    QVERIFY(bundledLessons().size() >= 10);
    for (const Lesson& l : bundledLessons()) {
        QVERIFY2(!l.title.zh.isEmpty() && !l.title.en.isEmpty(), qPrintable(l.id));
        QVERIFY2(l.questionCount() >= 1, qPrintable(l.id));
    }
}

void LessonTest::wholeLessonWithPageDownOnly() {
    MainWindow w(false);
    w.setLanguage("en");
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const Lesson* lesson = findLesson("unique-key");
    QVERIFY(lesson);
    QString error;
    QVERIFY2(w.startLesson("unique-key", 0, &error), qPrintable(error));
    w.lessonPlayer()->finishArriving();
    LessonPlayer* player = w.lessonPlayer();
    LessonPanel* panel = w.lessonPanel();

    // Frame 1: words and settings, nothing run yet, the verdict withheld.
    QCOMPARE(panel->narration(), lesson->frames[0].narration.en);
    QCOMPARE(panel->position(), QString("Frame 1 / 7"));
    QCOMPARE(w.playback().position(), 0);
    QVERIFY(!outcomeShown(w));
    // No question yet: nothing to predict, the verdict only hidden.
    QVERIFY(w.stageHeader()->verdictText().startsWith("The verdict is hidden"));

    // Frame 2: a prediction, asked before the run. The first Page Down
    // reveals the run's answer where the run shows it, at its end, with the
    // verdict no longer hidden; the second goes on.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 1);
    QCOMPARE(panel->narration(), lesson->frames[1].narration.en);
    QVERIFY(panel->question().contains("how many times is the merchant credited"));
    QVERIFY(panel->answerText().isEmpty());
    QCOMPARE(w.playback().position(), 0);
    QVERIFY(w.stageHeader()->verdictText().startsWith("Predict first"));
    turn(w, Qt::Key_PageDown);
    w.jobs()->finishNow();
    QCOMPARE(player->frame(), 1);
    QVERIFY2(panel->answerText().contains("The run says: three times"),
             qPrintable(panel->answerText()));
    QVERIFY(panel->question().contains("✔ C. three times"));
    QVERIFY(w.playback().atEnd());
    QVERIFY(outcomeShown(w));
    QVERIFY2(w.stageHeader()->verdictText().contains("DUPLICATED"),
             qPrintable(w.stageHeader()->verdictText()));
    // Page Up takes the reveal back: the frame as it was, the verdict hidden.
    turn(w, Qt::Key_PageUp);
    QCOMPARE(player->frame(), 1);
    QVERIFY(panel->answerText().isEmpty());
    QCOMPARE(w.playback().position(), 0);
    QVERIFY(w.stageHeader()->verdictText().startsWith("Predict first"));
    turn(w, Qt::Key_PageDown);
    w.jobs()->finishNow();
    QVERIFY(!panel->answerText().isEmpty());

    // Frame 3: stopped at the step where attempt #2 inserts its pay_flow row;
    // the class knows the verdict now, so the banner hides nothing.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 2);
    QCOMPARE(panel->narration(), lesson->frames[2].narration.en);
    bool inserted = false;
    for (const TraceEvent& e : lastStep(w))
        inserted |= e.attempt == 2 && e.sql.startsWith("INSERT INTO pay_flow");
    QVERIFY(inserted);
    QVERIFY(!w.playback().atEnd());
    QVERIFY(panel->lookAt().contains("pay_flow"));
    QVERIFY(w.liveStage()->frontTable()->isPointed());
    QCOMPARE(w.liveStage()->frontTable()->table(), QStringLiteral("pay_flow"));
    QVERIFY2(!w.stageHeader()->verdictText().startsWith("Predict first"),
             qPrintable(w.stageHeader()->verdictText()));

    // Frame 4: the end, revealed: the verdict is the database's.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 3);
    QVERIFY(w.playback().atEnd());
    QVERIFY(outcomeShown(w));
    QVERIFY2(w.stageHeader()->verdictText().contains("DUPLICATED"),
             qPrintable(w.stageHeader()->verdictText()));

    // Frame 5: a new configuration (unique key), the verdict hidden again.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 4);
    QCOMPARE(w.playback().config().variant, QString("unique-key"));
    QCOMPARE(w.playback().position(), 0);
    QVERIFY(!outcomeShown(w));
    QVERIFY(w.stageHeader()->verdictText().startsWith("Predict first"));
    turn(w, Qt::Key_PageDown);
    QVERIFY(panel->answerText().contains("exactly once"));

    // Frame 6: the database refuses attempt #2's insert.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 5);
    bool refused = false;
    for (const TraceEvent& e : lastStep(w)) refused |= e.attempt == 2 && e.code == 2067;
    QVERIFY(refused);

    // Frame 7: the end, revealed; Page Down at the last frame stays there.
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 6);
    QVERIFY(w.playback().atEnd());
    QVERIFY(outcomeShown(w));
    QVERIFY(w.stageHeader()->verdictText().contains("EXACTLY ONCE"));
    turn(w, Qt::Key_PageDown);
    QCOMPARE(player->frame(), 6);
}

void LessonTest::pageUpGoesBackAndLeavingRestoresTheWindow() {
    MainWindow w(false);
    w.setLanguage("en");
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.startLesson("unique-key", 3, &error));
    w.lessonPlayer()->finishArriving();
    QCOMPARE(w.lessonPlayer()->frame(), 3);
    QVERIFY(w.playback().atEnd());
    turn(w, Qt::Key_PageUp);
    QCOMPARE(w.lessonPlayer()->frame(), 2);
    QVERIFY(!w.playback().atEnd());
    QVERIFY(!outcomeShown(w));
    // Space plays this frame again: from the previous frame's pause to this one.
    const int pause = w.playback().position();
    QTest::keyClick(&w, Qt::Key_Space);
    QTRY_COMPARE_WITH_TIMEOUT(w.playback().position(), pause, 20'000);
    // Leaving the lesson gives the window back: outcome shown, keys step the run.
    w.action("leave-lesson")->trigger();
    QVERIFY(!w.lessonPlayer()->isActive());
    QVERIFY(outcomeShown(w));
    const int before = w.playback().position();
    turn(w, Qt::Key_PageDown);
    QCOMPARE(w.playback().position(), before + 1);
}

void LessonTest::chineseLessonInPresenterMode() {
    MainWindow w(false);
    w.setLanguage("zh");
    w.setTheme(false, true, 100);
    w.resize(1280, 720);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(w.startLesson("unique-key", 1, &error));
    w.lessonPlayer()->finishArriving();
    const Lesson* lesson = findLesson("unique-key");
    QCOMPARE(w.lessonPanel()->narration(), lesson->frames[1].narration.zh);
    QVERIFY(w.lessonPanel()->position().contains("第 2 / 7 帧"));
    QVERIFY(w.stageHeader()->verdictText().startsWith("先预测"));
    // Switching the language while a lesson plays tells the frame again.
    w.setLanguage("en");
    QCOMPARE(w.lessonPanel()->narration(), lesson->frames[1].narration.en);
    // The panel is whole on a 1280x720 projector: its last line is in the window.
    QWidget* panel = w.lessonPanel();
    QVERIFY(panel->isVisible());
    const auto whole = [&] {
        return w.rect().contains(QRect(panel->mapTo(&w, QPoint(0, 0)), panel->size()));
    };
    QTRY_VERIFY(whole());
    QVERIFY(panel->width() >= 1280 * 30 / 100);
}

// View → Predict first: Fire asks for a verdict, the outcome stays hidden
// while the run plays, and the end compares the prediction with the run.
void LessonTest::predictFirstHidesTheOutcomeUntilTheEnd() {
    MainWindow w(false);
    w.setLanguage("en");
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    RunConfig c = defaultConfig(*findScenario("payment-callback"));
    c.variant = "none";
    QString error;
    QVERIFY(w.fire(c, &error));  // the fire panel now holds `none`
    w.action("predict")->setChecked(true);
    // Answer the question the way a class would: "exactly once" (wrong here).
    // Meanwhile the previous run's verdict is hidden.
    bool hiddenWhileAsked = false;
    QTimer::singleShot(0, &w, [&w, &hiddenWhileAsked] {
        auto* ask = w.findChild<QInputDialog*>("predictDialog");
        QVERIFY(ask);
        hiddenWhileAsked =
            !outcomeShown(w) && w.stageHeader()->verdictText().startsWith("Predict first");
        ask->setTextValue(ask->comboBoxItems().first());
        ask->accept();
    });
    QVERIFY(outcomeShown(w));  // the first run's verdict, before the question
    w.action("fire")->trigger();
    QVERIFY(hiddenWhileAsked);
    QVERIFY(!outcomeShown(w));
    QVERIFY(w.stageHeader()->verdictText().startsWith("Predict first"));
    w.action("step")->trigger();
    QVERIFY(!outcomeShown(w));
    QVERIFY(w.caption()->caption().startsWith("Predicted EXACTLY ONCE"));
    w.action("end")->trigger();
    QVERIFY(outcomeShown(w));
    QVERIFY(w.stageHeader()->verdictText().contains("DUPLICATED"));
    QVERIFY2(
        w.caption()->caption().startsWith("Predicted EXACTLY ONCE; the database says DUPLICATED."),
        qPrintable(w.caption()->caption()));
    // Off again: the next Fire shows everything as it runs.
    w.action("predict")->setChecked(false);
    w.action("fire")->trigger();
    QVERIFY(outcomeShown(w));
}

QTEST_MAIN(LessonTest)
#include "lesson_test.moc"
