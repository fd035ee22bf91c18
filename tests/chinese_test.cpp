// The Chinese window speaks Chinese: diagram titles and labels, attempt
// kinds, guard decisions and parameter labels, and a language switch
// redraws the diagrams at once, not at the next Fire or step.
#include "firepanel.h"
#include "mainwindow.h"
#include "playback.h"
#include "registry.h"
#include "sequenceview.h"
#include "statemachineview.h"

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

}  // namespace

class ChineseTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QApplication::setApplicationName("idemlab-test"); }
    void diagramsAndParamsSpeakChinese_data();
    void diagramsAndParamsSpeakChinese();
    void aLanguageSwitchRedrawsAtOnce();
    void everyDiagramTitleHasAChineseName();
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

QTEST_MAIN(ChineseTest)
#include "chinese_test.moc"
