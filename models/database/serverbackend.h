// Live mode's backends (SPEC section 8): a run on a real PostgreSQL or
// MariaDB server, a private one the lab starts (models/database/live/privateserver.h)
// in a database of the run's own. Each session is a real connection that the
// scheduler steps: a statement is sent, then settled until it has finished
// or certainly waits for another session's lock.
#pragma once

#include "backend.h"
#include "backendnames.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace idem {

struct RunConfig;

// The backend ("postgres", "mariadb") a --connect URL names, read without
// contacting the server; empty with *error in one line that never repeats
// the password, when it is not a server's URL.
QString connectBackend(const QString& url, QString* error);

// Where a statement sent on a server's session stands after settling.
struct Settled {
    bool done = true;     // finished: the session's result
    QStringList waitsOn;  // else: the sessions (c1, c2 ...) it waits for
    QString lock;         // ... and the lock, as the server names it
};

// The run's backend for its configuration: SQLite unless config.backend
// names a server. progress reports a server's start (its first start
// initialises it: seconds).
std::unique_ptr<Backend> makeBackend(const RunConfig& config,
                                     std::function<void(const QString&)> progress = {});

}  // namespace idem
