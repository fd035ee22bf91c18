// What the state view's files share: where a node was drawn, the margin
// round the diagram, and how a text goes onto the scene.
// statemachineview.cpp fits the diagram to the view; statemachinenodes.cpp
// lays out and draws the nodes, the title and the legend;
// statemachineedges.cpp draws the moves between them. Private to them.
#pragma once

#include "statemachineview.h"

#include <QFont>
#include <QRectF>

class QColor;
class QGraphicsSimpleTextItem;

namespace idem {

struct StateMachineView::NodeBox {
    QRectF rect;
    bool dot = false;  // the start: a filled dot
    double y = 0;      // the grid row, to decide which way a self-loop bends
};

namespace statediagram {

constexpr double kMargin = 16;

QFont scaledFont(QFont f, double factor);
QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent = nullptr);

}  // namespace statediagram
}  // namespace idem
