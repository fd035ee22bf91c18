// Every scenario, in the order of the scenario picker: the article's
// recommendation table, then natural ops, read idempotency, misconceptions,
// and the production patterns.
#pragma once

#include "runconfig.h"
#include "scenario.h"

#include <QList>
#include <QString>

namespace idem {

const QList<const Scenario*>& allScenarios();
const Scenario* findScenario(const QString& id);
// Scenarios that are not in the picker but that a trace may name (the
// workbench's challenges): findScenario asks each finder added here after
// the lab's own scenarios.
using ScenarioFinder = const Scenario* (*)(const QString& id);
void addScenarioFinder(ScenarioFinder finder);
// The scenario's defaults: its recommended variant, first source, timing.
RunConfig defaultConfig(const Scenario& scenario);

}  // namespace idem
