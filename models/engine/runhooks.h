// What a library above the engine hears of a run's life, without the engine
// knowing it: the workbench keeps each run's handler until the run goes.
#pragma once

namespace idem {

struct RunConfig;

// Called as a run goes, with its own configuration (whose address named
// the run while it lived), on whichever thread lets go of it.
using RunEnded = void (*)(const RunConfig& config);
void setRunEndedHook(RunEnded hook);

}  // namespace idem
