// One run of a student's handler as the attack set it up: the loaded
// program, the schedule that decides which attempt runs its statements
// when, where an attempt crashes, and what the run did (the statements each
// attempt ran, the handler's own failure). Carried by the run's
// configuration (RunConfig::workbench), so that a saved counterexample
// replays without the attack.
#pragma once

#include "handlerprogram.h"
#include "runconfig.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QSet>

#include <memory>

namespace idem {

// A run of one attempt's statements: `steps` of them, or all it has left (-1).
struct Segment {
    int attempt = 0;
    int steps = -1;
    bool operator==(const Segment&) const = default;
};

struct Schedule {
    QList<Segment> segments;
    // The attempt that dies before its statement `crashBeforeStep` (0: none;
    // a lost answer is the run's crash point before-response instead).
    int crashAttempt = 0;
    int crashBeforeStep = 0;
    // Instead of dying there, the attempt stalls for twice the lease and
    // goes on (long-pause): the node that pauses past its lease.
    bool pause = false;

    // The segment that holds `attempt`'s statement `step` (1, 2 ...): its
    // index in the run's order; -1 for an attempt the schedule leaves free.
    int segmentOf(int attempt, int step) const;
    // Switches away from an attempt that had statements left.
    int preemptions() const;
    QString text() const;  // "1:2 2 1" (attempt:steps, bare = to its end)
    QJsonObject toJson() const;
    static Schedule fromJson(const QJsonObject& json);
    bool operator==(const Schedule&) const = default;
};

struct HandlerRun {
    std::shared_ptr<HandlerProgram> program;
    Schedule schedule;
    QMap<int, int> steps;  // the statements each attempt ran
    // The handler's line of each statement an attempt ran, in order.
    QMap<int, QList<int>> lines;
    QString failure;  // the handler's own failure (a throw, a runaway step, a refused statement)
    bool runaway = false;
    bool refused = false;  // a statement the handler may not send (DDL outside schema)
    // The run's tables with a column `id`: a server's INSERT into one is
    // asked for the id it gave (challengescenario.cpp).
    QSet<QString> tablesWithId;
    quint64 thread = 0;  // Run::threadSerial of the thread whose engine holds its generators
};

// The virtual ms between two segments' starts.
constexpr qint64 kSegmentMs = 200;

// The handler run for a workbench configuration, begun on this thread (its
// module state fresh): the attack's program when useProgram gave one for
// this source, else a program of the run's own (runs the window keeps side
// by side do not share their handler's globals). Null with a message when
// the source does not load. Kept for `config`, the run's own configuration,
// until the run goes (forgetHandlerRun).
std::shared_ptr<HandlerRun> beginHandlerRun(const RunConfig& config, QString* error);
// The run begun for `config` on this thread (null when it was begun on
// another thread, whose engine holds its values, or has gone).
std::shared_ptr<HandlerRun> handlerRunOf(const RunConfig& config);
// The run of `config` goes (runhooks.h; registerChallengeScenarios sets it).
void forgetHandlerRun(const RunConfig& config);
// The run this thread began last (the attack reads what it did).
HandlerRun* currentHandlerRun();
// The program the attack's runs on this thread share (loaded and checked
// already), until releaseHandlerRuns.
void useProgram(std::shared_ptr<HandlerProgram> program);
// Lets go of the program useProgram gave and of the runs begun with it,
// keeping this thread's other runs (the attack does, when it is over: one
// in the window's thread leaves the run on the stage as it was).
void releaseSharedProgram();
// Lets go of this thread's programs and runs (an engine goes once no run
// still stepping holds it): before the thread ends, and before the
// application object goes.
void releaseHandlerRuns();

}  // namespace idem
