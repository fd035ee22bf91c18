// The one front door to a whole run: start, step to the end, judge, finish.
// The CLI, replay, saving a trace, compare, the experiment, the pagination
// view and the tests all come through here.
#pragma once

#include "run.h"
#include "summary.h"

#include <QString>

#include <functional>
#include <memory>

namespace idem {

struct RunResult {
    RunFailure failure = RunFailure::None;
    QString error;
    Summary summary;           // as far as the judge could read it
    std::unique_ptr<Run> run;  // kept when asked for (its trace, its database)

    bool ok() const { return failure == RunFailure::None; }
};

// Told after the run starts and after each step, with the steps made so far
// (0 after the start; told once more when nothing is left): the command
// line's captions, a progress count.
using StepWatch = std::function<void(const Run& run, qint64 steps)>;

// Runs `config` of `scenario` to its end (or until options.cancel is set).
RunResult runToEnd(const RunConfig& config, const Scenario& scenario, RunOptions options = {},
                   bool keepRun = false, const StepWatch& watch = {});

}  // namespace idem
