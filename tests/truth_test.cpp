// What the stage says never outruns the database: every scenario, every
// variant, without a crash and at each crash point, stepped one step at a
// time. After each step the state diagram's tally (where each entity stands)
// equals the state column the scenario names, read by another connection,
// and every table the captions count holds as many rows as they say. A
// rolled-back transaction (a crash before commit) leaves nothing in either.
#include "narration.h"
#include "registry.h"
#include "run.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "statetally.h"
#include "trace.h"

#include <QJsonDocument>
#include <QTest>

using namespace idem;

namespace {

// The configurations to walk: each variant without a crash and at each of
// its crash points, the duplicates arriving on a retry (SPEC section 3's
// crash columns) and all at once.
struct Walk {
    QString scenario;
    RunConfig config;
};

QList<Walk> walks() {
    QList<Walk> all;
    for (const Scenario* s : allScenarios()) {
        const ScenarioInfo& info = s->info();
        for (const VariantInfo& v : info.variants) {
            if (v.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            QList<CrashPoint> crashes{CrashPoint::None};
            crashes << v.crashPoints;
            for (CrashPoint crash : crashes) {
                for (Timing timing : {Timing::Retry, Timing::Concurrent}) {
                    RunConfig c = defaultConfig(*s);
                    c.variant = v.id;
                    c.timing = timing;
                    c.crash = crash;
                    c.seed = 3;
                    all << Walk{info.id, c};
                }
            }
        }
    }
    return all;
}

QMap<QString, QString> statesInDatabase(SqlConnection& reader, const QString& query) {
    QMap<QString, QString> states;
    const SqlResult r = reader.exec(query);
    if (!r.ok)
        return states;  // the variant does not have the table
    for (const QVariantList& row : r.data)
        states.insert(row.value(0).toString(), row.value(1).toString());
    return states;
}

}  // namespace

class TruthTest : public QObject {
    Q_OBJECT
private slots:
    void theStageAgreesWithTheDatabaseAtEveryStep_data();
    void theStageAgreesWithTheDatabaseAtEveryStep();
    void aRolledBackMoveIsNotTheCurrentState();
    void aCaptionNeverCountsARolledBackRow();
};

void TruthTest::theStageAgreesWithTheDatabaseAtEveryStep_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QByteArray>("config");
    for (const Walk& w : walks()) {
        const QString name = QStringLiteral("%1 %2 %3 %4")
                                 .arg(w.scenario, w.config.variant,
                                      w.config.crash == CrashPoint::None ? QStringLiteral("-")
                                                                         : toId(w.config.crash),
                                      toId(w.config.timing));
        QTest::newRow(qPrintable(name)) << w.scenario << QJsonDocument(w.config.toJson()).toJson();
    }
}

void TruthTest::theStageAgreesWithTheDatabaseAtEveryStep() {
    QFETCH(QString, scenario);
    QFETCH(QByteArray, config);
    const Scenario* s = findScenario(scenario);
    QVERIFY(s);
    RunConfig c;
    QString error;
    QVERIFY2(RunConfig::fromJson(QJsonDocument::fromJson(config).object(), &c, &error),
             qPrintable(error));
    Run run(c, *s);
    QVERIFY2(run.start(&error), qPrintable(error));
    const StateMachineInfo& machine = s->info().stateMachine;
    const bool drawn = !machine.nodes.isEmpty() &&
                       (machine.variants.isEmpty() || machine.variants.contains(c.variant));
    StateTally tally;
    tally.setMachine(machine);
    Narrator narrator(c.intents, &s->info().words);
    const std::unique_ptr<SqlConnection> reader = run.openReader();
    const QList<TraceEvent>& events = run.trace().events();
    qsizetype told = 0;
    int step = 0;
    int checks = 0;
    while (run.step()) {
        ++step;
        const qsizetype now = events.size();
        narrator.narrate(events, told, now);
        tally.advance(events, now, told);
        told = now;
        if (drawn && !machine.stateQuery.isEmpty()) {
            const QMap<QString, QString> held = statesInDatabase(*reader, machine.stateQuery);
            const QMap<int, QString>& entities = tally.entities();
            for (auto it = tally.current().cbegin(); it != tally.current().cend(); ++it) {
                const QString entity = entities.value(it.key());
                QVERIFY2(held.value(entity) == it.value(),
                         qPrintable(QStringLiteral("step %1: the diagram has %2 in %3, the "
                                                   "database in %4")
                                        .arg(step)
                                        .arg(entity, it.value(), held.value(entity, "(no row)"))));
                ++checks;
            }
        }
        for (const QString& table : narrator.countedTables()) {
            const SqlResult r = reader->exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table));
            QVERIFY2(r.ok, qPrintable(r.message));
            const qint64 inDatabase = r.data.value(0).value(0).toLongLong();
            QVERIFY2(narrator.committedRows(table) == inDatabase,
                     qPrintable(QStringLiteral("step %1: the captions count %2 rows of %3, the "
                                               "database holds %4")
                                    .arg(step)
                                    .arg(narrator.committedRows(table))
                                    .arg(table)
                                    .arg(inDatabase)));
            ++checks;
        }
    }
    QVERIFY(step > 0);
    QVERIFY(checks > 0);
}

// The case a class saw: the SUCCESS callback's transaction dies before its
// commit; the diagram drew PAID with ✓1 while the order was PAYING.
void TruthTest::aRolledBackMoveIsNotTheCurrentState() {
    const Scenario* s = findScenario("payment-callback");
    RunConfig c = defaultConfig(*s);
    c.variant = "unique-and-state";
    c.crash = CrashPoint::BeforeCommit;
    Run run(c, *s);
    QString error;
    QVERIFY(run.start(&error));
    StateTally tally;
    tally.setMachine(s->info().stateMachine);
    const QList<TraceEvent>& events = run.trace().events();
    bool sawPending = false, sawRollback = false;
    qsizetype told = 0;
    while (run.step()) {
        tally.advance(events, events.size(), told);
        told = events.size();
        if (tally.uncommitted().value(0) == QLatin1String("PAID")) {
            sawPending = true;
            QCOMPARE(tally.current().value(0), QStringLiteral("PAYING"));
            QCOMPARE(tally.accepted({"PAYING", "PAID"}), 0);
        }
        if (tally.freshRolledBack({"PAYING", "PAID"})) {
            sawRollback = true;
            QCOMPARE(tally.current().value(0), QStringLiteral("PAYING"));
            QCOMPARE(tally.rolledBack({"PAYING", "PAID"}), 1);
            QVERIFY(tally.uncommitted().isEmpty());
        }
    }
    QVERIFY(sawPending);
    QVERIFY(sawRollback);
    // The retry's move committed: exactly one, as the database holds.
    QCOMPARE(tally.accepted({"PAYING", "PAID"}), 1);
    QCOMPARE(tally.current().value(0), QStringLiteral("PAID"));
}

// `run --narrate` of payment-callback state-machine, crash before commit:
// the retry's ledger row is the first that stays, never "now 2 of them".
void TruthTest::aCaptionNeverCountsARolledBackRow() {
    for (const char* variant : {"none", "unique-key", "state-machine", "unique-and-state"}) {
        const Scenario* s = findScenario("payment-callback");
        RunConfig c = defaultConfig(*s);
        c.variant = QString::fromLatin1(variant);
        c.crash = CrashPoint::BeforeCommit;
        c.duplicates = 1;
        Run run(c, *s);
        QString error;
        QVERIFY(run.start(&error));
        Narrator narrator(1, &s->info().words);
        QStringList captions;
        const QList<TraceEvent>& events = run.trace().events();
        qsizetype told = 0;
        while (run.step()) {
            captions << narrator.narrate(events, told, events.size());
            told = events.size();
        }
        const QString all = captions.join('\n');
        if (c.variant != QLatin1String("none"))
            QVERIFY2(!all.contains("now 2 of them"), qPrintable(all));
        QVERIFY2(all.contains("Nothing of its open transaction stays: one ledger row"),
                 qPrintable(all));
    }
}

QTEST_MAIN(TruthTest)
#include "truth_test.moc"
