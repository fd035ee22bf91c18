#include "dedupguard.h"

#include "attempt.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace idem {

QString DedupGuard::schema() {
    return QStringLiteral(R"(CREATE TABLE dedup (
    biz_type   TEXT    NOT NULL,
    biz_id     TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAILED')),
    result     TEXT,
    owner      TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (biz_type, biz_id)
))");
}

QString DedupGuard::fingerprintColumn() {
    return QStringLiteral("ALTER TABLE dedup ADD COLUMN request_hash TEXT");
}

QString DedupGuard::fingerprint(const QVariantMap& request) {
    const QByteArray canonical =
        QJsonDocument(QJsonObject::fromVariantMap(request)).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(
        QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex().left(16));
}

QString DedupGuard::owner(const Attempt& a) {
    return QStringLiteral("%1#%2").arg(a.actor()).arg(a.number());
}

// SQL lives at namespace scope: g++ 12 cannot keep a QStringLiteral
// temporary alive across a co_await.
namespace {
const QString kClaim =
    QStringLiteral(R"(INSERT INTO dedup (biz_type, biz_id, status, owner, created_at, updated_at)
VALUES (?, ?, 'PROCESSING', ?, ?, ?))");
const QString kClaimWithFingerprint = QStringLiteral(
    R"(INSERT INTO dedup (biz_type, biz_id, status, owner, created_at, updated_at, request_hash)
VALUES (?, ?, 'PROCESSING', ?, ?, ?, ?))");
const QString kRead = QStringLiteral(R"(SELECT status, result, owner, created_at, updated_at
FROM dedup
WHERE biz_type = ? AND biz_id = ?)");
const QString kReadWithFingerprint =
    QStringLiteral(R"(SELECT status, result, owner, created_at, updated_at, request_hash
FROM dedup
WHERE biz_type = ? AND biz_id = ?)");
const QString kPurge = QStringLiteral(R"(DELETE FROM dedup
WHERE biz_type = ? AND biz_id = ? AND created_at <= ?)");
const QString kTakeover = QStringLiteral(R"(UPDATE dedup
SET status = 'PROCESSING', owner = ?, updated_at = ?
WHERE biz_type = ? AND biz_id = ? AND status = ? AND updated_at = ?)");
const QString kMarkSuccess = QStringLiteral(R"(UPDATE dedup
SET status = 'SUCCESS', result = ?, updated_at = ?
WHERE biz_type = ? AND biz_id = ? AND owner = ?)");
const QString kMarkFailed = QStringLiteral(R"(UPDATE dedup
SET status = 'FAILED', result = ?, updated_at = ?
WHERE biz_type = ? AND biz_id = ? AND owner = ?)");
}  // namespace

Task<DedupGuard::Claim> DedupGuard::claim(Attempt& a, const QString& bizId,
                                          const QString& fingerprint) const {
    const bool checksPayload = !fingerprint.isEmpty();
    for (int round = 0; round < 2; ++round) {
        const QVariantList claimValues =
            checksPayload ? bound(bizType_, bizId, owner(a), a.now(), a.now(), fingerprint)
                          : bound(bizType_, bizId, owner(a), a.now(), a.now());
        const SqlResult inserted =
            co_await a.trySqlWith(checksPayload ? kClaimWithFingerprint : kClaim, claimValues);
        if (inserted.ok) {
            a.guard("dedup", "claimed",
                    checksPayload ? Fields{{"biz_id", bizId}, {"request_hash", fingerprint}}
                                  : Fields{{"biz_id", bizId}});
            a.transition(bizId, "", "PROCESSING", true);
            co_return Claim{Outcome::Claimed, {}};
        }
        if (!inserted.isUniqueViolation())
            throw SqlFailure(inserted.errorText().toStdString());
        a.transition(bizId, "", "PROCESSING", false);

        const SqlResult row =
            co_await a.sql(checksPayload ? kReadWithFingerprint : kRead, bizType_, bizId);
        if (row.empty())
            continue;  // removed in between: try once more
        const QString status = row.value(0, 0).toString();
        const qint64 createdAt = row.value(0, 3).toLongLong();
        const qint64 updatedAt = row.value(0, 4).toLongLong();

        if (options_.retentionMs > 0 && a.arrivedAt() - createdAt >= options_.retentionMs) {
            // Past the retention window the record is gone, as a cleanup job
            // would have deleted it: the duplicate is no longer recognised.
            a.guard("dedup", "retention-expired",
                    {{"biz_id", bizId}, {"age_ms", a.now() - createdAt}});
            co_await a.sql(kPurge, bizType_, bizId, a.arrivedAt() - options_.retentionMs);
            continue;
        }
        // The same key for another request (the IETF draft's 422, Stripe's
        // "keys are for the same parameters"): neither the stored result nor
        // a takeover belongs to it.
        const QString stored = checksPayload ? row.value(0, 5).toString() : QString();
        if (checksPayload && !stored.isEmpty() && stored != fingerprint) {
            a.guard("dedup", "key-reused",
                    {{"biz_id", bizId}, {"stored_hash", stored}, {"request_hash", fingerprint}});
            co_return Claim{Outcome::KeyReused, {}};
        }
        if (status == QLatin1String("SUCCESS")) {
            a.guard("dedup", "duplicate", {{"biz_id", bizId}, {"status", status}});
            co_return Claim{Outcome::Done, row.value(0, 1).toString()};
        }
        if (status == QLatin1String("FAILED") && options_.failedIsFinal) {
            a.guard("dedup", "duplicate", {{"biz_id", bizId}, {"status", status}});
            co_return Claim{Outcome::Failed, row.value(0, 1).toString()};
        }
        const bool stale = status == QLatin1String("FAILED") ||
                           (options_.expiry && a.arrivedAt() - updatedAt >= options_.expiryMs);
        if (!stale) {
            a.guard(
                "dedup", "in-progress",
                {{"biz_id", bizId}, {"owner", row.value(0, 2)}, {"age_ms", a.now() - updatedAt}});
            co_return Claim{Outcome::InProgress, {}};
        }
        // The owner died or gave up: take the claim over, conditionally, so
        // that only one of several duplicates wins.
        const SqlResult takeover =
            co_await a.sql(kTakeover, owner(a), a.now(), bizType_, bizId, status, updatedAt);
        a.transition(bizId, status, "PROCESSING", takeover.rows == 1);
        if (takeover.rows == 1) {
            Fields fields{{"biz_id", bizId},
                          {"previous_owner", row.value(0, 2)},
                          {"age_ms", a.now() - updatedAt}};
            // A failed record is taken over at any age: its owner gave up.
            if (status == QLatin1String("FAILED"))
                fields.set("status", status);
            a.guard("dedup", "takeover", std::move(fields));
            co_return Claim{Outcome::TakenOver, {}};
        }
        a.guard("dedup", "in-progress", {{"biz_id", bizId}, {"lost_takeover", true}});
        co_return Claim{Outcome::InProgress, {}};
    }
    a.guard("dedup", "in-progress", {{"biz_id", bizId}});
    co_return Claim{Outcome::InProgress, {}};
}

Task<bool> DedupGuard::markSuccess(Attempt& a, const QString& bizId, const QString& result) const {
    const SqlResult r = co_await a.sql(kMarkSuccess, result, a.now(), bizType_, bizId, owner(a));
    a.guard("dedup", r.rows == 1 ? "marked-success" : "not-owner", {{"biz_id", bizId}});
    a.transition(bizId, "PROCESSING", "SUCCESS", r.rows == 1);
    co_return r.rows == 1;
}

Task<bool> DedupGuard::markFailed(Attempt& a, const QString& bizId, const QString& error) const {
    const SqlResult r = co_await a.sql(kMarkFailed, error, a.now(), bizType_, bizId, owner(a));
    Fields fields{{"biz_id", bizId}};
    // Kept as the final answer (dedup-cache-error): every repeat gets it.
    if (r.rows == 1 && options_.failedIsFinal)
        fields.set("final", true);
    a.guard("dedup", r.rows == 1 ? "marked-failed" : "not-owner", std::move(fields));
    a.transition(bizId, "PROCESSING", "FAILED", r.rows == 1);
    co_return r.rows == 1;
}

}  // namespace idem
