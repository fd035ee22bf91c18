// The locks a real server holds and awaits, recorded in the trace (SPEC
// section 8; the Locks view reads them): check-for-update concurrent on
// MariaDB shows the gap locks both SELECT ... FOR UPDATE take and an INSERT's
// insert intention waiting for them; on PostgreSQL an INSERT waits for the
// first inserter's transaction. A snapshot is recorded only when the locks
// change, the last one says nothing is held, and the waiters agree with the
// lock-wait events. Skips when a server's package is missing.
#include "authoring.h"
#include "locksnapshot.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "runner.h"
#include "serverinstall.h"
#include "sqlconnection.h"
#include "sweeper.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <signal.h>
#include <unistd.h>

using namespace idem;

namespace {

RunConfig checkForUpdate(const QString& backend) {
    RunConfig c = defaultConfig(*findScenario("order-create"));
    c.backend = backend;
    c.variant = "check-for-update";
    c.timing = Timing::Concurrent;
    return c;
}

QList<TraceEvent> eventsOf(const RunConfig& c) {
    Run run(c, *findScenario(c.scenario));
    QString error;
    if (!run.start(&error))
        qWarning() << "the run did not start:" << error;
    run.runToEnd();
    return run.trace().events();
}

QList<LockRows> snapshotsOf(const QList<TraceEvent>& events) {
    QList<LockRows> snapshots;
    for (const TraceEvent& e : events) {
        if (e.is(EventKind::Locks))
            snapshots << lockRowsFromValue(e.fields.value("locks"));
    }
    return snapshots;
}

QString described(const LockRows& rows) {
    QStringList lines;
    for (const LockRow& r : rows)
        lines << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8")
                     .arg(r.session, r.kind, r.mode, r.table, r.index, r.record,
                          r.granted ? QStringLiteral("held") : QStringLiteral("WAITS"),
                          r.waitsFor.join(','));
    return lines.join('\n');
}

#define SKIP_WITHOUT(backend)                                                          \
    do {                                                                               \
        if (const QString missing = missingServerPackage(backend); !missing.isEmpty()) \
            QSKIP(qPrintable(QStringLiteral("%1 is not installed (package %2)")        \
                                 .arg(backendName(backend), missing)));                \
    } while (false)

// A row for each server, in the column "backend".
void addServers() {
    QTest::addColumn<QString>("backend");
    QTest::newRow("postgres") << "postgres";
    QTest::newRow("mariadb") << "mariadb";
}

// Every snapshot differs from the one before, the run ends holding
// nothing, and each lock-wait's waiter is in the snapshot right after it.
void checkRecording(const QList<TraceEvent>& events) {
    const QList<LockRows> snapshots = snapshotsOf(events);
    QVERIFY(snapshots.size() >= 2);
    for (qsizetype i = 1; i < snapshots.size(); ++i) QVERIFY(snapshots[i] != snapshots[i - 1]);
    QVERIFY2(snapshots.last().isEmpty(), qPrintable(described(snapshots.last())));
    for (qsizetype i = 0; i < events.size(); ++i) {
        if (!isServerLockWait(events[i]))
            continue;
        const QString waiter = events[i].fields.text("connection");
        const QStringList holders = events[i].fields.text("holder").split(", ");
        qsizetype next = i + 1;
        while (next < events.size() && !events[next].is(EventKind::Locks)) ++next;
        QVERIFY2(next < events.size(), "a wait with no snapshot after it");
        const LockRows rows = lockRowsFromValue(events[next].fields.value("locks"));
        const bool shown = std::any_of(rows.cbegin(), rows.cend(), [&](const LockRow& r) {
            return r.session == waiter && !r.granted &&
                   std::all_of(holders.cbegin(), holders.cend(),
                               [&](const QString& h) { return r.waitsFor.contains(h); });
        });
        QVERIFY2(shown, qPrintable(waiter + " waiting for " + holders.join(',') + ":\n" +
                                   described(rows)));
    }
}

// The processes this test started, and theirs: the private servers' keepers
// and the servers under them (another test's servers are not among them).
QList<pid_t> descendants(pid_t of) {
    QList<pid_t> all;
    QDir tasks(QStringLiteral("/proc/%1/task").arg(of));
    for (const QString& task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(tasks.filePath(task + QStringLiteral("/children")));
        if (!children.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& pid : children.readAll().split(' ')) {
            if (pid.trimmed().isEmpty())
                continue;
            all << pid_t(pid.trimmed().toInt());
            all << descendants(all.last());
        }
    }
    return all;
}

QString commandOf(pid_t pid) {
    QFile f(QStringLiteral("/proc/%1/comm").arg(pid));
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readAll().trimmed()) : QString();
}

}  // namespace

class LiveLocksTest : public QObject {
    Q_OBJECT
private slots:
    // --lock-timeout-ms: a wait that lasts that long in virtual time is
    // cancelled, at that instant, as the server's own lock timeout; the run
    // repeats event for event.
    void aLongWaitIsCancelledAtItsVirtualInstant_data() { addServers(); }
    void aLongWaitIsCancelledAtItsVirtualInstant() {
        QFETCH(QString, backend);
        SKIP_WITHOUT(backend);
        // The second and third callbacks' flow INSERTs wait for the first
        // callback's transaction, which holds the key for 4-6 virtual ms.
        RunConfig c = defaultConfig(*findScenario("payment-callback"));
        c.backend = backend;
        c.variant = "unique-and-state";
        c.timing = Timing::Concurrent;
        c.lockTimeoutMs = 2;
        RunConfig read;
        QString error;
        QVERIFY2(RunConfig::fromJson(c.toJson(), &read, &error), qPrintable(error));
        QCOMPARE(read.lockTimeoutMs, qint64(2));
        const QList<TraceEvent> events = eventsOf(c);
        QHash<QString, qint64> waitSince;  // connection → when its wait began
        int timedOut = 0;
        for (const TraceEvent& e : events) {
            if (isServerLockWait(e))
                waitSince.insert(e.fields.text("connection"), e.tMs);
            if (e.is(EventKind::Sql) && e.outcome() == SqlOutcome::LockTimeout) {
                ++timedOut;
                QCOMPARE(e.tMs, waitSince.value(e.connectionName(), -1) + 2);
            }
        }
        QVERIFY2(timedOut >= 1, "no wait was cancelled");
        const QList<TraceEvent> again = eventsOf(c);
        QCOMPARE(again.size(), events.size());
        for (qsizetype i = 0; i < events.size(); ++i) {
            QCOMPARE(again[i].kind, events[i].kind);
            QCOMPARE(again[i].tMs, events[i].tMs);
            QCOMPARE(again[i].outcome(), events[i].outcome());
        }
        const RunResult r = runToEnd(c, *findScenario(c.scenario), RunOptions::untraced());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.summary.verdict, Verdict::ExactlyOnce);
    }
    // A class talks at a step while a statement waits for a lock: the wait
    // may last any real time, and the run goes on as it would at full
    // speed (no real timer of the server's ends the wait).
    void aPauseAtAWaitChangesNothing_data() { addServers(); }
    void aPauseAtAWaitChangesNothing() {
        QFETCH(QString, backend);
        SKIP_WITHOUT(backend);
        RunConfig c = defaultConfig(*findScenario("payment-callback"));
        c.backend = backend;
        c.variant = "unique-and-state";
        c.timing = Timing::Concurrent;
        const QList<TraceEvent> straight = eventsOf(c);
        Run run(c, *findScenario(c.scenario));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        bool paused = false;
        qsizetype seen = 0;
        while (run.step()) {
            const QList<TraceEvent>& now = run.trace().events();
            for (qsizetype i = seen; i < now.size() && !paused; ++i) {
                if (now[i].is(EventKind::LockWait)) {
                    paused = true;
                    QTest::qWait(6500);  // longer than any lock timeout the lab sets
                }
            }
            seen = now.size();
        }
        QVERIFY2(paused, "no statement waited");
        const QList<TraceEvent>& events = run.trace().events();
        QCOMPARE(events.size(), straight.size());
        for (qsizetype i = 0; i < events.size(); ++i) {
            QCOMPARE(events[i].kind, straight[i].kind);
            QCOMPARE(events[i].outcome(), straight[i].outcome());
        }
    }
    // A run on a server that another replaces closes its connections and
    // drops its database: the sweeper's thread does that, not the window's
    // (a new connection and a DROP held the window 10 to 60 ms).
    void aReplacedServerRunGoesInTheSweeper() {
        SKIP_WITHOUT("postgres");
        Playback playback;
        QString error;
        const RunConfig c = checkForUpdate("postgres");
        QVERIFY2(playback.load(c, *findScenario(c.scenario), &error), qPrintable(error));
        playback.seek(5);
        QVERIFY(playback.sweeper()->idle());
        QVERIFY2(playback.load(c, *findScenario(c.scenario), &error), qPrintable(error));
        QVERIFY2(!playback.sweeper()->idle(), "the replaced run was let go of at once");
        QTRY_VERIFY(playback.sweeper()->idle());
    }
    // A private server that dies (killed, the OOM killer) is started again
    // for the next run instead of failing every run after it.
    void aDeadServerIsStartedAgain() {
        SKIP_WITHOUT("mariadb");
        const RunConfig c = checkForUpdate("mariadb");
        QVERIFY(!eventsOf(c).isEmpty());
        QList<pid_t> servers;
        for (pid_t pid : descendants(getpid())) {
            if (commandOf(pid) == QLatin1String("mariadbd"))
                servers << pid;
        }
        QCOMPARE(servers.size(), 1);
        QCOMPARE(::kill(servers.first(), SIGKILL), 0);
        QTRY_VERIFY(commandOf(servers.first()) != QLatin1String("mariadbd"));
        const RunResult r = runToEnd(c, *findScenario(c.scenario), RunOptions::untraced());
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.summary.verdict, Verdict::ExactlyOnce);
    }
    void mariadbGapLocksAndInsertIntention() {
        SKIP_WITHOUT("mariadb");
        const QList<TraceEvent> events = eventsOf(checkForUpdate("mariadb"));
        checkRecording(events);
        bool gapsHeldByTwo = false, insertWaits = false;
        for (const LockRows& rows : snapshotsOf(events)) {
            QSet<QString> gapHolders;
            for (const LockRow& r : rows) {
                if (r.granted && r.index == "uk_orders_request_id" &&
                    (r.kind == lockkind::kGap || r.kind == lockkind::kNextKey))
                    gapHolders.insert(r.session);
                if (!r.granted && r.kind == lockkind::kInsertIntention &&
                    r.index == "uk_orders_request_id" && !r.waitsFor.isEmpty() &&
                    r.table == "orders")
                    insertWaits = true;
            }
            gapsHeldByTwo = gapsHeldByTwo || gapHolders.size() >= 2;
        }
        QVERIFY(gapsHeldByTwo);
        QVERIFY(insertWaits);
    }

    void postgresWaitsForATransaction() {
        SKIP_WITHOUT("postgres");
        RunConfig c = checkForUpdate("postgres");
        c.duplicates = 2;
        const QList<TraceEvent> events = eventsOf(c);
        checkRecording(events);
        bool waits = false, ownHeld = false;
        for (const LockRows& rows : snapshotsOf(events)) {
            for (const LockRow& r : rows) {
                if (!r.granted && r.kind == lockkind::kTransaction && !r.of.isEmpty() &&
                    r.waitsFor.contains(r.of) && r.xid > 0)
                    waits = true;
                if (r.granted && r.kind == lockkind::kTransaction && r.of == r.session)
                    ownHeld = true;
            }
        }
        QVERIFY(waits);
        QVERIFY(ownHeld);
    }

    // Unique-key INSERTs commit alone: nothing is held between steps, and
    // the trace has no locks event at all.
    void autocommitRecordsNothing() {
        SKIP_WITHOUT("postgres");
        RunConfig c = checkForUpdate("postgres");
        c.variant = "unique-key";
        QVERIFY(snapshotsOf(eventsOf(c)).isEmpty());
    }

    // A MariaDB run's tables are utf8mb4 with its default collation, as
    // Debian's server makes them: Chinese text is kept (latin1 refused it
    // with 1366), and case still compares equal, as on users' servers.
    void mariadbTablesAreUtf8mb4() {
        SKIP_WITHOUT("mariadb");
        RunConfig c = defaultConfig(*findScenario("order-create"));
        c.backend = "mariadb";
        Run run(c, *findScenario(c.scenario));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        auto session = run.openReader();
        const SqlResult collation = session->exec(
            "SELECT table_collation FROM information_schema.tables "
            "WHERE table_schema = DATABASE() AND table_name = 'orders'");
        QVERIFY2(collation.ok, qPrintable(collation.errorText()));
        QCOMPARE(collation.data.value(0).value(0).toString(), QStringLiteral("utf8mb4_general_ci"));
        const QString key = QStringLiteral("订单-幂等");
        const SqlResult inserted = session->exec(
            "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, 1, 1, 1)",
            {key});
        QVERIFY2(inserted.ok, qPrintable(inserted.errorText()));
        const SqlResult read =
            session->exec("SELECT request_id FROM orders WHERE request_id = ?", {key});
        QVERIFY2(read.ok, qPrintable(read.errorText()));
        QCOMPARE(read.data.value(0).value(0).toString(), key);
        const SqlResult sameKey =
            session->exec("SELECT COUNT(*) FROM orders WHERE request_id = 'REQ-1'");
        QCOMPARE(sameKey.data.value(0).value(0).toInt(), 1);
    }

    // A run's connections end with a goodbye: the server counts no aborted
    // client for a run without a crash, and one for a crashed attempt's.
    void mariadbConnectionsQuitProperly() {
        SKIP_WITHOUT("mariadb");
        RunConfig c = defaultConfig(*findScenario("payment-callback"));
        c.backend = "mariadb";
        Run watcher(c, *findScenario(c.scenario));
        QString error;
        QVERIFY2(watcher.start(&error), qPrintable(error));
        auto reader = watcher.openReader();
        const auto aborted = [&] {
            const SqlResult r = reader->exec("SHOW GLOBAL STATUS LIKE 'Aborted_clients'");
            return r.ok ? r.data.value(0).value(1).toLongLong() : -1;
        };
        const qint64 before = aborted();
        QVERIFY(before >= 0);
        {
            Run run(c, *findScenario(c.scenario));
            QVERIFY2(run.start(&error), qPrintable(error));
            run.runToEnd();
            QVERIFY(run.finish(&error));
        }
        QCOMPARE(aborted(), before);
        c.timing = Timing::Retry;
        c.crash = CrashPoint::BeforeCommit;
        {
            Run run(c, *findScenario(c.scenario));
            QVERIFY2(run.start(&error), qPrintable(error));
            run.runToEnd();
            QVERIFY(run.finish(&error));
        }
        QTRY_COMPARE(aborted(), before + 1);
    }

    // PostgreSQL's integrity check looks into indexes (amcheck) and CHECK
    // constraints, not only at whether the tables can be read: a constraint
    // added NOT VALID over rows that break it is found.
    void postgresIntegrityChecksConstraints() {
        SKIP_WITHOUT("postgres");
        RunConfig c = defaultConfig(*findScenario("payment-callback"));
        c.backend = "postgres";
        Run run(c, *findScenario(c.scenario));
        QString error;
        QVERIFY2(run.start(&error), qPrintable(error));
        run.runToEnd();
        {
            auto reader = run.openReader();
            Reader read(*reader);
            QCOMPARE(read.integrity(), QStringLiteral("ok"));
            const SqlResult indexes = reader->exec(
                "SELECT COUNT(*) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid "
                "WHERE c.relnamespace = current_schema()::regnamespace");
            QVERIFY(indexes.ok && indexes.data.value(0).value(0).toInt() >= 3);
            // ... each of them checked by amcheck, which the check installed.
            const SqlResult amcheck = reader->exec(
                "SELECT COUNT(*) FROM pg_extension WHERE extname = 'amcheck' "
                "AND extnamespace = 'public'::regnamespace");
            QVERIFY(amcheck.ok && amcheck.data.value(0).value(0).toInt() == 1);
        }
        // The lab's readers are plain sessions on the run's schema: this
        // test's own change goes through one.
        auto writer = run.openReader();
        const SqlResult added = writer->exec(
            "ALTER TABLE ledger ADD CONSTRAINT credit_is_negative CHECK (amount < 0) NOT VALID");
        QVERIFY2(added.ok, qPrintable(added.errorText()));
        auto reader = run.openReader();
        Reader read(*reader);
        const QString found = read.integrity();
        QVERIFY2(found.contains(QLatin1String("ledger: 1 rows break credit_is_negative")),
                 qPrintable(found));
    }
};

QTEST_GUILESS_MAIN(LiveLocksTest)
#include "livelocks_test.moc"
