// The trace: byte-identical for the same configuration and seed, readable by
// students' scripts, each number named for what it counts, and refused with a
// clear message when damaged.
#include "registry.h"
#include "run.h"
#include "runner.h"
#include "sqlconnection.h"
#include "sqliteconnection.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace idem;
using idem::test::Cell;

namespace {

QByteArray traceBytes(const RunConfig& c) {
    const RunResult r = runToEnd(c, *findScenario(c.scenario), {}, true);
    if (!r.ok())
        return {};
    return r.run->trace().toJson(c, r.summary.toJson());
}

QString firstWord(const QString& sql) {
    return sql.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty)
        .section(QLatin1Char('\n'), 0, 0)
        .toUpper();
}

bool isTransactionControl(const QString& sql) {
    static const QStringList control{"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"};
    return control.contains(firstWord(sql));
}

// One database connection straight on libsqlite3, not through SqlConnection:
// the counts below are SQLite's own, not the program's.
class RawConnection {
public:
    explicit RawConnection(const QString& path) {
        sqlite3_open_v2(path.toUtf8().constData(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        nullptr);
        sqlite3_extended_result_codes(db_, 1);
    }
    ~RawConnection() { sqlite3_close(db_); }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    struct Outcome {
        int code = SQLITE_OK;
        int columns = 0;
        bool readOnly = false;
        qint64 returned = 0;      // rows stepped through
        qint64 changes = 0;       // sqlite3_changes64 afterwards
        qint64 totalChanges = 0;  // what the statement added to sqlite3_total_changes64
    };
    Outcome run(const QString& sql, const QVariantList& params) {
        Outcome o;
        sqlite3_stmt* s = nullptr;
        const QByteArray text = sql.toUtf8();
        o.code = sqlite3_prepare_v2(db_, text.constData(), int(text.size()), &s, nullptr);
        if (o.code != SQLITE_OK)
            return o;
        std::vector<QByteArray> keep;
        for (int i = 0; i < params.size(); ++i) {
            const QVariant& v = params[i];
            if (v.isNull()) {
                sqlite3_bind_null(s, i + 1);
            } else if (v.typeId() == QMetaType::Double) {
                sqlite3_bind_double(s, i + 1, v.toDouble());
            } else if (v.typeId() == QMetaType::QString) {
                keep.push_back(v.toString().toUtf8());
                sqlite3_bind_text(s, i + 1, keep.back().constData(), int(keep.back().size()),
                                  SQLITE_TRANSIENT);
            } else {
                sqlite3_bind_int64(s, i + 1, v.toLongLong());
            }
        }
        o.columns = sqlite3_column_count(s);
        o.readOnly = sqlite3_stmt_readonly(s) != 0;
        const qint64 before = sqlite3_total_changes64(db_);
        int rc;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) ++o.returned;
        o.code = rc == SQLITE_DONE ? SQLITE_OK : sqlite3_extended_errcode(db_);
        o.changes = sqlite3_changes64(db_);
        o.totalChanges = sqlite3_total_changes64(db_) - before;
        sqlite3_finalize(s);
        return o;
    }

private:
    sqlite3* db_ = nullptr;
};

}  // namespace

class TraceTest : public QObject {
    Q_OBJECT
private slots:
    void sameConfigurationSameBytes_data();
    void sameConfigurationSameBytes();
    void differentSeedsDiffer();
    void sqlEventsReplayToTheSameDatabase();
    void sqlEventsSayWhatTheirNumberCounts();
    void countsAreSQLitesOwn_data();
    void countsAreSQLitesOwn();
    void olderVersionsAreClassifiedFromTheStatement_data();
    void olderVersionsAreClassifiedFromTheStatement();
    void badCountsAreRefused_data();
    void badCountsAreRefused();
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
            conn = std::make_shared<SqliteConnection>(replayPath, e.connectionName());
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
    SqliteConnection original(dir.filePath("original.sqlite"), "a");
    SqliteConnection replayed(replayPath, "b");
    QCOMPARE(replayed.exec(dump).data, original.exec(dump).data);
    const char* dedup = "SELECT biz_id, status, result, owner FROM dedup";
    QCOMPARE(replayed.exec(dedup).data, original.exec(dedup).data);
}

void TraceTest::sqlEventsSayWhatTheirNumberCounts() {
    // Every variant of every scenario, as written: at most one count on an
    // sql event, none on transaction control, and a read's is rows_returned.
    int returned = 0, changed = 0, control = 0, traces = 0;
    for (const Scenario* scenario : allScenarios()) {
        for (const VariantInfo& variant : scenario->info().variants) {
            if (variant.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            RunConfig c = defaultConfig(*scenario);
            c.variant = variant.id;
            const QByteArray bytes = traceBytes(c);
            const QString name = scenario->info().id + QLatin1Char('/') + variant.id;
            QVERIFY2(!bytes.isEmpty(), qPrintable(name));
            const QJsonObject trace = QJsonDocument::fromJson(bytes).object();
            QCOMPARE(trace.value("version").toInt(), kTraceVersion);
            ++traces;
            for (const QJsonValue& v : trace.value("events").toArray()) {
                const QJsonObject e = v.toObject();
                if (e.value("kind") != QLatin1String("sql"))
                    continue;
                const QString sql = e.value("sql").toString();
                const QString where = name + QStringLiteral(": ") + sql.simplified();
                const bool r = e.contains("rows_returned"), w = e.contains("rows_changed");
                QVERIFY2(!e.contains("rows"), qPrintable(where));
                QVERIFY2(!(r && w), qPrintable(where));
                const QString verb = firstWord(sql);
                if (isTransactionControl(sql)) {
                    QVERIFY2(!r && !w, qPrintable(where));
                    ++control;
                } else if (verb == QLatin1String("SELECT")) {
                    QVERIFY2(r, qPrintable(where));
                } else if ((verb == QLatin1String("UPDATE") || verb == QLatin1String("DELETE") ||
                            verb == QLatin1String("INSERT")) &&
                           !sql.contains(QLatin1String("RETURNING"))) {
                    QVERIFY2(w, qPrintable(where));
                } else if (verb == QLatin1String("CREATE")) {
                    QVERIFY2(!r && !w, qPrintable(where));
                }
                returned += r;
                changed += w;
            }
            // Read back, each event keeps what its number counts.
            Trace::Loaded loaded;
            QString error;
            QVERIFY2(Trace::parse(bytes, &loaded, &error), qPrintable(error));
            QVERIFY(loaded.digestMatches);
            QList<QByteArray> lines;
            for (const QByteArray& line : bytes.split('\n')) {
                if (line.startsWith("{\"seq\":"))
                    lines << (line.endsWith(',') ? line.chopped(1) : line);
            }
            QCOMPARE(lines.size(), loaded.events.size());
            for (qsizetype i = 0; i < lines.size(); ++i) {
                // (Other kinds' fields come back in JSON's order, not the written one.)
                if (loaded.events[i].is(EventKind::Sql))
                    QCOMPARE(loaded.events[i].toJsonBytes(), lines[i]);
            }
        }
    }
    QVERIFY(traces > 20);
    QVERIFY(returned > 100);
    QVERIFY(changed > 100);
    QVERIFY(control > 50);
}

void TraceTest::countsAreSQLitesOwn_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("timing");
    QTest::addColumn<QString>("crash");
    QTest::addColumn<QStringList>("params");
    QTest::newRow("order-create crash") << "order-create"
                                        << "dedup-no-recheck"
                                        << "retry"
                                        << "after-business" << QStringList();
    QTest::newRow("payment-callback") << "payment-callback"
                                      << "unique-and-state"
                                      << "concurrent"
                                      << "" << QStringList();
    QTest::newRow("stock-deduct") << "stock-deduct"
                                  << "version"
                                  << "concurrent"
                                  << "" << QStringList();
    QTest::newRow("pagination deletes") << "pagination"
                                        << "offset"
                                        << ""
                                        << "" << QStringList{"deletes-per-page=2"};
}

void TraceTest::countsAreSQLitesOwn() {
    // The written trace's sql events run again, in order, each on its own
    // connection straight on libsqlite3: a rows_returned is the rows SQLite
    // stepped through, a rows_changed is sqlite3_changes, and a statement with
    // neither (BEGIN, COMMIT, CREATE TABLE) changes no rows itself.
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, timing);
    QFETCH(QString, crash);
    QFETCH(QStringList, params);
    Cell cell{variant, timing, crash, params, 2, 2, ""};
    const RunConfig c = test::cellConfig(scenario, cell, 2, 5);
    Trace::Loaded loaded;
    QString error;
    QVERIFY2(Trace::parse(traceBytes(c), &loaded, &error), qPrintable(error));
    QTemporaryDir dir;
    const QString path = dir.filePath("replay.sqlite");
    std::map<QString, std::unique_ptr<RawConnection>> connections;
    int returned = 0, changed = 0, none = 0, nonzero = 0;
    for (const TraceEvent& e : std::as_const(loaded.events)) {
        if (!e.is(EventKind::Sql))
            continue;
        auto& conn = connections[e.connectionName()];
        if (!conn)
            conn = std::make_unique<RawConnection>(path);
        const RawConnection::Outcome o = conn->run(e.sql, e.params);
        const QString where = e.sql.simplified();
        QVERIFY2(o.code == e.code, qPrintable(where));
        if (e.fields.value("cause") == QLatin1String("crash"))
            connections.erase(e.connectionName());
        if (e.failed())
            continue;
        switch (e.counts) {
            case RowCount::Returned:
                QVERIFY2(o.columns > 0, qPrintable(where));
                QVERIFY2(o.returned == e.rows, qPrintable(where));
                ++returned;
                break;
            case RowCount::Changed:
                QVERIFY2(o.columns == 0 && !o.readOnly, qPrintable(where));
                QVERIFY2(o.changes == e.rows, qPrintable(where));
                nonzero += e.rows > 0;
                ++changed;
                break;
            case RowCount::None:
                QVERIFY2(o.columns == 0, qPrintable(where));
                QVERIFY2(o.totalChanges == 0, qPrintable(where));
                ++none;
                break;
        }
    }
    QVERIFY(returned > 0 && changed > 0 && none > 0 && nonzero > 0);
}

void TraceTest::olderVersionsAreClassifiedFromTheStatement_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("counts");
    const int none = int(RowCount::None), returned = int(RowCount::Returned),
              changed = int(RowCount::Changed);
    QTest::newRow("BEGIN") << "BEGIN IMMEDIATE" << 1 << none;
    QTest::newRow("COMMIT") << "COMMIT" << 3 << none;
    QTest::newRow("ROLLBACK") << "ROLLBACK" << 1 << none;
    QTest::newRow("CREATE") << "CREATE TABLE t (a INTEGER)" << 0 << none;
    QTest::newRow("SELECT") << "SELECT id FROM orders WHERE request_id = ?" << 0 << returned;
    QTest::newRow("comment first") << "-- the claim\nSELECT 1" << 1 << returned;
    QTest::newRow("UPDATE") << "UPDATE orders SET status = 'PAID' WHERE id = ?" << 0 << changed;
    QTest::newRow("INSERT SELECT") << "INSERT INTO a SELECT * FROM b" << 4 << changed;
    QTest::newRow("RETURNING") << "INSERT INTO orders (x) VALUES (?)\nRETURNING id" << 1
                               << returned;
    QTest::newRow("WITH INSERT") << "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 "
                                    "FROM n WHERE i < 9)\nINSERT INTO orders (id) SELECT i FROM n"
                                 << 10 << changed;
    QTest::newRow("WITH SELECT") << "WITH x AS (DELETE FROM y) SELECT 1" << 1 << returned;
    QTest::newRow("quoted RETURNING")
        << "UPDATE t SET note = 'RETURNING' WHERE id = ?" << 1 << changed;
    QTest::newRow("pragma answer") << "PRAGMA journal_mode = WAL" << 1 << returned;
    QTest::newRow("pragma, no answer") << "PRAGMA foreign_keys = ON" << 0 << none;
}

void TraceTest::olderVersionsAreClassifiedFromTheStatement() {
    // A version 1 or 2 trace wrote one number; what it counts is read from
    // the statement, and the event is written back as it was.
    QFETCH(QString, sql);
    QFETCH(int, rows);
    QFETCH(int, counts);
    for (int version : {1, 2}) {
        QJsonObject json{{"seq", 1},
                         {"t_ms", 0},
                         {"intent", 0},
                         {"attempt", 1},
                         {"actor", "service"},
                         {"kind", "sql"},
                         {"connection", "c1"},
                         {"sql", sql},
                         {"params", QJsonArray()},
                         {"rows", rows},
                         {"error", QJsonValue::Null}};
        if (version == 2)
            json.insert("code", 0);
        TraceEvent e;
        QString error;
        QVERIFY2(TraceEvent::fromJson(json, version, &e, &error), qPrintable(error));
        QCOMPARE(int(e.counts), counts);
        QCOMPARE(e.rows, qint64(rows));
        QCOMPARE(e.toJson(version), json);
        const QJsonObject v3 = e.toJson(3);
        QVERIFY(!v3.contains("rows"));
        QCOMPARE(v3.contains("rows_returned"), counts == int(RowCount::Returned));
        QCOMPARE(v3.contains("rows_changed"), counts == int(RowCount::Changed));
    }
}

void TraceTest::badCountsAreRefused_data() {
    QTest::addColumn<QByteArray>("counts");
    QTest::addColumn<QString>("message");
    QTest::newRow("both") << QByteArray(R"("rows_returned":1,"rows_changed":1)") << "both";
    QTest::newRow("v2's rows") << QByteArray(R"("rows":1)") << "not rows";
    QTest::newRow("negative") << QByteArray(R"("rows_changed":-1)") << "rows_changed";
    QTest::newRow("text") << QByteArray(R"("rows_returned":"2")") << "rows_returned";
}

void TraceTest::badCountsAreRefused() {
    QFETCH(QByteArray, counts);
    QFETCH(QString, message);
    const QByteArray event = R"({"seq":1,"t_ms":0,"intent":0,"attempt":1,"actor":"service",)"
                             R"("kind":"sql","connection":"c1","sql":"SELECT 1","params":[],)" +
                             counts + R"(,"code":0,"error":null})";
    TraceEvent e;
    QString error;
    QVERIFY(!TraceEvent::fromJson(QJsonDocument::fromJson(event).object(), 3, &e, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
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
    newer.replace("\"version\":" + QByteArray::number(kTraceVersion), "\"version\":99");
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
