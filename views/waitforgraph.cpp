#include "waitforgraph.h"

#include "diagrampalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QSet>

#include <cmath>
#include <functional>

namespace idem {

namespace {

// Whether the edges close a cycle (a waiter waiting, through others, for itself).
bool closesCycle(const QList<WaitForGraph::Edge>& edges) {
    QHash<QString, QStringList> next;
    for (const WaitForGraph::Edge& e : edges) next[e.waiter] << e.holder;
    QSet<QString> done;
    std::function<bool(const QString&, QSet<QString>&)> visit = [&](const QString& node,
                                                                    QSet<QString>& path) {
        if (path.contains(node))
            return true;
        if (done.contains(node))
            return false;
        path.insert(node);
        for (const QString& n : next.value(node)) {
            if (visit(n, path))
                return true;
        }
        path.remove(node);
        done.insert(node);
        return false;
    };
    for (auto it = next.cbegin(); it != next.cend(); ++it) {
        QSet<QString> path;
        if (visit(it.key(), path))
            return true;
    }
    return false;
}

// "#2" before "#10"; "i2#1" after "i1#3".
bool attemptBefore(const QString& a, const QString& b) {
    auto key = [](const QString& s) {
        const qsizetype hash = s.indexOf(QLatin1Char('#'));
        const int intent = s.startsWith(QLatin1Char('i')) ? s.mid(1, hash - 1).toInt() : 0;
        return std::pair(intent, s.mid(hash + 1).toInt());
    };
    return key(a) < key(b);
}

}  // namespace

WaitForGraph::WaitForGraph(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("waitForGraph"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void WaitForGraph::setEdges(const QList<Edge>& edges) {
    edges_ = edges;
    nodes_.clear();
    for (const Edge& e : edges) {
        for (const QString& n : {e.waiter, e.holder}) {
            if (!nodes_.contains(n))
                nodes_ << n;
        }
    }
    std::sort(nodes_.begin(), nodes_.end(), attemptBefore);
    cycle_ = closesCycle(edges_);
    updateGeometry();
    update();
}

QSize WaitForGraph::sizeHint() const {
    const int line = fontMetrics().height();
    return {line * 16, line * 4};
}

QSize WaitForGraph::minimumSizeHint() const {
    const int line = fontMetrics().height();
    return {line * 8, line * 4};
}

// Boxes in a row across the middle; an arrow to the right arcs above them,
// one to the left below, so that two attempts waiting for each other (a
// deadlock) show both ways, and longer arrows arc higher than shorter ones.
// The lock of each wait is in the tooltip and the table: on a projector the
// arrows alone are read.
void WaitForGraph::paintEvent(QPaintEvent*) {
    if (nodes_.isEmpty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const DiagramPalette colours = DiagramPalette::from(palette());
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const double boxH = line * 1.3;
    const double midY = height() / 2.0;
    const double slot = double(width()) / double(nodes_.size());
    QHash<QString, QRectF> boxes;
    QSet<QString> waiters;
    for (const Edge& e : edges_) waiters.insert(e.waiter);
    for (int i = 0; i < nodes_.size(); ++i) {
        const double w = fm.horizontalAdvance(nodes_[i]) + line;
        boxes.insert(nodes_[i], QRectF(slot * i + (slot - w) / 2, midY - boxH / 2, w, boxH));
    }
    const QColor arrow = cycle_ ? colours.rejected : colours.waiting;
    const double room = (height() - boxH) / 2 - 2;  // above or below the boxes
    for (const Edge& e : edges_) {
        const QRectF from = boxes.value(e.waiter), to = boxes.value(e.holder);
        const bool right = from.center().x() < to.center().x();
        const double y = right ? from.top() : from.bottom();
        const QPointF a(from.center().x(), y), b(to.center().x(), y);
        const double span = std::abs(nodes_.indexOf(e.holder) - nodes_.indexOf(e.waiter));
        const double rise = std::min(room, line * (0.5 + 0.35 * span)) * 2;
        const QPointF control((a.x() + b.x()) / 2, y + (right ? -rise : rise));
        QPainterPath path(a);
        path.quadTo(control, b);
        p.setPen(QPen(arrow, 2));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const QPointF dir = b - control;
        const double len = std::hypot(dir.x(), dir.y());
        if (len > 0) {
            const QPointF u = dir / len, n(-u.y(), u.x());
            const double s = line * 0.45;
            QPolygonF head;
            head << b << b - u * s + n * s * 0.6 << b - u * s - n * s * 0.6;
            p.setBrush(arrow);
            p.drawPolygon(head);
        }
    }
    for (auto it = boxes.cbegin(); it != boxes.cend(); ++it) {
        const bool waits = waiters.contains(it.key());
        p.setPen(QPen(waits ? arrow : colours.nodeBorder, waits ? 2.5 : 1.5));
        p.setBrush(waits ? DiagramPalette::tint(arrow, 50) : colours.nodeFill);
        p.drawRoundedRect(it.value(), line / 3.0, line / 3.0);
        p.setPen(colours.text);
        p.drawText(it.value(), Qt::AlignCenter, it.key());
    }
}

}  // namespace idem
