// A server run's locks told after the fact, for the exports: each lock wait
// from the statement it held to the step that released it (and whose
// transaction ended to let it go), each deadlock, serialization failure and
// lock timeout with its victim, and the lock table of the moment (from the
// run's locks events). Followed event by event, so that a streaming export
// keeps only the waits still open and, for a report, the first episodes.
// A SQLite run has none of these: its waits are the single writer's.
#pragma once

#include "lockrow.h"
#include "locksnapshot.h"
#include "lockwaits.h"
#include "sqloutcome.h"
#include "traceevent.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace idem {

struct LockEpisode {
    enum class Kind { Wait, Deadlock, SerializationFailure, LockTimeout };
    Kind kind = Kind::Wait;
    qint64 seq = 0;  // the wait, or the statement the server refused
    qint64 tMs = 0;
    AttemptRef who;   // the waiting attempt, or the victim
    QString session;  // its connection (c1 ...)
    // A wait: the attempts holding the lock, their sessions as the server
    // named them ("c3, c2"), and the server's words for the lock.
    QList<AttemptRef> holders;
    QString holderSessions;
    QString lock;
    // A wait that ended: the statement it held (its seq and time, what became
    // of it) and the holder whose transaction ended last before it (attempt
    // 0: none known), with that event's time and seq.
    qint64 endSeq = -1;
    qint64 endMs = -1;
    SqlOutcome endOutcome = SqlOutcome::Ok;
    AttemptRef releasedBy;
    qint64 releasedMs = -1;
    qint64 releasedSeq = -1;
    // A refused statement: the server's code, state and message; a lock
    // timeout's cause when the lab cancelled the wait ("lock-timeout": at
    // --lock-timeout-ms, "lab-cancel": no session of the run could go on).
    int code = 0;
    QString cause;
    QString state;
    QString error;
    // The lock table of the moment: after a wait began (the server's next
    // snapshot), before a statement was refused (the cycle it broke). Each
    // row's attempt named as the run then knew it ("#2").
    LockRows locks;
    QStringList lockAttempts;
    bool locksKnown = false;

    bool isWait() const { return kind == Kind::Wait; }
    bool ended() const { return endSeq >= 0; }
    // The wait ended because a holder let the lock go (the statement then
    // ran, whatever its result), not because the server broke it off.
    bool letGo() const {
        return ended() && endOutcome != SqlOutcome::Deadlock &&
               endOutcome != SqlOutcome::LockTimeout &&
               endOutcome != SqlOutcome::SerializationFailure;
    }
};

// What one event changed: a wait that began or ended, a statement refused.
struct LockStep {
    std::optional<LockEpisode> began;
    std::optional<LockEpisode> ended;
    std::optional<LockEpisode> refused;
    bool any() const { return began || ended || refused; }
};

class LockStory {
    Q_DECLARE_TR_FUNCTIONS(idem::LockStory)
public:
    // keep: how many episodes episodes() keeps (the first ones); the rest are
    // counted only.
    explicit LockStory(qsizetype keep = 200) : keep_(keep) {}
    // The run's backend ("mariadb", "postgres"), which names the server in
    // the sentences ("InnoDB rolled back #2's transaction").
    void setBackend(const QString& backend) { backend_ = backend; }
    LockStep follow(const TraceEvent& e);
    void clear();

    // Anything to tell: a server's wait, a refused statement or a lock table.
    bool told() const { return count_ > 0 || sawLocks_; }
    const QList<LockEpisode>& episodes() const { return episodes_; }
    qsizetype count() const { return count_; }
    qsizetype waits() const { return waits_; }
    qsizetype deadlocks() const { return deadlocks_; }
    qsizetype serializationFailures() const { return serializationFailures_; }
    // The latest lock table and its rows' attempts.
    const LockRows& locks() const { return locks_; }
    QStringList lockAttempts() const { return attemptsOf(locks_); }
    bool sawLocks() const { return sawLocks_; }
    bool manyIntents() const { return manyIntents_; }
    QString name(const AttemptRef& a) const { return attemptName(a, manyIntents_); }

    // The sentences, in the reader's language.
    // "#1 waits for #2, #3: gap lock on uk_orders_request_id"
    QString waitText(const LockEpisode& w) const;
    // "#1 goes on: #3's transaction ended" (or what became of the statement).
    QString releaseText(const LockEpisode& w) const;
    // "Deadlock: InnoDB rolled back #3's transaction (1213)" ...
    QString refusalText(const LockEpisode& r) const;
    // The whole episode in one sentence, with its times.
    QString storyText(const LockEpisode& e) const;
    // "gap lock on uk_orders_request_id", "transactionid ShareLock"
    static QString lockText(const QString& lock);

    // The lock table as HTML (a table, or a sentence when nothing is held).
    static QString locksHtml(const LockRows& rows, const QStringList& attempts);
    // The episodes as an HTML list and, under `currentTitle` (unless empty),
    // the latest lock table; empty when the run told none.
    QString storyHtml(const QString& currentTitle) const;
    // The style those use (waiting rows highlighted, refusals in red).
    static const char* const kStyle;

private:
    QStringList attemptsOf(const LockRows& rows) const;
    QString server() const;

    qsizetype keep_;
    QString backend_;
    SessionAttempts sessions_;
    // Per attempt ("intent/attempt"): its wait still open.
    QHash<QString, LockEpisode> open_;
    // Per session: its latest statement (a holder's lets a wait go when
    // its transaction ends).
    struct LastEnd {
        AttemptRef attempt;
        qint64 seq = -1;
        qint64 tMs = 0;
    };
    QHash<QString, LastEnd> ends_;
    QList<LockEpisode> episodes_;
    // The kept wait that still waits for the server's next snapshot.
    qsizetype awaitingLocks_ = -1;
    LockRows locks_;
    bool sawLocks_ = false;
    bool manyIntents_ = false;
    qsizetype count_ = 0;
    qsizetype waits_ = 0;
    qsizetype deadlocks_ = 0;
    qsizetype serializationFailures_ = 0;
};

}  // namespace idem
