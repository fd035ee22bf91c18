#include "mariasession.h"

#include <QDeadlineTimer>

#include <mysql.h>

#include <poll.h>
#include <sys/socket.h>
#include <cstdlib>
#include <mutex>

namespace idem::live {

namespace {

// The connector's error numbers the lab acts on (mysqld_error.h).
constexpr int kDupKey = 1022;
constexpr int kDupEntry = 1062;
constexpr int kDupEntryWithKeyName = 1586;
constexpr int kConstraintFailed = 4025;  // a CHECK constraint
constexpr int kDeadlock = 1213;
constexpr int kLockWaitTimeout = 1205;
constexpr int kQueryInterrupted = 1317;  // KILL QUERY: the lab's own lock timeout
constexpr int kCheckRead = 1020;         // record changed since read (innodb_snapshot_isolation)
constexpr int kDiskFull = 1021;
constexpr int kErrorOnWrite = 1026;
constexpr int kRecordFileFull = 1114;
constexpr int kServerGone = 2006;
constexpr int kServerLost = 2013;
constexpr unsigned kBinaryCharset = 63;

bool isInteger(enum_field_types type) {
    switch (type) {
        case MYSQL_TYPE_TINY:
        case MYSQL_TYPE_SHORT:
        case MYSQL_TYPE_LONG:
        case MYSQL_TYPE_INT24:
        case MYSQL_TYPE_LONGLONG:
        case MYSQL_TYPE_YEAR:
            return true;
        default:
            return false;
    }
}

// Bytes, not text: a string or blob column of the binary character set.
bool isBinary(const MYSQL_FIELD& field) {
    switch (field.type) {
        case MYSQL_TYPE_TINY_BLOB:
        case MYSQL_TYPE_MEDIUM_BLOB:
        case MYSQL_TYPE_LONG_BLOB:
        case MYSQL_TYPE_BLOB:
        case MYSQL_TYPE_STRING:
        case MYSQL_TYPE_VAR_STRING:
        case MYSQL_TYPE_VARCHAR:
            return field.charsetnr == kBinaryCharset;
        default:
            return false;
    }
}

QVariant valueOf(const MYSQL_FIELD& field, const char* text, unsigned long length) {
    if (!text)
        return QVariant();
    if (isInteger(field.type))
        return QVariant(qint64(std::strtoll(text, nullptr, 10)));
    if (field.type == MYSQL_TYPE_FLOAT || field.type == MYSQL_TYPE_DOUBLE)
        return QVariant(QByteArray(text, int(length)).toDouble());
    if (isBinary(field))
        return QVariant(QByteArray(text, int(length)));
    return QVariant(QString::fromUtf8(text, int(length)));
}

// A column's type in information_schema's words (its DATA_TYPE), from what
// the server says of the column with the rows: reading the table's shape
// this way needs no information_schema query (MariaDB 10.11 has crashed
// under load in one, in the Aria temporary table such a query builds).
QString typeName(const MYSQL_FIELD& field) {
    const bool binary = field.charsetnr == kBinaryCharset;
    switch (field.type) {
        case MYSQL_TYPE_TINY:
            return QStringLiteral("tinyint");
        case MYSQL_TYPE_SHORT:
            return QStringLiteral("smallint");
        case MYSQL_TYPE_INT24:
            return QStringLiteral("mediumint");
        case MYSQL_TYPE_LONG:
            return QStringLiteral("int");
        case MYSQL_TYPE_LONGLONG:
            return QStringLiteral("bigint");
        case MYSQL_TYPE_DECIMAL:
        case MYSQL_TYPE_NEWDECIMAL:
            return QStringLiteral("decimal");
        case MYSQL_TYPE_FLOAT:
            return QStringLiteral("float");
        case MYSQL_TYPE_DOUBLE:
            return QStringLiteral("double");
        case MYSQL_TYPE_TIMESTAMP:
        case MYSQL_TYPE_TIMESTAMP2:
            return QStringLiteral("timestamp");
        case MYSQL_TYPE_DATE:
        case MYSQL_TYPE_NEWDATE:
            return QStringLiteral("date");
        case MYSQL_TYPE_TIME:
        case MYSQL_TYPE_TIME2:
            return QStringLiteral("time");
        case MYSQL_TYPE_DATETIME:
        case MYSQL_TYPE_DATETIME2:
            return QStringLiteral("datetime");
        case MYSQL_TYPE_YEAR:
            return QStringLiteral("year");
        case MYSQL_TYPE_BIT:
            return QStringLiteral("bit");
        case MYSQL_TYPE_VARCHAR:
        case MYSQL_TYPE_VAR_STRING:
            return binary ? QStringLiteral("varbinary") : QStringLiteral("varchar");
        case MYSQL_TYPE_STRING:
            if (field.flags & ENUM_FLAG)
                return QStringLiteral("enum");
            if (field.flags & SET_FLAG)
                return QStringLiteral("set");
            return binary ? QStringLiteral("binary") : QStringLiteral("char");
        case MYSQL_TYPE_TINY_BLOB:
        case MYSQL_TYPE_MEDIUM_BLOB:
        case MYSQL_TYPE_LONG_BLOB:
        case MYSQL_TYPE_BLOB: {
            // The server sends every size as BLOB: the size tells them apart
            // (in bytes, four a character in utf8mb4).
            const char* size = field.length <= 1020         ? "tiny"
                               : field.length <= 262140     ? ""
                               : field.length <= 67108860ul ? "medium"
                                                            : "long";
            return QLatin1String(size) + (binary ? QLatin1String("blob") : QLatin1String("text"));
        }
        default:
            return QStringLiteral("text");
    }
}

short pollEvents(int waitingFor) {
    short events = 0;
    if (waitingFor & MYSQL_WAIT_READ)
        events |= POLLIN;
    if (waitingFor & MYSQL_WAIT_WRITE)
        events |= POLLOUT;
    if (waitingFor & MYSQL_WAIT_EXCEPT)
        events |= POLLPRI;
    return events;
}

int readiness(short revents) {
    int ready = 0;
    // An error or hang-up is given to the connector as readable: its read
    // then fails and reports the lost connection.
    if (revents & (POLLIN | POLLERR | POLLHUP))
        ready |= MYSQL_WAIT_READ;
    if (revents & POLLOUT)
        ready |= MYSQL_WAIT_WRITE;
    if (revents & POLLPRI)
        ready |= MYSQL_WAIT_EXCEPT;
    return ready;
}

}  // namespace

MYSQL* openMariaConnection(const Endpoint& endpoint, bool nonblocking, QString* error) {
    static std::once_flag initialised;
    std::call_once(initialised, [] { mysql_library_init(0, nullptr, nullptr); });
    MYSQL* mysql = mysql_init(nullptr);
    if (!mysql) {
        *error = QStringLiteral("out of memory");
        return nullptr;
    }
    if (nonblocking)
        mysql_options(mysql, MYSQL_OPT_NONBLOCK, nullptr);
    mysql_options(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    const QByteArray user = endpoint.user.toUtf8();
    const QByteArray password = endpoint.password.toUtf8();
    const QByteArray database = endpoint.database.toUtf8();
    const QByteArray socket = endpoint.socket.toUtf8();
    const QByteArray host = endpoint.socket.isEmpty() && !endpoint.host.isEmpty()
                                ? endpoint.host.toUtf8()
                                : QByteArrayLiteral("localhost");
    const unsigned int timeoutS = 10;
    mysql_options(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeoutS);
    // A port asks for TCP, even to localhost (which the client would
    // otherwise read as its default socket).
    if (socket.isEmpty() && endpoint.port > 0) {
        const unsigned int tcp = MYSQL_PROTOCOL_TCP;
        mysql_options(mysql, MYSQL_OPT_PROTOCOL, &tcp);
    }
    if (!mysql_real_connect(mysql, host.constData(), user.constData(), password.constData(),
                            database.isEmpty() ? nullptr : database.constData(),
                            static_cast<unsigned int>(endpoint.port),
                            socket.isEmpty() ? nullptr : socket.constData(), 0)) {
        *error = QString::fromUtf8(mysql_error(mysql));
        mysql_close(mysql);
        return nullptr;
    }
    return mysql;
}

SqlOutcome classifyMariaDb(int code) {
    switch (code) {
        case 0:
            return SqlOutcome::Ok;
        case kDupKey:
        case kDupEntry:
        case kDupEntryWithKeyName:
            return SqlOutcome::UniqueViolation;
        case kConstraintFailed:
            return SqlOutcome::CheckViolation;
        case kDeadlock:
            return SqlOutcome::Deadlock;
        case kLockWaitTimeout:
        case kQueryInterrupted:
            return SqlOutcome::LockTimeout;
        case kCheckRead:
            return SqlOutcome::SerializationFailure;
        case kDiskFull:
        case kErrorOnWrite:
        case kRecordFileFull:
            return SqlOutcome::StorageFailure;
        default:
            return SqlOutcome::OtherError;
    }
}

MariaSession::MariaSession(const Endpoint& endpoint, const QString& id)
    : Session(ServerKind::MariaDb, id), endpoint_(endpoint) {
    mysql_ = openMariaConnection(endpoint, true, &openError_);
    if (!mysql_)
        return;
    serverId_ = qint64(mysql_thread_id(mysql_));
    open_ = true;
}

MariaSession::~MariaSession() {
    if (mysql_)
        mysql_close(mysql_);
}

// A value as MariaDB reads it in a statement's text.
QByteArray MariaSession::literal(const QVariant& value) const {
    switch (value.typeId()) {
        case QMetaType::UnknownType:
        case QMetaType::Nullptr:
            return "NULL";
        case QMetaType::Bool:
            return value.toBool() ? "TRUE" : "FALSE";
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong:
            return value.toString().toLatin1();
        case QMetaType::Double:
            return QByteArray::number(value.toDouble(), 'g', 17);
        case QMetaType::QByteArray:
            return "X'" + value.toByteArray().toHex() + "'";
        default: {
            // In the connection's character set, and as its SQL mode wants
            // quotes escaped (NO_BACKSLASH_ESCAPES or not).
            const QByteArray text = value.toString().toUtf8();
            QByteArray escaped(2 * text.size() + 1, Qt::Uninitialized);
            const unsigned long length = mysql_real_escape_string(
                mysql_, escaped.data(), text.constData(), static_cast<unsigned long>(text.size()));
            escaped.truncate(qsizetype(length));
            return '\'' + escaped + '\'';
        }
    }
}

QByteArray MariaSession::withValues(const QString& sql, const QVariantList& params,
                                    QString* error) const {
    const QByteArray in = sql.toUtf8();
    QByteArray out;
    out.reserve(in.size() + 16 * params.size());
    qsizetype next = 0;
    const qsizetype n = in.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = in[i];
        const char after = i + 1 < n ? in[i + 1] : '\0';
        qsizetype end = i;  // the last byte of a quoted name, string or comment
        if (c == '\'' || c == '"' || c == '`') {
            end = i + 1;
            while (end < n) {
                if (in[end] == '\\' && c != '`') {
                    end += 2;
                } else if (in[end] == c) {
                    if (end + 1 < n && in[end + 1] == c)
                        end += 2;  // a doubled quote is one quote
                    else
                        break;
                } else {
                    ++end;
                }
            }
        } else if (c == '#' ||
                   (c == '-' && after == '-' && (i + 2 == n || QChar::isSpace(uchar(in[i + 2]))))) {
            // "-- " begins a comment only before a space, as MariaDB reads it
            end = in.indexOf('\n', i);
            if (end < 0)
                end = n - 1;
        } else if (c == '/' && after == '*') {
            end = in.indexOf("*/", i + 2);
            end = end < 0 ? n - 1 : end + 1;
        } else if (c == '?') {
            if (next == params.size()) {
                *error = QStringLiteral("more ? than values (%1)").arg(params.size());
                return {};
            }
            out += literal(params[next++]);
            continue;
        }
        out += QByteArrayView(in.constData() + i, qMin(end, n - 1) - i + 1);
        i = qMin(end, n - 1);
    }
    if (next != params.size()) {
        *error = QStringLiteral("%1 values for %2 ?").arg(params.size()).arg(next);
        return {};
    }
    return out;
}

bool MariaSession::send(const QString& sql, const QVariantList& params) {
    if (!open_ || busy_) {
        failToSend(open_ ? QStringLiteral("a statement is still in flight")
                         : QStringLiteral("the connection is closed"));
        return false;
    }
    QString error;
    text_ = withValues(sql, params, &error);
    if (!error.isEmpty()) {
        failToSend(error);
        return false;
    }
    sentText_ = QString::fromUtf8(text_);
    markSent();
    phase_ = Phase::Query;
    int failed = 0;
    waitingFor_ = mysql_real_query_start(&failed, mysql_, text_.constData(),
                                         static_cast<unsigned long>(text_.size()));
    if (waitingFor_ == 0)
        queryDone(failed);
    return true;
}

// Drives the connector one step further, with what the socket is ready for
// (MYSQL_WAIT_*).
void MariaSession::advance(int ready) {
    if (phase_ == Phase::Query) {
        int failed = 0;
        waitingFor_ = mysql_real_query_cont(&failed, mysql_, ready);
        if (waitingFor_ == 0)
            queryDone(failed);
    } else if (phase_ == Phase::Store) {
        MYSQL_RES* res = nullptr;
        waitingFor_ = mysql_store_result_cont(&res, mysql_, ready);
        if (waitingFor_ == 0)
            stored(res);
    }
}

void MariaSession::queryDone(int failed) {
    if (failed) {
        fail();
        return;
    }
    phase_ = Phase::Store;
    MYSQL_RES* res = nullptr;
    waitingFor_ = mysql_store_result_start(&res, mysql_);
    if (waitingFor_ == 0)
        stored(res);
}

void MariaSession::stored(MYSQL_RES* res) {
    if (!res && mysql_errno(mysql_) != 0)
        fail();
    else
        readResult(res);
}

void MariaSession::readResult(MYSQL_RES* res) {
    StatementResult result;
    if (res) {
        result.returnsRows = true;
        const unsigned columns = mysql_num_fields(res);
        const MYSQL_FIELD* fields = mysql_fetch_fields(res);
        for (unsigned c = 0; c < columns; ++c) {
            result.columns << QString::fromUtf8(fields[c].name);
            result.types << typeName(fields[c]);
        }
        while (MYSQL_ROW row = mysql_fetch_row(res)) {
            const unsigned long* lengths = mysql_fetch_lengths(res);
            QVariantList values;
            values.reserve(columns);
            for (unsigned c = 0; c < columns; ++c) values << valueOf(fields[c], row[c], lengths[c]);
            result.data << values;
        }
        result.rows = result.data.size();
        mysql_free_result(res);
    } else {
        // Rows changed, not rows matched: an UPDATE that leaves a row as it
        // was counts 0 on MariaDB (the connection does not ask for
        // CLIENT_FOUND_ROWS), where SQLite and PostgreSQL count it.
        result.rows = qint64(mysql_affected_rows(mysql_));
        result.insertId = qint64(mysql_insert_id(mysql_));
    }
    phase_ = Phase::Idle;
    finish(std::move(result));
}

void MariaSession::fail() {
    StatementResult result;
    result.nativeCode = int(mysql_errno(mysql_));
    result.sqlState = QString::fromLatin1(mysql_sqlstate(mysql_));
    result.message = QString::fromUtf8(mysql_error(mysql_));
    result.outcome = classifyMariaDb(result.nativeCode);
    if (result.nativeCode == kServerGone || result.nativeCode == kServerLost)
        open_ = false;
    phase_ = Phase::Idle;
    finish(std::move(result));
}

bool MariaSession::poll(int timeoutMs) {
    if (!busy_)
        return true;
    const QDeadlineTimer deadline(timeoutMs < 0 ? QDeadlineTimer::Forever
                                                : QDeadlineTimer(timeoutMs));
    for (;;) {
        const qint64 left = deadline.remainingTime();
        pollfd fd{mysql_get_socket(mysql_), pollEvents(waitingFor_), 0};
        const int n = ::poll(&fd, 1, left < 0 ? -1 : int(left));
        if (n > 0) {
            advance(readiness(fd.revents));
            if (!busy_)
                return true;
        } else if (left == 0 || deadline.hasExpired()) {
            return false;
        }
    }
}

// KILL QUERY on a second, short connection: the way PQcancel reaches a busy
// PostgreSQL connection, so that a session can be cancelled (and closed)
// without an observer.
bool MariaSession::cancel() {
    if (!busy_)
        return false;
    QString error;
    MYSQL* killer = openMariaConnection(endpoint_, false, &error);
    if (!killer)
        return false;
    const QByteArray kill = "KILL QUERY " + QByteArray::number(serverId_);
    const bool sent =
        mysql_real_query(killer, kill.constData(), static_cast<unsigned long>(kill.size())) == 0;
    mysql_close(killer);
    return sent;
}

void MariaSession::close() {
    if (!open_)
        return;
    if (busy_ && cancel())
        poll(5000);
    // No goodbye (COM_QUIT): the server sees the socket end, as when a
    // process dies, and rolls back.
    ::shutdown(mysql_get_socket(mysql_), SHUT_RDWR);
    mysql_close(mysql_);
    mysql_ = nullptr;
    open_ = false;
    busy_ = false;
    phase_ = Phase::Idle;
}

}  // namespace idem::live
