// The workbench's engine on SQLite: every challenge's reference handler
// passes and its starter fails; a syntax error is named at file:line:column;
// a step that never yields is stopped; statements a handler may not send are
// refused; the same file gives the same counterexample, byte for byte, and
// that counterexample replays.
#include "attack.h"
#include "challenge.h"
#include "challengescenario.h"
#include "handlerprogram.h"
#include "privateredis.h"
#include "registry.h"
#include "replay.h"
#include "trace.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <ctime>

using namespace idem;

namespace {

AttackResult attackOn(const QString& challenge, const QString& source, const QString& traceDir = {},
                      const QString& redis = QStringLiteral("off")) {
    const Challenge* c = findChallenge(challenge);
    Q_ASSERT(c);
    AttackOptions options;
    options.traceDir = traceDir;
    options.redis = redis;
    return attackHandler(*c, source, QStringLiteral("h.js"), options);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class WorkbenchTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { registerChallengeScenarios(); }

    void challengesRead() {
        QVERIFY(allChallenges().size() >= 2);
        for (const Challenge& c : allChallenges()) {
            QVERIFY2(findScenario(c.scenario), qPrintable(c.id));
            QVERIFY2(findChallengeScenario(c.id), qPrintable(c.id));
            QVERIFY(!c.story.zh.isEmpty() && !c.story.en.isEmpty());
            QVERIFY(!c.hints.isEmpty());
            QVERIFY(!c.attacks.isEmpty());
            QVERIFY(c.starter.contains(QStringLiteral("function* handle")));
        }
    }

    void referencePasses_data() {
        QTest::addColumn<QString>("challenge");
        for (const Challenge& c : allChallenges()) QTest::newRow(qPrintable(c.id)) << c.id;
    }
    void referencePasses() {
        QFETCH(QString, challenge);
        const AttackResult r = attackOn(challenge, findChallenge(challenge)->reference);
        QVERIFY2(
            r.outcome == AttackResult::Outcome::Passed,
            qPrintable(r.message + (r.counterexample ? r.counterexample->schedule : QString())));
        QVERIFY(r.run > 1);
    }

    // A challenge about the servers (its starter is right on SQLite and
    // wrong on MariaDB or PostgreSQL) is checked in workbench_servers_test.
    void starterFails_data() {
        QTest::addColumn<QString>("challenge");
        for (const Challenge& c : allChallenges()) {
            if (c.backends == QStringList{QStringLiteral("sqlite")})
                QTest::newRow(qPrintable(c.id)) << c.id;
        }
    }
    void starterFails() {
        QFETCH(QString, challenge);
        const AttackResult r = attackOn(challenge, findChallenge(challenge)->starter);
        QCOMPARE(r.outcome, AttackResult::Outcome::Failed);
        QVERIFY(r.counterexample.has_value());
        // Wrong, or right at a price over the challenge's target.
        QVERIFY(r.counterexample->summary.verdict != Verdict::ExactlyOnce ||
                !r.counterexample->target.isEmpty());
    }

    // The double click's starter checks, then inserts: the smallest schedule
    // that breaks it is two attempts, each SELECT before either INSERT.
    void doubleClickCounterexample() {
        const AttackResult r = attackOn(QStringLiteral("double-click"),
                                        findChallenge(QStringLiteral("double-click"))->starter);
        QVERIFY(r.counterexample.has_value());
        const Counterexample& c = *r.counterexample;
        QCOMPARE(c.attempts, 2);
        QCOMPARE(c.summary.verdict, Verdict::Duplicated);
        QCOMPARE(c.preemptions, 1);
        QCOMPARE(c.statements, 4);
        QVERIFY(r.bounded > 0 || r.skipped >= 0);
    }

    void syntaxErrorNamesLineAndColumn() {
        const AttackResult r =
            attackOn(QStringLiteral("double-click"),
                     QStringLiteral("function* handle(request, db) {\n  let x = ;\n}\n"));
        QCOMPARE(r.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(QRegularExpression(QStringLiteral("^h\\.js:2:11: SyntaxError: "))
                     .match(r.message)
                     .hasMatch(),
                 qPrintable(r.message));
    }

    void notAGenerator() {
        const AttackResult r = attackOn(QStringLiteral("double-click"),
                                        QStringLiteral("function handle(request, db) {}\n"));
        QCOMPARE(r.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(r.message.contains(QStringLiteral("function* handle")), qPrintable(r.message));
    }

    void runawayStepIsStopped() {
        // CPU time, not the wall clock: the machine may be shared.
        const std::clock_t start = std::clock();
        const AttackResult r = attackOn(QStringLiteral("double-click"), QStringLiteral(R"(
function* handle(request, db) {
    yield db.query("SELECT 1");
    let n = 0;
    while (true) { try { n++; } catch (e) { n--; } }
}
)"));
        QCOMPARE(r.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(r.message.startsWith(QStringLiteral("h.js:3: ")), qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("100 ms")), qPrintable(r.message));
        QVERIFY(double(std::clock() - start) / CLOCKS_PER_SEC < 2.0);
    }

    void endlessStatementsAreStopped() {
        const std::clock_t start = std::clock();
        const AttackResult r = attackOn(QStringLiteral("double-click"), QStringLiteral(R"(
function* handle(request, db) {
    for (let i = 0; i < 1000000; ++i)
        yield db.query("SELECT 1");
}
)"));
        QCOMPARE(r.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(r.message.startsWith(QStringLiteral("h.js:4: ")), qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("1000 statements")), qPrintable(r.message));
        QVERIFY(double(std::clock() - start) / CLOCKS_PER_SEC < 5.0);
    }

    void ddlOutsideSchemaIsRefused() {
        const AttackResult r = attackOn(QStringLiteral("double-click"), QStringLiteral(R"(
function* handle(request, db) {
    yield db.exec("DROP TABLE orders");
    return { status: "created" };
}
)"));
        QCOMPARE(r.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(r.message.startsWith(QStringLiteral("h.js:3: ")), qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("schema")), qPrintable(r.message));
    }

    // No real clock, no files, no modules: what is not there fails as a
    // script error, inside the run.
    void nothingOutsideTheRun() {
        HandlerProgram p;
        HandlerProblem problem;
        QVERIFY(p.load(QStringLiteral("const kinds = [typeof Date, typeof require, typeof "
                                      "XMLHttpRequest, typeof setTimeout, typeof print].join();\n"
                                      "function* handle(request, db) { return kinds; }\n"),
                       QStringLiteral("h.js"), &problem));
        QString error;
        HandlerProgram::Generator g = p.start({}, &error);
        QVERIFY(g.valid());
        const HandlerStep s = g.next(QJSValue(), 0);
        QCOMPARE(s.kind, HandlerStep::Kind::Returned);
        QCOMPARE(s.answer.toString(),
                 QStringLiteral("undefined,undefined,undefined,undefined,undefined"));
    }

    // Each run starts from the file's top level again, and Math.random
    // follows the run's seed.
    void freshStatePerRun() {
        HandlerProgram p;
        HandlerProblem problem;
        QVERIFY(p.load(QStringLiteral("let calls = 0;\n"
                                      "function* handle(request, db) { calls++; return calls + "
                                      "':' + Math.random(); }\n"),
                       QStringLiteral("h.js"), &problem));
        QStringList answers;
        for (int run = 0; run < 2; ++run) {
            QString error;
            QVERIFY(p.beginRun(7, &error));
            HandlerProgram::Generator g = p.start({}, &error);
            answers << g.next(QJSValue(), 0).answer.toString();
        }
        QCOMPARE(answers.at(0), answers.at(1));
        QVERIFY(answers.at(0).startsWith(QStringLiteral("1:0.")));
    }

    // Same file and challenge: the same result, the same counterexample
    // byte for byte, with the handler in its configuration; and it replays.
    void deterministicAndReplayable() {
        QTemporaryDir one, two;
        const QString starter = findChallenge(QStringLiteral("double-click"))->starter;
        const AttackResult a = attackOn(QStringLiteral("double-click"), starter, one.path());
        const AttackResult b = attackOn(QStringLiteral("double-click"), starter, two.path());
        QVERIFY(a.counterexample && b.counterexample);
        QCOMPARE(a.run, b.run);
        QCOMPARE(a.counterexample->schedule, b.counterexample->schedule);
        QVERIFY(!a.counterexample->tracePath.isEmpty());
        const QByteArray bytes = fileBytes(a.counterexample->tracePath);
        QVERIFY(!bytes.isEmpty());
        QCOMPARE(bytes, fileBytes(b.counterexample->tracePath));
        QVERIFY(bytes.contains("\"workbench\""));

        Trace::Loaded loaded;
        QString error;
        QVERIFY2(Trace::load(a.counterexample->tracePath, &loaded, &error), qPrintable(error));
        RunConfig config;
        QVERIFY2(RunConfig::fromJson(loaded.config, &config, &error), qPrintable(error));
        const Scenario* scenario = findScenario(config.scenario);
        QVERIFY(scenario);
        QCOMPARE(config.workbench.value("source").toString(), starter);

        // Replayed as any trace is: every event and the summary identical.
        TraceReader reader(a.counterexample->tracePath);
        TraceReader::Header header;
        QVERIFY2(reader.readHeader(&header, &error), qPrintable(error));
        const ReplayOutcome replayed = replayTrace(reader, header, config, *scenario);
        QVERIFY2(replayed.identical, qPrintable(replayed.error + replayed.difference));
        QVERIFY(replayed.events > 0);
    }

    // SPEC section 10: the consumer checked with a private Redis. Its
    // messages come from a stream; the reference's XACK passes, the
    // starter's second coupon is found on the crashed delivery that the
    // other consumer claimed, and that counterexample replays from its
    // recording.
    void theConsumerIsCheckedOnARedisStream() {
        if (!PrivateRedis::missingPackage().isEmpty())
            QSKIP("redis-server is not installed");
        const Challenge* c = findChallenge(QStringLiteral("crash-before-ack"));
        const AttackResult passed = attackOn(c->id, c->reference, {}, QStringLiteral("private"));
        QVERIFY2(passed.outcome == AttackResult::Outcome::Passed, qPrintable(passed.message));
        QCOMPARE(passed.toJson().value("redis").toString(), QStringLiteral("private"));
        QTemporaryDir dir;
        const AttackResult failed =
            attackOn(c->id, c->starter, dir.path(), QStringLiteral("private"));
        QVERIFY(failed.counterexample);
        QCOMPARE(failed.counterexample->summary.verdict, Verdict::Duplicated);
        const QByteArray bytes = fileBytes(failed.counterexample->tracePath);
        for (const char* command : {"XREADGROUP GROUP coupon-service consumer-1",
                                    "XAUTOCLAIM coupon-events:50001 coupon-service consumer-2",
                                    "XACK coupon-events:50001 coupon-service"})
            QVERIFY2(bytes.contains(command), command);
        Trace::Loaded loaded;
        QString error;
        QVERIFY2(Trace::load(failed.counterexample->tracePath, &loaded, &error), qPrintable(error));
        RunConfig config;
        QVERIFY2(RunConfig::fromJson(loaded.config, &config, &error), qPrintable(error));
        TraceReader reader(failed.counterexample->tracePath);
        TraceReader::Header header;
        QVERIFY2(reader.readHeader(&header, &error), qPrintable(error));
        const ReplayOutcome replayed =
            replayTrace(reader, header, config, *findScenario(config.scenario));
        QVERIFY2(replayed.identical, qPrintable(replayed.error + replayed.difference));
    }

    // redis.call needs a run with Redis, and reaches only the run's own keys.
    void redisCommandsAreRefusedWhereTheyCannotGo() {
        const Challenge* c = findChallenge(QStringLiteral("crash-before-ack"));
        QString withoutRedis = c->reference;
        withoutRedis.replace(QStringLiteral("if (message.stream)"), QStringLiteral("if (true)"));
        const AttackResult none = attackOn(c->id, withoutRedis);
        QCOMPARE(none.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(none.message.contains(QStringLiteral("this run has no Redis")),
                 qPrintable(none.message));
        if (!PrivateRedis::missingPackage().isEmpty())
            return;
        QString flush = c->reference;
        flush.replace(
            QStringLiteral("redis.call(\"XACK\", message.stream, message.group, message.entry)"),
            QStringLiteral("redis.call(\"FLUSHALL\")"));
        const AttackResult refused = attackOn(c->id, flush, {}, QStringLiteral("private"));
        QCOMPARE(refused.outcome, AttackResult::Outcome::BadHandler);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("^h\\.js:\\d+: a handler sends Redis only .*: FLUSHALL$"))
                     .match(refused.message)
                     .hasMatch(),
                 qPrintable(refused.message));
    }
};

QTEST_GUILESS_MAIN(WorkbenchTest)
#include "workbench_test.moc"
