#include "privateredis.h"

#include "backendnames.h"
#include "keeper.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

#include <pwd.h>
#include <signal.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <optional>

namespace idem {

namespace {

constexpr char kServer[] = "/usr/bin/redis-server";
constexpr char kPackage[] = "redis-server";
constexpr char kOwner[] = "redis";  // the user the package made
constexpr int kStartMs = 10'000;

std::optional<live::Account> lookUp(const char* name) {
    passwd entry;
    passwd* found = nullptr;
    char buffer[4096];
    if (getpwnam_r(name, &entry, buffer, sizeof buffer, &found) != 0 || !found)
        return std::nullopt;
    return live::Account{QString::fromLocal8Bit(name), found->pw_uid, found->pw_gid};
}

// Under root, the package's user (or nobody): a server of the lab's has no
// business with root's powers, as the database servers, which refuse it.
std::optional<live::Account> serverAccount() {
    if (geteuid() != 0)
        return std::nullopt;
    if (auto own = lookUp(kOwner))
        return own;
    return lookUp("nobody");
}

QString userName(uid_t uid) {
    passwd entry;
    passwd* found = nullptr;
    char buffer[4096];
    if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) != 0 || !found)
        return QString::number(uid);
    return QString::fromLocal8Bit(found->pw_name);
}

// "7.0.15", from INFO server's redis_version line.
QString serverVersion(RedisConnection& c) {
    const RedisReply info = c.run({QStringLiteral("INFO"), QStringLiteral("server")}, nullptr);
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral(R"(redis_version:(\d+\.\d+(\.\d+)?))")).match(info.text);
    return m.hasMatch() ? m.captured(1) : QString();
}

// Memory when it is there (the socket's path must be short), else /tmp.
QString makeFolder(const std::optional<live::Account>& account, QString* error) {
    const QByteArray parent = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    QByteArray folder = parent + "/idemlab-redis-XXXXXX";
    if (!mkdtemp(folder.data())) {
        *error = QStringLiteral("cannot make a folder in %1: %2")
                     .arg(QFile::decodeName(parent), QString::fromLocal8Bit(std::strerror(errno)));
        return {};
    }
    if (account && chown(folder.constData(), account->uid, account->gid) != 0) {
        *error = QStringLiteral("cannot give %1 to the user %2 (%3): run the lab as a normal user")
                     .arg(QFile::decodeName(folder), account->name,
                          QString::fromLocal8Bit(std::strerror(errno)));
        rmdir(folder.constData());
        return {};
    }
    return QFile::decodeName(folder);
}

live::ServerCommand serverCommand(const QString& folder,
                                  const std::optional<live::Account>& account) {
    live::ServerCommand command;
    command.program = QLatin1String(kServer);
    command.workingDirectory = folder;
    command.logFile = folder + QStringLiteral("/server.log");
    command.folder = folder;
    command.account = account;
    command.arguments = {QStringLiteral("--port"),
                         QStringLiteral("0"),
                         QStringLiteral("--unixsocket"),
                         folder + QStringLiteral("/redis.sock"),
                         QStringLiteral("--unixsocketperm"),
                         QStringLiteral("700"),
                         QStringLiteral("--save"),
                         QString(),
                         QStringLiteral("--appendonly"),
                         QStringLiteral("no"),
                         QStringLiteral("--dir"),
                         folder,
                         QStringLiteral("--daemonize"),
                         QStringLiteral("no"),
                         QStringLiteral("--logfile"),
                         QString()};
    // SIGTERM: Redis closes its clients and exits (with nothing to save).
    command.stopSignal = SIGTERM;
    command.deathSignal = SIGKILL;
    return command;
}

QString lastLogLine(const QString& folder) {
    QFile log(folder + QStringLiteral("/server.log"));
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines =
        QString::fromLocal8Bit(log.readAll()).split(u'\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

}  // namespace

QString PrivateRedis::missingPackage() {
    return QFileInfo(QLatin1String(kServer)).isExecutable() ? QString() : QLatin1String(kPackage);
}

std::unique_ptr<PrivateRedis> PrivateRedis::start(QString* error, bool* badInput) {
    *badInput = false;
    if (!missingPackage().isEmpty()) {
        *error = QStringLiteral("Redis is not installed (Debian package %1): %2")
                     .arg(QLatin1String(kPackage), installCommand(QLatin1String(kPackage)));
        *badInput = true;
        return nullptr;
    }
    QElapsedTimer clock;
    clock.start();
    const std::optional<live::Account> account = serverAccount();
    if (geteuid() == 0 && !account) {
        *error = QStringLiteral(
            "this system has neither the user redis nor nobody to run redis-server as: run "
            "the lab as a normal user");
        return nullptr;
    }
    auto server = std::unique_ptr<PrivateRedis>(new PrivateRedis);
    server->account_ = account ? account->name : userName(geteuid());
    server->folder_ = makeFolder(account, error);
    if (server->folder_.isEmpty())
        return nullptr;
    // From here on the keeper removes the folder, however the lab ends.
    server->keeper_ = live::Keeper::spawn(serverCommand(server->folder_, account), error);
    if (!server->keeper_) {
        QDir(server->folder_).removeRecursively();
        return nullptr;
    }
    if (!server->keeper_->startServer(error))
        return nullptr;
    const RedisPlace place = server->place();
    for (;;) {
        QString ignored;
        if (QFileInfo::exists(place.socket)) {
            if (auto c = RedisConnection::open(place, {}, &ignored)) {
                if (c->run({QStringLiteral("PING")}, nullptr, 2'000).text ==
                    QLatin1String("PONG")) {
                    server->version_ = serverVersion(*c);
                    break;
                }
            }
        }
        QString how;
        if (server->keeper_->serverEnded(&how)) {
            const QString why =
                server->keeper_->serverCouldNotBecome() && account
                    ? QStringLiteral("it could not run as the user %1").arg(account->name)
                    : lastLogLine(server->folder_);
            *error = QStringLiteral("redis-server stopped while starting (%1)").arg(how);
            if (!why.isEmpty())
                *error += QStringLiteral(": ") + why;
            return nullptr;
        }
        if (clock.elapsed() > kStartMs) {
            *error = QStringLiteral("redis-server did not answer within %1 s: %2")
                         .arg(kStartMs / 1000)
                         .arg(lastLogLine(server->folder_));
            return nullptr;
        }
        QThread::msleep(5);
    }
    server->startMs_ = clock.elapsed();
    return server;
}

PrivateRedis::~PrivateRedis() = default;

RedisPlace PrivateRedis::place() const {
    RedisPlace p;
    p.socket = folder_ + QStringLiteral("/redis.sock");
    return p;
}

qint64 PrivateRedis::serverPid() const {
    return keeper_ ? keeper_->serverPid() : 0;
}

QString PrivateRedis::keep() {
    keeper_->keep();
    return QStringLiteral("redis-cli -s %1").arg(place().socket);
}

}  // namespace idem
