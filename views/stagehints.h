// What the stage makes of a scenario's declarations: the table that holds
// this run's business effect, shown first. (The lanes and tables that are
// the lab's own instruments are declared in ScenarioInfo::internalLanes and
// ::internalTables.)
#pragma once

#include <QString>

namespace idem {

struct ScenarioInfo;
struct Summary;

namespace stagehints {

// The effect's table for this run (natural ops: the table its operation
// works on, from the run's summary); empty when unknown.
QString effectTable(const ScenarioInfo& info, const Summary& finalSummary);

}  // namespace stagehints
}  // namespace idem
