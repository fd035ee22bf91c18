// A MariaDB session on the connector's non-blocking API (MYSQL_OPT_NONBLOCK:
// mysql_real_query_start, then _cont whenever mysql_get_socket is ready).
//
// Values are written into the statement as escaped literals
// (mysql_real_escape_string, in the connection's character set) rather than
// bound to a prepared statement: the non-blocking prepared-statement API
// needs a typed buffer per column and per parameter for every statement, and
// the text the server receives is then exactly the text the SQL log shows.
#pragma once

#include "session.h"

typedef struct st_mysql MYSQL;
typedef struct st_mysql_res MYSQL_RES;

namespace idem::live {

// The portable class of a MariaDB error number.
SqlOutcome classifyMariaDb(int code);

// A connection to the endpoint in utf8mb4, reading no option file; null
// with *error when refused.
MYSQL* openMariaConnection(const Endpoint& endpoint, bool nonblocking, QString* error);

class MariaSession final : public Session {
public:
    MariaSession(const Endpoint& endpoint, const QString& id);
    ~MariaSession() override;

    bool send(const QString& sql, const QVariantList& params = {}) override;
    bool poll(int timeoutMs) override;
    bool cancel() override;
    void close() override;

    // `sql` with each ? outside quotes and comments replaced by the next
    // value as a literal; empty with *error when the counts differ.
    QByteArray withValues(const QString& sql, const QVariantList& params, QString* error) const;

private:
    enum class Phase : quint8 { Idle, Query, Store };
    QByteArray literal(const QVariant& value) const;
    void advance(int ready);
    void queryDone(int failed);
    void stored(MYSQL_RES* res);
    void readResult(MYSQL_RES* res);
    void fail();

    Endpoint endpoint_;
    MYSQL* mysql_ = nullptr;
    Phase phase_ = Phase::Idle;
    int waitingFor_ = 0;  // MYSQL_WAIT_* the connector asked for
    QByteArray text_;     // the statement in flight (the connector reads it until done)
};

}  // namespace idem::live
