// The sequence diagram's rows' scene: the lanes' dashed lifelines are its
// background, drawn in scene coordinates for whatever strip needs painting:
// a row added at the bottom draws only its own strip of them, where one
// line item per lane, growing at every step, made every view repaint whole.
// Dashes start at whole periods from the top, so strips painted apart line up.
#pragma once

#include <QColor>
#include <QGraphicsScene>
#include <QList>
#include <QPen>

namespace idem {

class LaneScene : public QGraphicsScene {
public:
    using QGraphicsScene::QGraphicsScene;

    // A lane a lesson points at: a tinted band behind its lifeline, `half`
    // either side of `x` (half 0: none).
    void setBand(double x, double half, const QColor& color);
    void setLanes(const QList<double>& xs, double top, double bottom, const QPen& pen);

protected:
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    double bandX_ = 0;
    double bandHalf_ = 0;
    QColor bandColor_;
    QList<double> xs_;
    double top_ = 0;
    double bottom_ = 0;
    QPen pen_;
};

}  // namespace idem
