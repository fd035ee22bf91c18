#include "pgpool.h"

#include "session.h"

#include <QHash>
#include <QMutex>
#include <QSet>

#include <libpq-fe.h>

#include <vector>

namespace idem::live {

namespace {

// As many as the largest run opens at once (a hundred duplicates, the
// duplicate-alert scenario's); the rest are finished. An idle one costs
// the server a sleeping process.
constexpr int kKeptPerKey = 128;

struct Pool {
    QMutex mutex;
    QSet<QString> folders;                      // servers that pool
    QHash<QString, std::vector<PGconn*>> idle;  // by key()
};

// Never destroyed: the private servers, which close their connections as
// they stop, may be static and go after it at exit. What is still kept
// then ends with the process, as any client's connection does.
Pool& pool() {
    static Pool* const p = new Pool;
    return *p;
}

QString key(const Endpoint& endpoint, const char* application) {
    return endpoint.socket + QLatin1Char('\n') + endpoint.user + QLatin1Char('\n') +
           endpoint.database + QLatin1Char('\n') + QLatin1String(application);
}

bool execOk(PGconn* conn, const char* sql) {
    PGresult* res = PQexec(conn, sql);
    const bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    return ok;
}

}  // namespace

void poolConnectionsTo(const QString& folder) {
    Pool& p = pool();
    const QMutexLocker lock(&p.mutex);
    p.folders.insert(folder);
}

void closePooledConnectionsTo(const QString& folder) {
    Pool& p = pool();
    std::vector<PGconn*> closing;
    {
        const QMutexLocker lock(&p.mutex);
        p.folders.remove(folder);
        const QString prefix = folder + QLatin1Char('\n');
        for (auto it = p.idle.begin(); it != p.idle.end();) {
            if (it.key().startsWith(prefix)) {
                closing.insert(closing.end(), it->begin(), it->end());
                it = p.idle.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (PGconn* c : closing) PQfinish(c);
}

// An empty query is the cheapest round trip: a connection whose server
// died while it was kept fails it and is finished here, never lent.
PGconn* takePooledConnection(const Endpoint& endpoint, const char* application) {
    Pool& p = pool();
    const QString k = key(endpoint, application);
    for (;;) {
        PGconn* conn = nullptr;
        {
            const QMutexLocker lock(&p.mutex);
            const auto it = p.idle.find(k);
            if (it == p.idle.end() || it->empty())
                return nullptr;
            conn = it->back();
            it->pop_back();
        }
        PGresult* res = PQexec(conn, "");
        const bool alive = PQresultStatus(res) == PGRES_EMPTY_QUERY;
        PQclear(res);
        if (alive)
            return conn;
        PQfinish(conn);
    }
}

void giveBackConnection(const Endpoint& endpoint, const char* application, PGconn* conn) {
    if (!conn)
        return;
    Pool& p = pool();
    bool pools = false;
    {
        const QMutexLocker lock(&p.mutex);
        pools = !endpoint.socket.isEmpty() && p.folders.contains(endpoint.socket);
    }
    // A reset that fails (the server gone, a result still unread) leaves
    // the connection in a state the next run must not inherit.
    if (pools && PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE &&
        PQsetnonblocking(conn, 0) == 0 && execOk(conn, "DISCARD ALL")) {
        const QMutexLocker lock(&p.mutex);
        std::vector<PGconn*>& kept = p.idle[key(endpoint, application)];
        if (p.folders.contains(endpoint.socket) && int(kept.size()) < kKeptPerKey) {
            kept.push_back(conn);
            return;
        }
    }
    PQfinish(conn);
}

}  // namespace idem::live
