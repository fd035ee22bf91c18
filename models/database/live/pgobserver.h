// PostgreSQL's observer: pg_blocking_pids among the run's own backends (what
// the isolation tester's pg_isolation_test_session_is_blocked asks), and
// pg_locks for the lock. Only heavyweight-lock waits show this way; row
// locks show as a wait on the holder's transaction.
#pragma once

#include "observer.h"

typedef struct pg_conn PGconn;

namespace idem::live {

class PgObserver final : public Observer {
public:
    explicit PgObserver(const Endpoint& endpoint);
    ~PgObserver() override;

    QHash<const Session*, LockWait> waits(const QList<const Session*>& sessions) override;
    bool locks(const QList<const Session*>& sessions, LockRows* rows, bool* truncated,
               QString* error) override;
    bool lists(qint64 serverId) override;
    int lookIntervalMs() const override { return 10; }
    // After deadlock_timeout: 1 ms on the lab's own server (live/pgsession),
    // PostgreSQL's default of 1 s where the lab may not set it.
    int deadlockSeenWithinMs() const override { return 1500; }

private:
    LockWait describe(qint64 pid);
    QStringList whoAre(const QStringList& pids);

    Endpoint endpoint_;
    PGconn* conn_ = nullptr;
    bool rowLocks_ = false;  // pgrowlocks is installed: row lock modes can be named
};

}  // namespace idem::live
