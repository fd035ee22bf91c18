// What the sequence view's two halves share: the layout its rows were drawn
// with and how a text goes onto the scene. sequenceview.cpp lays the rows
// out; sequenceshapes.cpp draws each step's shape. Private to them.
#pragma once

#include "sequenceview.h"

#include <QFont>
#include <QMap>
#include <QString>

class QColor;

namespace idem {

struct SequenceView::Layout {
    QFont font;
    QFont bold;
    double lineH = 0;
    double timeW = 0;
    double spacing = 0;
    double headerH = 0;
    double width = 0;
    int extraLines = 0;       // lines each label may take beyond two (arrows) or three (boxes)
    QMap<QString, double> x;  // lane centres
};

namespace sequencediagram {

// How far a loop (a step on one lane) reaches to the right of its lifeline.
constexpr double kLoopWidth = 22;

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent = nullptr);

}  // namespace sequencediagram
}  // namespace idem
