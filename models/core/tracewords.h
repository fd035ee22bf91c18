// The engine's and the shared guards' words that a run's trace carries as
// ids (attempt kinds, guards and their decisions, the choices off and on) in
// the language of the window; an unknown id is shown as it is. A scenario's
// own words are in its ScenarioWords.
#pragma once

#include <QString>

namespace idem {

QString attemptKindName(const QString& kind);        // original, duplicate, retry …
QString guardName(const QString& guard);             // dedup, unique-key, claim …
QString guardDecisionName(const QString& decision);  // claimed, duplicate, in-progress …
// A parameter's choice as a person reads it: "0" → "off", "1" → "on".
QString paramValueName(const QString& value);

}  // namespace idem
