// A distributed lock kept as a row of the locks table, held for a lease and
// stamped with a fencing token that grows with every acquisition. The lease
// only protects a holder that runs on time: one that may outlive its lease
// must carry the token into its writes and let the database refuse a stale
// one (see ClaimGuard::finish).
#pragma once

#include "task.h"

#include <QString>

namespace idem {

class Attempt;

class LeaseLock {
public:
    struct Lease {
        bool acquired = false;
        qint64 token = 0;      // acquired: our fencing token; else the holder's
        qint64 expiresAt = 0;  // when the lease runs out (virtual ms)
        QString holder;        // not acquired: who holds the lock
    };

    static QString schema();  // CREATE TABLE locks ...

    LeaseLock(QString name, qint64 leaseMs) : name_(std::move(name)), leaseMs_(leaseMs) {}
    const QString& name() const { return name_; }

    // Takes the lock when it is free or its lease has expired, in one
    // conditional statement, so that of several nodes exactly one wins.
    Task<Lease> acquire(Attempt& a, const QString& owner) const;
    // Frees the lock, but only while it still carries our token: a holder
    // whose lease expired must not free its successor's lock.
    Task<bool> release(Attempt& a, qint64 token) const;

private:
    QString name_;
    qint64 leaseMs_;
};

}  // namespace idem
