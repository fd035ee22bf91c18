// The window's sequence diagram as text that other tools draw: a Mermaid
// sequenceDiagram (Markdown, slides, course notes) and PlantUML. Same lanes,
// labels and words as the window, in the language installed for tr().
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace idem {

struct ScenarioInfo;
struct TraceEvent;

// scenario: the trace's scenario, whose declarations order the lanes and
// pick the payload shown on an attempt's arrow (nullptr when this program
// does not know it: lanes in the order they appear, no payload).
// title: shown above the diagram ("order-create / check-then-insert").
QByteArray traceToMermaid(const QList<TraceEvent>& events, const ScenarioInfo* scenario,
                          const QString& title);
QByteArray traceToPlantUml(const QList<TraceEvent>& events, const ScenarioInfo* scenario,
                           const QString& title);

}  // namespace idem
