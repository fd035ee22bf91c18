#include "redisclient.h"

#include <hiredis/hiredis.h>

#include <QElapsedTimer>

#include <poll.h>
#include <vector>

namespace idem {

namespace {

RedisReply converted(const redisReply* r) {
    RedisReply out;
    switch (r->type) {
        case REDIS_REPLY_STATUS:
            out.type = RedisReply::Type::Status;
            out.text = QString::fromUtf8(r->str, qsizetype(r->len));
            break;
        case REDIS_REPLY_ERROR:
            out.type = RedisReply::Type::Error;
            out.text = QString::fromUtf8(r->str, qsizetype(r->len));
            break;
        case REDIS_REPLY_STRING:
            out.type = RedisReply::Type::String;
            out.text = QString::fromUtf8(r->str, qsizetype(r->len));
            break;
        case REDIS_REPLY_INTEGER:
            out.type = RedisReply::Type::Integer;
            out.integer = r->integer;
            break;
        case REDIS_REPLY_ARRAY:
            out.type = RedisReply::Type::Array;
            for (size_t i = 0; i < r->elements; ++i) out.elements << converted(r->element[i]);
            break;
        default:
            out.type = RedisReply::Type::Nil;
    }
    return out;
}

QString contextError(const redisContext* c) {
    return c->errstr[0] ? QString::fromLocal8Bit(c->errstr) : QStringLiteral("connection lost");
}

}  // namespace

QString RedisPlace::shown() const {
    return socket.isEmpty() ? QStringLiteral("%1:%2").arg(host).arg(port) : socket;
}

std::unique_ptr<RedisConnection> RedisConnection::open(const RedisPlace& place,
                                                       const QString& prefix, QString* error) {
    const timeval connectLimit{5, 0};
    redisContext* c =
        place.socket.isEmpty()
            ? redisConnectWithTimeout(place.host.toUtf8().constData(), place.port, connectLimit)
            : redisConnectUnixWithTimeout(place.socket.toUtf8().constData(), connectLimit);
    if (!c || c->err) {
        *error = QStringLiteral("cannot connect to Redis at %1: %2")
                     .arg(place.shown(), c ? contextError(c) : QStringLiteral("out of memory"));
        if (c)
            redisFree(c);
        return nullptr;
    }
    auto connection = std::unique_ptr<RedisConnection>(new RedisConnection);
    connection->context_ = c;
    connection->prefix_ = prefix;
    // AUTH and SELECT before any step: a connection either works or is refused.
    QList<QStringList> greeting;
    if (!place.password.isEmpty())
        greeting << (place.user.isEmpty()
                         ? QStringList{QStringLiteral("AUTH"), place.password}
                         : QStringList{QStringLiteral("AUTH"), place.user, place.password});
    if (place.database != 0)
        greeting << QStringList{QStringLiteral("SELECT"), QString::number(place.database)};
    for (const QStringList& command : greeting) {
        connection->prefix_.clear();
        const RedisReply r = connection->run(command, nullptr, 5'000);
        if (r.isError()) {
            *error = QStringLiteral("Redis at %1 refused %2: %3")
                         .arg(place.shown(), command.first(), r.text);
            return nullptr;
        }
    }
    connection->prefix_ = prefix;
    return connection;
}

RedisConnection::~RedisConnection() {
    if (context_)
        redisFree(context_);
}

bool RedisConnection::flush() {
    int done = 0;
    while (!done) {
        if (redisBufferWrite(context_, &done) != REDIS_OK) {
            broken_ = contextError(context_);
            return false;
        }
    }
    return true;
}

bool RedisConnection::send(const QStringList& arguments) {
    if (!broken_.isEmpty())
        return false;
    std::vector<QByteArray> bytes;
    bytes.reserve(std::size_t(arguments.size()));
    const QList<qsizetype> keys = keyPositions(arguments);
    for (qsizetype i = 0; i < arguments.size(); ++i)
        bytes.push_back(((keys.contains(i) ? prefix_ : QString()) + arguments[i]).toUtf8());
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (const QByteArray& b : bytes) {
        argv.push_back(b.constData());
        lengths.push_back(size_t(b.size()));
    }
    if (redisAppendCommandArgv(context_, int(argv.size()), argv.data(), lengths.data()) !=
        REDIS_OK) {
        broken_ = contextError(context_);
        return false;
    }
    return flush();
}

// A reply that names keys (XREADGROUP's streams) names them as the run
// sent them: the prefix a user's server keeps the run's keys under is the
// connection's, never the run's.
void RedisConnection::unprefix(RedisReply& reply) const {
    if (prefix_.isEmpty())
        return;
    if ((reply.type == RedisReply::Type::String || reply.type == RedisReply::Type::Status) &&
        reply.text.startsWith(prefix_))
        reply.text.remove(0, prefix_.size());
    for (RedisReply& e : reply.elements) unprefix(e);
}

bool RedisConnection::poll(int timeoutMs, RedisReply* reply) {
    if (!broken_.isEmpty()) {
        *reply = RedisReply::error(broken_);
        return true;
    }
    void* raw = nullptr;
    if (redisReaderGetReply(context_->reader, &raw) == REDIS_OK && raw) {
        *reply = converted(static_cast<redisReply*>(raw));
        freeReplyObject(raw);
        unprefix(*reply);
        return true;
    }
    pollfd p{context_->fd, POLLIN, 0};
    if (::poll(&p, 1, timeoutMs) <= 0)
        return false;
    if (redisBufferRead(context_) != REDIS_OK ||
        redisReaderGetReply(context_->reader, &raw) != REDIS_OK) {
        broken_ = contextError(context_);
        *reply = RedisReply::error(broken_);
        return true;
    }
    if (!raw)
        return false;
    *reply = converted(static_cast<redisReply*>(raw));
    freeReplyObject(raw);
    unprefix(*reply);
    return true;
}

RedisReply RedisConnection::run(const QStringList& arguments, const std::atomic<bool>* cancel,
                                int limitMs) {
    if (!send(arguments))
        return RedisReply::error(broken_);
    QElapsedTimer clock;
    clock.start();
    RedisReply reply;
    while (!poll(10, &reply)) {
        if (cancel && cancel->load()) {
            broken_ = QStringLiteral("cancelled while waiting for Redis");
            return RedisReply::error(broken_);
        }
        if (clock.elapsed() > limitMs) {
            broken_ = QStringLiteral("Redis did not answer within %1 ms").arg(limitMs);
            return RedisReply::error(broken_);
        }
    }
    return reply;
}

}  // namespace idem
