#include "runner.h"

namespace idem {

RunResult runToEnd(const RunConfig& config, const Scenario& scenario, RunOptions options,
                   bool keepRun, const StepWatch& watch) {
    RunResult result;
    auto run = std::make_unique<Run>(config, scenario, std::move(options));
    QString error;
    if (run->start(&error)) {
        if (watch) {
            qint64 steps = 0;
            watch(*run, steps);
            while (run->step()) watch(*run, ++steps);
            watch(*run, steps);
        } else {
            run->runToEnd();
        }
        if (!run->finish(&error))
            result.error = error;
    } else {
        result.error = error;
    }
    result.failure = run->failure();
    result.summary = run->summary();
    if (keepRun)
        result.run = std::move(run);
    return result;
}

}  // namespace idem
