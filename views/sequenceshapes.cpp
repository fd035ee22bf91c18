// How the sequence diagram draws a step on its lanes: an arrow from lane to
// lane, a loop on one lane, a box, a crash, a banner across the lanes, the
// bar of a lock wait, and the lanes' names over them.
#include "sequencelayout.h"

#include "diagrampalette.h"
#include "labelwrap.h"
#include "lineitem.h"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

namespace idem {

namespace sequencediagram {

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent) {
    auto* item = new QGraphicsSimpleTextItem(text, parent);
    item->setFont(font);
    item->setBrush(color);
    if (!parent)
        scene->addItem(item);
    return item;
}

}  // namespace sequencediagram

using namespace sequencediagram;

namespace {

using Shape = SequenceStep::Shape;
using Tone = SequenceStep::Tone;

constexpr double kArrowLength = 9;
constexpr double kArrowWidth = 4.5;

QColor toneColor(Tone tone, const DiagramPalette& pal) {
    switch (tone) {
        case Tone::Muted:
            return pal.muted;
        case Tone::Good:
            return pal.accepted;
        case Tone::Warn:
            return pal.waiting;
        case Tone::Bad:
            return pal.rejected;
        case Tone::Normal:
            break;
    }
    return pal.text;
}

// An hourglass drawn as a shape: Debian's default fonts have no ⌛ glyph.
void addHourglass(QGraphicsScene* scene, QPointF c, double size, const QColor& color) {
    const double w = size * 0.3;
    const double h = size * 0.42;
    QPainterPath glass;
    glass.moveTo(c.x() - w, c.y() - h);
    glass.lineTo(c.x() + w, c.y() - h);
    glass.lineTo(c.x() - w, c.y() + h);
    glass.lineTo(c.x() + w, c.y() + h);
    glass.closeSubpath();
    auto* item = scene->addPath(glass, QPen(color, 1.3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin),
                                DiagramPalette::tint(color, 110));
    item->setZValue(5);
}

}  // namespace

void SequenceView::drawWait(const SequenceStep& s, const Layout& l, double until,
                            const DiagramPalette& pal) {
    // From the wait's row, or from the first row drawn when it is above them.
    double from = -1;
    for (const Row& r : std::as_const(rows_)) {
        if (r.step.event == s.waitedFrom) {
            from = r.top + r.height / 2;
            break;
        }
        if (r.step.event > s.waitedFrom) {
            from = r.top;
            break;
        }
    }
    if (from < 0 || from >= until || !l.x.contains(s.from))
        return;
    // Beside the lifeline, left of the boxes and arrows that start on it.
    const double w = std::max(4.0, l.lineH * 0.3);
    const double x = l.x.value(s.from) - l.lineH * 0.9;
    QColor color = toneColor(Tone::Warn, pal);
    auto* bar = scene_->addRect(QRectF(x - w / 2, from, w, until - from), QPen(color, 1),
                                DiagramPalette::mix(pal.background, color, 0.6));
    bar->setZValue(1);
    bar->setToolTip(
        tr("Waiting for a lock held by another transaction, from the wait to the "
           "step that released it"));
}

void SequenceView::drawHeaders(const Layout& l, const DiagramPalette& pal) {
    auto* strip = scene_->addRect(0, 0, l.width, l.headerH, Qt::NoPen, pal.background);
    strip->setZValue(5);
    for (const QString& lane : std::as_const(lanes_)) {
        const QString name = wrapped(laneName(lane), QFontMetricsF(l.bold), l.spacing - 28);
        const double w = widest(name, QFontMetricsF(l.bold)) + 20;
        const double boxH = l.lineH * (0.5 + double(name.count(QLatin1Char('\n')) + 1));
        const double x = l.x.value(lane);
        QPainterPath box;
        box.addRoundedRect(QRectF(x - w / 2, (l.headerH - boxH) / 2, w, boxH), 5, 5);
        const bool pointed = lane == pointedLane_;
        auto* item = scene_->addPath(
            box, pointed ? QPen(pal.highlight, 3.0) : QPen(pal.nodeBorder, 1.2),
            pointed ? DiagramPalette::mix(pal.nodeFill, pal.highlight, 0.25) : pal.nodeFill);
        item->setZValue(6);
        item->setToolTip(lane);
        if (pointed)
            item->setData(0, QStringLiteral("pointed"));
        auto* text = addText(scene_, name, l.bold, pal.text, item);
        text->setPos(x - text->boundingRect().width() / 2,
                     (l.headerH - text->boundingRect().height()) / 2);
    }
}

void SequenceView::drawStep(const SequenceStep& s, const Layout& l, double top, double height,
                            const DiagramPalette& pal) {
    const QColor color = toneColor(s.tone, pal);
    const QFont& font = s.fresh ? l.bold : l.font;
    switch (s.shape) {
        case Shape::Arrow:
            if (s.from != s.to) {
                drawArrow(s, l, top + height - l.lineH * 0.65, color, font);
                return;
            }
            drawLoop(s, l, top + height / 2, color, font);
            return;
        case Shape::Loop:
            drawLoop(s, l, top + height / 2, color, font);
            return;
        case Shape::Bar: {
            const double x = l.x.value(s.from);
            auto* bar = scene_->addRect(x - 5, top + 4, 10, height - 8, QPen(color, 1),
                                        DiagramPalette::mix(pal.background, color, 0.55));
            bar->setZValue(3);
            bar->setToolTip(s.tooltip);
            auto* text = addText(scene_, s.label, font, color);
            text->setPos(x + 10, top + (height - text->boundingRect().height()) / 2);
            return;
        }
        case Shape::Banner: {
            const double left = l.timeW + 6;
            const double right = l.width - 6;
            QPainterPath box;
            box.addRoundedRect(QRectF(left, top + 4, right - left, height - 8), 4, 4);
            auto* item = scene_->addPath(box, QPen(color, s.fresh ? 2 : 1),
                                         DiagramPalette::mix(pal.background, color, 0.1));
            item->setZValue(3);
            item->setToolTip(s.tooltip);
            auto* text = addText(scene_, s.label, font, color, item);
            // Left-aligned: still in sight when a narrow window shows only the first lanes.
            text->setPos(left + l.lineH * 0.6, top + (height - text->boundingRect().height()) / 2);
            return;
        }
        case Shape::Tag:
        case Shape::Cross:
            drawBox(s, l, top + height / 2, color, font, pal);
            return;
    }
}

void SequenceView::drawArrow(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                             const QFont& font) {
    const double x1 = l.x.value(s.from);
    const double x2 = l.x.value(s.to);
    const double dir = x2 > x1 ? 1 : -1;
    QPen pen(color, s.fresh ? 2.2 : 1.3);
    if (s.dashed)
        pen.setStyle(Qt::DashLine);
    const double end = s.lost ? (x1 + x2) / 2 : x2 - dir * kArrowLength * 0.7;
    auto* line = addLine(scene_, x1, y, end, y, pen);
    line->setZValue(2);
    line->setToolTip(s.tooltip);
    if (s.lost) {
        // The answer breaks off halfway: nobody receives it.
        const double c = 5;
        QPen cross(color, 2.2);
        addLine(scene_, end - c, y - c, end + c, y + c, cross)->setZValue(2);
        addLine(scene_, end - c, y + c, end + c, y - c, cross)->setZValue(2);
    } else {
        const QPolygonF head{{x2, y},
                             {x2 - dir * kArrowLength, y - kArrowWidth},
                             {x2 - dir * kArrowLength, y + kArrowWidth}};
        scene_->addPolygon(head, QPen(color, 1), color)->setZValue(2);
    }
    if (s.counted)
        ++arrows_;
    const double icon = s.hourglass ? l.lineH : 0;
    auto* text = addText(scene_, s.label, font, color);
    // A lost answer's label sits a little higher, clear of its ✕.
    text->setPos((x1 + x2 - text->boundingRect().width() + icon) / 2,
                 y - text->boundingRect().height() - (s.lost ? 6 : 1));
    text->setZValue(4);
    if (s.hourglass) {
        addHourglass(scene_, text->pos() + QPointF(-icon / 2, text->boundingRect().height() / 2),
                     l.lineH * 0.8, color);
    }
    text->setToolTip(s.tooltip);
}

void SequenceView::drawLoop(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                            const QFont& font) {
    const double x = l.x.value(s.from);
    const double h = l.lineH * 0.45;
    QPainterPath loop;
    loop.moveTo(x, y - h);
    loop.lineTo(x + kLoopWidth, y - h);
    loop.lineTo(x + kLoopWidth, y + h);
    loop.lineTo(x + kArrowLength * 0.7, y + h);
    QPen pen(color, s.fresh ? 2.2 : 1.3);
    if (s.dashed)
        pen.setStyle(Qt::DashLine);
    auto* item = scene_->addPath(loop, pen);
    item->setZValue(2);
    item->setToolTip(s.tooltip);
    const QPolygonF head{{x, y + h},
                         {x + kArrowLength, y + h - kArrowWidth},
                         {x + kArrowLength, y + h + kArrowWidth}};
    scene_->addPolygon(head, QPen(color, 1), color)->setZValue(2);
    if (s.counted)
        ++arrows_;
    auto* text = addText(scene_, s.label, font, color);
    text->setPos(x + kLoopWidth + 6, y - text->boundingRect().height() / 2);
    text->setZValue(4);
}

void SequenceView::drawBox(const SequenceStep& s, const Layout& l, double y, const QColor& color,
                           const QFont& font, const DiagramPalette& pal) {
    const double x = l.x.value(s.from);
    const double icon = s.hourglass ? l.lineH : 0;
    const QString& label = s.label;
    const double w = widest(label, QFontMetricsF(font)) + 14 + icon;
    const double h = l.lineH * (0.35 + double(label.count(QLatin1Char('\n')) + 1));
    const bool crash = s.shape == Shape::Cross;
    QPen pen(color, crash || s.fresh ? 2 : 1);
    if (s.dashed)
        pen.setStyle(Qt::DashLine);
    QPainterPath box;
    box.addRoundedRect(QRectF(x - w / 2, y - h / 2, w, h), crash ? 2 : h / 2.5,
                       crash ? 2 : h / 2.5);
    auto* item =
        scene_->addPath(box, pen, DiagramPalette::mix(pal.background, color, crash ? 0.2 : 0.1));
    item->setZValue(3);
    item->setToolTip(s.tooltip);
    auto* text = addText(scene_, label, font, color, item);
    text->setPos(x - text->boundingRect().width() / 2 + icon / 2,
                 y - text->boundingRect().height() / 2);
    if (s.hourglass)
        addHourglass(scene_, QPointF(x - w / 2 + 4 + icon / 2, y), l.lineH * 0.8, color);
}

}  // namespace idem
