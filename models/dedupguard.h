// The dedup (idempotency) table: claim a business key as PROCESSING before the
// business runs, mark it SUCCESS with the result after, answer duplicates from
// it; with an in-progress expiry, a stale claim can be taken over.
#pragma once

#include "task.h"

#include <QString>

namespace idem {

class Attempt;

class DedupGuard {
public:
    struct Options {
        bool expiry = true;  // a PROCESSING row older than the expiry may be taken over
        qint64 expiryMs = 5'000;
        qint64 retentionMs = 0;  // 0: kept forever; else older rows count as gone
    };
    enum class Outcome { Claimed, TakenOver, Done, InProgress };
    struct Claim {
        Outcome outcome = Outcome::Claimed;
        QString result;  // with Done: the stored business result
    };

    static QString schema();  // CREATE TABLE dedup ...

    explicit DedupGuard(QString bizType, Options options)
        : bizType_(std::move(bizType)), options_(options) {}

    Task<Claim> claim(Attempt& a, const QString& bizId) const;
    // Marks our claim done; false when someone else owns the row by now.
    Task<bool> markSuccess(Attempt& a, const QString& bizId, const QString& result) const;

    static QString owner(const Attempt& a);

private:
    QString bizType_;
    Options options_;
};

}  // namespace idem
