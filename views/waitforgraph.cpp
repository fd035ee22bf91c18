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
    return {line * 16, line * 6};
}

QSize WaitForGraph::minimumSizeHint() const {
    const int line = fontMetrics().height();
    return {line * 8, line * 6};
}

void WaitForGraph::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const DiagramPalette colours = DiagramPalette::from(palette());
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    if (nodes_.isEmpty())
        return;
    // Boxes in a row across the middle; arrows to the right arc above the
    // boxes, arrows to the left below, so that two attempts waiting for
    // each other (a deadlock) show both ways.
    const int boxH = line * 3 / 2;
    const int midY = height() / 2;
    const int slot = width() / int(nodes_.size());
    QHash<QString, QRectF> boxes;
    for (int i = 0; i < nodes_.size(); ++i) {
        const int w = fm.horizontalAdvance(nodes_[i]) + line;
        const QRectF box(slot * i + (slot - w) / 2.0, midY - boxH / 2.0, w, boxH);
        boxes.insert(nodes_[i], box);
    }
    const QColor arrow = cycle_ ? colours.rejected : colours.waiting;
    QFont labelFont = font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    for (const Edge& e : edges_) {
        const QRectF from = boxes.value(e.waiter), to = boxes.value(e.holder);
        const bool right = from.center().x() < to.center().x();
        const double y = right ? from.top() : from.bottom();
        const QPointF a(from.center().x(), y), b(to.center().x(), y);
        const double bend = (right ? -1 : 1) * line * 1.6;
        const QPointF control((a.x() + b.x()) / 2, y + bend * 2);
        QPainterPath path(a);
        path.quadTo(control, b);
        p.setPen(QPen(arrow, 2));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // The head, along the curve's last direction.
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
        p.setFont(labelFont);
        p.setPen(colours.text);
        const QPointF apex = (a + b) / 4 + control / 2;
        const QString text = fm.elidedText(e.lock, Qt::ElideRight, std::max(slot, line * 4));
        const QRectF label(apex.x() - slot / 2.0, right ? apex.y() - line : apex.y(), slot, line);
        p.drawText(label, Qt::AlignCenter, text);
    }
    p.setFont(font());
    for (auto it = boxes.cbegin(); it != boxes.cend(); ++it) {
        p.setPen(QPen(colours.nodeBorder, 1.5));
        p.setBrush(colours.nodeFill);
        p.drawRoundedRect(it.value(), line / 3.0, line / 3.0);
        p.setPen(colours.text);
        p.drawText(it.value(), Qt::AlignCenter, it.key());
    }
}

}  // namespace idem
