#include "stagehints.h"

#include "scenario.h"
#include "summary.h"

namespace idem::stagehints {

QString effectTable(const ScenarioInfo& info, const Summary& finalSummary) {
    // A scenario whose effect moves between tables names it in its summary.
    const QString named = finalSummary.extras.value(QStringLiteral("table")).toString();
    if (!named.isEmpty() && info.tables.contains(named))
        return named;
    return info.tables.contains(info.effectTable) ? info.effectTable : QString();
}

}  // namespace idem::stagehints
