// The lab's own connection to a server, beside the sessions of a run: it
// answers which of them waits for a lock, on whom, and for which lock. With
// it, a statement sent on one session is stepped until it has either
// finished or certainly waits for another session of the run, the way
// PostgreSQL's isolation tester steps its sessions, never by a timer.
#pragma once

#include "lockrow.h"
#include "session.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace idem::live {

// A session waiting for a lock, as the server describes the wait.
struct LockWait {
    QStringList on;         // ids of the run's sessions it waits for
    bool onOthers = false;  // ... and connections that are not the run's
    // Those connections as the server shows them, one line each ("pid
    // 4242, user ana, application psql: LOCK TABLE orders IN SHARE MODE");
    // MariaDB does not say who holds a metadata lock (then the waiter's state).
    QStringList others;
    QString table;     // "orders", "`lab`.`orders`"
    QString index;     // MariaDB: the index the record lock is on
    QString lockType;  // MariaDB: RECORD, TABLE; PostgreSQL: transactionid, tuple, relation ...
    QString mode;      // what the waiter asks for: "X,GAP", "ShareLock"
    QString heldAs;    // how the holder holds it: "S,GAP"; PostgreSQL: the row's lock modes
    bool gap = false;  // a gap lock (MariaDB), not a lock on a record itself
    QString row;       // the record: MariaDB's lock_data, PostgreSQL's ctid

    // "waits for a1: ..." in one line, for logs and test output.
    QString describe() const;
};

class Observer {
public:
    virtual ~Observer();
    Observer(const Observer&) = delete;
    Observer& operator=(const Observer&) = delete;

    bool isOpen() const { return open_; }
    QString openError() const { return openError_; }

    // The sessions among `sessions` that wait for a lock now, and on whom.
    virtual QHash<const Session*, LockWait> waits(const QList<const Session*>& sessions) = 0;
    // How soon a read of waits() would see the server as it is now: 0 for
    // PostgreSQL; MariaDB's lock tables come from a cache it refreshes only
    // after 100 ms without a read. waits() itself waits out the rest.
    virtual int msUntilFresh() const { return 0; }
    // How often a caller stepping a session should ask.
    virtual int lookIntervalMs() const = 0;
    // How long after the statement that closed a cycle of waits the server
    // has certainly looked for it: a cycle still there then is one it sees
    // only when another lock is asked for (waitUntilDoneOrBlocked).
    virtual int deadlockSeenWithinMs() const = 0;
    // Every lock the server holds or awaits for `sessions`, named by their
    // ids (live/serverlocks.h). False with a message when the server does
    // not show them; *truncated when it showed only some.
    virtual bool locks(const QList<const Session*>& sessions, LockRows* rows, bool* truncated,
                       QString* error) = 0;
    // Whether the server still lists the connection numbered `serverId`
    // (Session::serverId). A closed connection leaves the list only after
    // the server has rolled back what it had open: PostgreSQL ends the
    // transaction before the backend leaves pg_stat_activity; MariaDB's
    // InnoDB status names the thread of each transaction until it is rolled
    // back. False when it cannot tell.
    virtual bool lists(qint64 serverId) = 0;

protected:
    Observer() = default;
    bool open_ = false;
    QString openError_;
};

std::unique_ptr<Observer> openObserver(const Endpoint& endpoint);

// Where a statement stepped by waitUntilDoneOrBlocked stands.
struct StepWait {
    enum class State : quint8 {
        Done,     // the statement finished: the session's result()
        Blocked,  // it waits for a lock of `lock.on`, and only a later step of theirs can free it
        // It waits for a connection outside the run (another client of the
        // server): no step of the run frees it; that client may, or Esc.
        Outside,
        GaveUp,  // neither, within the time allowed (a server that does not answer), or stopped
    };
    State state = State::Done;
    LockWait lock;  // when Blocked or Outside
    qint64 ms = 0;  // real time it took to know
};

// Polls `session` (which has a statement in flight) until it is certainly
// Done or certainly Blocked. Blocked when nothing but a later step can end
// its wait: every session it waits for, and every session those wait for
// in turn, is one of `run` and either idle or itself waiting. A cycle among
// them is a deadlock the server breaks on its own: it is polled for
// deadlockSeenWithinMs() after the statement that closed it, and a cycle
// still there then is one the server sees only when another lock is asked
// for (InnoDB misses some), so the statement is Blocked too and the next
// step is sent. The lab never cancels here: the scheduler does, only when
// every session of the run waits and nothing is left to send. The other
// busy sessions of `run` are polled too, so that a waiter freed meanwhile
// is seen to have finished. Deciding costs one pass over the waits.
// Of `waiting` (sessions of `run` whose statements were Blocked), those
// that certainly still are, by the same rule as waitUntilDoneOrBlocked,
// from one look at the server for them all.
QSet<const Session*> stillBlocked(const QList<Session*>& waiting, Observer& observer,
                                  const QList<Session*>& run);

// Outside as soon as a look shows the statement waiting, directly or through
// sessions of the run, for a connection outside it. `stop` (Esc, Ctrl+C)
// ends any wait within a look: GaveUp.
StepWait waitUntilDoneOrBlocked(Session& session, Observer& observer, const QList<Session*>& run,
                                const std::atomic<bool>* stop = nullptr, int giveUpMs = 60000);

// Waits, as long as it lasts, while statements of `waiting` (sessions of
// `run`) wait for a connection outside the run: true once one has finished
// or none waits outside any more; false when `stop` was set first.
bool awaitAnyDone(const QList<Session*>& waiting, Observer& observer, const QList<Session*>& run,
                  const std::atomic<bool>* stop);

// Of `parked` (sessions of `run` whose statements wait), those that wait for
// a connection outside the run are waited for, as long as that lasts:
// Moved once one of `parked` has finished or none waits outside any more,
// Stopped at `stop`, NoneOutside (at once) when none waited outside.
enum class OutsideEnd : quint8 { NoneOutside, Moved, Stopped };
OutsideEnd awaitOutside(const QList<Session*>& parked, Observer& observer,
                        const QList<Session*>& run, const std::atomic<bool>* stop);

}  // namespace idem::live
