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
    freshAccepted_.clear();
    freshRejected_.clear();
    offDiagram_.clear();
    current_.clear();
    entities_.clear();
    entityState_.clear();
    applied_ = 0;
}

void StateTally::advance(const QList<TraceEvent>& events, qsizetype upTo, qsizetype freshFrom) {
    const qsizetype end = std::min(upTo, events.size());
    if (end < applied_)
        clear();
    freshAccepted_.clear();
    freshRejected_.clear();
    for (qsizetype i = applied_; i < end; ++i) add(events[i], i >= freshFrom);
    applied_ = end;
}

void StateTally::add(const TraceEvent& e, bool fresh) {
    if (!e.is(EventKind::Transition))
        return;
    const QString entity = e.fields.text("entity");
    QString from = e.fields.text("from_state");
    const QString to = e.fields.text("to_state");
    const bool accepted = e.fields.flag("accepted");
    if (from == QLatin1String("*"))
        from = entityState_.value(entity);
    const Move move{from, to};
    (accepted ? accepted_ : rejected_)[move] += 1;
    if (fresh)
        (accepted ? freshAccepted_ : freshRejected_).insert(move);
    if (accepted) {
        entityState_[entity] = to;
        current_[e.intent] = to;
        entities_[e.intent] = entity;
    }
    if (!allowed_.contains(move) && states_.contains(from) && states_.contains(to) &&
        !offDiagram_.contains(move)) {
        offDiagram_ << move;
    }
}

}  // namespace idem
