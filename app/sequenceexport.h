// The window's sequence diagram as text that other tools draw: a Mermaid
// sequenceDiagram (Markdown, slides, course notes) and PlantUML. Same lanes,
// labels and words as the window, in the language installed for tr().
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace idem {

struct TraceEvent;

// title: shown above the diagram ("order-create / check-then-insert").
QByteArray traceToMermaid(const QList<TraceEvent>& events, const QString& title);
QByteArray traceToPlantUml(const QList<TraceEvent>& events, const QString& title);

}  // namespace idem
