#include "lanescene.h"

#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace idem {

void LaneScene::setBand(double x, double half, const QColor& color) {
    if (x == bandX_ && half == bandHalf_ && color == bandColor_)
        return;
    bandX_ = x;
    bandHalf_ = half;
    bandColor_ = color;
    update();
}

void LaneScene::setLanes(const QList<double>& xs, double top, double bottom, const QPen& pen) {
    if (xs != xs_ || pen != pen_) {
        xs_ = xs;
        pen_ = pen;
        top_ = top;
        bottom_ = bottom;
        update();
        return;
    }
    // Only the strips that gained or lost their lines, across the lanes
    // (the scene's own rect would walk every item to grow).
    const auto [left, right] = std::minmax_element(xs_.cbegin(), xs_.cend());
    auto strip = [&](double a, double b) {
        if (a != b && left != xs_.cend())
            update(QRectF(*left - 2, std::min(a, b) - 1, *right - *left + 4, std::abs(a - b) + 2));
    };
    strip(bottom, bottom_);
    strip(top, top_);
    top_ = top;
    bottom_ = bottom;
}

void LaneScene::drawBackground(QPainter* painter, const QRectF& rect) {
    QGraphicsScene::drawBackground(painter, rect);
    if (xs_.isEmpty())
        return;
    const double to = std::min(rect.bottom() + 1, bottom_);
    const double from = std::max(rect.top() - 1, top_);
    if (from >= to)
        return;
    if (bandHalf_ > 0)
        painter->fillRect(QRectF(bandX_ - bandHalf_, from, 2 * bandHalf_, to - from), bandColor_);
    // A picture (SVG) is drawn whole: a dashed line per lane.
    if (painter->paintEngine() && painter->paintEngine()->type() != QPaintEngine::Raster) {
        painter->save();
        painter->setPen(pen_);
        for (double x : std::as_const(xs_)) painter->drawLine(QPointF(x, from), QPointF(x, to));
        painter->restore();
        return;
    }
    // On screen, each dash a small rectangle at its place in the scene:
    // drawn in whichever strip, its pixels are the same (a dashed pen
    // starts its pattern where the clipped line starts).
    const double width = std::max(1.0, pen_.widthF());
    const QList<qreal> pattern = pen_.dashPattern();
    const double on = (pattern.isEmpty() ? 4 : pattern.value(0)) * width;
    const double period = on + (pattern.isEmpty() ? 2 : pattern.value(1)) * width;
    const QBrush ink = pen_.brush();
    for (double x : std::as_const(xs_)) {
        if (x < rect.left() - width || x > rect.right() + width)
            continue;
        for (double y = top_ + std::floor((from - top_) / period) * period; y < to; y += period)
            painter->fillRect(QRectF(x - width / 2, y, width, std::min(on, bottom_ - y)), ink);
    }
}

}  // namespace idem
