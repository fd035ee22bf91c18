#include "statetally.h"

#include "scenario.h"

namespace idem {

void StateTally::setMachine(const StateMachineInfo& machine) {
    states_.clear();
    allowed_.clear();
    for (const StateNode& n : machine.nodes) states_.insert(n.id);
    for (const StateEdge& e : machine.edges) allowed_.insert({e.from, e.to});
    clear();
}

void StateTally::clear() {
    accepted_.clear();
    rejected_.clear();
    rolledBack_.clear();
    pending_.clear();
    freshAccepted_.clear();
    freshRejected_.clear();
    freshRolledBack_.clear();
    freshPending_.clear();
    offDiagram_.clear();
    current_.clear();
    uncommitted_.clear();
    entities_.clear();
    entityState_.clear();
    entityPending_.clear();
    held_.clear();
    transactions_.clear();
    applied_ = 0;
}

// A move between states the diagram does not have is another record's (a
// dedup layer's beside the order's, with the same key): it moves no token.
bool StateTally::drawnMove(const Move& move) const {
    if (states_.isEmpty())
        return true;
    if (move.second.isEmpty())  // a removal: of this diagram's record if it left one of its states
        return !move.first.isEmpty() && states_.contains(move.first);
    return states_.contains(move.second);
}

void StateTally::apply(const Held& held, bool fresh) {
    accepted_[held.move] += 1;
    if (fresh)
        freshAccepted_.insert(held.move);
    entityState_[held.entity] = held.move.second;
    if (!drawnMove(held.move))
        return;
    if (held.move.second.isEmpty()) {  // the record is gone
        current_.remove(held.intent);
        return;
    }
    current_[held.intent] = held.move.second;
    entities_[held.intent] = held.entity;
    const Move& m = held.move;
    if (!allowed_.contains(m) && states_.contains(m.first) && states_.contains(m.second) &&
        !offDiagram_.contains(m)) {
        offDiagram_ << m;
    }
}

void StateTally::settle(qint16 connection, bool committed, bool fresh) {
    const QList<Held> moves = held_.take(connection);
    for (const Held& h : moves) {
        if (--pending_[h.move] <= 0)
            pending_.remove(h.move);
        uncommitted_.remove(h.intent);
        entityPending_.remove(h.entity);
        if (committed) {
            apply(h, fresh);
        } else {
            rolledBack_[h.move] += 1;
            if (fresh)
                freshRolledBack_.insert(h.move);
        }
    }
}

void StateTally::advance(const QList<TraceEvent>& events, qsizetype upTo, qsizetype freshFrom) {
    const qsizetype end = std::min(upTo, events.size());
    if (end < applied_)
        clear();
    freshAccepted_.clear();
    freshRejected_.clear();
    freshRolledBack_.clear();
    freshPending_.clear();
    for (qsizetype i = applied_; i < end; ++i) add(events[i], i >= freshFrom);
    // A server's rollback of a crashed process's transaction ends the step
    // that crashed it.
    if (const qint16 dropped = transactions_.droppedBefore(nullptr); dropped >= 0)
        settle(dropped, false, end > freshFrom);
    applied_ = end;
}

void StateTally::add(const TraceEvent& e, bool fresh) {
    if (const qint16 dropped = transactions_.droppedBefore(&e); dropped >= 0)
        settle(dropped, false, fresh);
    if (e.is(EventKind::Crash)) {
        transactions_.follow(e);
        return;
    }
    if (e.is(EventKind::Sql)) {
        const qint16 connection = e.connection;
        const TxChange change = transactions_.follow(e);
        if (change == TxChange::Committed || change == TxChange::RolledBack)
            settle(connection, change == TxChange::Committed, fresh);
        return;
    }
    if (!e.is(EventKind::Transition))
        return;
    const QString entity = e.fields.text("entity");
    QString from = e.fields.text("from_state");
    const QString to = e.fields.text("to_state");
    const bool accepted = e.fields.flag("accepted");
    if (from == QLatin1String("*"))
        from = entityPending_.value(entity, entityState_.value(entity));
    const Move move{from, to};
    if (!accepted) {
        // A refusal is the answer of the statement itself (0 rows),
        // whatever becomes of its transaction.
        rejected_[move] += 1;
        if (fresh)
            freshRejected_.insert(move);
        if (!allowed_.contains(move) && states_.contains(from) && states_.contains(to) &&
            !offDiagram_.contains(move)) {
            offDiagram_ << move;
        }
        return;
    }
    const Held held{e.intent, entity, move};
    if (!transactions_.latestOpen()) {
        apply(held, fresh);
        return;
    }
    held_[transactions_.latest()] << held;
    pending_[move] += 1;
    if (fresh)
        freshPending_.insert(move);
    entityPending_[entity] = to;
    if (drawnMove(move) && !to.isEmpty()) {
        uncommitted_[e.intent] = to;
        entities_[e.intent] = entity;
    }
}

}  // namespace idem
