// A diagram for the printed report: cut into parts no taller than a page
// allows, each starting with the lane names, and cut only between rows.
#pragma once

#include "traceexport.h"
#include "tracewriters.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>

class QGraphicsScene;

namespace idem {

struct RunConfig;
struct ScenarioInfo;

// SVG documents of the scene in order, each with a viewBox (it scales to the
// page's width) and at most maxAspect times as tall as wide. headerHeight:
// the band at the top of the scene repeated above every part (the lane
// names); 0 for none. Empty when the scene is.
QList<QByteArray> sceneToSvgParts(QGraphicsScene* scene, const QString& title, double headerHeight,
                                  double maxAspect);
// The height of the band at the top of a sequence diagram's scene that holds
// the lane names: the items drawn above every row.
double laneHeaderHeight(QGraphicsScene* scene);

// The state and the sequence diagram of a run as the window draws them at
// the moment events [0, upTo) have happened, the events from freshFrom on
// being the current step's; drawn off screen and cut for the printed page,
// titled in the language of the installed translator. A diagram with
// nothing to draw has no parts.
struct RunDiagrams {
    ReportDiagram state;
    ReportDiagram sequence;
    // The diagrams that have parts, the state diagram first.
    QList<ReportDiagram> drawn() const;
};
RunDiagrams runDiagrams(const ScenarioInfo& info, const QString& variant, const Trace& trace,
                        qsizetype upTo, qsizetype freshFrom);
// The same at a run's end, from what an export kept while it read the trace
// (HtmlExport: the state diagram's counts, the first and the last events).
RunDiagrams runDiagrams(const ScenarioInfo& info, const QString& variant, const ReportEvents& seen);
// How many of the first and of the last events ReportEvents keeps for the
// sequence diagram: what it looks at first, and the rows it draws.
qsizetype reportHeadEvents();
qsizetype reportTailEvents();

// The writer of one export format ("csv", "xlsx", "shiviz", "html", "mermaid",
// "plantuml", "history", "chrome") for runs of `config`'s scenario: what
// `idemlab export` and the window's File → Export write with. summary: the
// run's (the report names its verdict); lang: "zh" or "en" for the report
// (its words come from the installed translator); traces: how many runs a
// ShiViz log holds. The configuration's scenario must exist.
std::unique_ptr<TraceExport> traceExportFor(const QString& format, const RunConfig& config,
                                            const QJsonObject& summary, bool excel,
                                            const QString& lang, int traces = 1);

}  // namespace idem
