// Numbers are validated, not coerced: parsed and range-checked as 64-bit
// values before they are narrowed, on the command line and in a trace's
// config; and the cost estimate that bounds a run.
#include "configcheck.h"
#include "registry.h"
#include "runconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <functional>
#include <limits>

using namespace idem;

namespace {

RunConfig orderCreate() {
    return defaultConfig(*findScenario("order-create"));
}

// The config of a trace with one field replaced by raw JSON text.
QString fromJsonError(const QString& key, const QByteArray& rawValue) {
    QJsonObject json = orderCreate().toJson();
    json.remove(key);
    QByteArray doc = QJsonDocument(json).toJson(QJsonDocument::Compact);
    doc.chop(1);  // the closing brace
    doc += ",\"" + key.toUtf8() + "\":" + rawValue + "}";
    const QJsonDocument parsed = QJsonDocument::fromJson(doc);
    if (!parsed.isObject())
        return QStringLiteral("(test bug: not JSON) ") + QString::fromUtf8(doc);
    RunConfig c;
    QString error;
    if (RunConfig::fromJson(parsed.object(), &c, &error))
        return {};
    return error;
}

}  // namespace

class ConfigCheckTest : public QObject {
    Q_OBJECT
private slots:
    void wholeNumbersParse_data();
    void wholeNumbersParse();
    void notWholeNumbersAreRefused_data();
    void notWholeNumbersAreRefused();
    void optionsQuoteTheTypedValue_data();
    void optionsQuoteTheTypedValue();
    void paramsAreWholeNumbersInRange();
    void hugeFieldsDoNotOverflowTheCheck();
    void choiceProblemsSayWhichChoiceAndWhatThereIs();
    void traceConfigNumbersAreChecked_data();
    void traceConfigNumbersAreChecked();
    void everyAcceptedConfigReadsBack();
    void estimateAllowsTheSpecAndRefusesTheHuge();
    void paginationParamsAreInTheEstimate();
    void keptEventsAreInTheEstimate();
};

void ConfigCheckTest::wholeNumbersParse_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("value");
    QTest::newRow("zero") << "0" << qint64(0);
    QTest::newRow("minus zero") << "-0" << qint64(0);
    QTest::newRow("leading zeros") << "007" << qint64(7);
    QTest::newRow("negative") << "-5" << qint64(-5);
    QTest::newRow("int64 max") << "9223372036854775807" << std::numeric_limits<qint64>::max();
    QTest::newRow("int64 min") << "-9223372036854775808" << std::numeric_limits<qint64>::min();
}

void ConfigCheckTest::wholeNumbersParse() {
    QFETCH(QString, text);
    QFETCH(qint64, value);
    bool tooLarge = true;
    const std::optional<qint64> n = parseWholeNumber(text, &tooLarge);
    QVERIFY(n);
    QCOMPARE(*n, value);
    QVERIFY(!tooLarge);
}

void ConfigCheckTest::notWholeNumbersAreRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("tooLarge");
    for (const char* text : {"", "-", "1.5", "1e3", "abc", " 3", "3 ", "+3", "0x10", "1,000",
                             "\xef\xbc\x93" /* fullwidth 3 */, "--3", "3-"}) {
        QTest::newRow(text) << QString::fromUtf8(text) << false;
    }
    QTest::newRow("int64 max + 1") << "9223372036854775808" << true;
    QTest::newRow("int64 min - 1") << "-9223372036854775809" << true;
    QTest::newRow("20 digits") << "99999999999999999999" << true;
    QTest::newRow("2^64 + 1") << "18446744073709551617" << true;
}

void ConfigCheckTest::notWholeNumbersAreRefused() {
    QFETCH(QString, text);
    QFETCH(bool, tooLarge);
    bool large = !tooLarge;
    QVERIFY(!parseWholeNumber(text, &large));
    QCOMPARE(large, tooLarge);
}

void ConfigCheckTest::optionsQuoteTheTypedValue_data() {
    QTest::addColumn<int>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    auto row = [](NumberField f, const char* text, const char* message) {
        QTest::newRow(qPrintable(optionName(f) + QLatin1Char(' ') + QString::fromUtf8(text)))
            << int(f) << QString::fromUtf8(text) << QString::fromUtf8(message);
    };
    row(NumberField::Duplicates, "9223372036854775807",
        "--duplicates 9223372036854775807 is out of range (allowed: 0 to 1000)");
    row(NumberField::Duplicates, "99999999999999999999",
        "--duplicates 99999999999999999999 is out of range (allowed: 0 to 1000)");
    row(NumberField::Duplicates, "1.5", "--duplicates 1.5 is not a whole number");
    row(NumberField::Duplicates, "", "--duplicates \"\" is not a whole number");
    row(NumberField::Duplicates, " 3", "--duplicates \" 3\" is not a whole number");
    row(NumberField::Duplicates, "0x10", "--duplicates 0x10 is not a whole number");
    row(NumberField::MaxRetries, "abc",
        "--max-retries abc is not a whole number (allowed: 0 to 20)");
    row(NumberField::Intents, "4294967297",
        "--intents 4294967297 is out of range (allowed: 1 to 100000)");
    row(NumberField::Seed, "4294967297",
        "--seed 4294967297 is out of range (allowed: 0 to 4294967295)");
    row(NumberField::Seed, "-1", "--seed -1 is out of range");
    row(NumberField::IntervalMs, "-5",
        "--interval-ms -5 is out of range (allowed: 0 to 2592000000)");
    row(NumberField::CrashAttempt, "0", "--crash-attempt 0 is out of range (allowed: 1 to 6)");
    row(NumberField::ExpiryMs, "0", "--expiry-ms 0 is out of range");
    row(NumberField::RetentionMs, "1e9", "--retention-ms 1e9 is not a whole number");
    row(NumberField::TtlMs, "-9223372036854775809",
        "--ttl-ms -9223372036854775809 is out of range");
    row(NumberField::LeaseMs, "2592000000", "--lease-ms 2592000000 is out of range");
    row(NumberField::VisibilityMs, "10s", "--visibility-ms 10s is not a whole number");
}

void ConfigCheckTest::optionsQuoteTheTypedValue() {
    QFETCH(int, field);
    QFETCH(QString, text);
    QFETCH(QString, message);
    RunConfig c = orderCreate();
    const RunConfig before = c;
    const std::optional<NumberProblem> p = readNumber(NumberField(field), text, &c);
    QVERIFY(p);
    QCOMPARE(p->value, text);
    QVERIFY2(optionMessage(*p).startsWith(message), qPrintable(optionMessage(*p)));
    QCOMPARE(c.toJson(), before.toJson());  // nothing was stored
    // And a good value is stored exactly.
    const qint64 max = allowedRange(NumberField(field), c).max;
    QVERIFY(!readNumber(NumberField(field), QString::number(max), &c));
    QCOMPARE(numberOf(c, NumberField(field)), max);
}

void ConfigCheckTest::paramsAreWholeNumbersInRange() {
    const ScenarioInfo& info = findScenario("pagination")->info();
    RunConfig c = defaultConfig(*findScenario("pagination"));
    for (const char* bad : {"abc", "1.5", "", " 3", "0x10", "99999999999999999999"}) {
        c.params[QStringLiteral("rows")] = QString::fromUtf8(bad);
        const QString error = checkConfig(c, info);
        QVERIFY2(error.startsWith(QStringLiteral("--param rows=")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("(allowed: 1 to 10000)")), qPrintable(error));
    }
    c.params[QStringLiteral("rows")] = QStringLiteral("10001");
    QCOMPARE(checkConfig(c, info),
             QStringLiteral("--param rows=10001 is out of range (allowed: 1 to 10000)"));
    c.params[QStringLiteral("rows")] = QStringLiteral("10000");
    QCOMPARE(checkConfig(c, info), QString());
}

void ConfigCheckTest::choiceProblemsSayWhichChoiceAndWhatThereIs() {
    using Kind = ChoiceProblem::Kind;
    const ScenarioInfo& info = findScenario("order-create")->info();
    const auto problem = [&info](const std::function<void(RunConfig&)>& change) {
        RunConfig c = orderCreate();
        change(c);
        return findChoiceProblem(c, info);
    };
    QVERIFY(!problem([](RunConfig&) {}));

    auto p = problem([](RunConfig& c) { c.variant = "magic"; });
    QVERIFY(p && p->kind == Kind::Variant && p->value == "magic");
    QCOMPARE(p->allowed.size(), info.variants.size());

    p = problem([](RunConfig& c) { c.source = Source::MqRedelivery; });
    QVERIFY(p && p->kind == Kind::Source && p->value == "mq-redelivery");
    QCOMPARE(p->allowed, QStringList({"double-click", "gateway-retry"}));

    p = problem([](RunConfig& c) {
        c.variant = "unique-key";
        c.crash = CrashPoint::AfterGuard;
    });
    QVERIFY(p && p->kind == Kind::CrashPoint && p->value == "after-guard");
    QCOMPARE(p->allowed, QStringList{"before-response"});

    p = problem([](RunConfig& c) { c.params.insert("colour", "red"); });
    QVERIFY(p && p->kind == Kind::Param && p->value == "colour");
    QVERIFY(p->allowed.contains("request-id"));

    p = problem([](RunConfig& c) { c.params.insert("request-id", "random"); });
    QVERIFY(p && p->kind == Kind::ParamValue && p->param == "request-id" && p->value == "random");
    QCOMPARE(p->allowed, QStringList({"per-intent", "per-click"}));
    // The command line's words for it.
    RunConfig c = orderCreate();
    c.params.insert("request-id", "random");
    QCOMPARE(checkChoices(c, info),
             QStringLiteral("--param request-id=random is not allowed (allowed: per-intent, "
                            "per-click)"));
}

void ConfigCheckTest::hugeFieldsDoNotOverflowTheCheck() {
    // A config filled in by code (the window, a test) is still checked in
    // 64 bits: duplicates + 1 + retries must not wrap around.
    RunConfig c = orderCreate();
    c.duplicates = std::numeric_limits<int>::max();
    c.maxRetries = std::numeric_limits<int>::max();
    c.crashAttempt = std::numeric_limits<int>::min();
    const QString error = checkConfig(c, findScenario("order-create")->info());
    QVERIFY2(error.startsWith(QStringLiteral("--duplicates 2147483647 is out of range")),
             qPrintable(error));
    QCOMPARE(allowedRange(NumberField::CrashAttempt, c).max, 4294967295LL);
    c.intents = std::numeric_limits<int>::max();
    QCOMPARE(estimatedStatements(c, findScenario(c.scenario)->info()),
             qint64(kMaxIntents) * 1'001 * 21 * kStatementsPerAttempt);
}

void ConfigCheckTest::traceConfigNumbersAreChecked_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("message");
    auto row = [](const char* key, const char* raw, const char* message) {
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(key, raw)))
            << QString(key) << QByteArray(raw) << QString(message);
    };
    row("duplicates", "1.5", "config field \"duplicates\" is 1.5, not a whole number");
    row("duplicates", "-1", "config field \"duplicates\" is -1, out of range (allowed: 0 to 1000)");
    row("duplicates", "9223372036854775807", "is 9223372036854775807, out of range");
    row("duplicates", "9223372036854775808", "is 9.223372036854776e+18, out of range");
    row("duplicates", "99999999999999999999", "is 1e+20, out of range");
    row("duplicates", "1e300", "is 1e+300, out of range");
    row("duplicates", "\"3\"", "config field \"duplicates\" is the text \"3\", not a whole number");
    row("duplicates", "true", "is true, not a whole number");
    row("duplicates", "null", "is null, not a whole number");
    row("duplicates", "[3]", "is a list, not a whole number");
    row("intents", "4294967297", "config field \"intents\" is 4294967297, out of range");
    row("intents", "0", "config field \"intents\" is 0, out of range (allowed: 1 to 100000)");
    row("seed", "4294967297", "config field \"seed\" is 4294967297, out of range");
    row("seed", "-1", "config field \"seed\" is -1, out of range");
    row("interval_ms", "-5", "config field \"interval_ms\" is -5, out of range");
    row("crash_attempt", "7",
        "config field \"crash_attempt\" is 7, out of range (allowed: 1 to 6)");
    row("max_retries", "2.5", "config field \"max_retries\" is 2.5, not a whole number");
    row("lease_ms", "9007199254740993", "config field \"lease_ms\" is 9007199254740993, out");
    row("params", "{\"rows\": 5}", "config param \"rows\" is a number, not a text");
    row("params", "[]", "config field \"params\" is a list, not an object");
}

void ConfigCheckTest::traceConfigNumbersAreChecked() {
    QFETCH(QString, key);
    QFETCH(QByteArray, raw);
    QFETCH(QString, message);
    const QString error = fromJsonError(key, raw);
    QVERIFY2(error.contains(message), qPrintable(error));
    // The untouched config reads.
    const QByteArray original =
        QJsonDocument(QJsonArray{orderCreate().toJson()[key]}).toJson(QJsonDocument::Compact);
    QCOMPARE(fromJsonError(key, original.mid(1).chopped(1)), QString());
    // A missing field is named.
    QJsonObject json = orderCreate().toJson();
    json.remove(key);
    RunConfig c;
    QString missing;
    if (key != QLatin1String("params")) {
        QVERIFY(!RunConfig::fromJson(json, &c, &missing));
        QVERIFY2(missing.contains(key), qPrintable(missing));
    }
}

void ConfigCheckTest::everyAcceptedConfigReadsBack() {
    // Qt's parser turns 1e3 and 1.0 into the integers 1000 and 1; they are
    // whole numbers and read as such (JSON has one number type).
    QCOMPARE(fromJsonError("duplicates", "1e3"), QString());
    QCOMPARE(fromJsonError("duplicates", "1.0"), QString());
    // The largest value of every field, long pause included (its spacing
    // is derived from the lease), writes a trace config that reads back.
    RunConfig c = defaultConfig(*findScenario("scheduled-task"));
    c.crash = CrashPoint::LongPause;
    for (NumberField f : kNumberFields) {
        if (f != NumberField::IntervalMs)
            setNumber(&c, f, allowedRange(f, c).max);
    }
    RunConfig back;
    QString error;
    QVERIFY2(RunConfig::fromJson(c.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back.toJson(), c.toJson());
    QCOMPARE(back.seed, quint32(4294967295u));
}

void ConfigCheckTest::estimateAllowsTheSpecAndRefusesTheHuge() {
    RunConfig c = orderCreate();
    QCOMPARE(estimatedStatements(c, findScenario(c.scenario)->info()),
             3 * 4 * kStatementsPerAttempt);
    c.intents = 10'000;
    QVERIFY(estimatedStatements(c, findScenario(c.scenario)->info()) <= kMaxEstimatedStatements);
    c.intents = 100'000;
    QCOMPARE(estimatedStatements(c, findScenario(c.scenario)->info()), 9'600'000);
    QVERIFY(estimatedStatements(c, findScenario(c.scenario)->info()) <= kMaxEstimatedStatements);
    c.intents = 1'000;
    c.duplicates = 1'000;
    QVERIFY(estimatedStatements(c, findScenario(c.scenario)->info()) > kMaxEstimatedStatements);
    c.intents = 100'000;
    c.maxRetries = 20;
    QCOMPARE(estimatedStatements(c, findScenario(c.scenario)->info()),
             100'000LL * 1'001 * 21 * kStatementsPerAttempt);
    // Every scenario's defaults, and the truth tables' largest single-intent
    // runs (100 duplicates, every retry), stay allowed.
    for (const Scenario* s : allScenarios()) {
        RunConfig d = defaultConfig(*s);
        QVERIFY2(
            estimatedStatements(d, findScenario(d.scenario)->info()) <= kMaxEstimatedStatements,
            qPrintable(d.scenario));
        d.duplicates = kMaxDuplicates;
        d.maxRetries = kMaxRetries;
        QVERIFY2(
            estimatedStatements(d, findScenario(d.scenario)->info()) <= kMaxEstimatedStatements,
            qPrintable(d.scenario));
    }
}

// A reader pages through the whole feed: its rows, page size and the
// writes between pages decide what one attempt costs.
void ConfigCheckTest::paginationParamsAreInTheEstimate() {
    const Scenario& pagination = *findScenario("pagination");
    RunConfig c = defaultConfig(pagination);
    const CostEstimate plain = estimateCost(c, pagination.info());
    // 11 pages of 100 rows by 20, each 2 statements and a writer's 5, and the end.
    QCOMPARE(plain.perAttempt, 11 * 7 + 1);
    QVERIFY(!plain.overLimit());
    c.params.insert("rows", "10000");
    c.params.insert("page-size", "1");
    c.params.insert("inserts-per-page", "100");
    const CostEstimate one = estimateCost(c, pagination.info());
    QCOMPARE(one.perAttempt, 20'001LL * 104 + 1);
    QVERIFY(!one.overLimit());
    c.intents = 10;
    QVERIFY(estimateCost(c, pagination.info()).overLimit());
    // An unchecked value (a trace being read) is estimated, not divided by.
    c.params.insert("page-size", "0");
    QVERIFY(estimateCost(c, pagination.info()).statements() > 0);
}

// 100,000 intents with 5 duplicates is within the statements' limit; kept
// step by step (captions, a lesson's frame) it would take gigabytes.
void ConfigCheckTest::keptEventsAreInTheEstimate() {
    RunConfig c = orderCreate();
    c.intents = 100'000;
    c.duplicates = 5;
    const ScenarioInfo& info = findScenario(c.scenario)->info();
    const CostEstimate counted = estimateCost(c, info);
    QCOMPARE(counted.keptBytes(), 0);
    QVERIFY(!counted.overLimit());
    const CostEstimate kept = estimateCost(c, info, Keeps::Events);
    QCOMPARE(kept.statements(), counted.statements());
    QCOMPARE(kept.keptBytes(), 19'200'000LL * kKeptBytesPerStatement);
    QVERIFY(kept.overLimit());
    QVERIFY2(
        costText(kept).endsWith(
            "whose events kept in memory would take about 3,515 MB, above the limit of 512 MB"),
        qPrintable(costText(kept)));
    // The statements' limit speaks first where both are passed.
    c.duplicates = 1'000;
    QVERIFY(
        costText(estimateCost(c, info, Keeps::Events)).endsWith("above the limit of 20,000,000"));
    // Every scenario's defaults and the truth tables' largest single-intent
    // runs are narrated and played in lessons.
    for (const Scenario* s : allScenarios()) {
        RunConfig d = defaultConfig(*s);
        d.duplicates = kMaxDuplicates;
        d.maxRetries = kMaxRetries;
        QVERIFY2(!estimateCost(d, s->info(), Keeps::Events).overLimit(), qPrintable(d.scenario));
    }
}

QTEST_GUILESS_MAIN(ConfigCheckTest)
#include "configcheck_test.moc"
