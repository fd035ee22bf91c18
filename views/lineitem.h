// A straight line on a diagram whose bounds come from its two ends and its
// pen, where QGraphicsLineItem strokes the whole line on every call. The
// scene asks for them at every repaint and scroll: a long dashed lane line,
// stroked dash by dash, cost the sequence diagram tens of milliseconds a
// frame while a large run played.
#pragma once

#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QPen>

namespace idem {

class LineItem : public QGraphicsLineItem {
public:
    using QGraphicsLineItem::QGraphicsLineItem;

    QRectF boundingRect() const override {
        // A cosmetic pen's width is in pixels, which the item cannot know.
        if (pen().isCosmetic())
            return QGraphicsLineItem::boundingRect();
        // A square cap on a slanting line reaches out half the pen's width
        // along it and half across it: up to 0.71 of the width, on either axis.
        const qreal half = pen().widthF() * 0.75;
        return QRectF(line().p1(), line().p2()).normalized().adjusted(-half, -half, half, half);
    }
};

// Adds a LineItem from (x1, y1) to (x2, y2) to `scene`.
inline LineItem* addLine(QGraphicsScene* scene, qreal x1, qreal y1, qreal x2, qreal y2,
                         const QPen& pen) {
    auto* item = new LineItem(x1, y1, x2, y2);
    item->setPen(pen);
    scene->addItem(item);
    return item;
}

}  // namespace idem
