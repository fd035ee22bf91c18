// One real connection of live mode, stepped from one thread: a statement is
// sent without waiting, and the caller polls until the server has answered,
// so that several sessions can be in flight at once and one of them can wait
// on another's lock while the lab looks on (SPEC section 8, "Stepping on a
// real server"). PostgreSQL and MariaDB each implement it (pgsession.h,
// mariasession.h); the outcome of every statement is classed in the same
// words (sqloutcome.h).
#pragma once

#include "sqloutcome.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantList>

#include <atomic>
#include <memory>

namespace idem::live {

enum class ServerKind : quint8 { Postgres, MariaDb };

// "PostgreSQL", "MariaDB": for messages.
QString serverName(ServerKind kind);

// Where a server listens and as whom the lab connects to it.
struct Endpoint {
    ServerKind kind = ServerKind::Postgres;
    QString socket;  // PostgreSQL: the socket's folder; MariaDB: the socket file
    QString host;    // a server on TCP (--connect): used when socket is empty
    int port = 0;    // 0: the client library's default (5432, 3306)
    QString user;
    QString password;
    QString database;  // empty: none chosen (MariaDB)
};

// What a statement came to: its rows, or its error in the server's own words
// beside the portable outcome.
struct StatementResult {
    SqlOutcome outcome = SqlOutcome::Ok;
    bool returnsRows = false;  // a read (or RETURNING): rows counts what came back
    qint64 rows = 0;           // rows returned, or rows the server says it changed
    qint64 insertId = 0;       // MariaDB: the AUTO_INCREMENT value an INSERT gave
    QStringList columns;
    // MariaDB: each column's type as information_schema's DATA_TYPE names it
    // ("bigint", "varchar", "text"), read from the result's own description.
    QStringList types;
    // Integers as qint64, floating point as double, NULL as a null QVariant,
    // everything else (numeric and decimal included, exactly) as QString.
    QList<QVariantList> data;
    int nativeCode = 0;  // MariaDB's error number; PostgreSQL's code is its SQLSTATE
    QString sqlState;    // "23505"; empty when ok
    QString message;     // the server's message; empty when ok

    bool ok() const { return outcome == SqlOutcome::Ok; }
    QVariant value(int row = 0, int column = 0) const {
        return row < data.size() && column < data[row].size() ? data[row][column] : QVariant();
    }
    // "duplicate key value violates unique constraint ... (23505)"; empty when ok.
    QString errorText() const;
};

class Session {
public:
    virtual ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // The lab's name for it ("a1"), which lock waits report.
    const QString& id() const { return id_; }
    ServerKind kind() const { return kind_; }
    bool isOpen() const { return open_; }
    QString openError() const { return openError_; }
    // The server's number for this connection: PostgreSQL's backend pid,
    // MariaDB's connection (thread) id. What the observer sees.
    qint64 serverId() const { return serverId_; }

    // Sends a statement and returns at once. Parameters in the dialect's
    // own placeholders: $1, $2 on PostgreSQL, ? on MariaDB. False when
    // nothing was sent (closed, or a statement still in flight); result()
    // then says why.
    virtual bool send(const QString& sql, const QVariantList& params = {}) = 0;
    // Reads what the server has answered, waiting at most timeoutMs (0: only
    // look; negative: until it answers). True when nothing is in flight.
    virtual bool poll(int timeoutMs) = 0;
    bool busy() const { return busy_; }
    // Which statement in flight was sent first, across every session of
    // the process: a larger number was sent later.
    quint64 sentOrder() const { return sentOrder_; }
    // When it was sent, in ms of the steady clock (steadyMs()).
    qint64 sentAtMs() const { return sentAtMs_; }
    // The last finished statement's result.
    const StatementResult& result() const { return result_; }
    // The statement text the server received (MariaDB's has the values in
    // it), for the SQL log.
    const QString& sentText() const { return sentText_; }
    // What the session itself told the server as it opened, beyond the
    // run's settings (PostgreSQL: deadlock_timeout, where it may).
    virtual QStringList toldOnOpen() const { return {}; }

    // Asks the server to give up the statement in flight, as the lab's lock
    // timeout does: it then finishes with LockTimeout (57014, 1317), and the
    // transaction is as the server leaves it after that error.
    virtual bool cancel() = 0;
    // Drops the connection as a crashed process would: the server rolls back
    // the open transaction. A statement in flight is cancelled first: a
    // server notices a vanished client only once the statement stops
    // waiting, and until then it would keep the transaction's locks.
    virtual void close() = 0;

    // poll() until the answer is in, hearing `stop` (Esc, Ctrl+C) within a
    // tenth of a second: the statement is then cancelled (the connection
    // closed when the server does not answer the cancel), and the result
    // says it was stopped.
    void waitForAnswer(const std::atomic<bool>* stop);

    // send() and poll() until the answer is in: for set-up statements.
    const StatementResult& exec(const QString& sql, const QVariantList& params = {});
    // The same, heard `stop` (Esc, Ctrl+C) within a tenth of a second: the
    // statement is cancelled (the connection closed when the server does not
    // answer the cancel), and the result says it was stopped. For the
    // set-up's statements, which another client's lock may hold for ever.
    const StatementResult& exec(const QString& sql, const QVariantList& params,
                                const std::atomic<bool>* stop);

protected:
    Session(ServerKind kind, const QString& id);
    void finish(StatementResult result);
    void failToSend(const QString& message);
    // A statement is in flight from now on.
    void markSent();

    ServerKind kind_;
    QString id_;
    bool open_ = false;
    QString openError_;
    qint64 serverId_ = 0;
    bool busy_ = false;
    quint64 sentOrder_ = 0;
    qint64 sentAtMs_ = 0;
    StatementResult result_;
    QString sentText_;
};

// Milliseconds of a clock that only goes forward (since some fixed instant).
qint64 steadyMs();

// A new connection to the endpoint; check isOpen() / openError().
std::unique_ptr<Session> openSession(const Endpoint& endpoint, const QString& id);

}  // namespace idem::live
