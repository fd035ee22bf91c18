#include "statemachineview.h"

#include "diagrampalette.h"
#include "drawthrottle.h"
#include "lineitem.h"
#include "scenario.h"
#include "texts.h"
#include "trace.h"

#include <QEvent>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QPainterPath>
#include <QResizeEvent>
#include <QTextDocument>
#include <QTextOption>
#include <QVBoxLayout>
#include <QVariantAnimation>
#include <QtMath>

#include <algorithm>

namespace idem {

namespace {

constexpr double kMaxSpread = 1.8;  // spacing grows with the room up to this many times the least
constexpr double kMargin = 16;
constexpr double kLeastMargin = 3;  // when the room is short
constexpr double kArrowLength = 10;
constexpr double kArrowWidth = 5;
constexpr int kTokensListed = 3;  // more intents in one state: a count instead of names

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

QFont scaledFont(QFont f, double factor) {
    if (f.pointSizeF() > 0) {
        f.setPointSizeF(f.pointSizeF() * factor);
    } else {
        f.setPixelSize(std::max(6, int(f.pixelSize() * factor)));
    }
    return f;
}

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent = nullptr) {
    auto* item = new QGraphicsSimpleTextItem(text, parent);
    item->setFont(font);
    item->setBrush(color);
    if (!parent)
        scene->addItem(item);
    return item;
}

}  // namespace

struct StateMachineView::NodeBox {
    QRectF rect;
    bool dot = false;  // the start: a filled dot
    double y = 0;      // the grid row, to decide which way a self-loop bends
};

StateMachineView::StateMachineView(QWidget* parent)
    : QWidget(parent),
      scene_(new QGraphicsScene(this)),
      view_(new QGraphicsView(scene_, this)),
      pulse_(new QVariantAnimation(this)),
      drawing_(new DrawThrottle([this] { drawNow(); }, this)),
      machine_(std::make_unique<StateMachineInfo>()),
      words_(&ScenarioWords::none()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    view_->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // Drawn at the widget's font size; only when the room is too small even
    // for the tightest spacing is it scaled down, to be seen whole.
    setShrinkToFit(true);
    view_->setFrameShape(QFrame::NoFrame);
    // Redrawn whole at every step: an index would be rebuilt for nothing, and
    // the region that changed worked out item by item for nothing.
    scene_->setItemIndexMethod(QGraphicsScene::NoIndex);
    view_->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    view_->viewport()->installEventFilter(this);
    // Two soft pulses that end fully visible, so a still picture keeps the mark.
    pulse_->setDuration(900);
    pulse_->setStartValue(0.0);
    pulse_->setEndValue(1.0);
    connect(pulse_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        const double opacity = 0.65 + 0.35 * std::cos(4 * M_PI * v.toDouble());
        for (QGraphicsItem* glow : std::as_const(glows_)) glow->setOpacity(opacity);
    });
    nameForScreenReaders();
    rebuild();
}

void StateMachineView::nameForScreenReaders() {
    view_->setAccessibleName(tr("State diagram"));
}

StateMachineView::~StateMachineView() = default;

void StateMachineView::setMachine(const ScenarioInfo& info, const QString& variant) {
    *machine_ = info.stateMachine;
    words_ = &info.words;
    variant_ = variant;
    arrangedFor_.clear();  // another machine: its arrangement is chosen afresh
    tally_.setMachine(*machine_);
    rebuild();
}

bool StateMachineView::hasMachine() const {
    return !machine_->nodes.isEmpty() &&
           (machine_->variants.isEmpty() || machine_->variants.contains(variant_));
}

int StateMachineView::acceptedCount(const QString& from, const QString& to) const {
    return tally_.accepted({from, to});
}

int StateMachineView::rejectedCount(const QString& from, const QString& to) const {
    return tally_.rejected({from, to});
}

void StateMachineView::showTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom) {
    tally_.clear();
    advanceTrace(trace, upTo, freshFrom);
}

void StateMachineView::advanceTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom) {
    tally_.advance(trace.events(), upTo, freshFrom);
    drawing_->request();
}

void StateMachineView::showTally(StateTally tally) {
    tally_ = std::move(tally);
    drawing_->request();
}

void StateMachineView::drawNow() {
    rebuild();
    if (!glows_.isEmpty() && redrawIntervalMs_ == 0)
        pulse_->start();
}

void StateMachineView::setRedrawInterval(int ms, int offsetMs) {
    redrawIntervalMs_ = std::max(0, ms);
    if (redrawIntervalMs_ > 0 && pulse_->state() == QAbstractAnimation::Running) {
        pulse_->stop();
        for (QGraphicsItem* glow : std::as_const(glows_)) glow->setOpacity(1.0);
    }
    // Back to drawing every step: what was held back is drawn now.
    drawing_->setInterval(ms, offsetMs);
}

bool StateMachineView::isPulsing() const {
    return pulse_->state() == QAbstractAnimation::Running;
}

// The scene emptied, and with it what the pulse animates: a glow must never
// outlive its item (a layout tried and dropped in rebuild() deletes its glows).
void StateMachineView::clearScene() {
    pulse_->stop();
    glows_.clear();
    scene_->clear();
}

void StateMachineView::rebuild() {
    clearScene();
    const DiagramPalette pal = DiagramPalette::from(palette());
    scene_->setBackgroundBrush(pal.background);
    view_->setBackgroundBrush(pal.background);
    if (!hasMachine()) {
        drawNote(pal);
        fit();
        return;
    }
    // A state's name and its Chinese name one above the other, or side by
    // side where that draws the diagram larger: a short, wide view (the
    // stage of a projector) holds a flat diagram better. Chosen again only
    // when the room, the font or the machine changes, never between steps.
    const QFontInfo px(font());
    const QString room = QStringLiteral("%1x%2 %3 %4 %5")
                             .arg(view_->viewport()->width())
                             .arg(view_->viewport()->height())
                             .arg(px.pixelSize())
                             .arg(variant_, machine_->what);
    if (room != arrangedFor_) {
        arrangedFor_ = room;
        sideBySide_ = false;
        draw(pal);
        const double stacked = fitScale();
        if (stacked < 1.0) {
            clearScene();
            sideBySide_ = true;
            draw(pal);
            if (fitScale() > stacked * 1.02) {
                fit();
                return;
            }
            clearScene();
            sideBySide_ = false;
            draw(pal);
        }
        fit();
        return;
    }
    draw(pal);
    fit();
}

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
        caption += QStringLiteral(" · ") + names.join(QStringLiteral(", "));
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
    note->setTextWidth(QFontMetricsF(font()).averageCharWidth() * 36);
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

QList<QPair<QString, QString>> StateMachineView::forbiddenMoves() const {
    QList<QPair<QString, QString>> moves;
    for (const Move& m : tally_.offDiagram()) {
        if (tally_.accepted(m) > 0)
            moves << m;
    }
    return moves;
}

QColor StateMachineView::forbiddenColor() const {
    return DiagramPalette::from(palette()).forbidden;
}

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
              tr("Intents whose entity is in this state now: %1").arg(list.join(", ")));
    }
    if (!uncommitted.isEmpty()) {
        const QStringList list = names(uncommitted, QStringLiteral("?"));
        badge(text(list, uncommitted.size(), QStringLiteral("?")), false,
              tr("Moved here inside a transaction not yet committed: %1. Nobody else sees "
                 "it here, and a rollback takes it back.")
                  .arg(names(uncommitted, QString()).join(", ")));
    }
}

// What the diagram covers, without the glows of the latest step: a glow is
// a wide soft stroke round its edge, and the diagram keeps its size whether
// a step glows or not.
QRectF StateMachineView::drawnRect() const {
    QRectF r;
    for (QGraphicsItem* item : scene_->items()) {
        if (!item->parentItem() && !glows_.contains(item))
            r |= item->sceneBoundingRect();
    }
    return r;
}

double StateMachineView::fitScale() const {
    // Too big for the view: the margin goes first, then the size, but the
    // diagram stays whole (title and start included).
    const QRectF drawn = drawnRect();
    const QRectF least = drawn.adjusted(-kLeastMargin, -kLeastMargin, kLeastMargin, kLeastMargin);
    const QSize port = view_->viewport()->size();
    if (!shrinkToFit_ || least.width() <= 0 || least.height() <= 0 || port.isEmpty())
        return 1.0;
    return std::min({maxScale_, port.width() / least.width(), port.height() / least.height()});
}

void StateMachineView::fit() {
    const QRectF drawn = drawnRect();
    // The margin the view has room for, down to the least.
    const QSize port = view_->viewport()->size();
    const double mx = std::clamp((port.width() - drawn.width()) / 2, kLeastMargin, kMargin);
    const double my = std::clamp((port.height() - drawn.height()) / 2, kLeastMargin, kMargin);
    const QRectF r = drawn.adjusted(-mx, -my, mx, my);
    scene_->setSceneRect(r);
    view_->resetTransform();
    const double scale = fitScale();
    if (scale != 1.0)
        view_->scale(scale, scale);
    const int full = hasMachine() ? int(std::ceil(drawn.width() + 2 * kLeastMargin)) : 0;
    if (full != fullSizeWidth_) {
        fullSizeWidth_ = full;
        emit fullSizeWidthChanged();
    }
    // At full size and too big (zoomed in): keep where the entity is now in sight.
    QRectF focus = r;
    if (!shrinkToFit_) {
        for (QGraphicsItem* item : scene_->items()) {
            if (item->data(0).toString() == QLatin1String("current"))
                focus = item->sceneBoundingRect();
        }
    }
    view_->centerOn(focus.center());
}

void StateMachineView::setShrinkToFit(bool shrink) {
    const Qt::ScrollBarPolicy bars = shrink ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded;
    view_->setHorizontalScrollBarPolicy(bars);
    view_->setVerticalScrollBarPolicy(bars);
    if (shrink != shrinkToFit_) {
        shrinkToFit_ = shrink;
        fit();
    }
}

double StateMachineView::textPixelSize() const {
    return QFontInfo(font()).pixelSize() * view_->transform().m22();
}

bool StateMachineView::eventFilter(QObject* watched, QEvent* event) {
    // The viewport's own resize: only then is its new size known. The
    // spacing follows the room, so the diagram is laid out again.
    if (watched == view_->viewport() && event->type() == QEvent::Resize) {
        const QSize size = static_cast<QResizeEvent*>(event)->size();
        if (size != laidOutFor_) {
            laidOutFor_ = size;
            rebuild();
        }
    }
    return QWidget::eventFilter(watched, event);
}

void StateMachineView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        nameForScreenReaders();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
}

void StateMachineView::setPointedState(const QString& state) {
    if (state == pointed_)
        return;
    pointed_ = state;
    rebuild();
}

void StateMachineView::setGrowToFit(bool grow) {
    const double most = grow ? kMaxGrowth : 1.0;
    if (most == maxScale_)
        return;
    maxScale_ = most;
    fit();
}

}  // namespace idem
