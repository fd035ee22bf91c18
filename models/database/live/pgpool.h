// Connections to the lab's own PostgreSQL servers, kept between runs.
//
// A new PostgreSQL connection is a new server process: about 17 ms on this
// kind of machine, against 0.2 ms for a statement, and a run opens eight
// (its attempts, the set-up, the reader, the observer). A connection a
// session or the observer has finished with cleanly (no statement in
// flight, no transaction open) is reset with DISCARD ALL, which drops what
// a session may carry (settings, prepared statements, temporary tables,
// advisory locks, cached plans), and lent again to the next one that asks.
// A crashed attempt's connection is never kept: close() drops it, as a dying
// process does. Only the private servers pool, never a user's (--connect),
// whose databases are the runs' own and dropped with them.
#pragma once

#include <QString>

typedef struct pg_conn PGconn;

namespace idem::live {

struct Endpoint;

// The private server whose socket is in `folder` lends its connections again.
void poolConnectionsTo(const QString& folder);
// The server is stopping: the connections kept for it are closed, and it
// lends no more.
void closePooledConnectionsTo(const QString& folder);
// An idle, reset connection for `application` at the endpoint, or nullptr.
PGconn* takePooledConnection(const Endpoint& endpoint, const char* application);
// A crashed attempt's connection was dropped: a new one to the same server
// is begun now and handed to the next taker once made, so that the server
// starts its process while the run goes on (a private server's only).
void startSpareConnection(const Endpoint& endpoint, const char* application);
// Keeps the connection for the next taker when its server pools and it is
// idle and resets cleanly; finishes it otherwise. Blocking mode is restored.
void giveBackConnection(const Endpoint& endpoint, const char* application, PGconn* conn);

}  // namespace idem::live
