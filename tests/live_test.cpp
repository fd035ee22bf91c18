// Live mode's foundation on real servers (SPEC section 8): a private
// PostgreSQL and MariaDB from their templates, two sessions stepped from one
// thread through the races LIVE-NOTES measured, each wait certain before it
// is reported, and a server that never outlives the lab, killed or not.
#include "mariasession.h"
#include "observer.h"
#include "pgsession.h"
#include "privateserver.h"
#include "session.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTest>
#include <QThread>

#include <signal.h>
#include <unistd.h>

#include <cstdio>

using namespace idem;
using namespace idem::live;

Q_DECLARE_METATYPE(idem::live::ServerKind)
Q_DECLARE_METATYPE(idem::SqlOutcome)

namespace {

constexpr char kHoldServer[] = "--hold-server";
constexpr char kDatabase[] = "idemlab_live_test";

QString slug(ServerKind kind) {
    return kind == ServerKind::Postgres ? QStringLiteral("postgres") : QStringLiteral("mariadb");
}

// The processes whose working folder (a server's is its data directory) or
// command line lies in `folder`.
QList<qint64> processesIn(const QString& folder) {
    QList<qint64> found;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        const QString cwd = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        const QByteArray command = cmdline.open(QIODevice::ReadOnly) ? cmdline.readAll() : "";
        if (cwd.startsWith(folder) || command.contains(QFile::encodeName(folder)))
            found << pid;
    }
    return found;
}

// The processes whose command line holds `token`.
QList<qint64> processesWith(const QByteArray& token) {
    QList<qint64> found;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (isPid && pid != getpid() && cmdline.open(QIODevice::ReadOnly) &&
            cmdline.readAll().contains(token))
            found << pid;
    }
    return found;
}

// Start times by stage, as the progress callback reports them.
struct Timed {
    std::unique_ptr<PrivateServer> server;
    QString error;
    bool madeTemplate = false;
    qint64 total = 0;
    QString stages;
};

Timed startTimed(ServerKind kind) {
    Timed t;
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    QString stage = QStringLiteral("version");
    auto progress = [&](PrivateServer::Stage next) {
        t.stages += QStringLiteral("%1 %2 s, ").arg(stage).arg((clock.elapsed() - last) / 1000.0);
        last = clock.elapsed();
        switch (next) {
            case PrivateServer::Stage::InitialisingTemplate:
                t.madeTemplate = true;
                stage = QStringLiteral("template");
                break;
            case PrivateServer::Stage::Copying:
                stage = QStringLiteral("copy");
                break;
            case PrivateServer::Stage::Starting:
                stage = QStringLiteral("start");
                break;
            case PrivateServer::Stage::Ready:
                break;
        }
    };
    t.server = PrivateServer::start(kind, progress, &t.error);
    t.total = clock.elapsed();
    t.stages.chop(2);
    return t;
}

// A server held by a child process until it is killed: the lab killed
// with SIGKILL. Prints the server's folder, then waits.
int holdServer(const char* kind) {
    QString error;
    auto server = PrivateServer::start(
        qstrcmp(kind, "postgres") == 0 ? ServerKind::Postgres : ServerKind::MariaDb, {}, &error);
    if (!server) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s\n", qPrintable(server->folder()));
    std::fflush(stdout);
    for (;;) pause();
}

}  // namespace

class LiveTest : public QObject {
    Q_OBJECT

private:
    PrivateServer& server(ServerKind kind) {
        return kind == ServerKind::Postgres ? *postgres_ : *mariadb_;
    }
    Endpoint endpoint(ServerKind kind) {
        Endpoint e = server(kind).endpoint();
        if (kind == ServerKind::MariaDb)
            e.database = QLatin1String(kDatabase);
        return e;
    }

    // Two sessions of one run and the observer, on a fresh table of orders
    // with a unique request id, written as each database's engineers write
    // it.
    struct Race {
        ServerKind kind;
        std::unique_ptr<Session> a, b;
        std::unique_ptr<Observer> observer;
        QList<Session*> run;
        QString table;
        QString begin, insert, selectForUpdate, count;

        StepWait step(Session& s, const QString& sql, const QVariantList& params = {}) {
            if (!s.send(sql, params))
                return {StepWait::State::GaveUp, {}, 0};
            return waitUntilDoneOrBlocked(s, *observer, run);
        }
        StepWait resume(Session& s) { return waitUntilDoneOrBlocked(s, *observer, run); }
    };

    std::unique_ptr<Race> race(ServerKind kind) {
        auto r = std::make_unique<Race>();
        r->kind = kind;
        const Endpoint e = endpoint(kind);
        r->table = QStringLiteral("orders_%1").arg(++tables_);
        const bool pg = kind == ServerKind::Postgres;
        const QString create = pg ? QStringLiteral(R"(
CREATE TABLE %1 (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request_id text NOT NULL UNIQUE,
    amount int NOT NULL
))")
                                  : QStringLiteral(R"(
CREATE TABLE %1 (
    id bigint AUTO_INCREMENT PRIMARY KEY,
    request_id varchar(64) NOT NULL,
    amount int NOT NULL,
    UNIQUE KEY uk_request_id (request_id)
) ENGINE=InnoDB)");
        auto setup = openSession(e, QStringLiteral("setup"));
        if (!setup->isOpen() || !setup->exec(create.arg(r->table)).ok())
            return nullptr;
        r->a = openSession(e, QStringLiteral("a1"));
        r->b = openSession(e, QStringLiteral("a2"));
        r->observer = openObserver(e);
        if (!r->a->isOpen() || !r->b->isOpen() || !r->observer->isOpen())
            return nullptr;
        r->run = {r->a.get(), r->b.get()};
        r->begin = pg ? QStringLiteral("BEGIN") : QStringLiteral("START TRANSACTION");
        r->insert = QString::fromLatin1(pg ? "INSERT INTO %1 (request_id, amount) VALUES ($1, $2)"
                                           : "INSERT INTO %1 (request_id, amount) VALUES (?, ?)")
                        .arg(r->table);
        r->selectForUpdate =
            QString::fromLatin1(pg ? "SELECT id FROM %1 WHERE request_id = $1 FOR UPDATE"
                                   : "SELECT id FROM %1 WHERE request_id = ? FOR UPDATE")
                .arg(r->table);
        r->count = QStringLiteral("SELECT count(*) FROM %1").arg(r->table);
        return r;
    }

    qint64 rowsIn(Race& r) {
        auto reader = openSession(endpoint(r.kind), QStringLiteral("reader"));
        return reader->exec(r.count).value().toLongLong();
    }

    static void addKinds() {
        QTest::addColumn<ServerKind>("kind");
        QTest::newRow("postgres") << ServerKind::Postgres;
        QTest::newRow("mariadb") << ServerKind::MariaDb;
    }

    std::unique_ptr<PrivateServer> postgres_;
    std::unique_ptr<PrivateServer> mariadb_;
    int tables_ = 0;

private slots:
    void initTestCase() {
        for (ServerKind kind : {ServerKind::Postgres, ServerKind::MariaDb}) {
            Timed t = startTimed(kind);
            QVERIFY2(t.server, qPrintable(t.error));
            qInfo("%s %s as %s: %s start %.2f s (%s)", qPrintable(serverName(kind)),
                  qPrintable(t.server->version()), qPrintable(t.server->account()),
                  t.madeTemplate ? "first (template made)" : "from the template", t.total / 1000.0,
                  qPrintable(t.stages));
            (kind == ServerKind::Postgres ? postgres_ : mariadb_) = std::move(t.server);
        }
        auto admin = openSession(mariadb_->endpoint(), QStringLiteral("setup"));
        QVERIFY2(admin->isOpen(), qPrintable(admin->openError()));
        const StatementResult& created =
            admin->exec(QStringLiteral("CREATE DATABASE %1").arg(QLatin1String(kDatabase)));
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
    }

    void cleanupTestCase() {
        for (auto* server : {&postgres_, &mariadb_}) {
            if (!*server)
                continue;
            const QString folder = (*server)->folder();
            QElapsedTimer clock;
            clock.start();
            server->reset();
            qInfo("stopped and removed in %.2f s", clock.elapsed() / 1000.0);
            QVERIFY(!QFileInfo::exists(folder));
            QVERIFY(processesIn(folder).isEmpty());
        }
    }

    void secondStartFromTemplate_data() { addKinds(); }
    void secondStartFromTemplate() {
        QFETCH(ServerKind, kind);
        Timed t = startTimed(kind);
        QVERIFY2(t.server, qPrintable(t.error));
        QVERIFY(!t.madeTemplate);
        QVERIFY(t.server->folder() != server(kind).folder());
        qInfo("%s: a second start from the template took %.2f s (%s; SPEC: under %s)",
              qPrintable(serverName(kind)), t.total / 1000.0, qPrintable(t.stages),
              kind == ServerKind::Postgres ? "1 s" : "1.5 s");
        auto session = openSession(t.server->endpoint(), QStringLiteral("a1"));
        QVERIFY2(session->isOpen(), qPrintable(session->openError()));
        QCOMPARE(session->exec(QStringLiteral("SELECT 1")).value(), QVariant(qint64(1)));
        // The server stops under an open session: its next statement fails
        // in words, and the session knows it is closed.
        t.server.reset();
        QCOMPARE(session->exec(QStringLiteral("SELECT 1")).outcome, SqlOutcome::OtherError);
        QVERIFY(!session->isOpen());
        qInfo("after the server stopped: %s", qPrintable(session->result().errorText()));
    }

    void typedValues_data() { addKinds(); }
    void typedValues() {
        QFETCH(ServerKind, kind);
        auto s = openSession(endpoint(kind), QStringLiteral("a1"));
        QVERIFY2(s->isOpen(), qPrintable(s->openError()));
        const bool pg = kind == ServerKind::Postgres;
        const StatementResult& r =
            s->exec(pg ? QStringLiteral(
                             "SELECT 42::bigint, NULL::text, $1::text, 2.5::float8, 12.30::numeric")
                       : QStringLiteral("SELECT 42, NULL, ?, 2.5e0, 12.30"),
                    {QStringLiteral("l'ordre 订单")});
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        QVERIFY(r.returnsRows);
        QCOMPARE(r.rows, qint64(1));
        QCOMPARE(r.value(0, 0).typeId(), QMetaType::LongLong);
        QCOMPARE(r.value(0, 0).toLongLong(), 42LL);
        QVERIFY(r.value(0, 1).isNull());
        QCOMPARE(r.value(0, 2), QVariant(QStringLiteral("l'ordre 订单")));
        QCOMPARE(r.value(0, 3), QVariant(2.5));
        QCOMPARE(r.value(0, 4), QVariant(QStringLiteral("12.30")));
        QVERIFY(!s->exec(QStringLiteral("SELECT * FROM no_such_table")).ok());
        QCOMPARE(s->result().outcome, SqlOutcome::OtherError);
        QCOMPARE(s->result().sqlState, pg ? QStringLiteral("42P01") : QStringLiteral("42S02"));
        qInfo("%s", qPrintable(s->result().errorText()));
    }

    void valuesAsLiterals() {
        MariaSession s(endpoint(ServerKind::MariaDb), QStringLiteral("a1"));
        QVERIFY(s.isOpen());
        QString error;
        const QByteArray text = s.withValues(
            QStringLiteral("SELECT ? /* ? */, '?', `?`, \"it''s ?\" -- ?\n, ?, ?, ?"),
            {QStringLiteral("o'k\\"), QVariant(), qint64(7), QByteArray("\x01", 1)}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(text, QByteArray("SELECT 'o\\'k\\\\' /* ? */, '?', `?`, \"it''s ?\" -- ?\n, NULL, "
                                  "7, X'01'"));
        QVERIFY(s.withValues(QStringLiteral("SELECT ?"), {}, &error).isEmpty());
        QVERIFY(!error.isEmpty());
        QCOMPARE(s.exec(QStringLiteral("SELECT ?, ?"), {1}).outcome, SqlOutcome::OtherError);
    }

    void outcomes() {
        QCOMPARE(classifyPostgres(QStringLiteral("23505")), SqlOutcome::UniqueViolation);
        QCOMPARE(classifyPostgres(QStringLiteral("40P01")), SqlOutcome::Deadlock);
        QCOMPARE(classifyPostgres(QStringLiteral("55P03")), SqlOutcome::LockTimeout);
        QCOMPARE(classifyPostgres(QStringLiteral("25P02")), SqlOutcome::OtherError);
        QCOMPARE(classifyMariaDb(1213), SqlOutcome::Deadlock);
        QCOMPARE(classifyMariaDb(4025), SqlOutcome::CheckViolation);
        QCOMPARE(classifyMariaDb(1020), SqlOutcome::SerializationFailure);
    }

    // LIVE-NOTES: plain INSERT of the same unique key. The second waits for
    // the first's transaction, then fails once it commits.
    void duplicateInsertWaitsThenFails_data() { addKinds(); }
    void duplicateInsertWaitsThenFails() {
        QFETCH(ServerKind, kind);
        auto r = race(kind);
        QVERIFY(r);
        const QVariantList order{QStringLiteral("r-1"), 100};
        QCOMPARE(r->step(*r->a, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, r->insert, order).state, StepWait::State::Done);
        QVERIFY2(r->a->result().ok(), qPrintable(r->a->result().errorText()));
        QCOMPARE(r->step(*r->b, r->begin).state, StepWait::State::Done);
        const StepWait waiting = r->step(*r->b, r->insert, order);
        QCOMPARE(waiting.state, StepWait::State::Blocked);
        QCOMPARE(waiting.lock.on, QStringList{QStringLiteral("a1")});
        qInfo("a2 %s (known in %lld ms)", qPrintable(waiting.lock.describe()), waiting.ms);
        QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
        QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
        QCOMPARE(r->b->result().outcome, SqlOutcome::UniqueViolation);
        QCOMPARE(r->b->result().sqlState,
                 kind == ServerKind::Postgres ? QStringLiteral("23505") : QStringLiteral("23000"));
        if (kind == ServerKind::MariaDb)
            QCOMPARE(r->b->result().nativeCode, 1062);
        qInfo("a2: %s", qPrintable(r->b->result().errorText()));
        QCOMPARE(r->step(*r->b, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
        QCOMPARE(rowsIn(*r), qint64(1));
    }

    // LIVE-NOTES: SELECT ... FOR UPDATE on a missing key, then INSERT, under
    // UNIQUE. PostgreSQL has no gap locks: both pass the SELECT, the second
    // INSERT waits and fails with 23505. InnoDB's gap locks make the two
    // INSERTs wait on each other: a deadlock (1213) for one of them.
    void selectForUpdateThenInsert_data() { addKinds(); }
    void selectForUpdateThenInsert() {
        QFETCH(ServerKind, kind);
        auto r = race(kind);
        QVERIFY(r);
        const QVariantList key{QStringLiteral("r-1")};
        const QVariantList order{QStringLiteral("r-1"), 100};
        for (Session* s : r->run) {
            QCOMPARE(r->step(*s, r->begin).state, StepWait::State::Done);
            QCOMPARE(r->step(*s, r->selectForUpdate, key).state, StepWait::State::Done);
            QVERIFY2(s->result().ok(), qPrintable(s->result().errorText()));
            QCOMPARE(s->result().rows, qint64(0));
        }
        const StepWait first = r->step(*r->a, r->insert, order);
        if (kind == ServerKind::Postgres) {
            QCOMPARE(first.state, StepWait::State::Done);
            QVERIFY(r->a->result().ok());
            const StepWait second = r->step(*r->b, r->insert, order);
            QCOMPARE(second.state, StepWait::State::Blocked);
            QCOMPARE(second.lock.on, QStringList{QStringLiteral("a1")});
            qInfo("a2 %s (known in %lld ms)", qPrintable(second.lock.describe()), second.ms);
            QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
            QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
            QCOMPARE(r->b->result().outcome, SqlOutcome::UniqueViolation);
            QCOMPARE(r->b->result().sqlState, QStringLiteral("23505"));
            QCOMPARE(r->step(*r->b, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
        } else {
            QCOMPARE(first.state, StepWait::State::Blocked);
            QCOMPARE(first.lock.on, QStringList{QStringLiteral("a2")});
            qInfo("a1 %s (known in %lld ms)", qPrintable(first.lock.describe()), first.ms);
            QVERIFY(first.lock.gap);
            // a2's INSERT closes the cycle: InnoDB rolls one of them back
            // at once, and the other's INSERT goes through.
            QCOMPARE(r->step(*r->b, r->insert, order).state, StepWait::State::Done);
            QCOMPARE(r->resume(*r->a).state, StepWait::State::Done);
            Session* victim = r->a->result().ok() ? r->b.get() : r->a.get();
            Session* survivor = victim == r->a.get() ? r->b.get() : r->a.get();
            QCOMPARE(victim->result().outcome, SqlOutcome::Deadlock);
            QCOMPARE(victim->result().nativeCode, 1213);
            QVERIFY2(survivor->result().ok(), qPrintable(survivor->result().errorText()));
            qInfo("%s: %s", qPrintable(victim->id()), qPrintable(victim->result().errorText()));
            QCOMPARE(r->step(*survivor, QStringLiteral("COMMIT")).state, StepWait::State::Done);
            QCOMPARE(r->step(*victim, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
        }
        QCOMPARE(rowsIn(*r), qint64(1));
    }

    // Two transactions that lock two rows in opposite orders: the one whose
    // statement closes the cycle is PostgreSQL's victim, whether the steps
    // come at once (a run) or with a teacher's pause between them.
    void postgresVictimClosesTheCycle_data() {
        QTest::addColumn<int>("pauseMs");
        QTest::newRow("at once") << 0;
        QTest::newRow("after a pause longer than PostgreSQL's default") << 1300;
    }
    void postgresVictimClosesTheCycle() {
        QFETCH(int, pauseMs);
        auto r = race(ServerKind::Postgres);
        QVERIFY(r);
        QVERIFY(static_cast<PgSession*>(r->a.get())->choosesVictim());
        QVERIFY(r->a->exec(QStringLiteral("INSERT INTO %1 (request_id, amount) VALUES "
                                          "('r-1', 1), ('r-2', 2)")
                               .arg(r->table))
                    .ok());
        const QString touch =
            QStringLiteral("UPDATE %1 SET amount = amount + 1 WHERE request_id = $1").arg(r->table);
        const QVariantList one{QStringLiteral("r-1")}, two{QStringLiteral("r-2")};
        QCOMPARE(r->step(*r->a, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, touch, one).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, touch, two).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, touch, two).state, StepWait::State::Blocked);
        QTest::qWait(pauseMs);
        // b closes the cycle: b is rolled back, and a's update goes through.
        QCOMPARE(r->step(*r->b, touch, one).state, StepWait::State::Done);
        QCOMPARE(r->b->result().outcome, SqlOutcome::Deadlock);
        QCOMPARE(r->b->result().sqlState, QStringLiteral("40P01"));
        QCOMPARE(r->resume(*r->a).state, StepWait::State::Done);
        QVERIFY2(r->a->result().ok(), qPrintable(r->a->result().errorText()));
        QCOMPARE(r->step(*r->b, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
    }

    // LIVE-NOTES: INSERT ... ON CONFLICT DO NOTHING while the first is
    // uncommitted: the second waits; then 0 rows at read committed, 40001 at
    // repeatable read (the row it would conflict with is not in its snapshot).
    void onConflictWaits_data() {
        QTest::addColumn<QString>("isolation");
        QTest::addColumn<SqlOutcome>("outcome");
        QTest::newRow("read committed") << QStringLiteral("READ COMMITTED") << SqlOutcome::Ok;
        QTest::newRow("repeatable read")
            << QStringLiteral("REPEATABLE READ") << SqlOutcome::SerializationFailure;
    }
    void onConflictWaits() {
        QFETCH(QString, isolation);
        QFETCH(SqlOutcome, outcome);
        auto r = race(ServerKind::Postgres);
        QVERIFY(r);
        const QString begin = QStringLiteral("BEGIN ISOLATION LEVEL ") + isolation;
        const QString insert = r->insert + QStringLiteral(" ON CONFLICT (request_id) DO NOTHING");
        const QVariantList order{QStringLiteral("r-1"), 100};
        QCOMPARE(r->step(*r->a, begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, insert, order).state, StepWait::State::Done);
        QCOMPARE(r->a->result().rows, qint64(1));
        const StepWait waiting = r->step(*r->b, insert, order);
        QCOMPARE(waiting.state, StepWait::State::Blocked);
        QCOMPARE(waiting.lock.on, QStringList{QStringLiteral("a1")});
        QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
        QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
        QCOMPARE(r->b->result().outcome, outcome);
        if (outcome == SqlOutcome::Ok)
            QCOMPARE(r->b->result().rows, qint64(0));
        else
            QCOMPARE(r->b->result().sqlState, QStringLiteral("40001"));
        QCOMPARE(r->step(*r->b, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
    }

    // A wait for a row another session has locked names the row: its
    // table, and on PostgreSQL the ctid and the holder's lock modes
    // (pgrowlocks), on MariaDB the index record.
    void lockedRowIsNamed_data() { addKinds(); }
    void lockedRowIsNamed() {
        QFETCH(ServerKind, kind);
        auto r = race(kind);
        QVERIFY(r);
        QCOMPARE(r->step(*r->a, r->insert, {QStringLiteral("r-1"), 100}).state,
                 StepWait::State::Done);
        const bool pg = kind == ServerKind::Postgres;
        const QString update =
            QString::fromLatin1(pg ? "UPDATE %1 SET amount = amount + 1 WHERE request_id = $1"
                                   : "UPDATE %1 SET amount = amount + 1 WHERE request_id = ?")
                .arg(r->table);
        const QVariantList key{QStringLiteral("r-1")};
        QCOMPARE(r->step(*r->a, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, r->selectForUpdate, key).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->begin).state, StepWait::State::Done);
        const StepWait waiting = r->step(*r->b, update, key);
        QCOMPARE(waiting.state, StepWait::State::Blocked);
        qInfo("a2 %s", qPrintable(waiting.lock.describe()));
        QVERIFY(waiting.lock.table.contains(r->table));
        QVERIFY(!waiting.lock.gap);
        if (pg) {
            QCOMPARE(waiting.lock.row, QStringLiteral("(0,1)"));
            QCOMPARE(waiting.lock.heldAs, QStringLiteral("For Update"));
        } else {
            QCOMPARE(waiting.lock.index, QStringLiteral("uk_request_id"));
            QCOMPARE(waiting.lock.row, QStringLiteral("'r-1'"));
        }
        QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
        QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
        QCOMPARE(r->b->result().rows, qint64(1));
        QCOMPARE(r->step(*r->b, QStringLiteral("COMMIT")).state, StepWait::State::Done);
    }

    // The lab's lock timeout: a cancel at a virtual instant. The waiter
    // finishes with LockTimeout, the holder keeps its row.
    void cancelEndsAWait_data() { addKinds(); }
    void cancelEndsAWait() {
        QFETCH(ServerKind, kind);
        auto r = race(kind);
        QVERIFY(r);
        const QVariantList order{QStringLiteral("r-1"), 100};
        QCOMPARE(r->step(*r->a, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, r->insert, order).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->insert, order).state, StepWait::State::Blocked);
        QVERIFY(r->b->cancel());
        QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
        QCOMPARE(r->b->result().outcome, SqlOutcome::LockTimeout);
        qInfo("a2: %s", qPrintable(r->b->result().errorText()));
        QCOMPARE(r->step(*r->b, QStringLiteral("ROLLBACK")).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, QStringLiteral("COMMIT")).state, StepWait::State::Done);
        QCOMPARE(rowsIn(*r), qint64(1));
    }

    // A crash closes the connection: the server rolls the holder back, and
    // the waiter's INSERT goes through at that step.
    void crashReleasesTheWaiter_data() { addKinds(); }
    void crashReleasesTheWaiter() {
        QFETCH(ServerKind, kind);
        auto r = race(kind);
        QVERIFY(r);
        const QVariantList order{QStringLiteral("r-1"), 100};
        QCOMPARE(r->step(*r->a, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->a, r->insert, order).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->begin).state, StepWait::State::Done);
        QCOMPARE(r->step(*r->b, r->insert, order).state, StepWait::State::Blocked);
        r->a->close();
        QVERIFY(!r->a->isOpen());
        QCOMPARE(r->resume(*r->b).state, StepWait::State::Done);
        QVERIFY2(r->b->result().ok(), qPrintable(r->b->result().errorText()));
        QCOMPARE(r->step(*r->b, QStringLiteral("COMMIT")).state, StepWait::State::Done);
        QCOMPARE(rowsIn(*r), qint64(1));
    }

    // keep(): the server outlives its object, and the command given
    // reaches it.
    void keptServerStays_data() { addKinds(); }
    void keptServerStays() {
        QFETCH(ServerKind, kind);
        QString error;
        auto kept = PrivateServer::start(kind, {}, &error);
        QVERIFY2(kept, qPrintable(error));
        const QString folder = kept->folder();
        const Endpoint e = kept->endpoint();
        const qint64 pid = kept->serverPid();
        const QString how = kept->keep();
        kept.reset();
        qInfo("kept: %s", qPrintable(how));
        QVERIFY(how.contains(folder));
        QVERIFY(openSession(e, QStringLiteral("a1"))->isOpen());
        ::kill(pid_t(pid), kind == ServerKind::Postgres ? SIGINT : SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(processesIn(folder).isEmpty(), 10000);
        QVERIFY(QDir(folder).removeRecursively());
    }

    // A start from a worker thread that ends at once: the server lives on
    // until its object goes (a parent-death signal set in the lab would
    // have ended it with the thread).
    void startedByAWorkerThatEnds() {
        std::unique_ptr<PrivateServer> started;
        QString error;
        std::unique_ptr<QThread> worker(QThread::create(
            [&] { started = PrivateServer::start(ServerKind::Postgres, {}, &error); }));
        worker->start();
        QVERIFY(worker->wait(60000));
        worker.reset();
        QVERIFY2(started, qPrintable(error));
        QThread::msleep(100);
        auto s = openSession(started->endpoint(), QStringLiteral("a1"));
        QVERIFY2(s->isOpen(), qPrintable(s->openError()));
    }

    // The lab killed with SIGKILL: its keeper stops the server and removes
    // the folder within moments.
    void killedLabLeavesNoServer_data() { addKinds(); }
    void killedLabLeavesNoServer() {
        QFETCH(ServerKind, kind);
        const QByteArray token =
            "idemlab-live-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
        QProcess lab;
        lab.start(QCoreApplication::applicationFilePath(),
                  {QLatin1String(kHoldServer), slug(kind), QString::fromLatin1(token)});
        QVERIFY(lab.waitForStarted());
        QVERIFY2(lab.waitForReadyRead(60000), lab.readAllStandardError().constData());
        const QString folder = QString::fromLocal8Bit(lab.readLine()).trimmed();
        QVERIFY(folder.contains(QStringLiteral("/idemlab-")));
        QVERIFY(!processesIn(folder).isEmpty());
        QCOMPARE(processesWith(token).size(), 2);  // the lab and its keeper
        QElapsedTimer clock;
        clock.start();
        lab.kill();
        QVERIFY(lab.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(processesIn(folder).isEmpty() && !QFileInfo::exists(folder) &&
                                     processesWith(token).isEmpty(),
                                 5000);
        qInfo("%s: server, keeper and folder gone %lld ms after the SIGKILL",
              qPrintable(serverName(kind)), clock.elapsed());
    }
};

int main(int argc, char** argv) {
    if (argc >= 3 && qstrcmp(argv[1], kHoldServer) == 0) {
        QCoreApplication app(argc, argv);
        return holdServer(argv[2]);
    }
    QCoreApplication app(argc, argv);
    LiveTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "live_test.moc"
