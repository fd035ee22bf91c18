// The Locks view's data without a server: InnoDB's monitor text and
// PostgreSQL's pg_locks and pgrowlocks rows, as the observers read them
// (canned from MariaDB 10.11 and PostgreSQL 15), read into the lab's words;
// a snapshot written to a trace and read back; a locks event only when the
// locks change; and the view's rows and wait-for graph.
#include "locksmodel.h"
#include "locksnapshot.h"
#include "locksview.h"
#include "registry.h"
#include "runconfig.h"
#include "serverlocks.h"
#include "trace.h"
#include "waitforgraph.h"

#include <QApplication>
#include <QJsonDocument>
#include <QTableView>
#include <QTest>

using namespace idem;

namespace {

// SHOW ENGINE INNODB STATUS, its TRANSACTIONS section, with
// innodb_status_output_locks ON: two sessions ran SELECT ... FOR UPDATE on
// an absent request id (both hold the gap after the last key), then the
// first (thread 12) inserted it and waits for the second's gap lock.
const char* const kInnodbWait = R"(=====================================
TRANSACTIONS
------------
Trx id counter 49
Purge done for trx's n:o < 47 undo n:o < 0 state: running but idle
History list length 0
LIST OF TRANSACTIONS FOR EACH SESSION:
---TRANSACTION 48, ACTIVE 2 sec inserting
mysql tables in use 1, locked 1
LOCK WAIT 3 lock struct(s), heap size 1128, 2 row lock(s), undo log entries 1
MariaDB thread id 12, OS thread handle 130839375193792, query id 67 localhost root Update
INSERT INTO orders(request_id,user_id,amount,created_at) VALUES ('req-2',1,1,1)
------- TRX HAS BEEN WAITING 999373 us FOR THIS LOCK TO BE GRANTED:
RECORD LOCKS space id 5 page no 5 n bits 320 index uk_orders_request_id of table `idemlab_fdc882`.`orders` trx id 48 lock_mode X insert intention waiting
Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0
 0: len 8; hex 73757072656d756d; asc supremum;;

------------------
TABLE LOCK table `idemlab_fdc882`.`orders` trx id 48 lock mode IX
RECORD LOCKS space id 5 page no 5 n bits 320 index uk_orders_request_id of table `idemlab_fdc882`.`orders` trx id 48 lock_mode X
Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0
 0: len 8; hex 73757072656d756d; asc supremum;;

RECORD LOCKS space id 5 page no 5 n bits 320 index uk_orders_request_id of table `idemlab_fdc882`.`orders` trx id 48 lock_mode X insert intention waiting
Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0
 0: len 8; hex 73757072656d756d; asc supremum;;

---TRANSACTION 47, ACTIVE 2 sec
2 lock struct(s), heap size 1128, 1 row lock(s)
MariaDB thread id 13, OS thread handle 139635561248448, query id 61 localhost root 
TABLE LOCK table `idemlab_fdc882`.`orders` trx id 47 lock mode IX
RECORD LOCKS space id 5 page no 5 n bits 320 index uk_orders_request_id of table `idemlab_fdc882`.`orders` trx id 47 lock_mode X
Record lock, heap no 1 PHYSICAL RECORD: n_fields 1; compact format; info bits 0
 0: len 8; hex 73757072656d756d; asc supremum;;

RECORD LOCKS space id 5 page no 3 n bits 320 index PRIMARY of table `idemlab_fdc882`.`orders` trx id 47 lock_mode X locks rec but not gap
Record lock, heap no 2 PHYSICAL RECORD: n_fields 7; compact format; info bits 0
 0: len 8; hex 8000000000000001; asc         ;;
 1: len 6; hex 00000000002a; asc      *;;
 2: len 7; hex 80000000000000; asc        ;;
 3: len 5; hex 7265712d31; asc req-1;;

RECORD LOCKS space id 5 page no 5 n bits 320 index uk_orders_request_id of table `idemlab_fdc882`.`orders` trx id 47 lock_mode X locks gap before rec
Record lock, heap no 3 PHYSICAL RECORD: n_fields 2; compact format; info bits 0
 0: len 5; hex 7265712d32; asc req-2;;
 1: len 8; hex 8000000000000004; asc         ;;

---TRANSACTION 46, ACTIVE 3 sec
MariaDB thread id 99, OS thread handle 1, query id 1 localhost root
TABLE LOCK table `idemlab_fdc882`.`orders` trx id 46 lock mode IX
--------
FILE I/O
--------
)";

const LockRow* find(const LockRows& rows, const QString& session, const char* kind,
                    const QString& record = {}) {
    for (const LockRow& r : rows) {
        if (r.session == session && r.kind == QLatin1String(kind) &&
            (record.isEmpty() || r.record == record))
            return &r;
    }
    return nullptr;
}

TraceEvent sqlOn(int attempt, int connection, const QString& sql) {
    TraceEvent e;
    e.kind = EventKind::Sql;
    e.intent = 0;
    e.attempt = attempt;
    e.connection = qint16(connection);
    e.sql = sql;
    return e;
}

LockRows pgWait() {
    // c1 (pid 100) inserted request r-1; c2 (pid 200) inserts the same key
    // and waits for c1's transaction to end.
    QList<live::PgLockEntry> locks;
    locks << live::PgLockEntry{100, "relation", "RowExclusiveLock", true, "orders", "r", {}, 0, {}}
          << live::PgLockEntry{100,
                               "relation",
                               "RowExclusiveLock",
                               true,
                               "uk_orders_request_id",
                               "i",
                               {},
                               0,
                               {}}
          << live::PgLockEntry{100, "relation", "RowShareLock", true, "orders", "r", {}, 0, {}}
          << live::PgLockEntry{100, "transactionid", "ExclusiveLock", true, {}, {}, {}, 750, {}}
          << live::PgLockEntry{200, "relation", "RowExclusiveLock", true, "orders", "r", {}, 0, {}}
          << live::PgLockEntry{200, "transactionid", "ExclusiveLock", true, {}, {}, {}, 751, {}}
          << live::PgLockEntry{200, "transactionid", "ShareLock", false, {}, {}, {}, 750, {100}}
          << live::PgLockEntry{200, "tuple", "ExclusiveLock", true, "orders", "r", "(0,1)", 0, {}}
          << live::PgLockEntry{300, "relation", "AccessShareLock", true, "orders", "r", {}, 0, {}};
    QList<live::PgRowLockEntry> rowLocks;
    rowLocks << live::PgRowLockEntry{"orders", "(0,1)", {"For Update"}, {100}};
    const QHash<qint64, QString> sessions{{100, "c1"}, {200, "c2"}};
    const QHash<QPair<QString, QString>, QString> rows{
        {{"orders", "(0,1)"}, "(1,r-1,10001,199,1)"}};
    return live::pgLocks(locks, rowLocks, sessions, rows);
}

}  // namespace

class LocksTest : public QObject {
    Q_OBJECT

private slots:
    void innodbFields() {
        QCOMPARE(live::innodbFieldText(QByteArray::fromHex("8000000000000004")), QString("4"));
        QCOMPARE(live::innodbFieldText(QByteArray::fromHex("7fffffff")), QString("-1"));
        QCOMPARE(live::innodbFieldText(QByteArray::fromHex("80000001")), QString("1"));
        QCOMPARE(live::innodbFieldText("req-2"), QString("'req-2'"));
    }

    void innodbGapLocksAndAWaiter() {
        const live::InnodbLocks found =
            live::innodbLocks(QString::fromLatin1(kInnodbWait), {{12, "c1"}, {13, "c2"}});
        QVERIFY(!found.truncated);
        const LockRows& rows = found.rows;
        // The waited lock is printed twice: listed once.
        QCOMPARE(
            std::count_if(rows.cbegin(), rows.cend(), [](const LockRow& r) { return !r.granted; }),
            qsizetype(1));
        const LockRow* wait = find(rows, "c1", lockkind::kInsertIntention);
        QVERIFY(wait);
        QVERIFY(!wait->granted);
        QCOMPARE(wait->index, QString("uk_orders_request_id"));
        QCOMPARE(wait->table, QString("orders"));
        QCOMPARE(wait->record, QString("supremum"));
        // Only c2's gap lock blocks it: c1's own does not, and thread 99 is
        // not the run's and holds no lock on the record.
        QCOMPARE(wait->waitsFor, QStringList{"c2"});
        QVERIFY(!wait->waitsForOthers);
        for (const char* session : {"c1", "c2"}) {
            const LockRow* gap = find(rows, session, lockkind::kGap, "supremum");
            QVERIFY2(gap && gap->granted && gap->mode == "X", session);
            const LockRow* table = find(rows, session, lockkind::kTableIntention);
            QVERIFY2(table && table->mode == "IX" && table->table == "orders", session);
        }
        const LockRow* row = find(rows, "c2", lockkind::kRow);
        QVERIFY(row);
        QCOMPARE(row->index, QString("PRIMARY"));
        QCOMPARE(row->record, QString("1"));  // the clustered key alone
        const LockRow* before = find(rows, "c2", lockkind::kGap, "'req-2', 4");
        QVERIFY(before);
        QVERIFY(!find(rows, "", lockkind::kTableIntention));  // thread 99 left out
        // Sessions first, in order.
        QCOMPARE(rows.first().session, QString("c1"));
        QCOMPARE(rows.last().session, QString("c2"));
    }

    void innodbTruncated() {
        QString text = QString::fromLatin1(kInnodbWait);
        text.replace(
            "---TRANSACTION 46",
            "10 LOCKS PRINTED FOR THIS TRX: SUPPRESSING FURTHER PRINTS\n---TRANSACTION 46");
        QVERIFY(live::innodbLocks(text, {{12, "c1"}, {13, "c2"}}).truncated);
        QVERIFY(live::innodbLocks(QString(), {{12, "c1"}}).rows.isEmpty());
    }

    void postgresWaitOnATransaction() {
        const LockRows rows = pgWait();
        const LockRow* wait = nullptr;
        for (const LockRow& r : rows) {
            if (!r.granted)
                wait = &r;
        }
        QVERIFY(wait);
        QCOMPARE(wait->session, QString("c2"));
        QCOMPARE(wait->kind, QString(lockkind::kTransaction));
        QCOMPARE(wait->mode, QString("ShareLock"));
        QCOMPARE(wait->of, QString("c1"));
        QCOMPARE(wait->xid, 750);
        QCOMPARE(wait->waitsFor, QStringList{"c1"});
        // Indexes and backends outside the run are left out; a table's modes
        // held by one session are one row.
        for (const LockRow& r : rows) {
            QVERIFY(r.table != "uk_orders_request_id");
            QVERIFY(r.session == "c1" || r.session == "c2");
        }
        const LockRow* table = find(rows, "c1", lockkind::kTableIntention);
        QVERIFY(table);
        QCOMPARE(table->mode, QString("RowExclusiveLock, RowShareLock"));
        const LockRow* own = find(rows, "c1", lockkind::kTransaction);
        QVERIFY(own && own->granted && own->of == "c1" && own->xid == 750);
        // The row lock and the waiter's place in the row's queue name the
        // same row by its values.
        const LockRow* row = find(rows, "c1", lockkind::kRow);
        QVERIFY(row);
        QCOMPARE(row->mode, QString("For Update"));
        QCOMPARE(row->record, QString("(1,r-1,10001,199,1)"));
        const LockRow* tuple = find(rows, "c2", lockkind::kTuple);
        QVERIFY(tuple && tuple->record == row->record);
    }

    void snapshotInATrace() {
        const LockRows rows = pgWait();
        TraceEvent e = locksEvent(rows, false);
        e.seq = 7;
        e.tMs = 3;
        QCOMPARE(e.kindId(), QString("locks"));
        const QByteArray bytes = e.toJsonBytes();
        // Only what a row has: no empty fields.
        QVERIFY(!bytes.contains("\"index\":\"\""));
        QVERIFY(bytes.contains("\"waits_for\":[\"c1\"]"));
        TraceEvent back;
        QString error;
        QVERIFY2(TraceEvent::fromJson(QJsonDocument::fromJson(bytes).object(), Trace::kVersion,
                                      &back, &error),
                 qPrintable(error));
        QVERIFY(back.is(EventKind::Locks));
        QCOMPARE(lockRowsFromValue(back.fields.value("locks")), rows);
        QCOMPARE(back.toJsonBytes(), bytes);
        // A replay does not compare transaction ids.
        const QJsonObject plain = withoutServerIds(e.toJson());
        QVERIFY(!QJsonDocument(plain).toJson().contains("\"xid\""));
        TraceEvent other = locksEvent(rows, false);
        LockRows renumbered = rows;
        for (LockRow& r : renumbered) r.xid = r.xid ? r.xid + 1000 : 0;
        other = locksEvent(renumbered, false);
        other.seq = 7;
        other.tMs = 3;
        QCOMPARE(withoutServerIds(other.toJson()), plain);
        QVERIFY(other.toJson() != e.toJson());
    }

    void recordedOnlyWhenChanged() {
        LockChanges changes;
        QVERIFY(!changes.changed({}, false));  // nothing held from the start
        const LockRows rows = pgWait();
        QVERIFY(changes.changed(rows, false));
        QVERIFY(!changes.changed(rows, false));
        QVERIFY(changes.changed(rows, true));
        QVERIFY(changes.changed({}, false));
        QVERIFY(changes.recordedNone());
    }

    void followerNamesAttempts() {
        QList<TraceEvent> events;
        events << sqlOn(1, 1, "BEGIN") << sqlOn(2, 2, "BEGIN") << locksEvent(pgWait(), false);
        LockFollower follower;
        follower.followRange(events, 0, 2);
        QVERIFY(follower.serverLocks().isEmpty());
        follower.followRange(events, 2, 3);
        QCOMPARE(follower.serverLocks(), pgWait());
        QCOMPARE(follower.attemptOf("c2"), (AttemptRef{0, 2}));
        LocksModel model;
        model.show(follower.serverLocks(), follower);
        QCOMPARE(model.waiting(), 1);
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex state = model.index(r, LocksModel::State);
            if (model.data(state, LocksModel::WaitingRole).toBool()) {
                QCOMPARE(model.data(state).toString(), QString("waits for #1"));
                QCOMPARE(model.data(model.index(r, LocksModel::Attempt)).toString(), QString("#2"));
                QCOMPARE(model.data(model.index(r, LocksModel::Record)).toString(),
                         QString("750, of #1"));
            }
        }
        // Locks that let go: an empty snapshot.
        follower.follow(locksEvent({}, false));
        QVERIFY(follower.serverLocks().isEmpty());
    }

    void sqliteOneWriter() {
        QList<TraceEvent> events;
        events << sqlOn(1, 1, "BEGIN IMMEDIATE") << sqlOn(2, 2, "BEGIN IMMEDIATE");
        TraceEvent wait;
        wait.kind = EventKind::LockWait;
        wait.intent = 0;
        wait.attempt = 2;
        wait.fields = {{"connection", "c2"}, {"holder", "c1"}};
        events << wait;
        LockFollower follower;
        follower.followRange(events, 0, events.size());
        LockRows rows = follower.sqliteLocks("c1");
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].kind, QString(lockkind::kDatabase));
        QVERIFY(rows[0].granted);
        QVERIFY(!rows[1].granted);
        QCOMPARE(rows[1].waitsFor, QStringList{"c1"});
        // The waiter runs its statement again: it waits no more.
        follower.follow(sqlOn(2, 2, "BEGIN IMMEDIATE"));
        QCOMPARE(follower.sqliteLocks("c2").size(), 1);
    }

    // A server's trace, saved and read back: the view needs nothing else.
    void viewFromASavedTrace() {
        Trace trace;
        int seq = 0;
        for (TraceEvent e : {sqlOn(1, 1, "BEGIN"), sqlOn(2, 2, "BEGIN"),
                             locksEvent(pgWait(), false), locksEvent({}, false)}) {
            e.seq = ++seq;
            trace.append(e);
        }
        RunConfig config = defaultConfig(*findScenario("order-create"));
        config.backend = "postgres";
        config.variant = "check-for-update";
        Trace::Loaded loaded;
        QString error;
        QVERIFY2(Trace::parse(trace.toJson(config, QJsonObject{{"verdict", "exactly-once"}}),
                              &loaded, &error),
                 qPrintable(error));
        QCOMPARE(loaded.events.size(), 4);
        LocksView view;
        view.show(loaded.events, 0, 3, 2, true, config.backend, {});
        QVERIFY(view.waitBegan());
        QCOMPARE(view.model()->waiting(), 1);
        // The waiting row first, named by its attempt.
        QCOMPARE(view.model()->index(0, LocksModel::Attempt).data().toString(), QString("#2"));
        QCOMPARE(view.model()->index(0, LocksModel::State).data().toString(),
                 QString("waits for #1"));
        view.show(loaded.events, 3, 4, 3, false, config.backend, {});
        QCOMPARE(view.model()->rowCount(), 0);
        QVERIFY(view.about().contains("Nothing is locked"));
    }

    void viewAndGraph() {
        QList<TraceEvent> events;
        events << sqlOn(1, 1, "BEGIN") << sqlOn(2, 2, "BEGIN") << sqlOn(3, 3, "BEGIN");
        LockRows rows = pgWait();
        LockRow third = rows.last();
        for (const LockRow& r : rows) {
            if (!r.granted)
                third = r;
        }
        third.session = "c3";
        rows << third;
        events << locksEvent(rows, false);
        LocksView view;
        view.show(events, 0, 3, 3, true, "postgres", {});
        QVERIFY(view.model()->rowCount() == 0);
        QVERIFY(view.graph()->isHidden());
        view.show(events, 3, 4, 3, false, "postgres", {});
        QVERIFY(view.waitBegan());
        QCOMPARE(view.model()->waiting(), 2);
        // Two waiters: the graph, both waiting for #1.
        QVERIFY(!view.graph()->isHidden());
        QCOMPARE(view.graph()->nodes(), (QStringList{"#1", "#2", "#3"}));
        QCOMPARE(view.graph()->edges().size(), 2);
        QVERIFY(!view.graph()->hasCycle());
        // Shown again from the start (a seek), the step that began the wait
        // still says so; one step later it does not.
        view.show(events, 0, 4, 3, true, "postgres", {});
        QVERIFY(view.waitBegan());
        view.show(events, 0, 4, 4, true, "postgres", {});
        QVERIFY(!view.waitBegan());
        QCOMPARE(view.model()->waiting(), 2);
        // A cycle is a deadlock.
        WaitForGraph graph;
        graph.setEdges({{"#1", "#2", "gap lock"}, {"#2", "#1", "insert intention"}});
        QVERIFY(graph.hasCycle());
        view.show(events, 0, 4, 4, true, "sqlite", {});
        QVERIFY(view.about().contains("one writer at a time"));
    }
};

QTEST_MAIN(LocksTest)
#include "locks_test.moc"
