// How the state diagram draws a move between two states: its arrow (a
// self-loop over its state), coloured by what the latest step did with it;
// its counts of moves accepted, refused, undone and not yet committed; and
// the move's name, clear of the counts.
#include "statemachinelayout.h"

#include "diagrampalette.h"
#include "scenario.h"
#include "texts.h"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace idem {

using namespace statediagram;

namespace {

constexpr double kArrowLength = 10;
constexpr double kArrowWidth = 5;

QPointF unit(QPointF v) {
    const double len = std::hypot(v.x(), v.y());
    return len > 0 ? v / len : QPointF(1, 0);
}

// Where a ray from `start` (inside `r`) in direction `dir` leaves the rectangle.
QPointF exitPoint(const QRectF& r, QPointF start, QPointF dir) {
    double t = 1e9;
    if (dir.x() > 1e-9)
        t = std::min(t, (r.right() - start.x()) / dir.x());
    if (dir.x() < -1e-9)
        t = std::min(t, (r.left() - start.x()) / dir.x());
    if (dir.y() > 1e-9)
        t = std::min(t, (r.bottom() - start.y()) / dir.y());
    if (dir.y() < -1e-9)
        t = std::min(t, (r.top() - start.y()) / dir.y());
    return start + dir * std::max(0.0, t);
}

QPolygonF arrowHead(QPointF tip, QPointF direction) {
    const QPointF u = unit(direction);
    const QPointF n(-u.y(), u.x());
    const QPointF back = tip - u * kArrowLength;
    return QPolygonF{{tip, back + n * kArrowWidth, back - n * kArrowWidth}};
}

}  // namespace

void StateMachineView::drawEdge(const Move& move, const QMap<QString, NodeBox>& boxes,
                                EdgeKind kind, const DiagramPalette& pal) {
    if (!boxes.contains(move.first) || !boxes.contains(move.second))
        return;
    const NodeBox& a = boxes[move.first];
    const NodeBox& b = boxes[move.second];
    const bool freshOk = tally_.freshAccepted(move);
    // A refusal, or a move its transaction's rollback undid, this step.
    const bool freshBad = tally_.freshRejected(move) || tally_.freshRolledBack(move);
    const bool pending = tally_.pending(move) > 0;
    const bool offDiagram = kind != EdgeKind::Allowed;
    QColor color = kind == EdgeKind::Refused ? pal.rejected : pal.nodeBorder;
    if (freshBad)
        color = pal.rejected;
    if (pending)
        color = pal.highlight;
    if (freshOk)
        color = pal.accepted;
    // Accepted against the diagram: its own colour, fresh or not.
    if (kind == EdgeKind::Forbidden)
        color = pal.forbidden;
    QPen pen(color, freshOk || freshBad || pending || kind == EdgeKind::Forbidden ? 2.6 : 1.4);
    if (offDiagram)
        pen.setStyle(Qt::DashLine);
    else if (pending && !freshOk)
        pen.setStyle(Qt::DotLine);

    QPainterPath path;
    QPointF tip, tipDirection, labelAt;
    // Where the edge's name goes: from `nameFrom`, outwards along `nameOut`.
    QPointF nameFrom, nameOut;
    bool nameBeyondCount = true;
    if (move.first == move.second) {
        // A self-loop over the node (under it for nodes low in the diagram).
        const QRectF& r = a.rect;
        const double up = a.y > 1.5 ? -1 : 1;
        const double edgeY = up > 0 ? r.top() : r.bottom();
        const double reach = r.height() * 0.75 * up;
        // An arch whose ends stand upright, so the arrow points straight in.
        const QPointF start(r.center().x() - r.width() * 0.22, edgeY);
        tip = QPointF(r.center().x() + r.width() * 0.22, edgeY);
        const QPointF c1(start.x(), edgeY - reach);
        const QPointF c2(tip.x(), edgeY - reach);
        path.moveTo(start);
        path.cubicTo(c1, c2, tip + QPointF(0, -kArrowLength * 0.6 * up));
        tipDirection = QPointF(0, up);
        labelAt = QPointF(r.center().x(), edgeY - reach * 0.75 - up * r.height() * 0.3);
        nameFrom = labelAt;
        nameOut = QPointF(0, -up);
    } else {
        const QPointF u = unit(b.rect.center() - a.rect.center());
        const QPointF side(u.y(), -u.x());  // the edge's left: above a rightward edge
        const bool twoWay =
            boxes.contains(move.second) &&
            std::any_of(machine_->edges.cbegin(), machine_->edges.cend(), [&](const StateEdge& e) {
                return e.from == move.second && e.to == move.first;
            });
        const QPointF shift = twoWay ? side * 7.0 : QPointF();
        const QPointF from = a.dot ? a.rect.center() + u * (a.rect.width() / 2)
                                   : exitPoint(a.rect, a.rect.center() + shift, u);
        tip = exitPoint(b.rect, b.rect.center() + shift, -u);
        path.moveTo(from);
        path.lineTo(tip - u * kArrowLength * 0.6);
        tipDirection = u;
        const QPointF mid = (from + tip) / 2;
        const QFontMetricsF fm(font());
        const double w = fm.horizontalAdvance(QStringLiteral("✓9 ✗9"));
        labelAt = mid + side * (std::abs(side.x()) * w / 2 + std::abs(side.y()) * fm.height() / 2 +
                                (twoWay ? 9 : 4));
        // The name on the side facing away from the diagram's middle, past
        // the count when the count is on that side too.
        QPointF middle;
        for (const NodeBox& box : boxes) middle += box.rect.center() / double(boxes.size());
        const QPointF outward = mid - middle;
        // The far side of a two-way edge holds the reverse edge and its count.
        nameBeyondCount = twoWay || side.x() * outward.x() + side.y() * outward.y() > 1e-6;
        nameFrom = nameBeyondCount ? labelAt : mid;
        nameOut = nameBeyondCount ? side : -side;
    }
    if (freshOk || freshBad || tally_.freshPending(move)) {
        auto* glow = scene_->addPath(
            path, QPen(DiagramPalette::tint(color, 70), 9, Qt::SolidLine, Qt::RoundCap));
        glows_ << glow;
    }
    auto* line = scene_->addPath(path, pen);
    auto* head = scene_->addPolygon(arrowHead(tip, tipDirection), QPen(color, 1), color);
    if (offDiagram) {
        line->setToolTip(tr("%1 → %2 is not in the diagram: an update without a status "
                            "condition moved it anyway")
                             .arg(move.first, move.second));
    }
    line->setZValue(2);
    head->setZValue(2);
    drawCount(move, labelAt, pal);
    if (!offDiagram)
        drawEdgeName(move, nameFrom, nameOut, nameBeyondCount, pal);
}

// An edge's name (empty rollback, 空回滚), outwards from `from`: from the edge's middle,
// or from its count, clearing the count first.
void StateMachineView::drawEdgeName(const Move& move, QPointF from, QPointF out, bool beyondCount,
                                    const DiagramPalette& pal) {
    const auto edge = std::find_if(
        machine_->edges.cbegin(), machine_->edges.cend(),
        [&](const StateEdge& e) { return e.from == move.first && e.to == move.second; });
    if (edge == machine_->edges.cend() || edge->label.isEmpty())
        return;
    // In the window's language; a name without a Chinese form (Try,
    // Confirm) is the term Chinese engineers use too.
    const bool chinese = currentLanguage() == Language::Chinese && !edge->zh.isEmpty();
    const QString text = chinese ? edge->zh : edge->label;
    QFont f = scaledFont(font(), 0.9);
    f.setItalic(true);
    auto* name = addText(scene_, text, f, pal.muted);
    name->setZValue(3);
    // How far a box of this size reaches along `out` from its centre.
    auto reach = [out](QSizeF size) {
        return std::abs(out.x()) * size.width() / 2 + std::abs(out.y()) * size.height() / 2;
    };
    const QFontMetricsF fm(font());
    const QSizeF count(fm.horizontalAdvance(QStringLiteral("✓9 ✗9")), fm.height());
    const QRectF r = name->boundingRect();
    const double gap = beyondCount ? reach(count) + 3 : 4;
    name->setPos(from + out * (gap + reach(r.size())) - r.center());
}

void StateMachineView::drawCount(const Move& move, QPointF at, const DiagramPalette& pal) {
    const int ok = tally_.accepted(move);
    const int bad = tally_.rejected(move);
    const int undone = tally_.rolledBack(move);
    const int pending = tally_.pending(move);
    if (ok == 0 && bad == 0 && undone == 0 && pending == 0)
        return;
    const QFontMetricsF fm(font());
    QFont fresh = font();
    fresh.setBold(true);
    struct Part {
        QString text;
        QColor color;
        bool fresh;
    };
    QList<Part> parts;
    if (ok > 0)
        parts << Part{QStringLiteral("✓%1").arg(ok),
                      tally_.offDiagram().contains(move) ? pal.forbidden : pal.accepted,
                      tally_.freshAccepted(move)};
    if (pending > 0)
        parts << Part{QStringLiteral("(✓%1)").arg(pending), pal.highlight,
                      tally_.freshPending(move)};
    if (bad > 0)
        parts << Part{QStringLiteral("✗%1").arg(bad), pal.rejected, tally_.freshRejected(move)};
    if (undone > 0)
        parts << Part{QStringLiteral("↺%1").arg(undone), pal.rejected,
                      tally_.freshRolledBack(move)};

    auto* box = scene_->addPath(QPainterPath());
    box->setZValue(3);
    double x = 0;
    const double gap = fm.averageCharWidth() * 0.8;
    for (const Part& p : std::as_const(parts)) {
        auto* t = addText(scene_, p.text, p.fresh ? fresh : font(), p.color, box);
        t->setPos(x, 0);
        x += t->boundingRect().width() + gap;
    }
    const QRectF textRect(0, 0, x - gap, fm.height());
    const QRectF back = textRect.adjusted(-4, -1, 4, 1);
    QPainterPath bg;
    bg.addRoundedRect(back, 4, 4);
    box->setPath(bg);
    box->setBrush(pal.background);
    const bool freshBad = tally_.freshRejected(move) || tally_.freshRolledBack(move);
    const bool isFresh = tally_.freshAccepted(move) || freshBad || tally_.freshPending(move);
    box->setPen(isFresh ? QPen(freshBad                    ? pal.rejected
                               : tally_.freshPending(move) ? pal.highlight
                                                           : pal.accepted,
                               1.2)
                        : QPen(Qt::NoPen));
    box->setPos(at - textRect.center());
    const QString name = move.first.isEmpty() ? tr("start") : move.first;
    QString tip =
        tr("%1 → %2: accepted %3 times, rejected %4 times").arg(name, move.second).arg(ok).arg(bad);
    if (pending > 0)
        tip += QLatin1Char('\n') +
               tr("%n time(s) inside a transaction not yet committed", "", pending);
    if (undone > 0)
        tip += QLatin1Char('\n') +
               tr("%n time(s) undone by a rollback: the database never kept it", "", undone);
    box->setToolTip(tip);
}

}  // namespace idem
