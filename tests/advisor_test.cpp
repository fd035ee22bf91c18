// The design advisor against a table written from the article: every
// combination of answers to the six questions gets the recommendation the
// article gives for it; every rule is reachable; no answer is ignored (no
// constraint-based technique without a database backstop, no "no natural
// key" to whoever has one, notifications sent at least once).
#include "advisordialog.h"
#include "registry.h"
#include "texts.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QPushButton>
#include <QSet>
#include <QTest>

#include <functional>

using namespace idem;

namespace {

using Answers = QMap<QString, QString>;

// The article's choices, question by question (设计时先问这些问题).
QString expectedRule(const Answers& a) {
    const QString consequence = a["consequence"];
    const bool key = a["natural-key"] == QLatin1String("yes");
    const bool state = a["state-machine"] == QLatin1String("yes");
    // Reads and wasted work need nothing; a repeated notification is an
    // accepted cost (可接受重复通知).
    if (consequence == QLatin1String("waste"))
        return "read-or-waste";
    if (consequence == QLatin1String("notification"))
        return "notification";
    // No backstop in the database: only a dedup layer, kept longer than the
    // window, and the business model to be redesigned (误区二, 误区三).
    if (a["db-constraint"] == QLatin1String("no")) {
        if (consequence == QLatin1String("money"))
            return "no-backstop-money";
        if (a["window"] == QLatin1String("days"))
            return "no-backstop-late";
        if (a["window"] == QLatin1String("minutes"))
            return "no-backstop-minutes";
        return "no-backstop";
    }
    // The article's table of common scenarios.
    if (a["source"] == QLatin1String("job"))
        return "job";  // 分布式锁 + 条件更新
    if (a["source"] == QLatin1String("mq"))
        return key ? "mq" : "mq-no-key";  // 消息业务主键 + 去重表/唯一键
    if (a["source"] == QLatin1String("caller-retry") && key && state)
        return "callback";  // 外部交易号唯一键 + 状态机
    if (consequence == QLatin1String("money"))
        return state ? "money-state" : key ? "money-key" : "money-no-key";  // 条件更新 + 状态
    if (consequence == QLatin1String("side-effect"))
        return "side-effect";              // 误区一: the downstream needs its own key
    return key ? "record-key" : "record";  // requestId + 去重表, or the natural key
}

// Techniques that rest on a unique constraint or a conditional update.
const QSet<QString> kNeedsTheDatabase{"unique-key",     "unique-and-state",     "status-guard",
                                      "deduction-log",  "lock-and-claim",       "biz-key-dedup",
                                      "downstream-key", "version-from-request", "designed-in"};

void forEachCombination(const std::function<void(const Answers&)>& visit) {
    const QJsonArray questions = Texts::instance().advisor().value("questions").toArray();
    std::function<void(int, Answers)> walk = [&](int q, Answers answers) {
        if (q == questions.size()) {
            visit(answers);
            return;
        }
        const QJsonObject question = questions[q].toObject();
        for (const QJsonValue& o : question.value("options").toArray()) {
            answers[question.value("id").toString()] = o.toObject().value("id").toString();
            walk(q + 1, answers);
        }
    };
    walk(0, {});
}

QString describe(const Answers& a) {
    QStringList parts;
    for (auto it = a.cbegin(); it != a.cend(); ++it) parts << it.key() + '=' + it.value();
    return parts.join(' ');
}

}  // namespace

class AdvisorTest : public QObject {
    Q_OBJECT
private slots:
    void everyCombinationGetsTheArticlesAnswer();
    void everyRuleIsReachableAndOpensARealVariant();
    void theDialogShowsTheRuleOfItsAnswers();
};

void AdvisorTest::everyCombinationGetsTheArticlesAnswer() {
    int combinations = 0;
    forEachCombination([&](const Answers& a) {
        ++combinations;
        const QJsonObject rule = AdvisorDialog::ruleFor(a);
        const QString what = describe(a);
        QVERIFY2(!rule.isEmpty(), qPrintable(what));
        QVERIFY2(rule.value("id").toString() == expectedRule(a),
                 qPrintable(what + " -> " + rule.value("id").toString()));
        const QString zh = rule.value("advice").toObject().value("zh").toString();
        const QString en = rule.value("advice").toObject().value("en").toString();
        if (a["db-constraint"] == QLatin1String("no")) {
            QVERIFY2(!kNeedsTheDatabase.contains(rule.value("variant").toString()),
                     qPrintable(what));
        }
        if (a["natural-key"] == QLatin1String("yes")) {
            QVERIFY2(!zh.contains("没有天然唯一键") && !en.contains("Without a natural key") &&
                         !en.contains("no unique key"),
                     qPrintable(what));
        }
        if (a["consequence"] == QLatin1String("notification")) {
            QVERIFY2(zh.contains("至少一次") && en.contains("at least once"), qPrintable(what));
        }
    });
    // 4 sources x 3 windows x 2 x 2 x 5 consequences x 2.
    QCOMPARE(combinations, 480);
}

void AdvisorTest::everyRuleIsReachableAndOpensARealVariant() {
    QSet<QString> hit;
    forEachCombination(
        [&](const Answers& a) { hit << AdvisorDialog::ruleFor(a).value("id").toString(); });
    QSet<QString> ids;
    for (const QJsonValue& v : Texts::instance().advisor().value("rules").toArray()) {
        const QJsonObject rule = v.toObject();
        const QString id = rule.value("id").toString();
        QVERIFY2(!ids.contains(id), qPrintable(id));
        ids << id;
        QVERIFY2(hit.contains(id), qPrintable("unreachable: " + id));
        const Scenario* s = findScenario(rule.value("scenario").toString());
        QVERIFY2(s && s->info().variant(rule.value("variant").toString()), qPrintable(id));
        for (const char* lang : {"zh", "en"})
            QVERIFY2(!rule.value("advice").toObject().value(lang).toString().isEmpty(),
                     qPrintable(id));
    }
}

void AdvisorTest::theDialogShowsTheRuleOfItsAnswers() {
    AdvisorDialog dialog;
    const QJsonArray questions = Texts::instance().advisor().value("questions").toArray();
    // No backstop, money: the dialog names the 误区二 scenario.
    const Answers pick{{"source", "client"},     {"window", "seconds"},    {"natural-key", "yes"},
                       {"state-machine", "yes"}, {"consequence", "money"}, {"db-constraint", "no"}};
    for (int i = 0; i < questions.size(); ++i) {
        QComboBox* box = dialog.question(i);
        box->setCurrentIndex(box->findData(pick[questions[i].toObject().value("id").toString()]));
    }
    QCOMPARE(dialog.currentRule().value("id").toString(), QStringLiteral("no-backstop-money"));
    QCOMPARE(dialog.currentRule().value("scenario").toString(), QStringLiteral("bolt-on"));
    const auto* buttons = dialog.findChild<QDialogButtonBox*>();
    QCOMPARE(buttons->button(QDialogButtonBox::Close)->text(), QStringLiteral("Close"));
}

QTEST_MAIN(AdvisorTest)
#include "advisor_test.moc"
