// A dedup key with an expiry, the way a Redis `SET key value NX EX ttl` guard
// works, kept in the run's database: while the key lives, duplicates are
// recognised; once it has expired it counts as absent and the next request
// is treated as new. With --redis the key lives in a real Redis instead.
#pragma once

#include "task.h"

#include <QString>

namespace idem {

class Attempt;

class TtlGuard {
public:
    enum class Outcome { Set, Done, InProgress };
    struct Claim {
        Outcome outcome = Outcome::Set;
        QString result;        // with Done: the value the first request stored
        qint64 expiresAt = 0;  // when the key (ours or the existing one) stops counting
    };

    static QString schema();  // CREATE TABLE ttl_keys ...

    explicit TtlGuard(qint64 ttlMs) : ttlMs_(ttlMs) {}

    // SET key 'PROCESSING' NX EX ttl: one statement, so that of several
    // concurrent requests exactly one sets the key.
    Task<Claim> setIfAbsent(Attempt& a, const QString& key) const;
    // SET key result XX KEEPTTL: stores the result for later duplicates
    // without extending the key's life.
    Task<bool> storeResult(Attempt& a, const QString& key, const QString& result) const;

    // The PX a real Redis is told: the TTL, at most a second of real time.
    // The run's clock is virtual (a day passes in a millisecond); Redis's
    // is not. The key must outlive the quick duplicates that reach it in a
    // few real milliseconds, and a late one waits only until Redis itself
    // reports the key gone, at most this long.
    static qint64 redisPxMs(qint64 ttlMs);

private:
    Task<Claim> setOnRedis(Attempt& a, const QString& key) const;
    Task<bool> storeOnRedis(Attempt& a, const QString& key, const QString& result) const;

    qint64 ttlMs_;
};

}  // namespace idem
