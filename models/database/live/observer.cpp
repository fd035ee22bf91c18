#include "observer.h"

#include "mariaobserver.h"
#include "pgobserver.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>

namespace idem::live {

namespace {

// The sessions of the run whose statement may still end without a later
// step: one that runs (it waits for no lock), one that waits for a
// connection outside the run or for a session the lab does not know, and
// one that waits for any such session in turn. Every other busy session
// waits, directly or through others, only for idle sessions or in a cycle:
// nothing but a later step (or the server breaking the cycle) moves it.
// One pass over the waits, however many sessions wait on how many others.
QSet<const Session*> mayGoOnAlone(const QList<const Session*>& busy,
                                  const QHash<const Session*, LockWait>& waits,
                                  const QHash<QString, const Session*>& byId) {
    QSet<const Session*> free;
    QHash<const Session*, QList<const Session*>> waitersOf;
    QList<const Session*> queue;
    for (const Session* s : busy) {
        const auto wait = waits.constFind(s);
        bool alone = wait == waits.constEnd() || wait->onOthers || wait->on.isEmpty();
        if (!alone) {
            for (const QString& id : wait->on) {
                const Session* holder = byId.value(id);
                if (!holder) {
                    alone = true;
                    break;
                }
                if (holder->busy())
                    waitersOf[holder] << s;
            }
        }
        if (alone && !free.contains(s)) {
            free.insert(s);
            queue << s;
        }
    }
    while (!queue.isEmpty()) {
        const Session* going = queue.takeLast();
        for (const Session* waiter : waitersOf.value(going)) {
            if (!free.contains(waiter)) {
                free.insert(waiter);
                queue << waiter;
            }
        }
    }
    return free;
}

// The run's sessions as they are now (each polled once): by id, those
// open (watched: a wait on an idle one is a wait on the run) and those busy.
struct RunNow {
    QHash<QString, const Session*> byId;
    QList<const Session*> watched;
    QList<const Session*> busy;
};
RunNow lookAt(const QList<Session*>& run) {
    RunNow now;
    for (Session* s : run) {
        s->poll(0);
        now.byId.insert(s->id(), s);
        if (s->isOpen())
            now.watched << s;
        if (s->busy())
            now.busy << s;
    }
    return now;
}

// The busy sessions whose wait ends at a connection outside the run: those
// that wait for one, and those that wait for such a session in turn. Each
// maps to the outside connections at the end of its wait (their lines, as
// the server shows them), and `through` the session of the run between.
struct OutsideChain {
    QStringList others;
    QString through;
};
QHash<const Session*, OutsideChain> waitsOutside(const QList<const Session*>& busy,
                                                 const QHash<const Session*, LockWait>& waits,
                                                 const QHash<QString, const Session*>& byId) {
    QHash<const Session*, OutsideChain> outside;
    QHash<const Session*, QList<const Session*>> waitersOf;
    QList<const Session*> queue;
    for (const Session* s : busy) {
        const auto wait = waits.constFind(s);
        if (wait == waits.constEnd())
            continue;
        for (const QString& id : wait->on) {
            if (const Session* holder = byId.value(id))
                waitersOf[holder] << s;
        }
        if (wait->onOthers && !outside.contains(s)) {
            outside.insert(s, {wait->others, {}});
            queue << s;
        }
    }
    while (!queue.isEmpty()) {
        const Session* end = queue.takeFirst();
        for (const Session* waiter : waitersOf.value(end)) {
            if (!outside.contains(waiter) && waiter->busy()) {
                outside.insert(waiter, {outside.value(end).others, end->id()});
                queue << waiter;
            }
        }
    }
    return outside;
}

// The sessions of a cycle of waits reachable from `waiter` (each waits
// for the next, the last for the first); empty when its waits end
// somewhere. `done` holds the sessions already seen to lead to no cycle,
// so that each session is walked once.
QList<const Session*> cycleFrom(const Session* waiter, const QHash<const Session*, LockWait>& waits,
                                const QHash<QString, const Session*>& byId,
                                QList<const Session*>* path, QSet<const Session*>* done) {
    if (const qsizetype at = path->indexOf(waiter); at >= 0)
        return path->mid(at);
    const auto wait = waits.constFind(waiter);
    if (done->contains(waiter) || wait == waits.constEnd() || !waiter->busy())
        return {};
    path->append(waiter);
    for (const QString& id : wait->on) {
        if (const Session* holder = byId.value(id)) {
            const QList<const Session*> cycle = cycleFrom(holder, waits, byId, path, done);
            if (!cycle.isEmpty())
                return cycle;
        }
    }
    path->removeLast();
    done->insert(waiter);
    return {};
}

// Whether `waiter`, which cannot go on alone (mayGoOnAlone), is certainly
// blocked: it waits only for idle sessions, or in a cycle the server has
// had the time to see. A cycle is a deadlock the server breaks by itself;
// one still there after deadlockSeenWithinMs() of the statement that closed
// it is one the server sees only when another lock is asked for (InnoDB
// misses some among three sessions' gap locks): the statement is left
// waiting, the next step is sent, and the server decides then. The lab
// never ends such a wait here; only when every session of the run waits
// and nothing is left to send does the scheduler cancel one
// (Scheduler::cancelAStuckWait).
bool blockedForNow(const Session* waiter, const QHash<const Session*, LockWait>& waits,
                   const QHash<QString, const Session*>& byId, const Observer& observer) {
    QList<const Session*> walk;
    QSet<const Session*> done;
    const QList<const Session*> cycle = cycleFrom(waiter, waits, byId, &walk, &done);
    if (cycle.isEmpty())
        return true;
    const auto bySend = [](const Session* a, const Session* b) {
        return a->sentOrder() < b->sentOrder();
    };
    const Session* closer = *std::max_element(cycle.cbegin(), cycle.cend(), bySend);
    return steadyMs() - closer->sentAtMs() >= observer.deadlockSeenWithinMs();
}

}  // namespace

QString LockWait::describe() const {
    QString holders = on.join(u", ");
    if (onOthers)
        holders += holders.isEmpty() ? QStringLiteral("a connection outside the run")
                                     : QStringLiteral(" and a connection outside the run");
    QString text = QStringLiteral("waits for %1: %2 %3").arg(holders, lockType, mode).trimmed();
    if (!table.isEmpty())
        text += QStringLiteral(" on %1").arg(table);
    if (!index.isEmpty())
        text += QStringLiteral(" index %1").arg(index);
    if (!row.isEmpty())
        text += QStringLiteral(" row %1").arg(row);
    if (!heldAs.isEmpty())
        text += QStringLiteral(", held as %1").arg(heldAs);
    if (!others.isEmpty())
        text += QStringLiteral(" (outside the run: %1)").arg(others.join(u"; "));
    return text;
}

Observer::~Observer() = default;

std::unique_ptr<Observer> openObserver(const Endpoint& endpoint) {
    switch (endpoint.kind) {
        case ServerKind::Postgres:
            return std::make_unique<PgObserver>(endpoint);
        case ServerKind::MariaDb:
            return std::make_unique<MariaObserver>(endpoint);
    }
    return nullptr;
}

StepWait waitUntilDoneOrBlocked(Session& session, Observer& observer, const QList<Session*>& run,
                                const std::atomic<bool>* stop, int giveUpMs) {
    QElapsedTimer clock;
    clock.start();
    StepWait step;
    QHash<QString, const Session*> byId;
    for (const Session* s : run) byId.insert(s->id(), s);
    byId.insert(session.id(), &session);
    // Most statements answer within a millisecond: the locks are read only
    // once one has not.
    qint64 nextLook = observer.lookIntervalMs();
    for (;;) {
        const qint64 now = clock.elapsed();
        const qint64 untilLook = qMax(qMax<qint64>(0, nextLook - now), observer.msUntilFresh());
        if (session.poll(int(qMin(untilLook, qMax<qint64>(0, giveUpMs - now))))) {
            step.state = StepWait::State::Done;
            break;
        }
        // A stop is heard once the statement has had a second: a quick one
        // is never cut short (a window's seek stops between steps).
        if (clock.elapsed() >= giveUpMs ||
            (stop && clock.elapsed() >= 1000 && stop->load(std::memory_order_relaxed))) {
            step.state = StepWait::State::GaveUp;
            break;
        }
        if (clock.elapsed() < nextLook || observer.msUntilFresh() > 0)
            continue;
        // Every open session of the run, idle ones included: a wait on an
        // idle session is a wait on the run, not on a stranger.
        QList<const Session*> watched;
        QList<const Session*> busy;
        for (Session* s : run) {
            if (s != &session)
                s->poll(0);
            if (s->isOpen())
                watched << s;
            if (s->busy())
                busy << s;
        }
        if (!watched.contains(&session))
            watched << &session;
        if (!busy.contains(&session))
            busy << &session;
        const QHash<const Session*, LockWait> waits = observer.waits(watched);
        nextLook = clock.elapsed() + observer.lookIntervalMs();
        // Another client of the server holds what it waits for: said at
        // once, and waited for as long as that client keeps it (the
        // scheduler, which hears Esc), never given up on as a timeout.
        const QHash<const Session*, OutsideChain> outside = waitsOutside(busy, waits, byId);
        if (const auto end = outside.constFind(&session); end != outside.constEnd()) {
            step.state = StepWait::State::Outside;
            step.lock = waits.value(&session);
            step.lock.onOthers = true;
            // Behind a session of the run that waits for them: named through it.
            if (!end->through.isEmpty()) {
                for (const QString& other : end->others)
                    step.lock.others << QStringLiteral("through %1, %2").arg(end->through, other);
            }
            break;
        }
        if (mayGoOnAlone(busy, waits, byId).contains(&session) ||
            !blockedForNow(&session, waits, byId, observer))
            continue;
        step.state = StepWait::State::Blocked;
        step.lock = waits.value(&session);
        break;
    }
    step.ms = clock.elapsed();
    return step;
}

QSet<const Session*> stillBlocked(const QList<Session*>& waiting, Observer& observer,
                                  const QList<Session*>& run) {
    QSet<const Session*> blocked;
    const RunNow now = lookAt(run);
    bool anyWaits = false;
    for (const Session* w : waiting) anyWaits = anyWaits || w->busy();
    if (!anyWaits)
        return blocked;
    const QHash<const Session*, LockWait> waits = observer.waits(now.watched);
    const QSet<const Session*> free = mayGoOnAlone(now.busy, waits, now.byId);
    for (const Session* w : waiting) {
        if (w->busy() && !free.contains(w) && blockedForNow(w, waits, now.byId, observer))
            blocked.insert(w);
    }
    return blocked;
}

bool awaitAnyDone(const QList<Session*>& waiting, Observer& observer, const QList<Session*>& run,
                  const std::atomic<bool>* stop) {
    QElapsedTimer sinceLook;
    sinceLook.start();
    for (;;) {
        for (Session* s : waiting) {
            if (!s->busy() || s->poll(0))
                return true;
        }
        if (stop && stop->load(std::memory_order_relaxed))
            return false;
        // What it waits for may have moved into the run (the outside
        // client let go, a session of the run took the lock next): then
        // the run's own steps decide again.
        if (sinceLook.elapsed() >= 250) {
            sinceLook.restart();
            const RunNow now = lookAt(run);
            const QHash<const Session*, OutsideChain> outside =
                waitsOutside(now.busy, observer.waits(now.watched), now.byId);
            bool any = false;
            for (const Session* s : waiting) any = any || outside.contains(s);
            if (!any)
                return true;
        }
        // One socket at a time, briefly: Esc is heard within a look.
        waiting.first()->poll(20);
    }
}

OutsideEnd awaitOutside(const QList<Session*>& parked, Observer& observer,
                        const QList<Session*>& run, const std::atomic<bool>* stop) {
    // One look for them all first (many waiters in a cycle the server
    // misses come here once each): only a wait on another client is waited
    // out here.
    const RunNow now = lookAt(run);
    for (const Session* s : parked) {
        if (!s->busy())
            return OutsideEnd::Moved;  // it has finished: the scheduler settles it
    }
    const QHash<const Session*, OutsideChain> ends =
        waitsOutside(now.busy, observer.waits(now.watched), now.byId);
    QList<Session*> outside;
    for (Session* s : parked) {
        if (ends.contains(s))
            outside << s;
    }
    if (outside.isEmpty())
        return OutsideEnd::NoneOutside;
    return awaitAnyDone(outside, observer, run, stop) ? OutsideEnd::Moved : OutsideEnd::Stopped;
}

}  // namespace idem::live
