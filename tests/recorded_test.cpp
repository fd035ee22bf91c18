// Recorded play (models/database/recordedbackend.h): a server run played from its
// trace where the server is not installed. `record` runs each case on the
// real server and saves its trace into $IDEM_RECORDINGS (skips when a
// server's package is missing); the other functions play those traces, as
// tests/without_servers.sh runs them, with the servers' programs hidden:
// the same events, outcome classes and summary, the recorded committed rows
// in the reader mid-run, the Locks view's data, and a tampered recording
// refused with one message naming the event.
#include "locksnapshot.h"
#include "recordedbackend.h"
#include "registry.h"
#include "replay.h"
#include "run.h"
#include "serverinstall.h"
#include "sqlconnection.h"
#include "tablesnapshot.h"
#include "trace.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;

namespace {

struct Case {
    const char* name;
    const char* backend;
    const char* scenario;
    const char* variant;
};

// The gap-lock deadlock on MariaDB, a wait then a unique violation on
// PostgreSQL, and a unique key beside a state machine on both.
const Case kCases[] = {
    {"mariadb-check-for-update", "mariadb", "order-create", "check-for-update"},
    {"postgres-check-for-update", "postgres", "order-create", "check-for-update"},
    {"mariadb-unique-and-state", "mariadb", "payment-callback", "unique-and-state"},
    {"postgres-unique-and-state", "postgres", "payment-callback", "unique-and-state"},
};

RunConfig configOf(const Case& c) {
    RunConfig config = defaultConfig(*findScenario(c.scenario));
    config.backend = c.backend;
    config.variant = c.variant;
    config.timing = Timing::Concurrent;
    return config;
}

QString folder() {
    const QString dir = qEnvironmentVariable("IDEM_RECORDINGS");
    return dir.isEmpty() ? QDir::temp().filePath("idemlab-recordings") : dir;
}

QString pathOf(const Case& c) {
    return QDir(folder()).filePath(QString::fromLatin1(c.name) + ".json");
}

struct Played {
    RunFailure failure = RunFailure::None;
    QString error;
    QList<TraceEvent> events;
    Summary summary;
};

Played play(const RunConfig& config) {
    Played p;
    Run run(config, *findScenario(config.scenario));
    if (run.start(&p.error)) {
        run.runToEnd();
        run.finish(&p.error);
    }
    p.failure = run.failure();
    p.events = run.trace().events();
    p.summary = run.summary();
    return p;
}

// The outcome of each failed statement, in order: what a class reads.
QStringList outcomesOf(const QList<TraceEvent>& events) {
    QStringList outcomes;
    for (const TraceEvent& e : events) {
        if (e.is(EventKind::Sql) && e.failed())
            outcomes << QString::fromLatin1(outcomeId(e.outcome()));
        else if (e.is(EventKind::LockWait))
            outcomes << QStringLiteral("lock-wait");
    }
    return outcomes;
}

}  // namespace

class RecordedTest : public QObject {
    Q_OBJECT
private slots:
    void record();
    void playsTheRecording_data();
    void playsTheRecording();
    void theReaderShowsTheRecordedRowsMidRun();
    void rowVersionsNameWhoseTransactionTheyAre();
    void aTamperedRecordingIsRefusedAtItsEvent();
    void anSqliteTraceIsNoRecording();

private:
    std::shared_ptr<const Recording> loaded(const Case& c);
};

std::shared_ptr<const Recording> RecordedTest::loaded(const Case& c) {
    if (!QFileInfo::exists(pathOf(c)))
        return nullptr;
    QString error;
    auto recording = loadRecording(pathOf(c), &error);
    if (!recording)
        qWarning() << error;
    return recording;
}

void RecordedTest::record() {
    QVERIFY(QDir().mkpath(folder()));
    int recorded = 0;
    for (const Case& c : kCases) {
        QFile::remove(pathOf(c));
        if (!missingServerPackage(c.backend).isEmpty())
            continue;
        const RunConfig config = configOf(c);
        Run run(config, *findScenario(config.scenario));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        QVERIFY2(run.finish(&error), qPrintable(error));
        QVERIFY2(run.trace().save(pathOf(c), run.config(), run.summary().toJson(), &error),
                 qPrintable(error));
        ++recorded;
    }
    if (recorded == 0)
        QSKIP("neither MariaDB nor PostgreSQL is installed: nothing to record");
}

void RecordedTest::playsTheRecording_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kCases)); ++i) QTest::newRow(kCases[i].name) << i;
}

void RecordedTest::playsTheRecording() {
    QFETCH(int, index);
    const Case& c = kCases[index];
    const auto recording = loaded(c);
    if (!recording)
        QSKIP("not recorded (the server is not installed where it was recorded)");
    if (qEnvironmentVariableIsSet("IDEM_SERVERS_HIDDEN"))
        QVERIFY2(!missingServerPackage(c.backend).isEmpty(), "the server should be hidden here");

    RunConfig frame = configOf(c);
    QString error;
    const std::optional<RunConfig> config = recordedConfig(frame, pathOf(c), &error);
    QVERIFY2(config, qPrintable(error));
    QElapsedTimer clock;
    clock.start();
    const Played p = play(*config);
    const qint64 ms = clock.elapsed();
    QVERIFY2(p.failure == RunFailure::None, qPrintable(p.error));
    // Timed for the log only: a pace belongs to tests/bench, not to a test.
    qInfo("%s: %lld events played in %lld ms", c.name, qint64(p.events.size()), ms);

    // The same events, field by field.
    Trace::Loaded stored;
    QVERIFY2(Trace::load(pathOf(c), &stored, &error), qPrintable(error));
    QCOMPARE(p.events.size(), stored.events.size());
    for (qsizetype i = 0; i < stored.events.size(); ++i) {
        const QString d = firstDifference(withoutServerIds(stored.events[i].toJson()),
                                          withoutServerIds(p.events[i].toJson()),
                                          QStringLiteral("event %1").arg(i + 1));
        QVERIFY2(d.isEmpty(), qPrintable(d));
    }
    QCOMPARE(outcomesOf(p.events), outcomesOf(stored.events));
    // The same summary, verdict included.
    const QString d =
        firstDifference(stored.summary, p.summary.toJson(), QStringLiteral("summary"));
    QVERIFY2(d.isEmpty(), qPrintable(d));
    QCOMPARE(p.summary.serverVersion, recording->serverVersion);

    // What each case is about.
    const QStringList outcomes = outcomesOf(p.events);
    if (QLatin1String(c.name) == QLatin1String("mariadb-check-for-update"))
        QVERIFY2(outcomes.contains("deadlock"), qPrintable(outcomes.join(' ')));
    if (QLatin1String(c.name) == QLatin1String("postgres-check-for-update")) {
        QVERIFY2(outcomes.contains("lock-wait") && outcomes.contains("unique-violation") &&
                     outcomes.indexOf("lock-wait") < outcomes.indexOf("unique-violation"),
                 qPrintable(outcomes.join(' ')));
    }
    // The Locks view's data: snapshots with a waiting lock.
    if (QString(c.scenario) == QLatin1String("order-create")) {
        bool waits = false;
        for (const TraceEvent& e : p.events) {
            if (!e.is(EventKind::Locks))
                continue;
            for (const LockRow& r : lockRowsFromValue(e.fields.value("locks")))
                waits = waits || !r.granted;
        }
        QVERIFY(waits);
    }

    // Played again (a step back runs it again): the same events.
    const Played again = play(*config);
    QCOMPARE(again.events.size(), p.events.size());
    for (qsizetype i = 0; i < p.events.size(); ++i)
        QCOMPARE(again.events[i].toJsonBytes(), p.events[i].toJsonBytes());
}

void RecordedTest::theReaderShowsTheRecordedRowsMidRun() {
    const Case& c = kCases[0];
    const auto recording = loaded(c);
    if (!recording)
        QSKIP("not recorded");
    RunConfig config = recording->config;
    config.recording = recording;
    Run run(config, *findScenario(config.scenario));
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    // Step to the first rows an attempt committed (the set-up's tables,
    // recorded as the run starts, are empty).
    TableRows orders;
    while (run.step()) {
        const TraceEvent& last = run.trace().events().last();
        if (!last.is(EventKind::Tables))
            continue;
        for (const QVariant& v : last.fields.value("tables").toList()) {
            const TableRows t = tableRowsFromValue(v);
            if (!t.rows.isEmpty())
                orders = t;
        }
        if (!orders.rows.isEmpty())
            break;
    }
    QVERIFY2(!orders.rows.isEmpty(), "no step committed rows");
    QVERIFY(!run.atEnd());
    // The reader (the tables view's, the judge's) reads those rows.
    const auto reader = run.openReader();
    QVERIFY(reader->isOpen());
    QStringList columns;
    const QString select = reader->selectAllStatement(orders.table, &columns);
    QCOMPARE(columns, orders.columns);
    const SqlResult r = reader->exec(select);
    QVERIFY2(r.ok, qPrintable(r.errorText()));
    QCOMPARE(r.data.size(), orders.rows.size());
    for (qsizetype i = 0; i < r.data.size(); ++i) {
        QCOMPARE(r.data[i].mid(1).size(), orders.rows[i].size());  // after the row id
        for (qsizetype k = 0; k < orders.rows[i].size(); ++k)
            QCOMPARE(r.data[i][k + 1].toString(), orders.rows[i][k].toString());
    }
    QVERIFY(reader->findTable(orders.table).rows == 1);
}

// PostgreSQL's xmin and xmax are kept in the recording, each named by
// whose transaction it is (never its id, which differs from run to run):
// the set-up's order, locked by the attempt whose UPDATE locked it; and
// the reader played from the recording shows them beside the rows only.
void RecordedTest::rowVersionsNameWhoseTransactionTheyAre() {
    const Case& c = kCases[3];  // postgres-unique-and-state
    const auto recording = loaded(c);
    if (!recording)
        QSKIP("not recorded");
    const QList<TraceEvent>& events = recording->events;
    // The attempt that sent the UPDATE of the order, from its sql event.
    QString updater;
    for (const TraceEvent& e : events) {
        if (e.is(EventKind::Sql) && e.attempt > 0 && e.code == 0 &&
            e.sql.startsWith(QLatin1String("UPDATE orders"))) {
            updater = QStringLiteral("#%1").arg(e.attempt);
            break;
        }
    }
    QVERIFY(!updater.isEmpty());
    QStringList orderVersions;  // the order's {xmin, xmax}, table by table
    for (const TraceEvent& e : events) {
        if (!e.is(EventKind::Tables))
            continue;
        for (const QVariant& v : e.fields.value("tables").toList()) {
            const TableRows t = tableRowsFromValue(v);
            QVERIFY2(t.versioned, qPrintable(t.table));
            QCOMPARE(t.versions.size(), t.rows.size());
            if (t.table == QLatin1String("orders") && !t.versions.isEmpty())
                orderVersions << t.versions.first().join(u'/');
        }
    }
    // Written by the set-up; locked (xmax) by the updater while its
    // transaction is open; then its new version, written by the updater.
    QCOMPARE(orderVersions, QStringList({"set-up/0", "set-up/" + updater, updater + "/0"}));

    // Played: the reader shows the versions beside the rows when asked.
    RunConfig config = recording->config;
    config.recording = recording;
    Run run(config, *findScenario(config.scenario));
    QString error;
    QVERIFY2(run.start(&error), qPrintable(error));
    const auto reader = run.openReader();
    auto versionsNow = [&] {
        QStringList columns;
        const SqlResult r = reader->exec(reader->selectAllWithRowVersions("orders", &columns));
        if (!r.ok || columns.size() < 2 ||
            columns.sliced(columns.size() - 2) != QStringList({"xmin", "xmax"}) || r.data.isEmpty())
            return QString();
        const QVariantList row = r.data.first();
        return row.value(row.size() - 2).toString() + u'/' + row.value(row.size() - 1).toString();
    };
    QStringList seen;
    while (run.step()) {
        const QString now = versionsNow();
        if (!now.isEmpty() && (seen.isEmpty() || seen.last() != now))
            seen << now;
    }
    QCOMPARE(seen, orderVersions);
    QStringList columns;
    reader->selectAllStatement("orders", &columns);
    QVERIFY2(!columns.contains("xmin") && !columns.contains("xmax"), qPrintable(columns.join(',')));
}

void RecordedTest::aTamperedRecordingIsRefusedAtItsEvent() {
    const Case& c = kCases[0];
    const auto recording = loaded(c);
    if (!recording)
        QSKIP("not recorded");
    // An attempt's first statement, as another version of the lab might send it.
    auto tampered = std::make_shared<Recording>(*recording);
    qint64 seq = 0;
    for (TraceEvent& e : tampered->events) {
        if (e.is(EventKind::Sql) && e.attempt > 0) {
            e.sql += QStringLiteral(" ");
            seq = e.seq;
            break;
        }
    }
    QVERIFY(seq > 0);
    RunConfig config = tampered->config;
    config.recording = tampered;
    const Played p = play(config);
    QCOMPARE(p.failure, RunFailure::BadInput);
    QVERIFY2(p.error.startsWith("The recording does not match this version of the lab: at event " +
                                QString::number(seq) + " it sent"),
             qPrintable(p.error));
    // The events before it are the recording's.
    QVERIFY(p.events.size() >= seq);
    for (qsizetype i = 0; i + 1 < seq; ++i)
        QCOMPARE(p.events[i].toJson(), tampered->events[i].toJson());
}

void RecordedTest::anSqliteTraceIsNoRecording() {
    QTemporaryDir dir;
    RunConfig config = defaultConfig(*findScenario("order-create"));
    Run run(config, *findScenario(config.scenario));
    QString error;
    QVERIFY(run.start(&error));
    run.runToEnd();
    QVERIFY(run.finish(&error));
    const QString path = dir.filePath("sqlite.json");
    QVERIFY(run.trace().save(path, run.config(), run.summary().toJson(), &error));
    // SQLite's traces stay as they were: no committed rows, no values.
    for (const TraceEvent& e : run.trace().events()) {
        QVERIFY(!e.is(EventKind::Tables));
        QVERIFY(!e.fields.contains("values"));
    }
    QVERIFY(!loadRecording(path, &error));
    QVERIFY2(error.contains("there is no recording to play"), qPrintable(error));
}

QTEST_GUILESS_MAIN(RecordedTest)
#include "recorded_test.moc"
