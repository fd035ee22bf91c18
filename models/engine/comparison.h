// Compare's work: the same input under two variants, each run to its end on a
// database of its own. The window's worker runs it; the Compare page only
// shows what it returns.
#pragma once

#include "runconfig.h"
#include "runner.h"

#include <atomic>

namespace idem {

class Scenario;

struct CompareRuns {
    const Scenario* scenario = nullptr;
    quint64 generation = 0;  // which input the page asked about
    RunConfig input;         // the input as fired
    RunConfig configs[2];    // each side's variant and database on it
    bool keepTrace[2] = {};  // its events kept, for its sequence diagram
    RunResult sides[2];      // each side's finished run (kept: its database)
};

// Runs both sides in turn, each on its own database and connections: safe in
// a worker thread; stops early when `cancel` is set.
void runComparison(CompareRuns& runs, const std::atomic<bool>* cancel = nullptr);

}  // namespace idem
