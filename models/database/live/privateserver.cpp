#include "privateserver.h"

#include "backendnames.h"
#include "keeper.h"
#include "pgpool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

namespace idem::live {

namespace {

namespace fs = std::filesystem;

// runTool's answer when the stop asked for ended the tool.
constexpr int kStopped = -2;
// What start() says when a stop was asked for while it worked (the run
// then ends as cancelled, not with this as its error).
const QString kStoppedWords = QStringLiteral("stopped while the server was starting");

bool stopAsked(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

// What differs between the two servers' packages.
struct Flavour {
    const char* slug;         // in folder and template names
    const char* package;      // the Debian package with the server
    const char* server;       // its program
    const char* initialiser;  // makes a data directory
    const char* owner;        // the user the package made for it
};

const Flavour& flavourOf(ServerKind kind) {
    static const Flavour postgres{"postgres", "postgresql-15",
                                  "/usr/lib/postgresql/15/bin/postgres",
                                  "/usr/lib/postgresql/15/bin/initdb", "postgres"};
    static const Flavour mariadb{"mariadb", "mariadb-server-core", "/usr/sbin/mariadbd",
                                 "/usr/bin/mariadb-install-db", "mysql"};
    return kind == ServerKind::Postgres ? postgres : mariadb;
}

// mariadb-install-db asks my_print_defaults, of the client package, first.
constexpr char kMariaDbDefaults[] = "/usr/bin/my_print_defaults";
constexpr char kMariaDbClientPackage[] = "mariadb-client-core";
// The administrator the lab connects as. MariaDB's is root, without a
// password (--auth-root-authentication-method=normal): the socket is in a
// folder only the server's user (and root) can enter.
constexpr char kPostgresUser[] = "idemlab";
constexpr int kInitialiseMs = 120000;
constexpr int kStartMs = 60000;

QString osError() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Where the private folders go: memory (/dev/shm) when it is a tmpfs with
// room to spare, else /tmp, whatever $TMPDIR says (the server's user must
// reach the folder, and a unix socket's path must be short). Creating the
// template's thousand files took 0.6 s on a virtual disk, 0.1 s in memory.
// A container's small /dev/shm (64 MB by default) is left alone: PostgreSQL
// keeps its own shared memory there.
QByteArray privateFolders() {
    constexpr long kTmpfsMagic = 0x01021994;
    constexpr qint64 kRoomNeeded = qint64(1) << 30;
    struct statfs shm;
    if (statfs("/dev/shm", &shm) == 0 && shm.f_type == kTmpfsMagic &&
        qint64(shm.f_bavail) * qint64(shm.f_bsize) >= kRoomNeeded && access("/dev/shm", W_OK) == 0)
        return "/dev/shm";
    return "/tmp";
}

std::optional<Account> lookUp(const char* name) {
    passwd entry;
    passwd* found = nullptr;
    char buffer[4096];
    if (getpwnam_r(name, &entry, buffer, sizeof buffer, &found) != 0 || !found)
        return std::nullopt;
    return Account{QString::fromLocal8Bit(name), found->pw_uid, found->pw_gid};
}

QString userName(uid_t uid) {
    passwd entry;
    passwd* found = nullptr;
    char buffer[4096];
    if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) != 0 || !found)
        return QString::number(uid);
    return QString::fromLocal8Bit(found->pw_name);
}

// Under root, the user the server runs as: the package's own, or nobody
// where the package made none (mariadb-server-core makes no mysql user;
// the full mariadb-server, with its system service, does).
std::optional<Account> serverAccount(const Flavour& flavour) {
    if (geteuid() != 0)
        return std::nullopt;
    if (auto own = lookUp(flavour.owner))
        return own;
    return lookUp("nobody");
}

QString cannotBecome(ServerKind kind, const Account& account) {
    return QStringLiteral(
               "%1 refuses to run as root, and the lab could not run it as the user %2: "
               "run the lab as a normal user")
        .arg(serverName(kind), account.name);
}

// A program of the server's package, as the server's user; its output
// (stdout and stderr) in *output. The exit status, or -1 when it could not
// run or took too long.
int runTool(const QString& program, const QStringList& arguments,
            const std::optional<Account>& account, const QString& workingDirectory, int timeoutMs,
            QString* output, const std::atomic<bool>* cancel = nullptr) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setWorkingDirectory(workingDirectory);
    process.setChildProcessModifier([account] {
        if (account && !becomeAccount(*account))
            _exit(kCannotBecome);
        // Ends with the thread that waits for it, this one, should the
        // lab be killed meanwhile.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    process.start(program, arguments);
    QElapsedTimer clock;
    clock.start();
    // A few times a second: a stop asked for ends the tool at once.
    while (!process.waitForFinished(50)) {
        const bool stopped = stopAsked(cancel);
        if (!stopped && process.state() != QProcess::NotRunning && !clock.hasExpired(timeoutMs))
            continue;
        if (process.state() == QProcess::NotRunning)
            break;
        *output = stopped ? QString() : process.errorString();
        process.kill();
        process.waitForFinished();
        return stopped ? kStopped : -1;
    }
    *output = QString::fromLocal8Bit(process.readAll());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// The last line of a tool's output or a server's log that says what went
// wrong.
QString lastError(const QString& text) {
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    for (auto line = lines.crbegin(); line != lines.crend(); ++line)
        if (line->contains(u"ERROR") || line->contains(u"FATAL") || line->contains(u"error"))
            return line->trimmed();
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

QString lastErrorOfFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return lastError(QString::fromLocal8Bit(file.readAll()));
}

bool copyTree(const QString& from, const QString& to, QString* error,
              const std::atomic<bool>* cancel = nullptr) {
    std::error_code failed;
    // A signal that interrupts the copy (EINTR) is a stop asked for, or
    // one the lab does not stop for: then the copy starts again.
    for (int tries = 0; tries < 10; ++tries) {
        failed.clear();
        fs::copy(QFile::encodeName(from).toStdString(), QFile::encodeName(to).toStdString(),
                 fs::copy_options::recursive, failed);
        if (failed != std::errc::interrupted || stopAsked(cancel))
            break;
        QDir(to).removeRecursively();
    }
    if (stopAsked(cancel)) {
        *error = kStoppedWords;
        return false;
    }
    if (failed)
        *error = QStringLiteral("cannot copy %1 to %2: %3")
                     .arg(from, to, QString::fromLocal8Bit(failed.message().c_str()));
    return !failed;
}

// Under root, the copy made by root is given to the server's user.
bool giveTree(const QString& root, const Account& account, QString* error) {
    const std::string top = QFile::encodeName(root).toStdString();
    std::error_code failed;
    bool given = lchown(top.c_str(), account.uid, account.gid) == 0;
    for (auto it = fs::recursive_directory_iterator(top, failed);
         given && !failed && it != fs::recursive_directory_iterator(); it.increment(failed))
        given = lchown(it->path().c_str(), account.uid, account.gid) == 0;
    if (!given || failed)
        *error = QStringLiteral("cannot give %1 to the user %2: %3")
                     .arg(root, account.name,
                          failed ? QString::fromLocal8Bit(failed.message().c_str()) : osError());
    return given && !failed;
}

QStringList initialiserArguments(ServerKind kind, const QString& data) {
    if (kind == ServerKind::Postgres)
        return {QStringLiteral("-D"),
                data,
                QStringLiteral("-A"),
                QStringLiteral("trust"),
                QStringLiteral("-U"),
                QLatin1String(kPostgresUser),
                QStringLiteral("--no-sync"),
                QStringLiteral("-E"),
                QStringLiteral("UTF8"),
                QStringLiteral("--locale=C"),
                QStringLiteral("--no-instructions")};
    // The same InnoDB sizes as every start: a smaller redo log than the
    // default 96 MB keeps the template small and its copy quick.
    return {QStringLiteral("--no-defaults"),
            QStringLiteral("--datadir=") + data,
            QStringLiteral("--auth-root-authentication-method=normal"),
            QStringLiteral("--skip-test-db"),
            QStringLiteral("--innodb-log-file-size=8M"),
            QStringLiteral("--innodb-buffer-pool-size=32M")};
}

// On the socket only (no TCP port), and without waiting for the disk: the
// data is thrown away with the folder.
ServerCommand serverCommand(ServerKind kind, const Flavour& flavour, const QString& folder,
                            const std::optional<Account>& account) {
    ServerCommand command;
    command.program = QLatin1String(flavour.server);
    command.workingDirectory = folder;
    command.logFile = folder + QStringLiteral("/server.log");
    command.folder = folder;
    command.account = account;
    const QString data = folder + QStringLiteral("/data");
    if (kind == ServerKind::Postgres) {
        command.arguments = {
            QStringLiteral("-D"), data, QStringLiteral("-c"), QStringLiteral("listen_addresses="),
            QStringLiteral("-c"), QStringLiteral("unix_socket_directories=") + folder,
            QStringLiteral("-c"), QStringLiteral("fsync=off"), QStringLiteral("-c"),
            QStringLiteral("synchronous_commit=off"), QStringLiteral("-c"),
            QStringLiteral("full_page_writes=off"), QStringLiteral("-c"),
            QStringLiteral("cluster_name=idemlab"),
            // Each attempt of a run is a session of its own.
            QStringLiteral("-c"), QStringLiteral("max_connections=300"),
            // Its shared memory segments as files in the data
            // folder, which go with it: POSIX ones stay in
            // /dev/shm when the server is killed.
            QStringLiteral("-c"), QStringLiteral("dynamic_shared_memory_type=mmap")};
        // SIGINT: fast shutdown (clients disconnected, transactions rolled
        // back). SIGQUIT, should the keeper vanish: the postmaster ends its
        // backends and exits at once.
        command.stopSignal = SIGINT;
        command.deathSignal = SIGQUIT;
    } else {
        command.arguments = {
            QStringLiteral("--no-defaults"),
            QStringLiteral("--datadir=") + data,
            QStringLiteral("--socket=") + folder + QStringLiteral("/mariadb.sock"),
            QStringLiteral("--pid-file=") + folder + QStringLiteral("/mariadb.pid"),
            QStringLiteral("--skip-networking"),
            QStringLiteral("--innodb-flush-log-at-trx-commit=0"),
            QStringLiteral("--innodb-buffer-pool-size=32M"),
            QStringLiteral("--innodb-log-file-size=8M"),
            QStringLiteral("--max-connections=300")};
        command.stopSignal = SIGTERM;
        command.deathSignal = SIGKILL;  // one process: nothing of it is left
    }
    return command;
}

// The server's own version ("15.18", "10.11.19"): a new version gets a
// template of its own. Asked as the server's user, which also shows early
// whether the lab can run the server as that user.
QString serverVersion(ServerKind kind, const Flavour& flavour,
                      const std::optional<Account>& account, QString* error) {
    QString output;
    const int status = runTool(QLatin1String(flavour.server), {QStringLiteral("--version")},
                               account, QStringLiteral("/"), 30000, &output);
    if (status == kCannotBecome && account) {
        *error = cannotBecome(kind, *account);
        return {};
    }
    const QRegularExpressionMatch version =
        QRegularExpression(QStringLiteral(R"((\d+\.\d+(\.\d+)?))")).match(output);
    if (status != 0 || !version.hasMatch()) {
        // -1: it crashed, was killed, or did not end within the time.
        // A tool killed after it printed its version said nothing wrong.
        const QString said = status < 0 ? QString() : lastError(output);
        *error = QStringLiteral("%1 --version: %2")
                     .arg(QLatin1String(flavour.server),
                          !said.isEmpty() ? said
                          : status < 0    ? QStringLiteral("it was killed or did not answer")
                                          : QStringLiteral("exit status %1").arg(status));
        return {};
    }
    return version.captured(1);
}

// Whether the server takes connections yet (a PostgreSQL server that is
// still starting refuses them).
bool answers(const Endpoint& endpoint) {
    const QString socket = endpoint.kind == ServerKind::Postgres
                               ? endpoint.socket + QStringLiteral("/.s.PGSQL.5432")
                               : endpoint.socket;
    return QFileInfo::exists(socket) && openSession(endpoint, QStringLiteral("probe"))->isOpen();
}

// A private folder for one start, the server's user's under root.
QString makeFolder(const Flavour& flavour, const std::optional<Account>& account, QString* error) {
    const QByteArray parent = privateFolders();
    QByteArray folder = parent + "/idemlab-" + QByteArray(flavour.slug) + "-XXXXXX";
    if (!mkdtemp(folder.data())) {
        *error = QStringLiteral("cannot make a folder in %1: %2")
                     .arg(QFile::decodeName(parent), osError());
        return {};
    }
    if (account && chown(folder.constData(), account->uid, account->gid) != 0) {
        *error = QStringLiteral("cannot give %1 to the user %2 (%3): run the lab as a normal user")
                     .arg(QFile::decodeName(folder), account->name, osError());
        rmdir(folder.constData());
        return {};
    }
    return QFile::decodeName(folder);
}

// The template made by the initialiser, in the folder's data directory,
// then copied into the cache whole or not at all (beside it, then renamed).
bool makeTemplate(ServerKind kind, const Flavour& flavour, const QString& folder,
                  const QString& templ, const std::optional<Account>& account, QString* error,
                  const std::atomic<bool>* cancel) {
    if (kind == ServerKind::MariaDb && !QFileInfo::exists(QLatin1String(kMariaDbDefaults))) {
        *error = QStringLiteral("MariaDB's set-up needs %1, of the Debian package %2: %3")
                     .arg(QLatin1String(kMariaDbDefaults), QLatin1String(kMariaDbClientPackage),
                          installCommand(QLatin1String(kMariaDbClientPackage)));
        return false;
    }
    const QString data = folder + QStringLiteral("/data");
    QString output;
    const int status = runTool(QLatin1String(flavour.initialiser), initialiserArguments(kind, data),
                               account, folder, kInitialiseMs, &output, cancel);
    if (status == kStopped) {
        *error = kStoppedWords;
        return false;
    }
    if (status != 0) {
        *error = status == kCannotBecome && account
                     ? cannotBecome(kind, *account)
                     : QStringLiteral("%1 failed: %2")
                           .arg(QLatin1String(flavour.initialiser), lastError(output));
        return false;
    }
    const QString part = QStringLiteral("%1.part-%2").arg(templ).arg(getpid());
    QDir(part).removeRecursively();
    if (!copyTree(data, part, error, cancel)) {
        QDir(part).removeRecursively();
        return false;
    }
    if (!QDir().rename(part, templ)) {
        QDir(part).removeRecursively();
        *error = QStringLiteral("cannot make the template %1").arg(templ);
        return false;
    }
    return true;
}

// The folder's data directory: a copy of the template, which the first
// start for a server version makes.
bool prepareData(ServerKind kind, const Flavour& flavour, const QString& folder,
                 const QString& version, const std::optional<Account>& account,
                 const PrivateServer::Progress& progress, QString* error,
                 const std::atomic<bool>* cancel) {
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (cache.isEmpty()) {
        *error = QStringLiteral("no cache folder for %1's template: set HOME or XDG_CACHE_HOME")
                     .arg(serverName(kind));
        return false;
    }
    const QString templates = cache + QStringLiteral("/idemlab/templates");
    const QString templ =
        QStringLiteral("%1/%2-%3").arg(templates, QLatin1String(flavour.slug), version);
    if (!QDir().mkpath(templates)) {
        *error = QStringLiteral("cannot make the folder %1").arg(templates);
        return false;
    }
    const QString data = folder + QStringLiteral("/data");
    if (!QFileInfo::exists(templ)) {
        if (progress)
            progress(PrivateServer::Stage::InitialisingTemplate);
        // Two labs starting at once: one makes the template, the other
        // waits for it. A lock left by a lab that died is taken over.
        QLockFile lock(templ + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(2 * kInitialiseMs)) {
            *error = QStringLiteral("another lab has been preparing %1 for minutes").arg(templ);
            return false;
        }
        if (!QFileInfo::exists(templ) &&
            !makeTemplate(kind, flavour, folder, templ, account, error, cancel))
            return false;
    }
    if (QFileInfo::exists(data))
        return true;  // this start made the template from it
    if (progress)
        progress(PrivateServer::Stage::Copying);
    return copyTree(templ, data, error, cancel) && (!account || giveTree(data, *account, error));
}

Endpoint endpointOf(ServerKind kind, const QString& folder) {
    Endpoint endpoint;
    endpoint.kind = kind;
    if (kind == ServerKind::Postgres) {
        endpoint.socket = folder;
        endpoint.user = QLatin1String(kPostgresUser);
        endpoint.database = QStringLiteral("postgres");
    } else {
        endpoint.socket = folder + QStringLiteral("/mariadb.sock");
        endpoint.user = QStringLiteral("root");
    }
    return endpoint;
}

// Polls until the server takes connections; false with the reason, from
// its log, should it stop first.
bool waitUntilAnswering(ServerKind kind, const Endpoint& endpoint, Keeper& keeper,
                        const QString& folder, const std::optional<Account>& account,
                        QString* error, const std::atomic<bool>* cancel) {
    const QString log = folder + QStringLiteral("/server.log");
    QElapsedTimer clock;
    clock.start();
    while (!answers(endpoint)) {
        if (stopAsked(cancel)) {
            *error = kStoppedWords;
            return false;
        }
        QString how;
        if (keeper.serverEnded(&how)) {
            const QString why = keeper.serverCouldNotBecome() && account
                                    ? cannotBecome(kind, *account)
                                    : lastErrorOfFile(log);
            // Killed before it wrote a word: the signal says it all.
            *error = QStringLiteral("%1 stopped while starting (%2)").arg(serverName(kind), how);
            if (!why.isEmpty())
                *error += QStringLiteral(": ") + why;
            return false;
        }
        if (clock.elapsed() > kStartMs) {
            *error = QStringLiteral("%1 did not answer within %2 s: %3")
                         .arg(serverName(kind))
                         .arg(kStartMs / 1000)
                         .arg(lastErrorOfFile(log));
            return false;
        }
        QThread::msleep(10);
    }
    return true;
}

}  // namespace

QString PrivateServer::missingPackage(ServerKind kind) {
    const Flavour& flavour = flavourOf(kind);
    if (!QFileInfo(QLatin1String(flavour.server)).isExecutable() ||
        !QFileInfo(QLatin1String(flavour.initialiser)).isExecutable())
        return QLatin1String(flavour.package);
    return {};
}

std::unique_ptr<PrivateServer> PrivateServer::start(ServerKind kind, const Progress& progress,
                                                    QString* error, bool* usersToFix,
                                                    const std::atomic<bool>* cancel) {
    const Flavour& flavour = flavourOf(kind);
    bool ignored = false;
    bool& theirs = usersToFix ? *usersToFix : ignored;
    theirs = true;
    if (!missingPackage(kind).isEmpty()) {
        *error = QStringLiteral("%1 is not installed (Debian package %2): %3")
                     .arg(serverName(kind), QLatin1String(flavour.package),
                          installCommand(QLatin1String(flavour.package)));
        return nullptr;
    }
    const std::optional<Account> account = serverAccount(flavour);
    if (geteuid() == 0 && !account) {
        *error = QStringLiteral(
                     "%1 refuses to run as root, and this system has neither the user "
                     "%2 nor nobody: run the lab as a normal user")
                     .arg(serverName(kind), QLatin1String(flavour.owner));
        return nullptr;
    }
    theirs = false;
    auto server = std::unique_ptr<PrivateServer>(new PrivateServer(kind));
    server->version_ = serverVersion(kind, flavour, account, error);
    if (server->version_.isEmpty())
        return nullptr;
    server->account_ = account ? account->name : userName(geteuid());
    server->folder_ = makeFolder(flavour, account, error);
    if (server->folder_.isEmpty())
        return nullptr;
    // From here on the keeper removes the folder, however the lab ends.
    server->keeper_ = Keeper::spawn(serverCommand(kind, flavour, server->folder_, account), error);
    if (!server->keeper_) {
        QDir(server->folder_).removeRecursively();
        return nullptr;
    }
    if (!prepareData(kind, flavour, server->folder_, server->version_, account, progress, error,
                     cancel))
        return nullptr;
    if (progress)
        progress(Stage::Starting);
    server->endpoint_ = endpointOf(kind, server->folder_);
    if (!server->keeper_->startServer(error) ||
        !waitUntilAnswering(kind, server->endpoint_, *server->keeper_, server->folder_, account,
                            error, cancel)) {
        if (stopAsked(cancel))
            server->keeper_->abandon();
        return nullptr;
    }
    if (kind == ServerKind::Postgres)
        poolConnectionsTo(server->folder_);
    if (progress)
        progress(Stage::Ready);
    return server;
}

PrivateServer::PrivateServer(ServerKind kind) : kind_(kind) {}

// The connections kept for the next run go before the server does.
PrivateServer::~PrivateServer() {
    closePooledConnectionsTo(folder_);
}

QString PrivateServer::lastWords() const {
    QFile file(folder_ + QStringLiteral("/server.log"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString log = QString::fromLocal8Bit(file.readAll());
    // A server that crashed names the statement it was running (MariaDB:
    // "Query (0x...): ..." and "Status: ..." in its crash report).
    QStringList crash;
    for (const QString& line : log.split(u'\n')) {
        if (line.startsWith(QLatin1String("Query (")) || line.startsWith(QLatin1String("Status: ")))
            crash << line.trimmed().left(400);
    }
    if (!crash.isEmpty())
        return crash.join(QStringLiteral("; "));
    // Only an error: a server killed outright says nothing, and its log's
    // last line is then its start banner.
    const QString words = lastError(log);
    return words.contains(u"ERROR") || words.contains(u"FATAL") || words.contains(u"PANIC") ||
                   words.contains(u"error")
               ? words
               : QString();
}

qint64 PrivateServer::serverPid() const {
    return keeper_ ? keeper_->serverPid() : 0;
}

// Runs in several threads share the server (Compare): one asks at a time.
bool PrivateServer::ended(QString* how) {
    const std::lock_guard lock(endedMutex_);
    return !keeper_ || keeper_->serverEnded(how);
}

QString PrivateServer::keep() {
    keeper_->keep();
    if (kind_ == ServerKind::Postgres)
        return QStringLiteral("psql -h %1 -U %2 %3")
            .arg(endpoint_.socket, endpoint_.user, endpoint_.database);
    return QStringLiteral("mariadb --socket=%1 -u %2").arg(endpoint_.socket, endpoint_.user);
}

}  // namespace idem::live
