// The locks of a run as its trace keeps them: on a server, a `locks` event
// each time the locks the server holds and awaits for the run's sessions
// change (nothing on SQLite, whose traces stay as they were), so that the
// Locks view, a replay and a lesson show them without a server. On SQLite
// the lab's own lock table stands in: one write lock for the whole
// database, and the lock-wait events of the sessions waiting for it.
#pragma once

#include "lockrow.h"
#include "lockwaits.h"
#include "traceevent.h"

#include <QJsonObject>
#include <QVariant>

namespace idem {

// A locks event's fields, and back; rows a trace of another version wrote
// without a field are read with its default.
QVariantList lockRowsToValue(const LockRows& rows);
LockRows lockRowsFromValue(const QVariant& value);
// The event that records `rows` (truncated: the server showed only some).
TraceEvent locksEvent(const LockRows& rows, bool truncated);

// What was last recorded, so that a trace gets a locks event only when the
// locks change: a run that locks nothing records none.
class LockChanges {
public:
    // True (and remembered) when `rows` differ from what was recorded last.
    bool changed(const LockRows& rows, bool truncated) {
        if (rows == recorded_ && truncated == truncated_)
            return false;
        recorded_ = rows;
        truncated_ = truncated;
        return true;
    }
    // Nothing can be held (no transaction open, no statement in flight).
    bool recordedNone() const { return recorded_.isEmpty(); }

private:
    LockRows recorded_;
    bool truncated_ = false;
};

// An event as a replay compares it: a locks event without its transaction
// ids, which a server hands out afresh every run; an XPENDING reply without
// its entries' idle times, which are Redis's clock.
QJsonObject withoutServerIds(const QJsonObject& event);

// The lab's words for a kind of lock ("gap lock", "间隙锁"), its record
// ("the end of the index" for InnoDB's supremum), and a waiting or holding
// state, in the reader's language.
QString lockKindName(const QString& kind);
QString lockKindHelp(const QString& kind);
QString lockRecordText(const QString& record);

// Follows a run's events in order: the latest lock snapshot, and on SQLite
// the sessions waiting for the write lock.
class LockFollower {
public:
    void follow(const TraceEvent& e);
    // Events [from, to) of `events`; all of [0, to) after clear().
    void followRange(const QList<TraceEvent>& events, qsizetype from, qsizetype to);
    void clear();
    qsizetype followed() const { return followed_; }

    // The latest snapshot a server's run recorded (empty: none held).
    const LockRows& serverLocks() const { return locks_; }
    bool truncated() const { return truncated_; }
    bool sawSnapshot() const { return sawSnapshot_; }
    // SQLite: the write lock, held by `writer` (the lab's lock table's
    // holder: Run::openWriter), and the sessions whose last event is a
    // wait for it.
    LockRows sqliteLocks(const QString& writer) const;
    // Which attempt a session serves now.
    AttemptRef attemptOf(const QString& session) const { return sessions_.of(session); }
    // Attempts of more than one intent were seen: name them with it.
    bool manyIntents() const { return manyIntents_; }

private:
    SessionAttempts sessions_;
    LockRows locks_;
    bool truncated_ = false;
    bool sawSnapshot_ = false;
    bool manyIntents_ = false;
    qsizetype followed_ = 0;
    // SQLite: a waiting attempt's session and whom it waits for, by attempt.
    struct Waiting {
        AttemptRef attempt;
        QString session;
        QString holder;
    };
    QList<Waiting> waiting_;
};

// "#2", or "i3#2" when the run has several intents.
QString attemptName(const AttemptRef& ref, bool manyIntents);

}  // namespace idem
