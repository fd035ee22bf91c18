// The scheduler's lock model: which session holds which lock of the run's
// database, and which parked statements wait for whom. SQLite fills it with
// its one lock, the write lock of the whole database, held by the session
// whose transaction is open; a server backend names the row, key or gap it
// reports.
#pragma once

#include <QString>

#include <functional>
#include <vector>

namespace idem {

class SqlConnection;

class LockTable {
public:
    using Wake = std::function<void()>;
    // SQLite's one lock.
    static QString wholeDatabase() { return QStringLiteral("database"); }

    void grant(SqlConnection* holder, const QString& lock);
    // Who holds `lock`, or null.
    SqlConnection* holderOf(const QString& lock) const;
    // `wake` runs (is returned by release) when `holder` lets go of its locks.
    void await(SqlConnection* holder, Wake wake);
    // `holder`'s transaction ended: every lock it held goes, and the waiters
    // for it are returned, in the order they came.
    std::vector<Wake> release(SqlConnection* holder);
    void clear();

private:
    struct Held {
        SqlConnection* holder;
        QString lock;
    };
    struct Waiter {
        SqlConnection* holder;
        Wake wake;
    };
    std::vector<Held> held_;
    std::vector<Waiter> waiters_;
};

}  // namespace idem
