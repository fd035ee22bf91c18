// The keeper: a small process of the lab's own that starts a private server
// and, when the lab ends however it ends (SIGKILL included), stops the
// server and removes its folder. The lab holds one end of a socket pair
// whose other end only the keeper has; the kernel closes the lab's end when
// its process ends, and the keeper reads end of file.
//
// Why not PR_SET_PDEATHSIG on the server alone: it fires when the *thread*
// that forked ends, not the process (a start in a worker thread would die
// with the worker), it is cleared when a process changes its user, and it
// cannot remove a folder. The keeper is single-threaded, so the server it
// forks does get the parent-death signal, as a second guard should the
// keeper itself be killed.
#pragma once

#include <QString>
#include <QStringList>

#include <sys/types.h>
#include <memory>
#include <optional>

namespace idem::live {

// The user a server runs as when the lab runs as root (both servers refuse
// root).
struct Account {
    QString name;
    uid_t uid = 0;
    gid_t gid = 0;
};

// In a child process between fork and exec: becomes `account` (no
// supplementary groups). Async-signal-safe; false when the system refuses,
// and the child then exits with kCannotBecome.
bool becomeAccount(const Account& account);
constexpr int kCannotBecome = 126;

// What the keeper runs, all of it known before it starts.
struct ServerCommand {
    QString program;
    QStringList arguments;
    QString workingDirectory;
    QString logFile;  // the server's stdout and stderr
    QString folder;   // removed, with all in it, once the server has stopped
    std::optional<Account> account;
    int stopSignal = 0;   // the shutdown the lab asks for (PostgreSQL: SIGINT, fast)
    int deathSignal = 0;  // what the server gets should its keeper vanish
};

class Keeper {
public:
    // Forks the keeper, which guards the folder from now on; the server is
    // started later by startServer().
    static std::unique_ptr<Keeper> spawn(const ServerCommand& command, QString* error);
    // Unless kept: asks the keeper to stop the server and remove the
    // folder, and returns once it has.
    ~Keeper();
    Keeper(const Keeper&) = delete;
    Keeper& operator=(const Keeper&) = delete;

    bool startServer(QString* error);
    pid_t serverPid() const { return serverPid_; }
    // Whether the server has ended on its own; *how: "exit status 1".
    bool serverEnded(QString* how);
    // ... because it could not become its user.
    bool serverCouldNotBecome() const;
    // The server stays, and its folder: the keeper now only waits for it.
    void keep();
    // The start was given up (a stop asked for): the server, which may not
    // yet heed a shutdown (MariaDB while it starts), is killed at once.
    void abandon() { abandoned_ = true; }

private:
    Keeper() = default;
    bool readStatus(int timeoutMs);

    pid_t keeper_ = 0;
    int control_ = -1;  // the lab's end: closing it tells the keeper to stop
    int status_ = -1;   // what the keeper reports
    pid_t serverPid_ = 0;
    bool ended_ = false;
    int endStatus_ = 0;
    bool kept_ = false;
    bool abandoned_ = false;
};

}  // namespace idem::live
