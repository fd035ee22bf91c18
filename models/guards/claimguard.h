// A job run as a claim in the job_runs table: PENDING -> RUNNING (one node
// claims it with a conditional UPDATE) -> DONE. A claim is stamped with its
// claimant's arrival; one whose age at a later arrival is staleAfter or more
// counts as abandoned and may be taken over, conditionally again.
// The claim can carry a fencing token; finishing it fenced succeeds only while
// the row still names that token, so a node that slept past its lease cannot
// finish a run someone else has taken over.
#pragma once

#include "task.h"

#include <QString>
#include <QVariant>

namespace idem {

class Attempt;

class ClaimGuard {
public:
    enum class Outcome { Claimed, TakenOver, Done, InProgress };
    struct Claim {
        Outcome outcome = Outcome::Claimed;
        QString owner;  // InProgress: who holds the claim
    };

    static QString schema();  // CREATE TABLE job_runs ...
    // The statement that schedules a run: one PENDING row per job and date.
    static QString pendingRow();

    ClaimGuard(QString job, QString bizDate, qint64 staleAfterMs)
        : job_(std::move(job)), bizDate_(std::move(bizDate)), staleAfterMs_(staleAfterMs) {}
    // How the state-machine view names this run: "settle/2025-03-01".
    QString entity() const { return job_ + QLatin1Char('/') + bizDate_; }

    // token: the fencing token to record with the claim, or a null QVariant.
    Task<Claim> claim(Attempt& a, const QString& owner, const QVariant& token) const;
    // RUNNING -> DONE. fenced: only while owner_token is still `token`; the
    // check is part of the UPDATE's WHERE, so it holds at the moment of the
    // write, not at some earlier moment of checking.
    Task<bool> finish(Attempt& a, const QVariant& token, bool fenced) const;

private:
    QString job_;
    QString bizDate_;
    qint64 staleAfterMs_;
};

}  // namespace idem
