// A state machine kept in a status column: a transition is an UPDATE whose
// WHERE names the state it leaves, so only one caller can make it; rows
// affected tells whether the database accepted it.
#pragma once

#include "task.h"

#include <QString>
#include <QVariantList>

namespace idem {

class Attempt;

// Runs `updateSql` (its WHERE should require `from`; pass from = "*" for an
// unconditional update) and records the transition accepted or rejected.
Task<bool> transition(Attempt& a, const QString& entity, const QString& from, const QString& to,
                      QString updateSql, QVariantList params);

}  // namespace idem
