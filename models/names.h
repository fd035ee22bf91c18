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
QString actorName(const QString& actor);

}  // namespace idem
