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
// The engine's actors; a scenario's own are in its ScenarioWords.
QString actorName(const QString& actor);

}  // namespace idem
