// The lab's Redis alone (models/redis, SPEC section 10): a private
// redis-server on a unix socket that starts in a fraction of a second,
// answers SET ... NX PX as Redis does, and never outlives the lab (its
// object, or the lab killed with SIGKILL); a user's server by URL, whose
// run keys go with the run; a recording played without any server.
#include "privateredis.h"
#include "runredis.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTest>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>

using namespace idem;

namespace {

constexpr char kHoldServer[] = "--hold-redis";

// The processes whose working folder or command line is inside `folder`.
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

// A server held by a child process until it is killed: the lab killed with
// SIGKILL. Prints the server's folder, then waits.
int holdServer() {
    QString error;
    bool badInput = false;
    auto server = PrivateRedis::start(&error, &badInput);
    if (!server) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("%s\n", qPrintable(server->folder()));
    std::fflush(stdout);
    for (;;) pause();
}

}  // namespace

class RedisTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!PrivateRedis::missingPackage().isEmpty())
            QSKIP("redis-server is not installed (scripts/setup.sh installs it)");
    }

    // Started, answering, and on the socket alone; its median start is the
    // README's figure.
    void startsPrivately() {
        QList<qint64> starts;
        for (int i = 0; i < 5; ++i) {
            QString error;
            bool badInput = false;
            auto server = PrivateRedis::start(&error, &badInput);
            QVERIFY2(server, qPrintable(error));
            starts << server->startMs();
            QVERIFY(QFileInfo::exists(server->place().socket));
            QVERIFY(server->version().startsWith(QLatin1String("7.")));
            if (geteuid() == 0)
                QCOMPARE(server->account(), QStringLiteral("redis"));
            auto c = RedisConnection::open(server->place(), {}, &error);
            QVERIFY2(c, qPrintable(error));
            const RedisReply port = c->run(
                {QStringLiteral("CONFIG"), QStringLiteral("GET"), QStringLiteral("port")}, nullptr);
            QCOMPARE(port.shown(), QStringLiteral("1) \"port\" 2) \"0\""));
            const RedisReply save = c->run(
                {QStringLiteral("CONFIG"), QStringLiteral("GET"), QStringLiteral("save")}, nullptr);
            QCOMPARE(save.shown(), QStringLiteral("1) \"save\" 2) \"\""));
        }
        std::sort(starts.begin(), starts.end());
        qInfo(
            "private redis-server: started and answering PING in %lld ms (median of 5; "
            "%lld-%lld)",
            starts[2], starts.first(), starts.last());
        QVERIFY(starts[2] < 1000);
    }

    // SET ... NX PX: once, not twice; again when Redis has let the key go.
    void setIfAbsentExpires() {
        QString error;
        bool badInput = false;
        auto server = PrivateRedis::start(&error, &badInput);
        QVERIFY2(server, qPrintable(error));
        auto c = RedisConnection::open(server->place(), {}, &error);
        QVERIFY2(c, qPrintable(error));
        const QStringList set{QStringLiteral("SET"), QStringLiteral("dedup:k"),
                              QStringLiteral("1"),   QStringLiteral("NX"),
                              QStringLiteral("PX"),  QStringLiteral("100")};
        QCOMPARE(c->run(set, nullptr).shown(), QStringLiteral("OK"));
        QCOMPARE(c->run(set, nullptr).shown(), QStringLiteral("(nil)"));
        QTRY_COMPARE_WITH_TIMEOUT(
            c->run({QStringLiteral("PTTL"), QStringLiteral("dedup:k")}, nullptr).integer, -2, 2000);
        QCOMPARE(c->run(set, nullptr).shown(), QStringLiteral("OK"));
        QCOMPARE(commandText(set), QStringLiteral("SET dedup:k 1 NX PX 100"));
    }

    // The object gone: the server and its folder too.
    void stopsWithItsObject() {
        QString error;
        bool badInput = false;
        auto server = PrivateRedis::start(&error, &badInput);
        QVERIFY2(server, qPrintable(error));
        const QString folder = server->folder();
        QVERIFY(!processesIn(folder).isEmpty());
        server.reset();
        QVERIFY(processesIn(folder).isEmpty());
        QVERIFY(!QFileInfo::exists(folder));
    }

    // The lab killed with SIGKILL: its keeper stops the server and removes
    // the folder within moments.
    void killedLabLeavesNoServer() {
        QProcess lab;
        lab.start(QCoreApplication::applicationFilePath(), {QLatin1String(kHoldServer)});
        QVERIFY(lab.waitForStarted());
        QVERIFY2(lab.waitForReadyRead(30000), lab.readAllStandardError().constData());
        const QString folder = QString::fromLocal8Bit(lab.readLine()).trimmed();
        QVERIFY(folder.contains(QStringLiteral("/idemlab-redis-")));
        QVERIFY(!processesIn(folder).isEmpty());
        lab.kill();
        QVERIFY(lab.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(processesIn(folder).isEmpty() && !QFileInfo::exists(folder), 5000);
    }

    // A user's server (a private one plays it): the run's keys under a
    // prefix of its own, deleted when the run lets go, unless kept.
    void urlKeysGoWithTheRun() {
        QString error;
        bool badInput = false;
        auto server = PrivateRedis::start(&error, &badInput);
        QVERIFY2(server, qPrintable(error));
        const QString url = QStringLiteral("unix://") + server->place().socket;
        auto admin = RedisConnection::open(server->place(), {}, &error);
        QVERIFY2(admin, qPrintable(error));
        const QStringList keys{QStringLiteral("KEYS"), QStringLiteral("*")};
        for (const bool keep : {false, true}) {
            auto run = RunRedis::connectTo(url, &error);
            QVERIFY2(run, qPrintable(error));
            auto session = run->connect(QStringLiteral("r1"), &error);
            QVERIFY2(session, qPrintable(error));
            const QStringList set{QStringLiteral("SET"), QStringLiteral("dedup:a"),
                                  QStringLiteral("1")};
            QCOMPARE(session->run(set, nullptr).shown(), QStringLiteral("OK"));
            const RedisReply all = admin->run(keys, nullptr);
            QCOMPARE(all.elements.size(), 1);
            QVERIFY(all.elements[0].text.startsWith(QLatin1String("idemlab:")));
            QVERIFY(all.elements[0].text.endsWith(QLatin1String(":dedup:a")));
            if (keep)
                QVERIFY(run->keep().contains(QLatin1String("idemlab:")));
            session.reset();
            run.reset();
            QCOMPARE(admin->run(keys, nullptr).elements.size(), keep ? 1 : 0);
            admin->run({QStringLiteral("FLUSHALL")}, nullptr);
        }
        QVERIFY(!RunRedis::connectTo(QStringLiteral("http://x"), &error));
        QVERIFY(error.contains(QLatin1String("redis://")));
        QVERIFY(!RunRedis::connectTo(QStringLiteral("redis://:secret@127.0.0.1:1/"), &error));
        QVERIFY(!error.contains(QLatin1String("secret")));
    }

    // Played: each command gets its recorded reply, in order; another
    // command stops the play with a message naming both.
    void recordingPlays() {
        RedisReply ok;
        ok.type = RedisReply::Type::Status;
        ok.text = QStringLiteral("OK");
        auto run = RunRedis::play({{QStringLiteral("r1"), QStringLiteral("SET k 1 NX PX 5"), ok}});
        QString error;
        auto session = run->connect(QStringLiteral("r1"), &error);
        QVERIFY(session);
        const QStringList set{QStringLiteral("SET"), QStringLiteral("k"),  QStringLiteral("1"),
                              QStringLiteral("NX"),  QStringLiteral("PX"), QStringLiteral("5")};
        QCOMPARE(session->run(set, nullptr).shown(), QStringLiteral("OK"));
        QVERIFY(run->failure().isEmpty());
        QVERIFY(session->run(set, nullptr).isError());
        QVERIFY(run->failure().contains(QLatin1String("no more commands")));
        // Replies survive the trace's form.
        RedisReply array;
        array.type = RedisReply::Type::Array;
        array.elements = {ok, RedisReply{RedisReply::Type::Integer, {}, -2, {}}, RedisReply{}};
        RedisReply back;
        QVERIFY(RedisReply::fromTrace(QString::fromLatin1(array.typeId()), array.value(), &back));
        QCOMPARE(back.shown(), array.shown());
    }
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc >= 2 && qstrcmp(argv[1], kHoldServer) == 0)
        return holdServer();
    RedisTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "redis_test.moc"
