#include "redislock.h"

#include "attempt.h"
#include "leaselock.h"
#include "ttlguard.h"

namespace idem {

// Texts at namespace scope: g++ 12 cannot keep a temporary alive across a
// co_await.
namespace {
// Compare-and-delete: Redis runs a script without interleaving anything.
const QString kCompareAndDelete = QStringLiteral(
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) "
    "else return 0 end");
}  // namespace

QString RedisLock::lockKey() const {
    return QStringLiteral("lock:") + name_;
}

QString RedisLock::fenceKey() const {
    return QStringLiteral("fence:") + name_;
}

Task<RedisLock::Lease> RedisLock::acquire(Attempt& a, const QString& owner) const {
    if (!a.usesRedis()) {
        const LeaseLock table(name_, leaseMs_);
        const LeaseLock::Lease l = co_await table.acquire(a, owner);
        co_return Lease{l.acquired, l.token, l.expiresAt, l.holder};
    }
    // The lease runs from the attempt's arrival, as the table's does; Redis
    // is told at most a second of real time (TtlGuard::redisPxMs), and a
    // node that comes after the lease's virtual end waits until Redis itself
    // has let the key go (Scheduler::runRedis).
    const qint64 expiresAt = a.arrivedAt() + leaseMs_;
    const QString key = lockKey();
    const QStringList setNx{QStringLiteral("SET"),
                            key,
                            owner,
                            QStringLiteral("NX"),
                            QStringLiteral("PX"),
                            QString::number(TtlGuard::redisPxMs(leaseMs_))};
    const RedisReply set = co_await a.redis(setNx, a.arrivedAt(), expiresAt);
    if (!set.isOk()) {
        const QStringList get{QStringLiteral("GET"), key};
        const RedisReply holder = co_await a.redis(get);
        a.guard("redis-lock", "held",
                {{"lock", key}, {"holder", holder.text}, {"store", QStringLiteral("redis")}});
        co_return Lease{false, 0, 0, holder.text};
    }
    qint64 token = 0;
    if (fenced_) {
        const QStringList incr{QStringLiteral("INCR"), fenceKey()};
        const RedisReply counted = co_await a.redis(incr);
        token = counted.integer;
    }
    Fields fields{{"lock", key}, {"owner", owner}, {"expires_at", expiresAt}};
    if (fenced_)
        fields.set("token", token);
    fields.set("store", QStringLiteral("redis"));
    a.guard("redis-lock", "acquired", std::move(fields));
    co_return Lease{true, token, expiresAt, owner};
}

Task<bool> RedisLock::release(Attempt& a, const Lease& lease) const {
    if (!a.usesRedis()) {
        const LeaseLock table(name_, leaseMs_);
        co_return co_await table.release(a, lease.token);
    }
    const QString key = lockKey();
    const QStringList compareAndDelete{QStringLiteral("EVAL"), kCompareAndDelete,
                                       QStringLiteral("1"), key, lease.holder};
    const RedisReply r = co_await a.redisFreeing(compareAndDelete);
    const bool released = r.type == RedisReply::Type::Integer && r.integer == 1;
    // 0: our lease ran out; the key is gone or holds another node's name.
    a.guard("redis-lock", released ? "released" : "lease-lost",
            {{"lock", key}, {"owner", lease.holder}, {"store", QStringLiteral("redis")}});
    co_return released;
}

}  // namespace idem
