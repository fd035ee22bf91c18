// The outcome's sentences in the reader's language: a wrong answer (what an
// attempt was told, and what the database shows instead, both as the judge
// and the scenario wrote them: templates and their arguments).
#pragma once

#include "summary.h"

#include <QString>

namespace idem {

QString wrongAnswerText(const WrongAnswer& w);

}  // namespace idem
