#include "live/observer.h"

#include "live/mariaobserver.h"
#include "live/pgobserver.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>
#include <atomic>

namespace idem::live {

namespace {

// Whether `waiter`'s wait can end only by a later step: every session it
// waits for is idle (nothing in flight: only the next step moves it) or
// waits in turn on the same terms, and the waits form no cycle (a cycle is
// a deadlock, which the server breaks on its own).
bool certainlyStuck(const Session* waiter, const QHash<const Session*, LockWait>& waits,
                    const QHash<QString, const Session*>& byId, QSet<const Session*>* path) {
    const auto wait = waits.constFind(waiter);
    if (wait == waits.constEnd() || wait->onOthers || wait->on.isEmpty())
        return false;
    path->insert(waiter);
    for (const QString& id : wait->on) {
        const Session* holder = byId.value(id);
        if (!holder || path->contains(holder))
            return false;
        if (holder->busy() && !certainlyStuck(holder, waits, byId, path))
            return false;
    }
    path->remove(waiter);
    return true;
}

// The sessions of a cycle of waits reachable from `waiter` (each waits
// for the next, the last for the first); empty when its waits end
// somewhere.
QList<const Session*> cycleFrom(const Session* waiter, const QHash<const Session*, LockWait>& waits,
                                const QHash<QString, const Session*>& byId,
                                QList<const Session*>* path) {
    if (const qsizetype at = path->indexOf(waiter); at >= 0)
        return path->mid(at);
    const auto wait = waits.constFind(waiter);
    if (wait == waits.constEnd() || !waiter->busy())
        return {};
    path->append(waiter);
    for (const QString& id : wait->on) {
        if (const Session* holder = byId.value(id)) {
            const QList<const Session*> cycle = cycleFrom(holder, waits, byId, path);
            if (!cycle.isEmpty())
                return cycle;
        }
    }
    path->removeLast();
    return {};
}

// A cycle of waits the server has not broken (Observer::deadlockSeenWithinMs)
// is left this long after the lab's last cancel too: the server finds at
// once a cycle that a cancel made.
constexpr qint64 kAfterACancelMs = 500;
std::atomic<qint64> lastCancelMs{0};

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
                                int giveUpMs) {
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
        if (clock.elapsed() >= giveUpMs) {
            step.state = StepWait::State::GaveUp;
            break;
        }
        if (clock.elapsed() < nextLook || observer.msUntilFresh() > 0)
            continue;
        // Every open session of the run, idle ones included: a wait on an
        // idle session is a wait on the run, not on a stranger.
        QList<const Session*> watched;
        for (Session* s : run) {
            if (s != &session)
                s->poll(0);
            if (s->isOpen())
                watched << s;
        }
        if (!watched.contains(&session))
            watched << &session;
        const QHash<const Session*, LockWait> waits = observer.waits(watched);
        nextLook = clock.elapsed() + observer.lookIntervalMs();
        QSet<const Session*> path;
        if (certainlyStuck(&session, waits, byId, &path)) {
            step.state = StepWait::State::Blocked;
            step.lock = waits.value(&session);
            break;
        }
        // A cycle the server does not break (InnoDB misses some among
        // three sessions' gap locks) is ended as a lock wait timeout would
        // end it, with no real timer of the server's: the statement that
        // began waiting first is cancelled (LockTimeout), however long the
        // steps took before.
        QList<const Session*> walk;
        const QList<const Session*> cycle = cycleFrom(&session, waits, byId, &walk);
        if (!cycle.isEmpty()) {
            const auto bySend = [](const Session* a, const Session* b) {
                return a->sentOrder() < b->sentOrder();
            };
            const Session* closer = *std::max_element(cycle.cbegin(), cycle.cend(), bySend);
            const Session* first = *std::min_element(cycle.cbegin(), cycle.cend(), bySend);
            const qint64 now = steadyMs();
            if (now - closer->sentAtMs() >= observer.deadlockSeenWithinMs() &&
                now - lastCancelMs.load() >= kAfterACancelMs) {
                Session* victim = first == &session ? &session : nullptr;
                for (Session* s : run) {
                    if (s == first)
                        victim = s;
                }
                if (victim && victim->cancel())
                    victim->poll(-1);
                lastCancelMs = steadyMs();
            }
        }
    }
    step.ms = clock.elapsed();
    return step;
}

}  // namespace idem::live
