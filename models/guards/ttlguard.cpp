#include "ttlguard.h"

#include "attempt.h"

#include <algorithm>
#include <stdexcept>

namespace idem {

QString TtlGuard::schema() {
    return QStringLiteral(R"(CREATE TABLE ttl_keys (
    key        TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
))");
}

namespace {
// An expired key counts as absent: the upsert replaces it, but only when it
// has expired, so a live key makes the statement change 0 rows.
const QString kSetNx = QStringLiteral(R"(INSERT INTO ttl_keys (key, value, expires_at)
VALUES (?, 'PROCESSING', ?)
ON CONFLICT (key) DO UPDATE
SET value = excluded.value, expires_at = excluded.expires_at
WHERE ttl_keys.expires_at <= ?)");
// MariaDB's form: the row keeps its value unless it has expired (expires_at,
// which the other column reads, is set last). 1: a new row, 2: an expired
// one replaced, 0: a live key left as it was.
const QString kSetNxMariaDb = QStringLiteral(R"(INSERT INTO ttl_keys (key, value, expires_at)
VALUES (?, 'PROCESSING', ?)
ON DUPLICATE KEY UPDATE
    value      = IF(expires_at <= ?, VALUES(value), value),
    expires_at = IF(expires_at <= ?, VALUES(expires_at), expires_at))");
const QString kGet = QStringLiteral(R"(SELECT value, expires_at
FROM ttl_keys
WHERE key = ? AND expires_at > ?)");
const QString kSetXx = QStringLiteral(R"(UPDATE ttl_keys
SET value = ?
WHERE key = ? AND expires_at > ?)");
}  // namespace

qint64 TtlGuard::redisPxMs(qint64 ttlMs) {
    return std::clamp<qint64>(ttlMs, 1, 1'000);
}

namespace {
QString redisKey(const QString& key) {
    return QStringLiteral("dedup:") + key;
}
}  // namespace

// SET dedup:{key} PROCESSING NX PX ttl: Redis itself decides which of
// several concurrent requests sets the key, and forgets it when it expires.
Task<TtlGuard::Claim> TtlGuard::setOnRedis(Attempt& a, const QString& key) const {
    const qint64 expiresAt = a.arrivedAt() + ttlMs_;
    const QString k = redisKey(key);
    // (Lists made outside co_await: g++ 12 miscompiles braced lists in it.)
    const QStringList setNx{QStringLiteral("SET"),        k,
                            QStringLiteral("PROCESSING"), QStringLiteral("NX"),
                            QStringLiteral("PX"),         QString::number(redisPxMs(ttlMs_))};
    const RedisReply set = co_await a.redis(setNx, a.arrivedAt(), expiresAt);
    if (set.isOk()) {
        a.guard("ttl-key", "set",
                {{"key", k},
                 {"ttl_ms", ttlMs_},
                 {"expires_at", expiresAt},
                 {"store", QStringLiteral("redis")}});
        co_return Claim{Outcome::Set, {}, expiresAt};
    }
    const QStringList get{QStringLiteral("GET"), k};
    const RedisReply got = co_await a.redis(get);
    if (got.isNil() || got.text == QLatin1String("PROCESSING")) {
        a.guard("ttl-key", "in-progress", {{"key", k}, {"store", QStringLiteral("redis")}});
        co_return Claim{Outcome::InProgress, {}, 0};
    }
    a.guard("ttl-key", "duplicate", {{"key", k}, {"store", QStringLiteral("redis")}});
    co_return Claim{Outcome::Done, got.text, 0};
}

// SET dedup:{key} result XX KEEPTTL: remembered only while the key lives.
Task<bool> TtlGuard::storeOnRedis(Attempt& a, const QString& key, const QString& result) const {
    const QString k = redisKey(key);
    const QStringList setXx{QStringLiteral("SET"), k, result, QStringLiteral("XX"),
                            QStringLiteral("KEEPTTL")};
    const RedisReply r = co_await a.redis(setXx);
    a.guard("ttl-key", r.isOk() ? "result-stored" : "expired-before-store",
            {{"key", k}, {"store", QStringLiteral("redis")}});
    co_return r.isOk();
}

Task<TtlGuard::Claim> TtlGuard::setIfAbsent(Attempt& a, const QString& key) const {
    if (a.usesRedis())
        co_return co_await setOnRedis(a, key);
    // The key lives from this attempt's arrival; at a later arrival it
    // counts as absent once ttl or more has passed (Attempt::arrivedAt).
    const qint64 expiresAt = a.arrivedAt() + ttlMs_;
    const bool mariaDb = a.config().backend == QLatin1String("mariadb");
    SqlResult set;
    if (mariaDb)
        set =
            co_await a.sqlWith(kSetNxMariaDb, bound(key, expiresAt, a.arrivedAt(), a.arrivedAt()));
    else
        set = co_await a.sql(kSetNx, key, expiresAt, a.arrivedAt());
    if (mariaDb ? set.rows > 0 : set.rows == 1) {
        a.guard("ttl-key", "set", {{"key", key}, {"ttl_ms", ttlMs_}, {"expires_at", expiresAt}});
        co_return Claim{Outcome::Set, {}, expiresAt};
    }
    const SqlResult got = co_await a.sql(kGet, key, a.arrivedAt());
    const QString value = got.value(0, 0).toString();
    const qint64 existingExpiry = got.value(0, 1).toLongLong();
    if (got.empty() || value == QLatin1String("PROCESSING")) {
        a.guard("ttl-key", "in-progress", {{"key", key}, {"expires_at", existingExpiry}});
        co_return Claim{Outcome::InProgress, {}, existingExpiry};
    }
    a.guard("ttl-key", "duplicate",
            {{"key", key},
             {"expires_at", existingExpiry},
             {"left_ms", existingExpiry - a.arrivedAt()}});
    co_return Claim{Outcome::Done, value, existingExpiry};
}

Task<bool> TtlGuard::storeResult(Attempt& a, const QString& key, const QString& result) const {
    if (a.usesRedis())
        co_return co_await storeOnRedis(a, key, result);
    // The key may have expired while the business ran: then the result is
    // not remembered at all, as with Redis. The same rule, asked at the
    // moment of the write, since that is when Redis would ask it.
    const SqlResult r = co_await a.sql(kSetXx, result, key, a.now());
    a.guard("ttl-key", r.rows == 1 ? "result-stored" : "expired-before-store", {{"key", key}});
    co_return r.rows == 1;
}

}  // namespace idem
