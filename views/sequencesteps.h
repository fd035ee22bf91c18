// What each trace event looks like in the sequence diagram — which lanes it
// touches, its shape, label and tone — kept apart from the drawing so that the
// wording stays in one place and can be checked without a scene.
#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "lockwaits.h"
#include "opentransactions.h"
#include "traceevent.h"

namespace idem {

struct ScenarioInfo;

struct SequenceStep {
    enum class Shape {
        Arrow,   // from one lane to another: fire, sql, response, downstream call
        Loop,    // an arrow back onto its own lane: the caller retries
        Tag,     // a small box on a lane: guard, transition, lock wait, note
        Bar,     // a tall bar on a lane: a long pause
        Cross,   // a red ✕ box on a lane: a crash
        Banner,  // across all lanes: the judge's effects and verdict
    };
    enum class Tone { Normal, Muted, Good, Warn, Bad };

    Shape shape = Shape::Tag;
    Tone tone = Tone::Normal;
    QString from;  // the lane it starts on (or sits on)
    QString to;    // the lane an arrow ends on
    QString label;
    QString tooltip;
    qint64 tMs = 0;
    bool dashed = false;
    bool lost = false;  // the arrow breaks off halfway with a ✕: an answer that never arrived
    bool hourglass = false;  // waits for a lock: an hourglass before the label
    bool counted = false;  // counts in SequenceView::arrowCount (fire, response, retry, downstream)
    bool fresh = false;
    qsizetype event = -1;  // the trace event it was drawn from (the first, for the set-up)
    bool setup = false;    // the set-up before the first attempt (schema, seed rows)
    // A statement a server held in a lock wait until this step: the wait's
    // trace event (drawn as a bar on the lane from the wait to here); -1: none.
    qsizetype waitedFrom = -1;
};

// Turns trace events into steps; static functions only, a class so that its
// texts are translated under one context.
class SequenceSteps {
    Q_DECLARE_TR_FUNCTIONS(idem::SequenceSteps)
public:
    // The steps for events [from, upTo); events at or after freshFrom are
    // marked fresh. Consecutive set-up statements become one step. The run's
    // scenario (null: none) names its notes, actors and guards, and says
    // which payload keys an attempt's arrow shows (ScenarioInfo::askKeys).
    static QList<SequenceStep> build(const QList<TraceEvent>& events, qsizetype from,
                                     qsizetype upTo, qsizetype freshFrom,
                                     const ScenarioInfo* scenario);
    // The lanes the steps use: those named in `order` (the scenario's
    // ScenarioInfo::lanes) in that order, then any other in the order it
    // first appears, the database last.
    static QStringList lanes(const QList<SequenceStep>& steps, const QStringList& order);
    // Schema, seed rows and the states the seed rows start in: the events
    // before the first attempt, drawn as one step on the database lane.
    static bool isSetupEvent(const TraceEvent& e);

    // How far into a trace build() looks for a second intent (beyond the
    // events it draws).
    static constexpr qsizetype kIntentLookAhead = 4096;

    // The steps build() makes over a whole trace, one event at a time, for
    // an export that reads the trace as a stream: the set-up's one step
    // comes with the first event after it. manyIntents: whether any event
    // belongs to an intent beyond the first (known from a first pass).
    class Stream {
    public:
        Stream(bool manyIntents, const ScenarioInfo* scenario);
        // Appends the steps `e` completes to `steps`.
        void add(const TraceEvent& e, QList<SequenceStep>* steps);
        void finish(QList<SequenceStep>* steps);

    private:
        void closeSetup(QList<SequenceStep>* steps);
        // The server's rollback of a crashed process's transaction, drawn
        // before `next` (null: at the end).
        void addDropped(const TraceEvent* next, QList<SequenceStep>* steps);

        bool manyIntents_;
        const ScenarioInfo* scenario_;
        bool inSetup_ = true;
        qsizetype seen_ = 0;
        // The set-up so far: its first event's time, statement heads, and moves.
        qint64 setupMs_ = 0;
        QStringList heads_;
        QStringList lines_;
        QString state_;
        SessionAttempts sessions_;
        // Per attempt ("intent/attempt"), its server lock wait's event, until
        // the statement it held ends.
        QHash<QString, qsizetype> waiting_;
        OpenTransactions transactions_;
        TraceEvent crash_;  // the latest crash, and its step
        qsizetype crashStep_ = -1;
    };

private:
    friend class Stream;
    static SequenceStep setupStep(const QStringList& heads, const QStringList& lines,
                                  const QString& state);
    // What a server's lock wait needs from the events before it: the
    // attempts holding the lock.
    struct Context {
        QList<AttemptRef> holders;
    };
    static SequenceStep eventStep(const TraceEvent& e, bool manyIntents,
                                  const ScenarioInfo* scenario, const Context& context);
    static SequenceStep step(const TraceEvent& e, bool manyIntents, const ScenarioInfo* scenario,
                             const Context& context);
    static QString lockWaitLabel(const TraceEvent& e, bool manyIntents, const Context& context);
    static SequenceStep sqlStep(const TraceEvent& e);
    static SequenceStep redisStep(const TraceEvent& e);
    static SequenceStep responseStep(const TraceEvent& e);
    // The ROLLBACK a server does when a crash closes a process's connection
    // in the middle of its transaction (on SQLite the lab sends one).
    static SequenceStep serverRollbackStep(const TraceEvent& crash, bool manyIntents);
    static QString tooltip(const TraceEvent& e);
};

}  // namespace idem
