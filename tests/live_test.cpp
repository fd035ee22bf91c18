// Live mode's foundation on real servers (SPEC section 8): a private
// PostgreSQL and MariaDB from their templates, sessions on them, and a
// server that never outlives the lab, killed or not.
#include "live/mariasession.h"
#include "live/pgsession.h"
#include "live/privateserver.h"
#include "live/session.h"

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

    static void addKinds() {
        QTest::addColumn<ServerKind>("kind");
        QTest::newRow("postgres") << ServerKind::Postgres;
        QTest::newRow("mariadb") << ServerKind::MariaDb;
    }

    std::unique_ptr<PrivateServer> postgres_;
    std::unique_ptr<PrivateServer> mariadb_;

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
