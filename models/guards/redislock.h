// A lease lock as it is usually taken in Redis (SPEC section 10): SET name
// owner NX PX lease, freed by a compare-and-delete script so that a holder
// whose lease ran out cannot free its successor's lock; and, where the
// writes are fenced, a counter beside it (INCR) that hands each holder a
// larger token than the one before. With --redis off the same lock is the
// locks table's (LeaseLock), whose token grows with every acquisition too.
#pragma once

#include "task.h"

#include <QString>

namespace idem {

class Attempt;

class RedisLock {
public:
    struct Lease {
        bool acquired = false;
        qint64 token = 0;      // acquired and fenced: our fencing token
        qint64 expiresAt = 0;  // when the lease runs out (virtual ms)
        QString holder;        // acquired: us; else who holds the lock, where known
    };

    RedisLock(QString name, qint64 leaseMs, bool fenced)
        : name_(std::move(name)), leaseMs_(leaseMs), fenced_(fenced) {}

    // lock:{name} and fence:{name}, the keys in Redis.
    QString lockKey() const;
    QString fenceKey() const;

    // SET lock:{name} owner NX PX lease; when fenced and taken, INCR
    // fence:{name}. Not taken: GET says who holds it.
    Task<Lease> acquire(Attempt& a, const QString& owner) const;
    // Deletes the lock only while it still holds our name (one script, so
    // nothing comes between the read and the delete). False: the lease ran
    // out and the lock is gone or another node's.
    Task<bool> release(Attempt& a, const Lease& lease) const;

private:
    QString name_;
    qint64 leaseMs_;
    bool fenced_;
};

}  // namespace idem
