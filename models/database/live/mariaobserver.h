// MariaDB's observer: InnoDB's lock tables in information_schema
// (INNODB_TRX, INNODB_LOCK_WAITS, INNODB_LOCKS; 10.11 has no
// performance_schema.data_lock_waits), restricted to the run's connections.
#pragma once

#include "observer.h"

#include <QElapsedTimer>

typedef struct st_mysql MYSQL;

namespace idem::live {

class MariaObserver final : public Observer {
public:
    explicit MariaObserver(const Endpoint& endpoint);
    ~MariaObserver() override;

    QHash<const Session*, LockWait> waits(const QList<const Session*>& sessions) override;
    int msUntilFresh() const override;
    bool locks(const QList<const Session*>& sessions, LockRows* rows, bool* truncated,
               QString* error) override;
    bool lists(qint64 serverId) override;
    int lookIntervalMs() const override { return kFreshAfterMs; }
    // InnoDB looks as the wait begins: a few of its snapshots later.
    int deadlockSeenWithinMs() const override { return 3 * kFreshAfterMs; }

private:
    QStringList whoAre(const QStringList& threads);
    // InnoDB refreshes the cache these tables are read from only after
    // 100 ms without a read (trx0i_s.cc): a read sooner sees the past, and
    // a reader polling faster never sees a wait at all.
    static constexpr int kFreshAfterMs = 150;

    MYSQL* mysql_ = nullptr;
    QElapsedTimer lastRead_;
    // innodb_status_output_locks: 0 not asked yet, 1 on, -1 refused.
    int locksShown_ = 0;
};

}  // namespace idem::live
