// A diagram for the printed report: cut into parts no taller than a page
// allows, each starting with the lane names, and cut only between rows.
#pragma once

#include "tracewriters.h"

#include <QByteArray>
#include <QList>
#include <QString>

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

// The HTML report of a whole run, its diagrams drawn off screen from the
// trace's events: what `idemlab export --format html` and the window's File →
// Export HTML report write. lang: "zh" or "en" (the words come from the
// installed translator); warning: shown at the top when the trace's summary
// is in doubt (empty: none). The configuration's scenario must exist.
QByteArray htmlReport(const Trace::Loaded& trace, const RunConfig& config, const QString& lang,
                      const QString& warning = {});

}  // namespace idem
