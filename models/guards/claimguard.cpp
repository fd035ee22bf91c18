#include "claimguard.h"

#include "attempt.h"
#include "statemachine.h"

#include <stdexcept>

namespace idem {

QString ClaimGuard::schema() {
    return QStringLiteral(R"(CREATE TABLE job_runs (
    job         TEXT    NOT NULL,
    biz_date    TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'DONE')),
    owner       TEXT,
    owner_token INTEGER,
    claimed_at  INTEGER,
    finished_at INTEGER,
    PRIMARY KEY (job, biz_date)
))");
}

QString ClaimGuard::pendingRow() {
    return QStringLiteral(R"(INSERT INTO job_runs (job, biz_date, status)
VALUES (?, ?, 'PENDING'))");
}

// SQL lives at namespace scope: g++ 12 cannot keep a QStringLiteral
// temporary alive across a co_await.
namespace {
const QString kClaim = QStringLiteral(R"(UPDATE job_runs
SET status = 'RUNNING', owner = ?, owner_token = ?, claimed_at = ?
WHERE job = ? AND biz_date = ?
  AND status = 'PENDING')");
const QString kRead = QStringLiteral(R"(SELECT status, owner, owner_token, claimed_at
FROM job_runs
WHERE job = ? AND biz_date = ?)");
// The takeover names the claim it read: of several nodes that found the same
// stale claim, only the first one's UPDATE still matches.
const QString kTakeover = QStringLiteral(R"(UPDATE job_runs
SET owner = ?, owner_token = ?, claimed_at = ?
WHERE job = ? AND biz_date = ?
  AND status = 'RUNNING'
  AND owner = ? AND claimed_at = ?)");
const QString kFinish = QStringLiteral(R"(UPDATE job_runs
SET status = 'DONE', finished_at = ?
WHERE job = ? AND biz_date = ?
  AND status = 'RUNNING')");
const QString kFinishFenced = QStringLiteral(R"(UPDATE job_runs
SET status = 'DONE', finished_at = ?
WHERE job = ? AND biz_date = ?
  AND status = 'RUNNING'
  AND owner_token = ?)");
}  // namespace

Task<ClaimGuard::Claim> ClaimGuard::claim(Attempt& a, const QString& owner,
                                          const QVariant& token) const {
    const QString run = entity();
    const bool claimed = co_await transition(a, run, "PENDING", "RUNNING", kClaim,
                                             bound(owner, token, a.arrivedAt(), job_, bizDate_));
    if (claimed) {
        a.guard("claim", "claimed", {{"run", run}, {"token", token}});
        co_return Claim{Outcome::Claimed, owner};
    }

    const SqlResult row = co_await a.sql(kRead, job_, bizDate_);
    if (row.empty())
        throw SqlFailure("no job_runs row for " + run.toStdString());
    const QString status = row.value(0, 0).toString();
    const QString holder = row.value(0, 1).toString();
    const qint64 claimedAt = row.value(0, 3).toLongLong();
    if (status == QLatin1String("DONE")) {
        a.guard("claim", "done", {{"run", run}, {"owner", holder}});
        co_return Claim{Outcome::Done, holder};
    }
    const qint64 age = a.arrivedAt() - claimedAt;
    if (age < staleAfterMs_) {
        a.guard("claim", "in-progress", {{"run", run}, {"owner", holder}, {"age_ms", age}});
        co_return Claim{Outcome::InProgress, holder};
    }
    // The holder has run far longer than any run takes: it died or hangs.
    const bool takenOver =
        co_await transition(a, run, "RUNNING", "RUNNING", kTakeover,
                            bound(owner, token, a.arrivedAt(), job_, bizDate_, holder, claimedAt));
    if (!takenOver) {
        a.guard("claim", "in-progress", {{"run", run}, {"lost_takeover", true}});
        co_return Claim{Outcome::InProgress, holder};
    }
    a.guard("claim", "takeover",
            {{"run", run}, {"previous_owner", holder}, {"age_ms", age}, {"token", token}});
    co_return Claim{Outcome::TakenOver, owner};
}

Task<bool> ClaimGuard::finish(Attempt& a, const QVariant& token, bool fenced) const {
    const QString run = entity();
    if (!fenced) {
        co_return co_await transition(a, run, "RUNNING", "DONE", kFinish,
                                      bound(a.now(), job_, bizDate_));
    }
    const bool done = co_await transition(a, run, "RUNNING", "DONE", kFinishFenced,
                                          bound(a.now(), job_, bizDate_, token));
    // 0 rows: another node holds a newer token; our lease is long gone.
    a.guard("fencing-token", done ? "accepted" : "rejected", {{"run", run}, {"token", token}});
    co_return done;
}

}  // namespace idem
