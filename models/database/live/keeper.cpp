#include "keeper.h"

#include "execargs.h"

#include <QFile>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace idem::live {

namespace {

// What the keeper reports on its status pipe: a tag and a number, written
// at once (a pipe keeps writes under PIPE_BUF whole).
struct Report {
    int32_t tag;
    int32_t value;
};
constexpr int32_t kStarted = 'p';  // value: the server's pid
constexpr int32_t kEnded = 'x';    // value: its wait status
constexpr int32_t kNoFork = 'f';   // value: errno
constexpr int kMaxStopMs = 15000;  // a fast shutdown takes well under a second

using Argv = ExecArgs;

// Everything the keeper uses, prepared before fork: after it, the keeper
// calls only async-signal-safe functions (the lab may have other threads,
// holding locks the child would inherit held).
struct Plan {
    const char* program;
    char* const* argv;
    char* const* envp;
    const char* workingDirectory;
    char* const* removeArgv;
    const Account* account;
    int stopSignal;
    int deathSignal;
    int control;
    int status;
    int log;
    int devNull;
};

void report(int fd, int32_t tag, int32_t value) {
    const Report r{tag, value};
    // The lab may be gone (SIGPIPE is ignored here): nothing to tell then.
    [[maybe_unused]] const ssize_t written = write(fd, &r, sizeof r);
}

void sleepMs(int ms) {
    poll(nullptr, 0, ms);
}

// Closes the descriptors from `first` to `last`; one by one up to the
// process's limit where the kernel has no close_range (before Linux 5.9).
void closeRange(unsigned first, unsigned last) {
    if (close_range(first, last, 0) == 0)
        return;
    rlimit limit;
    const unsigned open = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                              ? unsigned(limit.rlim_cur)
                              : 65536;
    for (unsigned fd = first; fd <= last && fd < open; ++fd) close(int(fd));
}

// Closes every descriptor from 3 up except the ones in keep (sorted): the
// keeper must not hold the lab's other files, nor another keeper's socket.
void closeAllBut(const int* keep, int count) {
    unsigned from = 3;
    for (int i = 0; i < count; ++i) {
        const unsigned fd = unsigned(keep[i]);
        if (fd > from)
            closeRange(from, fd - 1);
        if (fd >= from)
            from = fd + 1;
    }
    closeRange(from, ~0U);
}

void writeError(const char* what) {
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, what, std::strlen(what));
    n = write(STDERR_FILENO, "\n", 1);
}

pid_t startServer(const Plan& p, pid_t keeper) {
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    // The server and the processes it forks are one group, which the keeper
    // can end as one.
    setpgid(0, 0);
    dup2(p.devNull, STDIN_FILENO);
    dup2(p.log, STDOUT_FILENO);
    dup2(p.log, STDERR_FILENO);
    closeRange(3, ~0U);
    if (p.account && !becomeAccount(*p.account)) {
        writeError("idemlab: could not change to the server's user");
        _exit(kCannotBecome);
    }
    // After the change of user, which clears it.
    prctl(PR_SET_PDEATHSIG, p.deathSignal);
    if (getppid() != keeper)
        _exit(1);
    if (chdir(p.workingDirectory) != 0)
        _exit(1);
    execve(p.program, p.argv, p.envp);
    writeError("idemlab: could not run the server");
    _exit(127);
}

void stopServer(pid_t server, int signal) {
    kill(server, signal);
    int waited = 0;
    while (waitpid(server, nullptr, WNOHANG) == 0) {
        if (waited >= kMaxStopMs) {
            kill(-server, SIGKILL);
            while (waitpid(server, nullptr, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        sleepMs(10);
        waited += 10;
    }
    // What is left of its group (a PostgreSQL backend whose postmaster was
    // killed) goes too.
    kill(-server, SIGKILL);
}

void removeFolder(const Plan& p) {
    const pid_t pid = fork();
    if (pid == 0) {
        char* const noEnvironment[] = {nullptr};
        execve("/bin/rm", p.removeArgv, noEnvironment);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
}

[[noreturn]] void runKeeper(const Plan& p) {
    // A session of its own: a Ctrl+C in the lab's terminal reaches the lab,
    // whose end the keeper then sees, not the keeper itself. And no hold on
    // the lab's working folder.
    setsid();
    [[maybe_unused]] const int moved = chdir("/");
    struct sigaction byDefault = {};
    byDefault.sa_handler = SIG_DFL;
    for (int s = 1; s < NSIG; ++s)
        if (s != SIGKILL && s != SIGSTOP)
            sigaction(s, &byDefault, nullptr);
    struct sigaction ignore = byDefault;
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    int keep[] = {p.control, p.status, p.log, p.devNull};
    std::sort(std::begin(keep), std::end(keep));
    closeAllBut(keep, 4);
    // Nor the lab's terminal or pipes: a kept server's keeper outlives the
    // lab, and whoever reads the lab's output waits for its end.
    dup2(p.devNull, STDIN_FILENO);
    dup2(p.devNull, STDOUT_FILENO);
    dup2(p.devNull, STDERR_FILENO);

    const pid_t self = getpid();
    pid_t server = 0;
    bool ended = false;
    for (;;) {
        pollfd fd{p.control, POLLIN, 0};
        const int ready = poll(&fd, 1, server > 0 && !ended ? 100 : -1);
        int status = 0;
        if (server > 0 && !ended && waitpid(server, &status, WNOHANG) == server) {
            ended = true;
            report(p.status, kEnded, status);
        }
        if (ready <= 0)
            continue;
        char command = 0;
        const ssize_t n = read(p.control, &command, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 1 && command == 's' && server == 0) {
            server = startServer(p, self);
            if (server > 0) {
                report(p.status, kStarted, server);
            } else {
                report(p.status, kNoFork, errno);
                server = 0;
            }
            continue;
        }
        if (n == 1 && command == 'k') {
            if (server > 0 && !ended)
                while (waitpid(server, nullptr, 0) < 0 && errno == EINTR) {
                }
            _exit(0);
        }
        if (n == 1 && command != 'q' && command != 'x')
            continue;
        // 'q', or end of file: the lab has ended, however it ended; 'x':
        // the start was given up, nothing of the server is worth a shutdown.
        if (server > 0 && !ended)
            stopServer(server, command == 'x' ? SIGKILL : p.stopSignal);
        removeFolder(p);
        _exit(0);
    }
}

}  // namespace

bool becomeAccount(const Account& account) {
    return setgroups(0, nullptr) == 0 && setgid(account.gid) == 0 && setuid(account.uid) == 0;
}

std::unique_ptr<Keeper> Keeper::spawn(const ServerCommand& command, QString* error) {
    Argv argv;
    argv.add(QFile::encodeName(command.program));
    for (const QString& a : command.arguments) argv.add(QFile::encodeName(a));
    // A known environment: the lab's own (PGDATA, a MariaDB option file
    // through MYSQL_HOME ...) must not reach the server.
    Argv envp;
    envp.add("PATH=/usr/sbin:/usr/bin:/sbin:/bin");
    envp.add("LC_ALL=C");
    Argv removeArgv;
    for (const char* word : {"rm", "-rf", "--"}) removeArgv.add(word);
    removeArgv.add(QFile::encodeName(command.folder));
    const QByteArray program = QFile::encodeName(command.program);
    const QByteArray workingDirectory = QFile::encodeName(command.workingDirectory);

    // The lab's commands go over a socket rather than a pipe: writing to
    // it once the keeper has gone fails with EPIPE (MSG_NOSIGNAL) instead of
    // raising SIGPIPE in the lab.
    int control[2];
    int status[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, control) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        return nullptr;
    }
    if (pipe2(status, O_CLOEXEC) != 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        close(control[0]);
        close(control[1]);
        return nullptr;
    }
    const int log = open(QFile::encodeName(command.logFile).constData(),
                         O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    const int devNull = open("/dev/null", O_RDWR | O_CLOEXEC);
    auto closeAll = [&] {
        for (int fd : {control[0], control[1], status[0], status[1], log, devNull})
            if (fd >= 0)
                close(fd);
    };
    if (log < 0 || devNull < 0) {
        *error = QStringLiteral("%1: %2").arg(command.logFile,
                                              QString::fromLocal8Bit(std::strerror(errno)));
        closeAll();
        return nullptr;
    }
    const Plan plan{program.constData(),
                    argv.finish(),
                    envp.finish(),
                    workingDirectory.constData(),
                    removeArgv.finish(),
                    command.account ? &*command.account : nullptr,
                    command.stopSignal,
                    command.deathSignal,
                    control[0],
                    status[1],
                    log,
                    devNull};
    const pid_t pid = fork();
    if (pid == 0)
        runKeeper(plan);
    if (pid < 0) {
        *error = QString::fromLocal8Bit(std::strerror(errno));
        closeAll();
        return nullptr;
    }
    close(control[0]);
    close(status[1]);
    close(log);
    close(devNull);
    fcntl(status[0], F_SETFL, O_NONBLOCK);
    auto keeper = std::unique_ptr<Keeper>(new Keeper);
    keeper->keeper_ = pid;
    keeper->control_ = control[1];
    keeper->status_ = status[0];
    return keeper;
}

Keeper::~Keeper() {
    if (!kept_) {
        const char quit = abandoned_ ? 'x' : 'q';
        [[maybe_unused]] const ssize_t n = send(control_, &quit, 1, MSG_NOSIGNAL);
    }
    close(control_);
    close(status_);
    if (!kept_)
        while (waitpid(keeper_, nullptr, 0) < 0 && errno == EINTR) {
        }
}

// Reads what the keeper has reported, waiting up to timeoutMs for a first
// report. False when nothing came.
bool Keeper::readStatus(int timeoutMs) {
    pollfd fd{status_, POLLIN, 0};
    if (poll(&fd, 1, timeoutMs) <= 0)
        return false;
    bool any = false;
    Report r;
    while (read(status_, &r, sizeof r) == ssize_t(sizeof r)) {
        any = true;
        if (r.tag == kStarted) {
            serverPid_ = r.value;
        } else if (r.tag == kEnded) {
            ended_ = true;
            endStatus_ = r.value;
        } else if (r.tag == kNoFork) {
            ended_ = true;
            endStatus_ = -r.value;
        }
    }
    return any;
}

bool Keeper::startServer(QString* error) {
    const char start = 's';
    if (send(control_, &start, 1, MSG_NOSIGNAL) != 1) {
        *error = QStringLiteral("the server's keeper has gone");
        return false;
    }
    if (!readStatus(5000) || serverPid_ == 0) {
        *error = ended_ && endStatus_ < 0 ? QString::fromLocal8Bit(std::strerror(-endStatus_))
                                          : QStringLiteral("the server's keeper did not answer");
        return false;
    }
    return true;
}

bool Keeper::serverEnded(QString* how) {
    if (!ended_)
        readStatus(0);
    if (!ended_)
        return false;
    if (endStatus_ < 0)
        *how = QString::fromLocal8Bit(std::strerror(-endStatus_));
    else if (WIFEXITED(endStatus_) && WEXITSTATUS(endStatus_) == kCannotBecome)
        *how = QStringLiteral("it could not run as its user");
    else if (WIFEXITED(endStatus_))
        *how = QStringLiteral("exit status %1").arg(WEXITSTATUS(endStatus_));
    else
        *how = QStringLiteral("signal %1").arg(WTERMSIG(endStatus_));
    return true;
}

bool Keeper::serverCouldNotBecome() const {
    return ended_ && endStatus_ >= 0 && WIFEXITED(endStatus_) &&
           WEXITSTATUS(endStatus_) == kCannotBecome;
}

void Keeper::keep() {
    const char keep = 'k';
    if (send(control_, &keep, 1, MSG_NOSIGNAL) == 1)
        kept_ = true;
}

}  // namespace idem::live
