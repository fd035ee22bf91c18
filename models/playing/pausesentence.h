// Where a lesson frame's run stops, said as a teacher would say it ("The
// run stops as soon as #2's INSERT INTO orders hits a unique key."), not as
// the filter the lesson file writes ({"kind": "sql", "attempt": 2, "code":
// 2067}). The scenario's own names for its actors, guards, decisions and
// notes fill the sentence; the hand-out prints it beside each frame.
#pragma once

#include <QString>

namespace idem {

struct PausePoint;
struct ScenarioWords;

// In the installed language.
QString pauseSentence(const PausePoint& pause, const ScenarioWords& words);

}  // namespace idem
