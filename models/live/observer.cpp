#include "live/observer.h"

#include "live/mariaobserver.h"
#include "live/pgobserver.h"

#include <QElapsedTimer>
#include <QSet>

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
    }
    step.ms = clock.elapsed();
    return step;
}

}  // namespace idem::live
