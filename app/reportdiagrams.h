// A diagram for the printed report: cut into parts no taller than a page
// allows, each starting with the lane names, and cut only between rows.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

class QGraphicsScene;

namespace idem {

// SVG documents of the scene in order, each with a viewBox (it scales to the
// page's width) and at most maxAspect times as tall as wide. headerHeight:
// the band at the top of the scene repeated above every part (the lane
// names); 0 for none. Empty when the scene is.
QList<QByteArray> sceneToSvgParts(QGraphicsScene* scene, const QString& title, double headerHeight,
                                  double maxAspect);
// The height of the band at the top of a sequence diagram's scene that holds
// the lane names: the items drawn above every row.
double laneHeaderHeight(QGraphicsScene* scene);

}  // namespace idem
