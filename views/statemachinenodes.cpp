// How the state diagram is laid out and drawn, but for its moves: the
// states on their grid, spread to the room there is, each marked where an
// intent's entity stands (committed or not); the title, the legend of moves
// off the diagram, and the note when a variant keeps no state.
#include "statemachinelayout.h"

#include "diagrampalette.h"
#include "lineitem.h"
#include "scenario.h"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QPainterPath>
#include <QTextDocument>
#include <QTextOption>

#include <algorithm>

namespace idem {

namespace statediagram {

QFont scaledFont(QFont f, double factor) {
    if (f.pointSizeF() > 0) {
        f.setPointSizeF(f.pointSizeF() * factor);
    } else {
        f.setPixelSize(std::max(6, int(f.pixelSize() * factor)));
    }
    return f;
}

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent) {
    auto* item = new QGraphicsSimpleTextItem(text, parent);
    item->setFont(font);
    item->setBrush(color);
    if (!parent)
        scene->addItem(item);
    return item;
}

}  // namespace statediagram

using namespace statediagram;

namespace {

constexpr double kMaxSpread = 1.8;  // spacing grows with the room up to this many times the least
constexpr int kTokensListed = 3;    // more intents in one state: a count instead of names

// What sits at a grid coordinate reaches this far before and after it.
struct Reach {
    double before = 0;
    double after = 0;
};

// Screen positions for a grid axis's distinct coordinates, given how far
// what sits at each reaches: neighbours `gap` apart, the gaps grown evenly
// (up to kMaxSpread times) when `room` allows.
QMap<double, double> placeAxis(const QMap<double, Reach>& reach, double gap, double room) {
    const QList<double> at = reach.keys();
    QList<double> gaps;
    double tight = 0;
    for (qsizetype i = 1; i < at.size(); ++i) {
        gaps << reach.value(at[i - 1]).after + reach.value(at[i]).before + gap;
        tight += gaps.last();
    }
    const double extent = tight + (at.isEmpty() ? 0 : reach.first().before + reach.last().after);
    const double grow = tight > 0 ? std::clamp((room - extent) / tight, 0.0, kMaxSpread - 1) : 0;
    QMap<double, double> pos;
    double x = 0;
    for (qsizetype i = 0; i < at.size(); ++i) {
        if (i > 0)
            x += gaps[i - 1] * (1 + grow);
        pos.insert(at[i], x);
    }
    return pos;
}

}  // namespace

void StateMachineView::draw(const DiagramPalette& pal) {
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    const QFontMetricsF fm(base), fmBold(bold);
    const double padX = fm.averageCharWidth() * 0.8;
    const double padY = fm.height() * 0.25;
    const double between = fm.averageCharWidth() * 1.2;  // the two names side by side
    // Every node of a grid column as wide as the column's widest.
    auto labelWidth = [&](const StateNode& n) {
        const double id = fmBold.horizontalAdvance(n.id), zh = fm.horizontalAdvance(n.zh);
        return sideBySide_ ? id + between + zh : std::max(id, zh);
    };
    QMap<double, double> columnW;
    for (const StateNode& n : std::as_const(machine_->nodes)) {
        if (!n.id.isEmpty())
            columnW[n.x] = std::max(columnW.value(n.x), labelWidth(n) + 2 * padX);
    }
    const double nodeH = sideBySide_ ? std::max(fmBold.height(), fm.height()) + 2 * padY
                                     : fmBold.height() + fm.height() + 2 * padY;
    const double dotR = fm.height() * 0.35;
    // The grid's columns and rows in order, as close as the nodes, the
    // counts over the arrows and the self-loops allow; spread out when the
    // view has room to spare.
    QSet<QString> looped;
    for (const StateEdge& e : std::as_const(machine_->edges)) {
        if (e.from == e.to)
            looped.insert(e.from);
    }
    QMap<double, Reach> halfW, halfH;
    for (const StateNode& n : std::as_const(machine_->nodes)) {
        const double w = n.id.isEmpty() ? dotR : columnW.value(n.x) / 2;
        const double h = n.id.isEmpty() ? dotR : nodeH / 2;
        // A self-loop stands over the node (under it low in the diagram).
        const bool loop = looped.contains(n.id);
        const bool loopUnder = n.y > 1.5;
        Reach& across = halfW[n.x];
        across.before = across.after = std::max(across.before, w);
        Reach& down = halfH[n.y];
        down.before = std::max(down.before, h + (loop && !loopUnder ? nodeH : 0));
        down.after = std::max(down.after, h + (loop && loopUnder ? nodeH : 0));
    }
    const QSize port = view_->viewport()->size();
    // Counts sit over the arrows: an arrow as long as a count is wide.
    const double arrow = fm.horizontalAdvance(QStringLiteral("✓9 ✗9")) + padX * 0.5;
    // The room less what stands out of the grid: the token badges, the counts.
    const QMap<double, double> xs =
        placeAxis(halfW, arrow, port.width() - 2 * kMargin - 2 * fm.height());
    const QMap<double, double> ys =
        placeAxis(halfH, fm.height() * 0.8, port.height() - 2 * kMargin - 4 * fm.height());

    QMap<QString, NodeBox> boxes;
    QMap<QString, QList<int>> tokens, uncommitted;
    const QMap<int, QString>& current = tally_.current();
    for (auto it = current.cbegin(); it != current.cend(); ++it) tokens[it.value()] << it.key();
    const QMap<int, QString>& moved = tally_.uncommitted();
    for (auto it = moved.cbegin(); it != moved.cend(); ++it) uncommitted[it.value()] << it.key();
    for (const StateNode& n : std::as_const(machine_->nodes)) {
        const QPointF c(xs.value(n.x), ys.value(n.y));
        NodeBox box;
        box.y = n.y;
        if (n.id.isEmpty()) {
            const double r = fm.height() * 0.35;
            box.rect = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r);
            box.dot = true;
            scene_->addEllipse(box.rect, Qt::NoPen, pal.text)->setToolTip(tr("start"));
            boxes.insert(n.id, box);
            continue;
        }
        const double nodeW = columnW.value(n.x);
        box.rect = QRectF(c.x() - nodeW / 2, c.y() - nodeH / 2, nodeW, nodeH);
        const bool isCurrent = tokens.contains(n.id);
        // Where an open transaction moved an entity: outlined, not filled,
        // for nobody else sees it there until the commit.
        const bool isUncommitted = !isCurrent && uncommitted.contains(n.id);
        QPainterPath shape;
        shape.addRoundedRect(box.rect, nodeH * 0.22, nodeH * 0.22);
        QPen border(isCurrent || isUncommitted ? pal.highlight : pal.nodeBorder,
                    isCurrent || isUncommitted ? 2.5 : 1.2);
        if (isUncommitted)
            border.setStyle(Qt::DashLine);
        if (n.id == pointed_) {  // a lesson points here: a wide ring round the node
            QPainterPath ring;
            const QRectF around = box.rect.adjusted(-6, -6, 6, 6);
            ring.addRoundedRect(around, nodeH * 0.3, nodeH * 0.3);
            auto* halo = scene_->addPath(ring, QPen(pal.highlight, 4.0), Qt::NoBrush);
            halo->setZValue(0.5);
            halo->setData(0, QStringLiteral("pointed"));
        }
        auto* node = scene_->addPath(
            shape, border,
            isCurrent ? DiagramPalette::mix(pal.nodeFill, pal.highlight, 0.18) : pal.nodeFill);
        node->setZValue(1);
        if (isCurrent)
            node->setData(0, QStringLiteral("current"));
        auto* id = addText(scene_, n.id, bold, pal.text, node);
        auto* zh = addText(scene_, n.zh, base, pal.text, node);
        const QSizeF idSize = id->boundingRect().size(), zhSize = zh->boundingRect().size();
        if (sideBySide_) {
            const double left = c.x() - (idSize.width() + between + zhSize.width()) / 2;
            id->setPos(left, c.y() - idSize.height() / 2);
            zh->setPos(left + idSize.width() + between, c.y() - zhSize.height() / 2);
        } else {
            id->setPos(c.x() - idSize.width() / 2, box.rect.top() + padY);
            zh->setPos(c.x() - zhSize.width() / 2, id->pos().y() + fmBold.height());
        }
        boxes.insert(n.id, box);
        if (isCurrent || uncommitted.contains(n.id))
            drawTokens(box, tokens.value(n.id), uncommitted.value(n.id), pal);
    }
    for (const StateEdge& e : std::as_const(machine_->edges)) {
        drawEdge({e.from, e.to}, boxes, EdgeKind::Allowed, pal);
    }
    for (const Move& m : tally_.offDiagram()) {
        drawEdge(m, boxes, tally_.accepted(m) > 0 ? EdgeKind::Forbidden : EdgeKind::Refused, pal);
    }

    // Whose state this is, above the diagram; a legend for dashed moves below.
    const QRectF drawn = drawnRect();
    QString caption = words_->entityName(machine_->what);
    const QMap<int, QString>& entities = tally_.entities();
    if (!entities.isEmpty() && entities.size() <= kTokensListed) {
        QStringList names;
        for (auto it = entities.cbegin(); it != entities.cend(); ++it) {
            names << QStringLiteral("#%1 %2").arg(it.key() + 1).arg(it.value());
        }
        caption += QStringLiteral(" · ") + names.join(tr(", "));
    } else if (!entities.isEmpty()) {
        caption += QStringLiteral(" · ") + tr("%1 entities").arg(entities.size());
    }
    // Each in a corner of the diagram where nothing is drawn (the room a
    // loop or a branch leaves), else outside it: every line saved draws the
    // diagram larger.
    auto* title = addText(scene_, caption, bold, pal.muted);
    const QSizeF titleSize = title->boundingRect().size();
    tuck({title}, {drawn.topLeft(), {drawn.right() - titleSize.width(), drawn.top()}},
         QPointF(drawn.left(), drawn.top() - fmBold.height() * 1.8));
    const QList<QGraphicsItem*> legend = drawLegend(QPointF(0, 0), pal);
    if (!legend.isEmpty()) {
        QRectF r;
        for (const QGraphicsItem* item : legend) r |= item->sceneBoundingRect();
        const double bottom = drawn.bottom() - r.height();
        tuck(legend, {{drawn.left(), bottom}, {drawn.right() - r.width(), bottom}},
             QPointF(drawn.left(), drawn.bottom() + fm.height() * 0.6));
    }
}

// Moves `items` so that their top left is at the first of `corners` where
// nothing else is drawn, or at `outside` when every corner is taken.
void StateMachineView::tuck(const QList<QGraphicsItem*>& items, const QList<QPointF>& corners,
                            QPointF outside) {
    QRectF bounds;
    for (const QGraphicsItem* item : items) bounds |= item->sceneBoundingRect();
    const double gap = QFontMetricsF(font()).height() * 0.3;
    QPointF to = outside;
    for (const QPointF& corner : corners) {
        const QRectF wanted = QRectF(corner, bounds.size()).adjusted(-gap, -gap, gap, gap);
        const QList<QGraphicsItem*> there = scene_->items(wanted, Qt::IntersectsItemShape);
        // A glow may lie under a caption: it is the latest step's soft mark.
        if (std::all_of(there.cbegin(), there.cend(), [&](QGraphicsItem* item) {
                return items.contains(item->topLevelItem()) || glows_.contains(item);
            })) {
            to = corner;
            break;
        }
    }
    const QPointF by = to - bounds.topLeft();
    for (QGraphicsItem* item : items) item->moveBy(by.x(), by.y());
}

void StateMachineView::drawNote(const DiagramPalette& pal) {
    auto* note = new QGraphicsTextItem;
    note->setFont(font());
    note->setDefaultTextColor(pal.muted);
    note->setPlainText(machine_->nodes.isEmpty() && variant_.isEmpty()
                           ? tr("Pick a scenario to see its state machine.")
                           : tr("This variant keeps no state machine: watch the tables and the "
                                "SQL log."));
    // Wrapped to the view it is in (a narrow column beside the tables on a
    // projector), never drawn smaller to fit it.
    const double chars = QFontMetricsF(font()).averageCharWidth();
    note->setTextWidth(std::clamp(view_->viewport()->width() - 2 * chars, chars * 8, chars * 36));
    QTextOption centered(Qt::AlignHCenter);
    centered.setWrapMode(QTextOption::WordWrap);
    note->document()->setDefaultTextOption(centered);
    scene_->addItem(note);
}

// One line per kind of move off the diagram that happened: a dashed sample
// in its colour and what it means, bold and as large as the rest of the
// text, to be read from the back of a room. Its items, for the caller to place.
QList<QGraphicsItem*> StateMachineView::drawLegend(QPointF at, const DiagramPalette& pal) {
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    bool forbidden = false, refused = false;
    for (const Move& m : tally_.offDiagram()) {
        (tally_.accepted(m) > 0 ? forbidden : refused) = true;
    }
    struct Line {
        QColor color;
        QString text;
        Qt::PenStyle style = Qt::DashLine;
    };
    const QList<Line> lines{
        {forbidden ? pal.forbidden : QColor(), tr("forbidden, yet accepted")},
        {refused ? pal.rejected : QColor(), tr("refused: not in the diagram")},
        {tally_.anyPending() ? pal.highlight : QColor(),
         tr("(✓) not yet committed: nobody else sees it"), Qt::DotLine},
        {tally_.anyRolledBack() ? pal.rejected : QColor(),
         tr("↺ rolled back: the database kept nothing of it"), Qt::DotLine},
    };
    QList<QGraphicsItem*> drawn;
    double y = at.y();
    for (const auto& [color, text, style] : lines) {
        if (!color.isValid())
            continue;
        const double mid = y + fm.height() / 2;
        QPen pen(color, 2.6, style);
        auto* sample = addLine(scene_, at.x(), mid, at.x() + fm.height() * 2, mid, pen);
        sample->setData(0, text);
        auto* label = addText(scene_, text, bold, color);
        label->setPos(at.x() + fm.height() * 2.5, y);
        label->setData(0, QStringLiteral("legend"));
        drawn << sample << label;
        y += fm.height() * 1.3;
    }
    return drawn;
}

// The intents whose entity is in this state (a filled badge), and those an
// open transaction has moved here (an outlined one, "#2?": not committed).
void StateMachineView::drawTokens(const NodeBox& box, const QList<int>& intents,
                                  const QList<int>& uncommitted, const DiagramPalette& pal) {
    auto names = [](const QList<int>& of, const QString& suffix) {
        QStringList list;
        for (int intent : of) list << QStringLiteral("#%1").arg(intent + 1) + suffix;
        return list;
    };
    auto text = [](const QStringList& list, qsizetype count, const QString& suffix) {
        return count <= kTokensListed ? list.join(QLatin1Char(' '))
                                      : QStringLiteral("×%1").arg(count) + suffix;
    };
    QFont f = scaledFont(font(), 0.85);
    f.setBold(true);
    const QFontMetricsF fm(f);
    double right = box.rect.right();
    auto badge = [&](const QString& label, bool filled, const QString& tip) {
        const QRectF r(0, 0, fm.horizontalAdvance(label) + fm.height() * 0.8, fm.height() * 1.15);
        QPainterPath pill;
        pill.addRoundedRect(r, r.height() / 2, r.height() / 2);
        QPen outline(filled ? pal.background : pal.highlight, filled ? 1.5 : 2.0);
        if (!filled)
            outline.setStyle(Qt::DashLine);
        auto* item = scene_->addPath(pill, outline, filled ? pal.highlight : pal.background);
        item->setZValue(4);
        item->setPos(right - r.width() * 0.75, box.rect.top() - r.height() * 0.6);
        item->setToolTip(tip);
        auto* t = addText(scene_, label, f, filled ? pal.highlightText : pal.highlight, item);
        t->setPos((r.width() - t->boundingRect().width()) / 2,
                  (r.height() - t->boundingRect().height()) / 2);
        right = item->pos().x() - fm.averageCharWidth() * 0.4;
        if (!filled)
            item->setData(0, QStringLiteral("uncommitted"));
    };
    if (!intents.isEmpty()) {
        const QStringList list = names(intents, QString());
        badge(text(list, intents.size(), QString()), true,
              tr("Intents whose entity is in this state now: %1").arg(list.join(tr(", "))));
    }
    if (!uncommitted.isEmpty()) {
        const QStringList list = names(uncommitted, QStringLiteral("?"));
        badge(text(list, uncommitted.size(), QStringLiteral("?")), false,
              tr("Moved here inside a transaction not yet committed: %1. Nobody else sees "
                 "it here, and a rollback takes it back.")
                  .arg(names(uncommitted, QString()).join(tr(", "))));
    }
}

}  // namespace idem
