// A --connect run's database on the user's server goes when the lab goes,
// however it goes. The lab drops it itself at the end of the run; should
// the lab be killed (SIGKILL, a second Ctrl+C) or its own drop fail, a small
// process left behind drops it with the server's own client (psql,
// mariadb), retrying a refused drop a few times and saying what happened.
//
// That process reads a socket whose other end only the lab holds: "done"
// and the end of it mean the lab has dropped (or keeps) the database; the
// end alone, that it has not.
#pragma once

#include "session.h"

#include <QString>

#include <memory>

namespace idem::live {

class DropGuard {
public:
    // Guards `database` on the server at `admin` (PostgreSQL: connected to
    // admin.database to drop it; MariaDB: no database chosen). Nothing,
    // with *error, when the client program is missing or the system
    // refuses a process.
    static std::unique_ptr<DropGuard> spawn(const Endpoint& admin, const QString& database,
                                            QString* error);
    // Without release(): the guard drops the database now.
    ~DropGuard();
    DropGuard(const DropGuard&) = delete;
    DropGuard& operator=(const DropGuard&) = delete;

    // The lab has dropped the database, or keeps it: the guard leaves.
    void release();

    // The client program each server's guard uses.
    static QString clientProgram(ServerKind kind);

private:
    explicit DropGuard(int socket) : pipe_(socket) {}
    int pipe_ = -1;  // the lab's end
};

}  // namespace idem::live
