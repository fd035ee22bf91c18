// What a run's transition events add up to on its state diagram: how often
// each move was accepted or refused, where each intent's entity stands, and
// the moves that happened although the diagram does not draw them.
//
// Plain data apart from the widget that draws it, so that a worker can bring
// a copy up to date over a long seek while the window still shows the old one.
#pragma once

#include "traceevent.h"

#include <QList>
#include <QMap>
#include <QPair>
#include <QSet>
#include <QString>

namespace idem {

struct StateMachineInfo;

class StateTally {
public:
    using Move = QPair<QString, QString>;  // from, to

    // The states and allowed moves of the diagram; clears the counts.
    void setMachine(const StateMachineInfo& machine);
    // Forgets every event counted (the machine stays).
    void clear();
    // Counts the transitions among events [applied(), upTo); those from
    // `freshFrom` on belong to the latest step and are marked fresh (the
    // marks of the previous call are dropped).
    void advance(const QList<TraceEvent>& events, qsizetype upTo, qsizetype freshFrom);
    // Counts one event read as a stream (an export reads the trace once);
    // `fresh` marks it as the latest step's. applied() does not move.
    void add(const TraceEvent& e, bool fresh);
    // Events [0, applied()) are counted.
    qsizetype applied() const { return applied_; }

    int accepted(const Move& move) const { return accepted_.value(move); }
    int rejected(const Move& move) const { return rejected_.value(move); }
    bool freshAccepted(const Move& move) const { return freshAccepted_.contains(move); }
    bool freshRejected(const Move& move) const { return freshRejected_.contains(move); }
    bool anyFresh() const { return !freshAccepted_.isEmpty() || !freshRejected_.isEmpty(); }
    // Moves between two of the diagram's states that the diagram does not
    // allow, in the order they first happened.
    const QList<Move>& offDiagram() const { return offDiagram_; }
    // The state each intent's entity is in (its last accepted move).
    const QMap<int, QString>& current() const { return current_; }
    // The entity each intent's last accepted move named.
    const QMap<int, QString>& entities() const { return entities_; }

private:
    QSet<QString> states_;
    QSet<Move> allowed_;
    QMap<Move, int> accepted_;
    QMap<Move, int> rejected_;
    QSet<Move> freshAccepted_;
    QSet<Move> freshRejected_;
    QList<Move> offDiagram_;
    QMap<int, QString> current_;
    QMap<int, QString> entities_;
    QMap<QString, QString> entityState_;  // resolves an unconditional ("*") move's source
    qsizetype applied_ = 0;
};

}  // namespace idem
