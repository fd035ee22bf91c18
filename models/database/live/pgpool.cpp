#include "pgpool.h"

#include "pgsession.h"
#include "session.h"

#include <QHash>
#include <QMutex>
#include <QSet>

#include <libpq-fe.h>

#include <poll.h>

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
    // Begun (startSpareConnection), not yet made: by key().
    QHash<QString, std::vector<PGconn*>> starting;
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
        for (auto* kept : {&p.idle, &p.starting}) {
            for (auto it = kept->begin(); it != kept->end();) {
                if (it.key().startsWith(prefix)) {
                    closing.insert(closing.end(), it->begin(), it->end());
                    it = kept->erase(it);
                } else {
                    ++it;
                }
            }
        }
    }
    for (PGconn* c : closing) PQfinish(c);
}

namespace {

// How long a spare's connection may take to be made (libpq's own
// connect_timeout for the lab's connections is 10 s).
constexpr int kConnectTimeoutMs = 10'000;

// libpq's connection steps until it is made or has failed; each wait on
// its socket is bounded by the connection's own timeout.
bool finishConnecting(PGconn* conn) {
    for (;;) {
        const PostgresPollingStatusType status = PQconnectPoll(conn);
        if (status == PGRES_POLLING_OK)
            return true;
        if (status == PGRES_POLLING_FAILED)
            return false;
        pollfd fd{PQsocket(conn), short(status == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        if (fd.fd < 0 || ::poll(&fd, 1, kConnectTimeoutMs) <= 0)
            return false;
    }
}

}  // namespace

void startSpareConnection(const Endpoint& endpoint, const char* application) {
    Pool& p = pool();
    const QString k = key(endpoint, application);
    {
        const QMutexLocker lock(&p.mutex);
        if (endpoint.socket.isEmpty() || !p.folders.contains(endpoint.socket) ||
            int(p.starting.value(k).size()) >= kKeptPerKey)
            return;
    }
    PGconn* conn = startPgConnection(endpoint, application);
    if (!conn || PQstatus(conn) == CONNECTION_BAD) {
        PQfinish(conn);
        return;
    }
    // Far enough that the server has the request: it starts the session's
    // process while the lab goes on.
    for (int i = 0; i < 3; ++i) {
        const PostgresPollingStatusType status = PQconnectPoll(conn);
        if (status == PGRES_POLLING_FAILED) {
            PQfinish(conn);
            return;
        }
        if (status == PGRES_POLLING_READING || status == PGRES_POLLING_OK)
            break;
    }
    {
        const QMutexLocker lock(&p.mutex);
        // The server may have begun to stop meanwhile: then it is not kept.
        if (p.folders.contains(endpoint.socket)) {
            p.starting[k].push_back(conn);
            return;
        }
    }
    PQfinish(conn);
}

namespace {

// A spare begun earlier, made now; null when there is none or it failed.
PGconn* takeSpare(Pool& p, const QString& k) {
    for (;;) {
        PGconn* conn = nullptr;
        {
            const QMutexLocker lock(&p.mutex);
            const auto it = p.starting.find(k);
            if (it == p.starting.end() || it->empty())
                return nullptr;
            conn = it->front();
            it->erase(it->begin());
        }
        if (finishConnecting(conn))
            return conn;
        PQfinish(conn);
    }
}

}  // namespace

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
            if (it != p.idle.end() && !it->empty()) {
                conn = it->back();
                it->pop_back();
            }
        }
        if (!conn)
            return takeSpare(p, k);
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
