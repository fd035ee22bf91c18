// A PostgreSQL session on libpq's asynchronous API (PQsendQueryParams, then
// PQconsumeInput / PQisBusy as the socket becomes readable). Qt's
// PostgreSQL driver waits inside PQgetResult, so live mode links libpq
// itself.
#pragma once

#include "session.h"

typedef struct pg_conn PGconn;

namespace idem::live {

// The portable class of a PostgreSQL error code (SQLSTATE).
SqlOutcome classifyPostgres(const QString& sqlState);

// A connection in libpq's ordinary, blocking use (the observer's); check
// PQstatus. Notices are not printed.
PGconn* openPgConnection(const Endpoint& endpoint, const char* application);
// The same connection begun without waiting (PQconnectStartParams): null or
// not yet made; pgpool.cpp drives it to its end.
PGconn* startPgConnection(const Endpoint& endpoint, const char* application);
QString pgConnectionError(PGconn* conn);

class PgSession final : public Session {
public:
    PgSession(const Endpoint& endpoint, const QString& id);
    ~PgSession() override;

    bool send(const QString& sql, const QVariantList& params = {}) override;
    bool poll(int timeoutMs) override;
    bool cancel() override;
    void close() override;
    // Whether the server let this session pick the deadlock victim (the
    // session that closes a cycle; a superuser's right, see the source).
    bool choosesVictim() const { return choosesVictim_; }
    QStringList toldOnOpen() const override;

private:
    void lost();

    Endpoint endpoint_;
    PGconn* conn_ = nullptr;
    bool flushing_ = false;  // part of the statement still to be written
    bool choosesVictim_ = false;
    StatementResult pending_;  // what the results read so far say
};

}  // namespace idem::live
