// What the stage makes of a scenario's declarations: the table that holds
// this run's business effect (shown first), and the lanes and tables that
// are the lab's own instruments (an observer that copies rows, the copies)
// rather than the system under study, hidden unless asked for.
#pragma once

#include <QString>
#include <QStringList>

namespace idem {

struct ScenarioInfo;
struct Summary;

namespace stagehints {

// The effect's table for this run (natural ops: the table its operation
// works on, from the run's summary); empty when unknown.
QString effectTable(const ScenarioInfo& info, const Summary& finalSummary);
bool isInternalLane(const QString& actor);
bool isInternalTable(const QString& table);

}  // namespace stagehints
}  // namespace idem
