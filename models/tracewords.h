// The words a run's trace and a scenario's declaration carry as ids (attempt
// kinds, guards and their decisions, whose state a diagram shows, parameter
// keys) in the language of the window; an unknown id is shown as it is.
#pragma once

#include <QString>

namespace idem {

QString attemptKindName(const QString& kind);        // original, duplicate, retry …
QString guardName(const QString& guard);             // dedup, unique-key, claim …
QString guardDecisionName(const QString& decision);  // claimed, duplicate, in-progress …
QString entityName(const QString& what);             // dedup record, order, job run
QString paramLabel(const QString& key);              // request-id, late-failure, page-size …
// What a parameter does, for its tooltip; `fallback` (the scenario's own
// English line) for a key without one.
QString paramSummary(const QString& key, const QString& fallback);
// A parameter's choice as a person reads it: "0" → "off", "per-click" → "one per click".
QString paramValueName(const QString& value);

}  // namespace idem
