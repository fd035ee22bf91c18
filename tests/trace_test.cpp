// The trace: byte-identical for the same configuration and seed, readable by
// students' scripts, and refused with a clear message when damaged.
#include "registry.h"
#include "run.h"
#include "runner.h"
#include "sqlconnection.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;
using idem::test::Cell;

namespace {

QByteArray traceBytes(const RunConfig& c) {
    const RunResult r = runToEnd(c, *findScenario(c.scenario), {}, true);
    if (!r.ok())
        return {};
    return r.run->trace().toJson(c, r.summary.toJson());
}

}  // namespace

class TraceTest : public QObject {
    Q_OBJECT
private slots:
    void sameConfigurationSameBytes_data();
    void sameConfigurationSameBytes();
    void differentSeedsDiffer();
    void sqlEventsReplayToTheSameDatabase();
    void damagedTracesAreRefused_data();
    void damagedTracesAreRefused();
    void saveIsAtomic();
};

void TraceTest::sameConfigurationSameBytes_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("crash");
    QTest::newRow("order dedup after-business") << "order-create"
                                                << "dedup-no-recheck"
                                                << "after-business";
    QTest::newRow("order concurrent") << "order-create"
                                      << "check-then-insert"
                                      << "";
    QTest::newRow("payment before-commit") << "payment-callback"
                                           << "unique-and-state"
                                           << "before-commit";
}

void TraceTest::sameConfigurationSameBytes() {
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, crash);
    for (const char* timing : {"concurrent", "retry"}) {
        Cell cell{variant, timing, timing == QLatin1String("retry") ? crash : QString(), {}, 3,
                  3,       ""};
        const RunConfig c = test::cellConfig(scenario, cell, 3, 42);
        const QByteArray first = traceBytes(c);
        QVERIFY(!first.isEmpty());
        QCOMPARE(traceBytes(c), first);
    }
}

void TraceTest::differentSeedsDiffer() {
    Cell cell{"unique-and-state", "concurrent", "", {}, 3, 3, ""};
    QVERIFY(traceBytes(test::cellConfig("payment-callback", cell, 3, 1)) !=
                traceBytes(test::cellConfig("payment-callback", cell, 3, 2)) ||
            traceBytes(test::cellConfig("payment-callback", cell, 3, 1)) !=
                traceBytes(test::cellConfig("payment-callback", cell, 3, 3)));
}

void TraceTest::sqlEventsReplayToTheSameDatabase() {
    // SPEC 6: replaying every sql event in order, each on its own connection,
    // on an empty database reproduces the final database.
    QTemporaryDir dir;
    Cell cell{"dedup-no-recheck", "retry", "after-business", {}, 2, 2, ""};
    const RunConfig c = test::cellConfig("order-create", cell, 2, 5);
    const RunResult r = runToEnd(c, *findScenario(c.scenario),
                                 RunOptions::keptAt(dir.filePath("original.sqlite")), true);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const Run& run = *r.run;

    const QString replayPath = dir.filePath("replay.sqlite");
    QMap<QString, std::shared_ptr<SqlConnection>> connections;
    QSet<QString> closed;
    for (const TraceEvent& e : run.trace().events()) {
        if (!e.is(EventKind::Sql))
            continue;
        auto& conn = connections[e.connectionName()];
        if (!conn)
            conn = std::make_shared<SqlConnection>(replayPath, e.connectionName());
        const SqlResult result = conn->exec(e.sql, e.params);
        QCOMPARE(result.code, e.code);
        QCOMPARE(result.errorText(), e.errorText());
        if (result.ok)
            QCOMPARE(result.rows, e.rows);
        if (e.fields.value("cause") == QLatin1String("crash"))
            connections.remove(e.connectionName());
    }
    connections.clear();
    const char* dump = "SELECT id, request_id, user_id, amount, created_at FROM orders ORDER BY id";
    SqlConnection original(dir.filePath("original.sqlite"), "a");
    SqlConnection replayed(replayPath, "b");
    QCOMPARE(replayed.exec(dump).data, original.exec(dump).data);
    const char* dedup = "SELECT biz_id, status, result, owner FROM dedup";
    QCOMPARE(replayed.exec(dedup).data, original.exec(dedup).data);
}

void TraceTest::damagedTracesAreRefused_data() {
    Cell cell{"dedup-table", "retry", "", {}, 1, 1, ""};
    const QByteArray good = traceBytes(test::cellConfig("order-create", cell, 1, 1));
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated") << good.left(good.size() / 2) << "truncated";
    QTest::newRow("garbage") << QByteArray("\x01\x02not json") << "corrupt";
    QTest::newRow("other format") << QByteArray(R"({"format":"x","version":1})")
                                  << "not an idemlab trace";
    QByteArray newer = good;
    newer.replace("\"version\":2", "\"version\":99");
    QTest::newRow("newer version") << newer << "newer";
    QTest::newRow("no events") << QByteArray(
                                      R"({"format":"idemlab-trace","version":1,"config":{}})")
                               << "lacks";
}

void TraceTest::damagedTracesAreRefused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    Trace::Loaded loaded;
    QString error;
    QVERIFY(!Trace::parse(bytes, &loaded, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TraceTest::saveIsAtomic() {
    QTemporaryDir dir;
    Cell cell{"dedup-table", "retry", "", {}, 1, 1, ""};
    const RunConfig c = test::cellConfig("order-create", cell, 1, 1);
    const RunResult r = runToEnd(c, *findScenario(c.scenario), {}, true);
    QVERIFY(r.ok());
    const Run& run = *r.run;
    const QJsonObject summary = r.summary.toJson();
    QString error;
    const QString path = dir.filePath("trace.json");
    QVERIFY(run.trace().save(path, c, summary, &error));
    Trace::Loaded loaded;
    QVERIFY2(Trace::load(path, &loaded, &error), qPrintable(error));
    QCOMPARE(loaded.events.size(), run.trace().size());
    QCOMPARE(loaded.config.value("variant").toString(), QStringLiteral("dedup-table"));
    // An unwritable place fails cleanly and leaves nothing behind.
    QVERIFY(!run.trace().save(dir.filePath("missing/dir/trace.json"), c, summary, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(dir.filePath("missing/dir/trace.json")));
}

QTEST_GUILESS_MAIN(TraceTest)
#include "trace_test.moc"
