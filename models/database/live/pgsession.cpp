#include "pgsession.h"

#include "pgpool.h"

#include <QDeadlineTimer>

#include <libpq-fe.h>

#include <poll.h>
#include <sys/socket.h>
#include <cstdlib>
#include <vector>

namespace idem::live {

namespace {

// libpq's connection, made at once (blocking) or only begun (start).
PGconn* connectPg(const Endpoint& endpoint, const char* application, bool start) {
    const QByteArray host = (endpoint.socket.isEmpty() ? endpoint.host : endpoint.socket).toUtf8();
    const QByteArray port = endpoint.port > 0 ? QByteArray::number(endpoint.port) : QByteArray();
    const QByteArray user = endpoint.user.toUtf8();
    const QByteArray password = endpoint.password.toUtf8();
    const QByteArray database = endpoint.database.toUtf8();
    // An empty value is as if the key were not given (libpq's default);
    // no password file nor service file changes where the lab connects.
    const char* keys[] = {
        "host", "port", "user", "password", "dbname", "application_name", "connect_timeout",
        nullptr};
    const char* values[] = {host.constData(),
                            port.constData(),
                            user.constData(),
                            password.constData(),
                            database.constData(),
                            application,
                            "10",
                            nullptr};
    PGconn* conn =
        start ? PQconnectStartParams(keys, values, 0) : PQconnectdbParams(keys, values, 0);
    // Notices ("there is no transaction in progress") are not errors; the
    // default processor would print them on the lab's stderr.
    if (conn)
        PQsetNoticeProcessor(
            conn, [](void*, const char*) {}, nullptr);
    return conn;
}

}  // namespace

PGconn* openPgConnection(const Endpoint& endpoint, const char* application) {
    return connectPg(endpoint, application, false);
}

PGconn* startPgConnection(const Endpoint& endpoint, const char* application) {
    return connectPg(endpoint, application, true);
}

// The first line: libpq adds hints ("This probably means the server
// terminated abnormally") that say less than the line before them.
QString pgConnectionError(PGconn* conn) {
    return QString::fromUtf8(PQerrorMessage(conn)).section(u'\n', 0, 0).trimmed();
}

namespace {

// Type oids of pg_type that come back typed (the rest is text).
constexpr Oid kBool = 16;
constexpr Oid kInt8 = 20;
constexpr Oid kInt2 = 21;
constexpr Oid kInt4 = 23;
constexpr Oid kOid = 26;
constexpr Oid kFloat4 = 700;
constexpr Oid kFloat8 = 701;

QByteArray asText(const QVariant& value) {
    switch (value.typeId()) {
        case QMetaType::Bool:
            return value.toBool() ? "true" : "false";
        case QMetaType::Double:
            return QByteArray::number(value.toDouble(), 'g', 17);
        case QMetaType::QByteArray:
            return value.toByteArray();
        default:
            return value.toString().toUtf8();
    }
}

QVariant valueOf(const PGresult* res, int row, int column) {
    if (PQgetisnull(res, row, column))
        return QVariant();
    const char* text = PQgetvalue(res, row, column);
    const int length = PQgetlength(res, row, column);
    switch (PQftype(res, column)) {
        case kInt8:
        case kInt2:
        case kInt4:
        case kOid:
            return QVariant(qint64(std::strtoll(text, nullptr, 10)));
        case kBool:
            return QVariant(text[0] == 't');
        case kFloat4:
        case kFloat8:
            return QVariant(QByteArray(text, length).toDouble());
        default:
            return QVariant(QString::fromUtf8(text, length));
    }
}

// Adds what one PGresult says to the statement's result (a statement sent
// with PQsendQueryParams has one, but an error may follow rows).
void take(const PGresult* res, StatementResult* into) {
    switch (PQresultStatus(res)) {
        case PGRES_TUPLES_OK:
        case PGRES_SINGLE_TUPLE: {
            into->returnsRows = true;
            const int columns = PQnfields(res);
            if (into->columns.isEmpty())
                for (int c = 0; c < columns; ++c)
                    into->columns << QString::fromUtf8(PQfname(res, c));
            const int rows = PQntuples(res);
            for (int r = 0; r < rows; ++r) {
                QVariantList row;
                row.reserve(columns);
                for (int c = 0; c < columns; ++c) row << valueOf(res, r, c);
                into->data << row;
            }
            into->rows = into->data.size();
            break;
        }
        case PGRES_COMMAND_OK:
            into->rows = std::strtoll(PQcmdTuples(const_cast<PGresult*>(res)), nullptr, 10);
            break;
        case PGRES_EMPTY_QUERY:
            break;
        default: {
            const char* state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
            const char* primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
            into->sqlState = QString::fromLatin1(state ? state : "");
            into->message = primary ? QString::fromUtf8(primary)
                                    : QString::fromUtf8(PQresultErrorMessage(res)).trimmed();
            // An error without a code is the client's own (a lost connection).
            into->outcome = into->sqlState.isEmpty() ? SqlOutcome::OtherError
                                                     : classifyPostgres(into->sqlState);
            break;
        }
    }
}

}  // namespace

SqlOutcome classifyPostgres(const QString& sqlState) {
    if (sqlState.isEmpty())
        return SqlOutcome::Ok;
    if (sqlState == u"23505")
        return SqlOutcome::UniqueViolation;
    if (sqlState == u"23514")
        return SqlOutcome::CheckViolation;
    if (sqlState == u"40P01")
        return SqlOutcome::Deadlock;
    if (sqlState == u"40001")
        return SqlOutcome::SerializationFailure;
    // lock_not_available (lock_timeout, NOWAIT); query_canceled is the lab's
    // own lock timeout, a cancel at a virtual instant.
    if (sqlState == u"55P03" || sqlState == u"57014")
        return SqlOutcome::LockTimeout;
    // disk_full, io_error, data_corrupted
    if (sqlState == u"53100" || sqlState == u"58030" || sqlState == u"XX001")
        return SqlOutcome::StorageFailure;
    return SqlOutcome::OtherError;
}

namespace {

const char* const kApplication = "idemlab";
constexpr char kVictimRule[] = "SET deadlock_timeout = '1ms'";

// The deadlock victim is the session that closes the cycle, whatever
// the pace of the steps. PostgreSQL looks for a cycle once per wait,
// deadlock_timeout after it began (1 s by default): a session that
// waited longer than that before the cycle closed has looked and will
// not again, so with the default the victim would be the first waiter
// when the steps come quickly (a run) and the last when they come
// slowly (a class stepping by hand). At 1 ms every waiter has looked
// before the lab, which polls every 10 ms, sends the next step; only the
// closing session then finds the cycle. Setting it takes a superuser
// (the private server's user): on a user's server that refuses, its own
// setting stays.
bool chooseVictimRule(PGconn* conn) {
    // Not tried where it would be refused: each refusal is an error in the
    // server's log, on a server the lab shares with others (--connect).
    const char* superuser = PQparameterStatus(conn, "is_superuser");
    if (!superuser || qstrcmp(superuser, "on") != 0)
        return false;
    PGresult* victimRule = PQexec(conn, kVictimRule);
    const bool set = PQresultStatus(victimRule) == PGRES_COMMAND_OK;
    PQclear(victimRule);
    return set;
}

}  // namespace

QStringList PgSession::toldOnOpen() const {
    if (!choosesVictim_)
        return {};
    return {QString::fromLatin1(kVictimRule)};
}

PgSession::PgSession(const Endpoint& endpoint, const QString& id)
    : Session(ServerKind::Postgres, id), endpoint_(endpoint) {
    conn_ = takePooledConnection(endpoint, kApplication);
    if (!conn_) {
        conn_ = openPgConnection(endpoint, kApplication);
        if (PQstatus(conn_) != CONNECTION_OK) {
            openError_ = pgConnectionError(conn_);
            return;
        }
    }
    // Also on a kept connection, which DISCARD ALL gave the default again.
    choosesVictim_ = chooseVictimRule(conn_);
    // Writes never block the lab either: what the socket cannot take now
    // is flushed by poll().
    PQsetnonblocking(conn_, 1);
    serverId_ = PQbackendPID(conn_);
    open_ = true;
}

// A session that ends in the ordinary way leaves its connection for the
// next (pgpool.h); one still busy is dropped.
PgSession::~PgSession() {
    if (open_ && !busy_ && !flushing_)
        giveBackConnection(endpoint_, kApplication, conn_);
    else
        PQfinish(conn_);
}

bool PgSession::send(const QString& sql, const QVariantList& params) {
    if (!open_ || busy_) {
        failToSend(open_ ? QStringLiteral("a statement is still in flight")
                         : QStringLiteral("the connection is closed"));
        return false;
    }
    std::vector<QByteArray> texts;
    std::vector<const char*> values;
    texts.reserve(params.size());
    for (const QVariant& p : params) {
        texts.push_back(p.isNull() ? QByteArray() : asText(p));
        values.push_back(p.isNull() ? nullptr : texts.back().constData());
    }
    const QByteArray text = sql.toUtf8();
    sentText_ = sql;
    if (!PQsendQueryParams(conn_, text.constData(), int(values.size()), nullptr, values.data(),
                           nullptr, nullptr, 0)) {
        failToSend(pgConnectionError(conn_));
        return false;
    }
    markSent();
    pending_ = {};
    flushing_ = true;
    return true;
}

bool PgSession::poll(int timeoutMs) {
    if (!busy_)
        return true;
    const QDeadlineTimer deadline(timeoutMs < 0 ? QDeadlineTimer::Forever
                                                : QDeadlineTimer(timeoutMs));
    for (;;) {
        if (flushing_) {
            const int left = PQflush(conn_);
            if (left < 0) {
                lost();
                return true;
            }
            flushing_ = left == 1;
        }
        if (!PQconsumeInput(conn_)) {
            lost();
            return true;
        }
        while (!PQisBusy(conn_)) {
            PGresult* res = PQgetResult(conn_);
            if (!res) {
                // A server that ended the connection (its shutdown, a
                // terminated backend) said why in the result.
                open_ = PQstatus(conn_) == CONNECTION_OK;
                finish(std::move(pending_));
                return true;
            }
            take(res, &pending_);
            PQclear(res);
        }
        const qint64 left = deadline.remainingTime();
        if (left == 0)
            return false;
        pollfd fd{PQsocket(conn_), short(POLLIN | (flushing_ ? POLLOUT : 0)), 0};
        ::poll(&fd, 1, left < 0 ? -1 : int(left));
    }
}

void PgSession::lost() {
    StatementResult gone;
    gone.outcome = SqlOutcome::OtherError;
    gone.message = pgConnectionError(conn_);
    open_ = false;
    finish(std::move(gone));
}

bool PgSession::cancel() {
    if (!busy_)
        return false;
    PGcancel* request = PQgetCancel(conn_);
    if (!request)
        return false;
    char error[256];
    const bool sent = PQcancel(request, error, sizeof error);
    PQfreeCancel(request);
    return sent;
}

void PgSession::close() {
    if (!open_)
        return;
    if (busy_ && cancel())
        poll(5000);
    // No goodbye (libpq's Terminate message): the server sees the socket
    // end, as when a process dies, and rolls back.
    ::shutdown(PQsocket(conn_), SHUT_RDWR);
    PQfinish(conn_);
    // The next run's attempt would open one: its server process starts now,
    // while this run goes on (a private server's pool only).
    startSpareConnection(endpoint_, kApplication);
    conn_ = nullptr;
    open_ = false;
    busy_ = false;
}

}  // namespace idem::live
