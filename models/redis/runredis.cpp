#include "runredis.h"

#include <QRandomGenerator>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace idem {

namespace {

QString shortened(const QString& text) {
    return text.size() > 100 ? text.left(99) + QChar(0x2026) : text;
}

}  // namespace

bool isRedisUrl(const QString& value) {
    return value.startsWith(QLatin1String("redis://")) ||
           value.startsWith(QLatin1String("unix://"));
}

std::optional<RedisPlace> parseRedisUrl(const QString& url, QString* error) {
    const QUrl u(url, QUrl::StrictMode);
    RedisPlace place;
    if (!u.isValid() || !isRedisUrl(url)) {
        *error = QStringLiteral(
            "--redis takes private, off, redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or "
            "unix:///PATH/redis.sock[?db=N]");
        return std::nullopt;
    }
    place.user = u.userName();
    place.password = u.password();
    bool ok = true;
    if (u.scheme() == QLatin1String("unix")) {
        place.socket = u.path();
        const QUrlQuery query(u);
        if (query.hasQueryItem(QStringLiteral("db")))
            place.database = query.queryItemValue(QStringLiteral("db")).toInt(&ok);
        if (place.socket.isEmpty()) {
            *error = QStringLiteral("--redis unix:// names no socket: unix:///PATH/redis.sock");
            return std::nullopt;
        }
    } else {
        place.host = u.host();
        place.port = u.port(6379);
        const QString db = u.path().mid(1);
        if (!db.isEmpty())
            place.database = db.toInt(&ok);
        if (place.host.isEmpty()) {
            *error = QStringLiteral("--redis redis:// names no host: redis://HOST[:PORT][/DB]");
            return std::nullopt;
        }
    }
    if (!ok || place.database < 0) {
        *error = QStringLiteral("--redis: the database must be a number from 0 (as SELECT takes)");
        return std::nullopt;
    }
    return place;
}

std::unique_ptr<RunRedis> RunRedis::startPrivate(QString* error, bool* badInput) {
    auto server = PrivateRedis::start(error, badInput);
    if (!server)
        return nullptr;
    auto redis = std::unique_ptr<RunRedis>(new RunRedis);
    redis->place_ = server->place();
    redis->server_ = std::move(server);
    return redis;
}

std::unique_ptr<RunRedis> RunRedis::connectTo(const QString& url, QString* error) {
    const std::optional<RedisPlace> place = parseRedisUrl(url, error);
    if (!place)
        return nullptr;
    // The run's keys only: a prefix no other run has.
    const QString prefix = QStringLiteral("idemlab:%1:")
                               .arg(QRandomGenerator::global()->generate64() & 0xffffffffffffULL,
                                    12, 16, QLatin1Char('0'));
    auto probe = RedisConnection::open(*place, prefix, error);
    if (!probe)
        return nullptr;
    auto redis = std::unique_ptr<RunRedis>(new RunRedis);
    redis->place_ = *place;
    redis->prefix_ = prefix;
    return redis;
}

std::unique_ptr<RunRedis> RunRedis::play(QList<RedisExchange> recorded) {
    auto redis = std::unique_ptr<RunRedis>(new RunRedis);
    redis->playing_ = true;
    redis->recorded_ = std::move(recorded);
    return redis;
}

RunRedis::~RunRedis() {
    if (!kept_ && !prefix_.isEmpty())
        deleteKeys();
}

// SCAN for the prefix, then DEL what it found, until the cursor is back at 0.
void RunRedis::deleteKeys() {
    QString error;
    auto c = RedisConnection::open(place_, {}, &error);
    if (!c)
        return;
    QString cursor = QStringLiteral("0");
    do {
        const RedisReply r =
            c->run({QStringLiteral("SCAN"), cursor, QStringLiteral("MATCH"),
                    prefix_ + QLatin1Char('*'), QStringLiteral("COUNT"), QStringLiteral("500")},
                   nullptr);
        if (r.type != RedisReply::Type::Array || r.elements.size() != 2)
            return;
        cursor = r.elements[0].text;
        QStringList del{QStringLiteral("DEL")};
        for (const RedisReply& key : r.elements[1].elements) del << key.text;
        if (del.size() > 1)
            c->run(del, nullptr);
    } while (cursor != QLatin1String("0"));
}

QString RunRedis::version() const {
    return server_ ? server_->version() : QString();
}

std::unique_ptr<RedisSession> RunRedis::connect(const QString& id, QString* error) {
    auto session = std::unique_ptr<RedisSession>(new RedisSession(*this, id));
    if (!playing_) {
        session->connection_ = RedisConnection::open(place_, prefix_, error);
        if (!session->connection_)
            return nullptr;
    }
    return session;
}

QString RunRedis::keep() {
    kept_ = true;
    if (server_)
        return QStringLiteral("Redis is left running: %1 (stop it with: redis-cli -s %2 shutdown)")
            .arg(server_->keep(), place_.socket);
    if (!prefix_.isEmpty())
        return QStringLiteral("the run's Redis keys are kept under %1* at %2")
            .arg(prefix_, place_.shown());
    return {};
}

RedisSession::~RedisSession() = default;

RedisReply RedisSession::run(const QStringList& arguments, const std::atomic<bool>* cancel) {
    if (connection_)
        return connection_->run(arguments, cancel);
    RunRedis& r = redis_;
    const QString text = commandText(arguments);
    if (r.failure_.isEmpty()) {
        if (r.next_ >= r.recorded_.size())
            r.failure_ = QStringLiteral(
                             "this version sends \"%1\" to Redis on %2, where the recording has "
                             "no more commands")
                             .arg(shortened(text), id_);
        else if (const RedisExchange& e = r.recorded_[r.next_];
                 e.command != text || e.connection != id_)
            r.failure_ = QStringLiteral(
                             "the recording's Redis command %1 is \"%2\" on %3, this version "
                             "sends \"%4\" on %5")
                             .arg(r.next_ + 1)
                             .arg(shortened(e.command), e.connection, shortened(text), id_);
    }
    if (!r.failure_.isEmpty())
        return RedisReply::error(r.failure_);
    return r.recorded_[r.next_++].reply;
}

RedisReply RedisSession::waitUntilGone(const QString& key, const std::atomic<bool>* cancel,
                                       int limitMs) {
    const QStringList pttl{QStringLiteral("PTTL"), key};
    if (!connection_)
        return run(pttl, cancel);
    // Real time: Redis expires the key itself. Each look is bounded, and so
    // is their number.
    RedisReply r;
    for (int waited = 0;; waited += 5) {
        r = connection_->run(pttl, cancel);
        if (r.isError() || (r.type == RedisReply::Type::Integer && r.integer == -2))
            return r;
        if (waited >= limitMs || (cancel && cancel->load()))
            return RedisReply::error(
                QStringLiteral("Redis still had %1 after %2 ms").arg(key).arg(waited));
        QThread::msleep(5);
    }
}

QString RedisSession::waitUntilIdle(const QString& key, const QString& group, const QString& start,
                                    qint64 minIdleMs, const std::atomic<bool>* cancel,
                                    int limitMs) {
    if (!connection_)
        return {};
    // Each element: [id, consumer, idle ms, deliveries].
    const QStringList pending{QStringLiteral("XPENDING"), key, group, start, QStringLiteral("+"),
                              QStringLiteral("100")};
    for (int waited = 0;; waited += 5) {
        const RedisReply r = connection_->run(pending, cancel);
        if (r.isError())
            return r.text;
        const bool idle = std::all_of(r.elements.cbegin(), r.elements.cend(), [&](const auto& e) {
            return e.elements.value(2).integer >= minIdleMs;
        });
        if (idle)
            return {};
        if (waited >= limitMs || (cancel && cancel->load()))
            return QStringLiteral("an entry of %1 was still not idle %2 ms after %3 ms")
                .arg(key)
                .arg(minIdleMs)
                .arg(waited);
        QThread::msleep(5);
    }
}

}  // namespace idem
