#include "leaselock.h"

#include "attempt.h"

#include <stdexcept>

namespace idem {

QString LeaseLock::schema() {
    return QStringLiteral(R"(CREATE TABLE locks (
    name       TEXT    PRIMARY KEY,
    owner      TEXT,
    token      INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
))");
}

// SQL lives at namespace scope: g++ 12 cannot keep a QStringLiteral
// temporary alive across a co_await.
namespace {
// The first node creates the row with token 1. Later ones may only take it
// over when the lease has run out (a released lock has expires_at = 0), and
// each takeover increments the token: the fencing token.
const QString kAcquire = QStringLiteral(R"(INSERT INTO locks (name, owner, token, expires_at)
VALUES (?, ?, 1, ?)
ON CONFLICT (name) DO UPDATE
SET owner      = excluded.owner,
    token      = locks.token + 1,
    expires_at = excluded.expires_at
WHERE locks.expires_at <= ?
RETURNING token, expires_at)");
// MariaDB's upsert has no condition of its own: each column keeps its value
// unless the lease has run out. The columns are set left to right, so
// expires_at, read by the others, is set last. The server counts 1 for a new
// row, 2 for a row it changed and 0 for one it left as it was.
const QString kAcquireMariaDb = QStringLiteral(R"(INSERT INTO locks (name, owner, token, expires_at)
VALUES (?, ?, 1, ?)
ON DUPLICATE KEY UPDATE
    owner      = IF(expires_at <= ?, VALUES(owner), owner),
    token      = IF(expires_at <= ?, token + 1, token),
    expires_at = IF(expires_at <= ?, VALUES(expires_at), expires_at))");
const QString kHolder = QStringLiteral(R"(SELECT owner, token, expires_at
FROM locks
WHERE name = ?)");
const QString kLease = QStringLiteral("SELECT token, expires_at FROM locks WHERE name = ?");
const QString kRelease = QStringLiteral(R"(UPDATE locks
SET owner = NULL, expires_at = 0
WHERE name = ?
  AND token = ?)");
}  // namespace

Task<LeaseLock::Lease> LeaseLock::acquire(Attempt& a, const QString& owner) const {
    // The lease runs from this attempt's arrival, and a lease whose end is
    // at or before our arrival has run out (Attempt::arrivedAt).
    const qint64 now = a.arrivedAt();
    SqlResult taken;
    if (a.config().backend == QLatin1String("mariadb")) {
        const SqlResult upsert =
            co_await a.sqlWith(kAcquireMariaDb, bound(name_, owner, now + leaseMs_, now, now, now));
        if (upsert.rows > 0)
            taken = co_await a.sql(kLease, name_);
    } else {
        taken = co_await a.sql(kAcquire, name_, owner, now + leaseMs_, now);
    }
    if (!taken.empty()) {
        Lease lease{true, taken.value(0, 0).toLongLong(), taken.value(0, 1).toLongLong(), owner};
        a.guard("lease-lock", "acquired",
                {{"lock", name_}, {"token", lease.token}, {"expires_at", lease.expiresAt}});
        co_return lease;
    }
    const SqlResult row = co_await a.sql(kHolder, name_);
    Lease held{false, row.value(0, 1).toLongLong(), row.value(0, 2).toLongLong(),
               row.value(0, 0).toString()};
    a.guard("lease-lock", "held",
            {{"lock", name_},
             {"holder", held.holder},
             {"token", held.token},
             {"expires_at", held.expiresAt}});
    co_return held;
}

Task<bool> LeaseLock::release(Attempt& a, qint64 token) const {
    const SqlResult r = co_await a.sql(kRelease, name_, token);
    // 0 rows: our lease expired and another node has taken the lock since.
    a.guard("lease-lock", r.rows == 1 ? "released" : "lease-lost",
            {{"lock", name_}, {"token", token}});
    co_return r.rows == 1;
}

}  // namespace idem
