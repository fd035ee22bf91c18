// What a run's transition events add up to on its state diagram: how often
// each move was accepted or refused, where each intent's entity stands, and
// the moves that happened although the diagram does not draw them.
//
// A move made inside a transaction is not in the database until it commits:
// until then it is pending (drawn as such, never as the state the entity is
// in), and a rollback (explicit, or the one a crash causes) counts it as
// rolled back instead of accepted. So the diagram says what the database holds.
//
// Plain data apart from the widget that draws it, so that a worker can bring
// a copy up to date over a long seek while the window still shows the old one.
#pragma once

#include "opentransactions.h"
#include "traceevent.h"

#include <QHash>
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
    // marks of the previous call are dropped). A commit or a rollback in
    // the latest step marks the moves it settled.
    void advance(const QList<TraceEvent>& events, qsizetype upTo, qsizetype freshFrom);
    // Counts one event read as a stream (an export reads the trace once);
    // `fresh` marks it as the latest step's. applied() does not move.
    void add(const TraceEvent& e, bool fresh);
    // Events [0, applied()) are counted.
    qsizetype applied() const { return applied_; }

    // Moves the database holds (committed, or made outside a transaction).
    int accepted(const Move& move) const { return accepted_.value(move); }
    int rejected(const Move& move) const { return rejected_.value(move); }
    // Moves made inside a transaction that rolled back: they never happened.
    int rolledBack(const Move& move) const { return rolledBack_.value(move); }
    // Moves made inside a transaction still open.
    int pending(const Move& move) const { return pending_.value(move); }
    bool freshAccepted(const Move& move) const { return freshAccepted_.contains(move); }
    bool freshRejected(const Move& move) const { return freshRejected_.contains(move); }
    bool freshRolledBack(const Move& move) const { return freshRolledBack_.contains(move); }
    bool freshPending(const Move& move) const { return freshPending_.contains(move); }
    bool anyFresh() const {
        return !freshAccepted_.isEmpty() || !freshRejected_.isEmpty() ||
               !freshRolledBack_.isEmpty() || !freshPending_.isEmpty();
    }
    bool anyRolledBack() const { return !rolledBack_.isEmpty(); }
    bool anyPending() const { return !pending_.isEmpty(); }
    // Moves between two of the diagram's states that the diagram does not
    // allow, in the order they were first committed or refused.
    const QList<Move>& offDiagram() const { return offDiagram_; }
    // The state each intent's entity is in, as the database holds it (its
    // last accepted move that is committed).
    const QMap<int, QString>& current() const { return current_; }
    // Where an open transaction has moved an intent's entity (not yet
    // committed: nobody else sees it there).
    const QMap<int, QString>& uncommitted() const { return uncommitted_; }
    // The entity each intent's last accepted move named.
    const QMap<int, QString>& entities() const { return entities_; }

private:
    struct Held {  // a move waiting for its transaction's end
        int intent;
        QString entity;
        Move move;
    };
    bool drawnMove(const Move& move) const;
    void apply(const Held& held, bool fresh);
    void settle(qint16 connection, bool committed, bool fresh);

    QSet<QString> states_;
    QSet<Move> allowed_;
    QMap<Move, int> accepted_;
    QMap<Move, int> rejected_;
    QMap<Move, int> rolledBack_;
    QMap<Move, int> pending_;
    QSet<Move> freshAccepted_;
    QSet<Move> freshRejected_;
    QSet<Move> freshRolledBack_;
    QSet<Move> freshPending_;
    QList<Move> offDiagram_;
    QMap<int, QString> current_;
    QMap<int, QString> uncommitted_;
    QMap<int, QString> entities_;
    QMap<QString, QString> entityState_;    // resolves an unconditional ("*") move's source
    QMap<QString, QString> entityPending_;  // ... inside the transaction that made it
    QHash<qint16, QList<Held>> held_;       // connection → its open transaction's moves
    OpenTransactions transactions_;
    qsizetype applied_ = 0;
};

}  // namespace idem
