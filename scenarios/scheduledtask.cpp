#include "scheduledtask.h"

#include "attempt.h"
#include "claimguard.h"
#include "leaselock.h"
#include "redislock.h"

#include <QCoreApplication>
#include <QDate>

#include <stdexcept>
#include <vector>

namespace idem {

namespace {

// This scenario's sentences, said in English in the summary and the trace
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::ScheduledTask", source, std::move(args));
}

const QString kJob = QStringLiteral("settle");
Phrase computing() {
    return said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "compute the day's settlement"));
}
const QString kInsertSale = QStringLiteral(R"(INSERT INTO sales (biz_date, merchant, amount)
VALUES (?, ?, ?))");
// The business: one payout per merchant for the day, stamped with who wrote
// it and under which fencing token (NULL when there is none).
const QString kPayouts =
    QStringLiteral(R"(INSERT INTO payouts (biz_date, merchant, amount, paid_by, token, paid_at)
SELECT biz_date, merchant, SUM(amount), ?, ?, ?
FROM sales
WHERE biz_date = ?
GROUP BY biz_date, merchant)");

constexpr qint64 kComputeMs = 1'500;
const QStringList kMerchants{"M001", "M002", "M003"};

QString bizDateOf(int intent) {
    return QDate(2025, 3, 1).addDays(intent).toString(Qt::ISODate);
}
QString lockNameOf(int intent) {
    return kJob + QLatin1Char(':') + bizDateOf(intent);
}
QString ownerOf(const Attempt& a) {
    return QStringLiteral("%1#%2").arg(a.actor()).arg(a.number());
}
Phrase settled(int intent) {
    return said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "settled %1"), {bizDateOf(intent)});
}
Phrase skipped(const QString& holder) {
    return said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "skipped: %1 holds the lock"), {holder});
}
Phrase fenced(qint64 token) {
    return said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "fenced: token %1 is no longer the run's"),
                {Phrase::number(token)});
}

// redis-lock-fenced: the day's fence, the largest token that committed its
// payouts, and whether it did. The payouts commit only in the transaction
// that moves the fence up to a larger token than any before it.
const QString kFenceSchema = QStringLiteral(R"(CREATE TABLE job_fences (
    job      TEXT    NOT NULL,
    biz_date TEXT    NOT NULL,
    fence    INTEGER NOT NULL,
    done     INTEGER NOT NULL,
    PRIMARY KEY (job, biz_date)
))");
const QString kFenceRow = QStringLiteral(R"(INSERT INTO job_fences (job, biz_date, fence, done)
VALUES (?, ?, 0, 0))");
const QString kReadFence = QStringLiteral(R"(SELECT fence, done
FROM job_fences
WHERE job = ? AND biz_date = ?)");
const QString kRaiseFence = QStringLiteral(R"(UPDATE job_fences
SET fence = ?, done = 1
WHERE job = ? AND biz_date = ?
  AND fence < ? AND done = 0)");

void seedFence(Setup& setup, int intent) {
    setup.exec(kFenceRow, {kJob, bizDateOf(intent)}, intent);
}

// The job run's row the claim variants move PENDING → RUNNING → DONE.
void seedClaim(Setup& setup, int intent) {
    const QString date = bizDateOf(intent);
    setup.exec(ClaimGuard::pendingRow(), {kJob, date}, intent);
    setup.transition(intent, ClaimGuard(kJob, date, 0).entity(), "", "PENDING");
}

}  // namespace

ScheduledTask::ScheduledTask() {
    const QList<CrashPoint> guarded{CrashPoint::AfterGuard, CrashPoint::LongPause};
    info_.id = QStringLiteral("scheduled-task");
    info_.group = ScenarioGroup::Recommended;
    info_.title = QStringLiteral("Scheduled job");
    info_.schema = {
        QStringLiteral(R"(CREATE TABLE sales (
    id       INTEGER PRIMARY KEY,
    biz_date TEXT    NOT NULL,
    merchant TEXT    NOT NULL,
    amount   INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE payouts (
    id       INTEGER PRIMARY KEY,
    biz_date TEXT    NOT NULL,
    merchant TEXT    NOT NULL,
    amount   INTEGER NOT NULL,
    paid_by  TEXT    NOT NULL,
    token    INTEGER,
    paid_at  INTEGER NOT NULL
))"),
    };
    info_.variants = {
        {.id = "none",
         .crashPoints = {CrashPoint::LongPause},
         .summary = "every firing computes and writes the payouts",
         .handle =
             [this](Attempt& a) {
                 return withoutGuard(a);
             }},
        {.id = "lock-only",
         .crashPoints = guarded,
         .summary = "lease lock in locks; the node that cannot get it skips this firing",
         .handle = [this](Attempt& a) { return lockOnly(a); },
         .schema = {LeaseLock::schema()}},
        {.id = "claim-only",
         .crashPoints = guarded,
         .summary =
             "job_runs PENDING -> RUNNING -> DONE by conditional UPDATE; stale claims taken over",
         .handle = [this](Attempt& a) { return claimOnly(a); },
         .schema = {ClaimGuard::schema()},
         .seed = seedClaim},
        {.id = "lock-and-claim",
         .recommended = true,
         .crashPoints = guarded,
         .summary = "lease lock + claim carrying its fencing token; payouts and DONE commit only "
                    "while owner_token is ours",
         .handle = [this](Attempt& a) { return lockAndClaim(a); },
         .schema = {LeaseLock::schema(), ClaimGuard::schema()},
         .seed = seedClaim},
        {.id = "redis-lock",
         .crashPoints = guarded,
         .summary = "the lease lock in Redis (SET lock owner NX PX lease, freed by "
                    "compare-and-delete); the node that cannot get it skips this firing",
         .handle = [this](Attempt& a) { return redisLock(a); },
         .schema = {LeaseLock::schema()},
         .redis = true},
        {.id = "redis-lock-fenced",
         .crashPoints = guarded,
         .summary = "the Redis lock plus a fencing token from INCR; the payouts commit only while "
                    "job_fences.fence < token, and a settled day is not settled again",
         .handle = [this](Attempt& a) { return redisLockFenced(a); },
         .schema = {LeaseLock::schema(), kFenceSchema},
         .seed = seedFence,
         .redis = true},
    };
    info_.sources = {Source::TaskRerun};
    info_.defaultTiming = Timing::Concurrent;
    info_.defaultDuplicates = 1;  // two nodes: A fires the original, B the duplicate
    info_.tables = {"job_runs", "job_fences", "locks", "payouts", "sales"};
    info_.guardTable = "job_runs";
    info_.lanes = {"scheduler", "node-a", "node-b"};
    info_.baseline = "none";
    info_.effectTable = "payouts";
    info_.effectNames = {"payouts"};
    info_.stateMachine = {
        "job run",
        {{"", "", 0, 1},
         {"PENDING", "待执行", 1.5, 1},
         {"RUNNING", "执行中", 3.5, 1},
         {"DONE", "已完成", 5.5, 1}},
        {{"", "PENDING"}, {"PENDING", "RUNNING"}, {"RUNNING", "RUNNING"}, {"RUNNING", "DONE"}},
        {"claim-only", "lock-and-claim"}};
    info_.stateMachine.stateQuery =
        QStringLiteral("SELECT job || '/' || biz_date, status FROM job_runs");
    info_.words = {
        .actors = {{"node-a", said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "node A"))},
                   {"node-b", said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "node B"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::ScheduledTask", "job run")),
    };
}

void ScheduledTask::seed(Setup& setup, int intent) const {
    const QString date = bizDateOf(intent);
    for (int m = 0; m < kMerchants.size(); ++m) {
        for (int sale = 0; sale < 2; ++sale) {
            setup.exec(kInsertSale,
                       {date, kMerchants[m], 1'000 + 250 * m + 100 * sale + intent % 7}, intent);
        }
    }
}

// Node A fires the original; every duplicate is node B firing the same job
// (clock drift, an operator's re-run). Same instant: the seed picks who is
// first. A long pause spaces them 1.5 leases apart (RunConfig).
void ScheduledTask::plan(Planner& planner, int intent) const {
    // The original fires on node A, every duplicate on node B.
    std::vector<AttemptSpec> specs =
        planner.defaultSpecs(intent, {{"job", kJob}, {"biz_date", bizDateOf(intent)}});
    for (AttemptSpec& s : specs) {
        s.actor = s.number == 1 ? QStringLiteral("node-a") : QStringLiteral("node-b");
        planner.fire(s);
    }
}

Task<void> ScheduledTask::writePayouts(Attempt& a, const QVariant& token) const {
    const SqlResult r = co_await a.sql(kPayouts, ownerOf(a), token, a.now(), bizDateOf(a.intent()));
}

Task<Reply> ScheduledTask::withoutGuard(Attempt& a) const {
    const QVariant noToken;
    co_await a.crashPoint(CrashPoint::LongPause);  // the node stalls as it starts
    co_await a.work(kComputeMs, computing());
    co_await a.begin();
    co_await writePayouts(a, noToken);
    co_await a.commit();
    co_return Reply{Response::Success, settled(a.intent())};
}

Task<Reply> ScheduledTask::lockOnly(Attempt& a) const {
    const LeaseLock lock(lockNameOf(a.intent()), a.config().leaseMs);
    const LeaseLock::Lease lease = co_await lock.acquire(a, ownerOf(a));
    if (!lease.acquired) {
        // Nothing records whether the job ran, so coming back later could
        // only run it again: a node that finds the lock held skips for good.
        co_return Reply{Response::Rejected, skipped(lease.holder)};
    }
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.crashPoint(CrashPoint::LongPause);

    co_await a.work(kComputeMs, computing());
    const QVariant token = lease.token;
    co_await a.begin();
    co_await writePayouts(a, token);
    co_await a.commit();
    co_await lock.release(a, lease.token);
    co_return Reply{Response::Success, settled(a.intent())};
}

Task<Reply> ScheduledTask::claimOnly(Attempt& a) const {
    const ClaimGuard claims(kJob, bizDateOf(a.intent()), a.config().leaseMs);
    const QVariant noToken;
    const ClaimGuard::Claim claim = co_await claims.claim(a, ownerOf(a), noToken);
    if (claim.outcome == ClaimGuard::Outcome::Done) {
        co_return Reply{Response::Success, settled(a.intent())};
    }
    if (claim.outcome == ClaimGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.crashPoint(CrashPoint::LongPause);

    co_await a.work(kComputeMs, computing());
    co_await a.begin();
    co_await writePayouts(a, noToken);
    co_await a.commit();
    // The claim was checked once, before the work; whether it is still ours
    // by now, nothing here asks.
    co_await claims.finish(a, noToken, false);
    co_return Reply{Response::Success, settled(a.intent())};
}

Task<Reply> ScheduledTask::lockAndClaim(Attempt& a) const {
    const LeaseLock lock(lockNameOf(a.intent()), a.config().leaseMs);
    const ClaimGuard claims(kJob, bizDateOf(a.intent()), a.config().leaseMs);

    // 1. The lock keeps two nodes from working at once. A node that finds it
    //    held comes back at the next tick: the claim will tell it the outcome.
    const LeaseLock::Lease lease = co_await lock.acquire(a, ownerOf(a));
    if (!lease.acquired)
        co_return Reply{Response::InProgress, {}};

    // 2. The claim remembers the run, and carries the lock's fencing token.
    const QVariant token = lease.token;
    const ClaimGuard::Claim claim = co_await claims.claim(a, ownerOf(a), token);
    if (claim.outcome == ClaimGuard::Outcome::Done ||
        claim.outcome == ClaimGuard::Outcome::InProgress) {
        co_await lock.release(a, lease.token);
        if (claim.outcome == ClaimGuard::Outcome::Done) {
            co_return Reply{Response::Success, settled(a.intent())};
        }
        co_return Reply{Response::InProgress, {}};
    }
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.crashPoint(CrashPoint::LongPause);

    // 3. Payouts and DONE in one transaction that commits only while the
    //    run still carries our token: a node that slept past its lease finds
    //    a newer token there and rolls back.
    co_await a.work(kComputeMs, computing());
    co_await a.begin();
    co_await writePayouts(a, token);
    const bool finished = co_await claims.finish(a, token, true);
    if (!finished) {
        co_await a.rollback();
        co_await lock.release(a, lease.token);
        co_return Reply{Response::Rejected, fenced(lease.token)};
    }
    co_await a.commit();
    co_await lock.release(a, lease.token);
    co_return Reply{Response::Success, settled(a.intent())};
}

Task<Reply> ScheduledTask::redisLock(Attempt& a) const {
    const RedisLock lock(lockNameOf(a.intent()), a.config().leaseMs, false);
    const RedisLock::Lease lease = co_await lock.acquire(a, ownerOf(a));
    if (!lease.acquired) {
        // As with the table's lock: nothing says whether the job ran, so the
        // node that finds the lock held skips for good.
        co_return Reply{Response::Rejected, skipped(lease.holder)};
    }
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.crashPoint(CrashPoint::LongPause);

    // Nothing here asks whether the lock is still ours: a node that slept
    // past its lease writes anyway.
    co_await a.work(kComputeMs, computing());
    const QVariant noToken;
    co_await a.begin();
    co_await writePayouts(a, noToken);
    co_await a.commit();
    co_await lock.release(a, lease);
    co_return Reply{Response::Success, settled(a.intent())};
}

Task<Reply> ScheduledTask::redisLockFenced(Attempt& a) const {
    const RedisLock lock(lockNameOf(a.intent()), a.config().leaseMs, true);
    const QString date = bizDateOf(a.intent());

    // 1. The lock keeps two nodes from working at once; the one that finds
    //    it held comes back at the next tick.
    const RedisLock::Lease lease = co_await lock.acquire(a, ownerOf(a));
    if (!lease.acquired)
        co_return Reply{Response::InProgress, {}};

    // 2. A day already settled is answered, not settled again.
    const SqlResult fence = co_await a.sql(kReadFence, kJob, date);
    if (fence.value(0, 1).toLongLong() == 1) {
        co_await lock.release(a, lease);
        co_return Reply{Response::Success, settled(a.intent())};
    }
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.crashPoint(CrashPoint::LongPause);

    // 3. The payouts commit only with the fence raised to our token: a node
    //    that slept past its lease finds a larger token there and rolls back.
    co_await a.work(kComputeMs, computing());
    co_await a.begin();
    const SqlResult raised = co_await a.sql(kRaiseFence, lease.token, kJob, date, lease.token);
    const QString run = kJob + QLatin1Char('/') + date;
    if (raised.rows != 1) {
        a.guard("fencing-token", "rejected", {{"run", run}, {"token", lease.token}});
        co_await a.rollback();
        co_await lock.release(a, lease);
        co_return Reply{Response::Rejected, fenced(lease.token)};
    }
    a.guard("fencing-token", "accepted", {{"run", run}, {"token", lease.token}});
    co_await writePayouts(a, lease.token);
    co_await a.commit();
    co_await lock.release(a, lease);
    co_return Reply{Response::Success, settled(a.intent())};
}

Effects ScheduledTask::effects(Reader& db, int intent) const {
    return {{QStringLiteral("payouts"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM payouts WHERE biz_date = ?"),
                      {bizDateOf(intent)})}};
}

Effects ScheduledTask::expectedEffects(const RunConfig&, int) const {
    return {{QStringLiteral("payouts"), kMerchants.size()}};
}

namespace {

// The fence says settled exactly when payouts exist.
Phrase fenceInconsistency(Reader& db, const QString& date) {
    const SqlResult fence = db.query(
        QStringLiteral("SELECT done FROM job_fences WHERE job = ? AND biz_date = ?"), {kJob, date});
    if (fence.empty())
        return {};
    const bool done = fence.value().toLongLong() == 1;
    const qint64 payouts =
        db.count(QStringLiteral("SELECT COUNT(*) FROM payouts WHERE biz_date = ?"), {date});
    if (payouts > 0 && !done) {
        return said(QT_TRANSLATE_NOOP("idem::ScheduledTask",
                                      "%1: payouts written but the fence says not settled"),
                    {date});
    }
    if (payouts == 0 && done) {
        return said(QT_TRANSLATE_NOOP("idem::ScheduledTask",
                                      "%1: the fence says settled but nothing was paid"),
                    {date});
    }
    return {};
}

}  // namespace

Phrase ScheduledTask::inconsistency(Reader& db, int intent) const {
    const QString date = bizDateOf(intent);
    if (db.hasTable(QStringLiteral("job_fences")))
        return fenceInconsistency(db, date);
    if (!db.hasTable(QStringLiteral("job_runs")))
        return {};  // this variant keeps no run record
    const SqlResult run = db.query(
        QStringLiteral("SELECT status FROM job_runs WHERE job = ? AND biz_date = ?"), {kJob, date});
    if (run.empty())
        return {};
    const QString status = run.value().toString();
    const qint64 payouts =
        db.count(QStringLiteral("SELECT COUNT(*) FROM payouts WHERE biz_date = ?"), {date});
    if (payouts > 0 && status != QLatin1String("DONE")) {
        return said(
            QT_TRANSLATE_NOOP("idem::ScheduledTask", "%1: payouts written but the run is still %2"),
            {date, status});
    }
    if (payouts == 0 && status == QLatin1String("DONE")) {
        return said(
            QT_TRANSLATE_NOOP("idem::ScheduledTask", "%1: the run is DONE but nothing was paid"),
            {date});
    }
    return {};
}

}  // namespace idem
