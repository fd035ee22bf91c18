#include "comparison.h"

namespace idem {

void runComparison(CompareRuns& runs, const std::atomic<bool>* cancel) {
    for (int side = 0; side < 2; ++side) {
        RunOptions options = RunOptions::untraced();
        options.keepTrace = runs.keepTrace[side];
        options.cancel = cancel;
        runs.sides[side] = runToEnd(runs.configs[side], *runs.scenario, options, true);
    }
}

}  // namespace idem
