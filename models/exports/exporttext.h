// How one trace event reads as one line of text, shared by the exports (HTML,
// ShiViz, history, Chrome trace events).
#pragma once

#include "traceevent.h"

#include <QString>

namespace idem {

// "SELECT id FROM orders WHERE request_id = ? [req-1] → 0 rows returned", or
// the kind and its fields as compact JSON ("guard {"decision":"claimed"}").
QString describeEvent(const TraceEvent& e);
// An sql event's count named for what it counts: "1 row returned", "0 rows
// changed"; empty for a statement with no count of its own (BEGIN, COMMIT).
QString rowsText(const TraceEvent& e);
// The fields of an event but sql as compact JSON; empty when it has none.
QString eventDataText(const TraceEvent& e);
// A statement's bound values as one text: "req-1, 10001, NULL".
QString paramsText(const QVariantList& params);
// How many intents a run's events speak of (captions name the intent when
// there are several).
int intentCount(const QList<TraceEvent>& events);
// Text kept on one line: line breaks (JavaScript's too) become \n, \u2028 ...
QString oneLine(const QString& s);

}  // namespace idem
