// The Chinese window speaks Chinese: diagram titles and labels, attempt
// kinds, guard decisions and parameter labels, the outcome's sentences and
// every step's caption, and a language switch redraws the diagrams at once,
// not at the next Fire or step.
#include "firepanel.h"
#include "mainwindow.h"
#include "outcomepanel.h"
#include "playback.h"
#include "registry.h"
#include "sequenceview.h"
#include "statemachineview.h"
#include "stepcaption.h"

#include <QApplication>
#include <QFormLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QRegularExpression>
#include <QTest>

using namespace idem;

namespace {

QStringList sceneTexts(QGraphicsScene* scene) {
    QStringList out;
    for (QGraphicsItem* item : scene->items()) {
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            out << t->text();
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
            out << t->toPlainText();
    }
    return out;
}

// Words of the English window that must not show in the Chinese one.
const QRegularExpression kEnglish(QStringLiteral(
    "\\b(dedup record|duplicate|retry|original|claimed|in progress|Request id|Late failure|"
    "Page size|job run)\\b"));

QStringList english(const QStringList& texts) {
    QStringList out;
    for (const QString& t : texts) {
        if (kEnglish.match(t).hasMatch())
            out << t;
    }
    return out;
}

// What a Chinese text may hold in Latin letters: the database's own words
// (its error messages, SQL, table and column names), ids and states, and
// the terms the translations keep (Try, Confirm, Cancel, ack, TCC). Any
// other run of two or more English words is a sentence of the lab's own
// left untranslated.
QStringList englishSentences(const QStringList& texts) {
    static const QList<QRegularExpression> kAllowed{
        // The database's messages, as SQLite wrote them.
        QRegularExpression(
            QStringLiteral("(UNIQUE|CHECK|NOT NULL) constraint failed: [^（(。，]*")),
        QRegularExpression(QStringLiteral("database is locked")),
        // The outcome's markup.
        QRegularExpression(QStringLiteral("<[^>]*>")),
        // Statement heads on the diagram: a verb and its table.
        QRegularExpression(QStringLiteral("\\b(INSERT INTO|UPDATE|DELETE FROM|SELECT|FROM|BEGIN "
                                          "IMMEDIATE|COMMIT|ROLLBACK)\\b( \\w+)?")),
        // Names the database and the configuration use: `orders`, tcc_log.
        QRegularExpression(QStringLiteral("`[^`]*`|\\b\\w+_\\w+\\b")),
        // Ids with digits or dashes: tx-1, evt-O20250001-1, #2.
        QRegularExpression(QStringLiteral("\\b[\\w-]*\\d[\\w-]*\\b|\\b\\w+(-\\w+)+\\b")),
    };
    static const QRegularExpression kWords(QStringLiteral("\\b[A-Za-z]{2,}(\\s+[A-Za-z]{2,})+\\b"));
    QStringList out;
    for (QString t : texts) {
        for (const QRegularExpression& allowed : kAllowed) t.replace(allowed, QStringLiteral(" "));
        if (const QRegularExpressionMatch m = kWords.match(t); m.hasMatch())
            out << m.captured(0) + QStringLiteral(" ⟵ ") + t.simplified();
    }
    return out;
}

// The window in Chinese plays `config` step by step: every caption, and at
// the end the sequence diagram's and the outcome's texts.
QStringList chineseTexts(const RunConfig& config) {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return {QStringLiteral("the window was not shown")};
    w.setLanguage("zh");
    QString error;
    if (!w.fire(config, &error))
        return {QStringLiteral("fire: ") + error};
    QStringList texts;
    while (!w.playback().atEnd()) {
        w.playback().stepForward();
        texts << w.caption()->caption();
    }
    texts << sceneTexts(w.sequenceView()->scene()) << sceneTexts(w.stateView()->scene());
    texts << w.outcome()->verdictText() << w.outcome()->verdictDescription()
          << w.outcome()->detailsText() << w.outcome()->alertText();
    return texts;
}

}  // namespace

class ChineseTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void diagramsAndParamsSpeakChinese_data();
    void diagramsAndParamsSpeakChinese();
    void aLanguageSwitchRedrawsAtOnce();
    void everyDiagramTitleHasAChineseName();
    void outcomeAndCaptionsHaveNoEnglishSentence_data();
    void outcomeAndCaptionsHaveNoEnglishSentence();
};

void ChineseTest::diagramsAndParamsSpeakChinese_data() {
    QTest::addColumn<QString>("scenario");
    QTest::newRow("order-create") << "order-create";
    QTest::newRow("payment-callback") << "payment-callback";
    QTest::newRow("scheduled-task") << "scheduled-task";
}

void ChineseTest::diagramsAndParamsSpeakChinese() {
    QFETCH(QString, scenario);
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setLanguage("zh");
    QString error;
    QVERIFY2(w.fire(defaultConfig(*findScenario(scenario)), &error), qPrintable(error));
    w.playback().toEnd();
    QStringList texts = sceneTexts(w.stateView()->scene()) + sceneTexts(w.sequenceView()->scene());
    for (QLabel* label : w.firePanel()->findChildren<QLabel*>()) texts << label->text();
    QVERIFY(texts.size() > 10);
    const QStringList left = english(texts);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral(" | "))));
}

void ChineseTest::aLanguageSwitchRedrawsAtOnce() {
    MainWindow w(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setLanguage("en");
    QString error;
    QVERIFY(w.fire(defaultConfig(*findScenario("order-create")), &error));
    w.playback().toEnd();
    QVERIFY(!english(sceneTexts(w.stateView()->scene())).isEmpty());
    w.setLanguage("zh");
    const QStringList left =
        english(sceneTexts(w.stateView()->scene()) + sceneTexts(w.sequenceView()->scene()));
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral(" | "))));
}

// What each state diagram is about (its title) in Chinese, for every scenario.
void ChineseTest::everyDiagramTitleHasAChineseName() {
    MainWindow w(false);
    w.setLanguage("zh");
    const QRegularExpression han(QStringLiteral("\\p{Han}"));
    int machines = 0;
    for (const Scenario* scenario : allScenarios()) {
        const QString what = scenario->info().stateMachine.what;
        if (scenario->info().stateMachine.nodes.isEmpty())
            continue;
        ++machines;
        const QString name = scenario->info().words.entityName(what);
        QVERIFY2(han.match(name).hasMatch(),
                 qPrintable(scenario->info().id + QStringLiteral(": ") + name));
    }
    QVERIFY(machines >= 6);
}

void ChineseTest::outcomeAndCaptionsHaveNoEnglishSentence_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("crash");
    QTest::addColumn<QString>("param");
    // The judge's and the scenario's own sentences: a wrong answer, what the
    // database shows, an inconsistency, a result ("nothing frozen"), notes.
    QTest::newRow("tcc naive, Cancel before Try") << "tcc"
                                                  << "naive"
                                                  << ""
                                                  << "cancel-before-try=1";
    QTest::newRow("outbox publish-first, crash before commit") << "outbox"
                                                               << "publish-first"
                                                               << "before-commit"
                                                               << "";
}

void ChineseTest::outcomeAndCaptionsHaveNoEnglishSentence() {
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, crash);
    QFETCH(QString, param);
    RunConfig c = defaultConfig(*findScenario(scenario));
    c.variant = variant;
    if (!crash.isEmpty())
        c.crash = *crashPointFromId(crash);
    if (!param.isEmpty())
        c.params.insert(param.section('=', 0, 0), param.section('=', 1));
    const QStringList texts = chineseTexts(c);
    QVERIFY(texts.size() > 10);
    const QStringList left = englishSentences(texts);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral("\n"))));
    // The outcome says what is wrong, in Chinese.
    const QString all = texts.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(scenario == QLatin1String("tcc") ? QStringLiteral("没有冻结任何金额")
                                                           : QStringLiteral("根本没有创建")),
             qPrintable(all));
}

QTEST_MAIN(ChineseTest)
#include "chinese_test.moc"
