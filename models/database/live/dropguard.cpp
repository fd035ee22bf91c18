#include "dropguard.h"

#include "execargs.h"
#include "serverurl.h"

#include <QFile>
#include <QStandardPaths>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace idem::live {

namespace {

// Run by /bin/sh with the client's command line as "$@" and the lab's
// socket as descriptor 3. It leaves a subshell behind and ends at once (the
// lab waits only for that), so that the guard is the init process's child
// and no zombie of the lab's. The subshell waits for the socket's end;
// unless the lab's last word was "done", it drops the database, up to five
// tries a second apart (a session of the killed lab may still hold it for
// a moment), and says how it went on the lab's stderr.
constexpr char kScript[] = R"((
last=
while IFS= read -r line <&3; do last=$line; done
[ "$last" = done ] && exit 0
tries=1
while :; do
  if said=$("$@" 2>&1); then
    echo "idemlab: the lab ended before dropping database $IDEMLAB_DATABASE on $IDEMLAB_PLACE; dropped it now" >&2
    exit 0
  fi
  if [ "$tries" -ge 5 ]; then
    echo "idemlab: could not drop database $IDEMLAB_DATABASE on $IDEMLAB_PLACE after $tries tries: $said" >&2
    exit 1
  fi
  tries=$((tries + 1))
  sleep 1
done
) &
)";
// The client's command line that drops `database`, to be run by the guard.
ExecArgs clientCommand(const Endpoint& admin, const QString& database, const QByteArray& client) {
    ExecArgs argv;
    argv.add(client);
    const QByteArray name = database.toLatin1();
    if (admin.kind == ServerKind::Postgres) {
        // No start-up file, no question for a password, stop at an error.
        for (const char* word : {"-X", "-q", "-w", "-v", "ON_ERROR_STOP=1"}) argv.add(word);
        const QString host = admin.socket.isEmpty() ? admin.host : admin.socket;
        if (!host.isEmpty()) {
            argv.add("-h");
            argv.add(QFile::encodeName(host));
        }
        if (admin.port > 0) {
            argv.add("-p");
            argv.add(QByteArray::number(admin.port));
        }
        argv.add("-U");
        argv.add(admin.user.toUtf8());
        argv.add("-d");
        argv.add(admin.database.isEmpty() ? QByteArray("postgres") : admin.database.toUtf8());
        argv.add("-c");
        // FORCE: a backend of the killed lab still there is ended.
        argv.add("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    } else {
        // As the lab connects: no option files.
        argv.add("--no-defaults");
        if (!admin.socket.isEmpty()) {
            argv.add("--socket=" + QFile::encodeName(admin.socket));
        } else {
            argv.add("-h");
            argv.add(admin.host.toUtf8());
            if (admin.port > 0)
                argv.add("-P" + QByteArray::number(admin.port));
        }
        argv.add("-u");
        argv.add(admin.user.toUtf8());
        argv.add("--connect-timeout=10");
        argv.add("-e");
        // A session of the killed lab still rolling back holds the drop
        // for a moment; one that holds it longer makes this try fail.
        argv.add("SET SESSION lock_wait_timeout = 10; DROP DATABASE IF EXISTS " + name);
    }
    return argv;
}

}  // namespace

QString DropGuard::clientProgram(ServerKind kind) {
    return kind == ServerKind::Postgres ? QStringLiteral("psql") : QStringLiteral("mariadb");
}

std::unique_ptr<DropGuard> DropGuard::spawn(const Endpoint& admin, const QString& database,
                                            QString* error) {
    const QString client = QStandardPaths::findExecutable(clientProgram(admin.kind));
    if (client.isEmpty()) {
        *error = QStringLiteral(
                     "%1 is not installed: should the lab be killed, nothing would "
                     "drop database %2")
                     .arg(clientProgram(admin.kind), database);
        return nullptr;
    }
    ExecArgs argv;
    for (const char* word : {"/bin/sh", "-c", kScript, "idemlab-drop-guard"}) argv.add(word);
    const ExecArgs command = clientCommand(admin, database, QFile::encodeName(client));
    for (const QByteArray& word : command.bytes) argv.add(word);
    ExecArgs envp;
    envp.add("PATH=/usr/sbin:/usr/bin:/sbin:/bin");
    envp.add("LC_ALL=C");
    envp.add("PGCONNECT_TIMEOUT=10");
    // Where the client finds what the lab's client library found (~/.pgpass).
    for (const char* name : {"HOME", "PGPASSFILE"}) {
        if (const QByteArray value = qgetenv(name); !value.isEmpty())
            envp.add(QByteArray(name) + '=' + value);
    }
    envp.add("IDEMLAB_DATABASE=" + database.toLatin1());
    envp.add("IDEMLAB_PLACE=" + serverPlace(admin).toUtf8());
    // In the environment, which only the user can read; never in argv.
    if (!admin.password.isEmpty()) {
        envp.add((admin.kind == ServerKind::Postgres ? "PGPASSWORD=" : "MYSQL_PWD=") +
                 admin.password.toUtf8());
    }
    char* const* args = argv.finish();
    char* const* env = envp.finish();

    // A socket rather than a pipe: the lab's "done" to a guard that has
    // gone fails with EPIPE (MSG_NOSIGNAL) instead of raising SIGPIPE.
    int pipe[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pipe) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return nullptr;
    }
    // posix_spawn, not fork: the lab's memory is not copied. Its own
    // session (a Ctrl+C at the terminal is the lab's alone), every signal
    // as by default, and of the lab's descriptors only stdout, stderr and
    // the guard's end of the socket (a connection to the server above all
    // would keep a run's session, and its locks, alive).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, number);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes,
                             POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&files, pipe[0], 3);
    posix_spawn_file_actions_addclosefrom_np(&files, 4);
    pid_t shell = 0;
    const int spawned = posix_spawn(&shell, "/bin/sh", &files, &attributes, args, env);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    close(pipe[0]);
    if (spawned != 0) {
        *error = QString::fromLocal8Bit(std::strerror(spawned));
        close(pipe[1]);
        return nullptr;
    }
    int status = 0;
    while (waitpid(shell, &status, 0) < 0 && errno == EINTR) {
    }
    return std::unique_ptr<DropGuard>(new DropGuard(pipe[1]));
}

void DropGuard::release() {
    if (pipe_ < 0)
        return;
    static constexpr char kDone[] = "done\n";
    ssize_t written = 0;
    do {
        written = send(pipe_, kDone, sizeof kDone - 1, MSG_NOSIGNAL);
    } while (written < 0 && errno == EINTR);
    close(pipe_);
    pipe_ = -1;
}

DropGuard::~DropGuard() {
    if (pipe_ >= 0)
        close(pipe_);
}

}  // namespace idem::live
