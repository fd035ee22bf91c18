// The dedup (idempotency) table: claim a business key as PROCESSING before the
// business runs, mark it SUCCESS with the result after (or FAILED when the
// business failed), answer duplicates from it; with an in-progress expiry, a
// stale claim can be taken over. A claim may store a fingerprint of the
// request, so that a key reused with another payload is told apart.
#pragma once

#include "task.h"

#include <QString>
#include <QVariantMap>

namespace idem {

class Attempt;

class DedupGuard {
public:
    struct Options {
        bool expiry = true;  // a PROCESSING row older than the expiry may be taken over
        qint64 expiryMs = 5'000;
        qint64 retentionMs = 0;  // 0: kept forever; else older rows count as gone
        // A FAILED row is the final answer, repeated to every duplicate (like
        // caching a 500); otherwise a FAILED claim may be taken again.
        bool failedIsFinal = false;
    };
    enum class Outcome {
        Claimed,
        TakenOver,
        Done,        // SUCCESS: answer the stored result
        InProgress,  // someone else holds a fresh claim
        Failed,      // FAILED and final: answer the stored error
        KeyReused,   // the key was claimed for a request with another fingerprint
    };
    struct Claim {
        Outcome outcome = Outcome::Claimed;
        QString result;  // with Done or Failed: the stored result
    };

    static QString schema();  // CREATE TABLE dedup ...
    // The column a fingerprinting dedup table adds (ALTER TABLE dedup ...).
    static QString fingerprintColumn();
    // A fingerprint of the request's parameters: the first 16 hex digits of
    // the SHA-256 of their canonical JSON (keys sorted).
    static QString fingerprint(const QVariantMap& request);

    explicit DedupGuard(QString bizType, Options options)
        : bizType_(std::move(bizType)), options_(options) {}

    // Claims bizId; with a fingerprint (non-empty), stores it with the claim
    // and refuses the key to a request whose fingerprint differs.
    Task<Claim> claim(Attempt& a, const QString& bizId, const QString& fingerprint = {}) const;
    // Marks our claim done; false when someone else owns the row by now.
    Task<bool> markSuccess(Attempt& a, const QString& bizId, const QString& result) const;
    // Marks our claim FAILED with the error; false when someone else owns it.
    Task<bool> markFailed(Attempt& a, const QString& bizId, const QString& error) const;

    static QString owner(const Attempt& a);

private:
    QString bizType_;
    Options options_;
};

}  // namespace idem
