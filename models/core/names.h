// Human names (translated) for the stable ids of SPEC section 2.
#pragma once

#include "vocabulary.h"

#include <QString>

namespace idem {

QString sourceName(Source s);
QString timingName(Timing t);
QString crashPointName(CrashPoint c);
QString responseName(const QString& responseId);
QString verdictName(const QString& verdictId);
// A scenario's effect (ScenarioInfo::effectNames: "orders", "shown_twice")
// as a reader says it; an unknown id as it is.
QString effectName(const QString& effectId);
// The engine's actors; a scenario's own are in its ScenarioWords.
QString actorName(const QString& actor);
// The process an event's attempt number names, as the captions, the SQL log
// and the diagrams show it: "#2" for a request's attempt, "R1" for a helper
// numbered apart from the requests (its actor's initial and its own number:
// the outbox relay's first pass, AttemptSpec::numbered), empty for 0
// (set-up, the judge, an unnumbered helper).
QString processTag(int attempt, const QString& actor);
// At a crash point only a numbered helper reaches (after-publish: the
// outbox relay), --crash-attempt K picks that helper's K-th process: its
// tag ("R1"); empty at the others, where K is request #K.
QString crashedHelperTag(CrashPoint c, int crashAttempt);

}  // namespace idem
