#include "sequenceview.h"

#include "diagrampalette.h"
#include "labelwrap.h"
#include "lanescene.h"
#include "names.h"
#include "scenario.h"
#include "sequencelayout.h"
#include "sqllogmodel.h"
#include "trace.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace idem {

using namespace sequencediagram;

namespace {

using Shape = SequenceStep::Shape;
using Tone = SequenceStep::Tone;

// The spacing a lane name needs: on one line, or on two when labels may take
// extra lines ("outbox relay" over two lines).
double laneNameNeed(const QString& name, const QFontMetricsF& fmBold, int extraLines) {
    return narrowest(name, fmBold, extraLines > 0 ? 2 : 1) + 28;
}

// How many lines a lane name takes at `spacing`.
int laneNameLines(const QString& name, const QFontMetricsF& fmBold, double spacing) {
    return int(wrapped(name, fmBold, spacing - 28).count(QLatin1Char('\n'))) + 1;
}

QGraphicsView* diagramView(QGraphicsScene* scene, QWidget* parent) {
    auto* v = new QGraphicsView(scene, parent);
    v->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    v->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    v->setFrameShape(QFrame::NoFrame);
    // A step changes its own rows and the previous step's, at the bottom:
    // the rows above scroll up by copying pixels, and only what changed or
    // came into sight is drawn, however many rows the view holds. After a
    // leap (hundreds of new items) the region is one rectangle rather than
    // hundreds, which would cost more to clip to than to draw.
    v->setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    return v;
}

}  // namespace

SequenceView::SequenceView(QWidget* parent)
    : QWidget(parent),
      rowsScene_(new LaneScene(this)),
      scene_(rowsScene_),
      header_(diagramView(scene_, this)),
      view_(diagramView(scene_, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header_);
    layout->addWidget(view_, 1);
    header_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    header_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    header_->setFocusPolicy(Qt::NoFocus);
    // The rows' width never depends on whether they overflow: a scroll bar
    // that came and went would resize the viewport and draw every row again.
    view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    // Redrawn whole at every step: an index would be rebuilt for nothing.
    scene_->setItemIndexMethod(QGraphicsScene::NoIndex);
    view_->viewport()->installEventFilter(this);
    connect(view_->horizontalScrollBar(), &QScrollBar::valueChanged, header_->horizontalScrollBar(),
            &QScrollBar::setValue);
    // Scrolled to the newest row, it stays in sight when the view grows
    // shorter (a dock or a splitter moved): as a terminal keeps its last line.
    QScrollBar* rows = view_->verticalScrollBar();
    connect(rows, &QScrollBar::valueChanged, this,
            [this, rows](int value) { pinned_ = value >= rows->maximum(); });
    connect(rows, &QScrollBar::rangeChanged, this, [this, rows](int, int maximum) {
        if (pinned_)
            rows->setValue(maximum);
    });
    nameForScreenReaders();
    draw();
}

void SequenceView::nameForScreenReaders() {
    view_->setAccessibleName(tr("Sequence diagram"));
    header_->setAccessibleName(tr("Sequence diagram lanes"));
}

void SequenceView::setCast(const ScenarioInfo& scenario) {
    scenario_ = &scenario;
    laneOrder_ = scenario.lanes;
    internalLanes_ = scenario.internalLanes;
}

QString SequenceView::laneName(const QString& lane) const {
    return scenario_ ? scenario_->words.actorName(lane) : actorName(lane);
}

void SequenceView::setShowInternals(bool show) {
    showInternals_ = show;
}

void SequenceView::clear() {
    steps_.clear();
    lanes_.clear();
    earlier_ = 0;
    empty_ = true;
    draw();
}

void SequenceView::showLast(const Trace& trace, qsizetype upTo, qsizetype freshFrom,
                            qsizetype events) {
    upTo = std::min(upTo, trace.size());
    earlier_ = std::max<qsizetype>(0, upTo - std::clamp<qsizetype>(events, 1, kMaxEvents));
    steps_ = SequenceSteps::build(trace.events(), earlier_, upTo, freshFrom, scenario_);
    if (!showInternals_) {
        steps_.removeIf([this](const SequenceStep& s) {
            return s.setup || internalLanes_.contains(s.from) || internalLanes_.contains(s.to);
        });
    }
    lanes_ = SequenceSteps::lanes(steps_, laneOrder_);
    empty_ = steps_.isEmpty();
    drawnUpTo_ = upTo;
    draw();
}

void SequenceView::advanceTrace(const Trace& trace, qsizetype upTo, qsizetype freshFrom) {
    upTo = std::min(upTo, trace.size());
    if (upTo - drawnUpTo_ > kLeapEvents) {
        showLast(trace, upTo, freshFrom, kLeapEvents);
        return;
    }
    // Laid out again: every row it holds, or at "instant" only a leap's worth.
    const qsizetype relaidRows = fastPlay_ ? kLeapEvents : kMaxEvents;
    if (empty_ || !layout_ || upTo < drawnUpTo_ || drawnWidth_ != view_->viewport()->width()) {
        showLast(trace, upTo, freshFrom, relaidRows);
        return;
    }
    QList<SequenceStep> added =
        SequenceSteps::build(trace.events(), drawnUpTo_, upTo, freshFrom, scenario_);
    if (!showInternals_) {
        added.removeIf([this](const SequenceStep& s) {
            return s.setup || internalLanes_.contains(s.from) || internalLanes_.contains(s.to);
        });
    }
    // New lanes, wider labels or a wider time column: everything moves.
    const Layout& l = *layout_;
    const QFontMetricsF fm(l.font), fmBold(l.bold);
    for (const SequenceStep& s : std::as_const(added)) {
        const bool lanesKnown = s.shape == SequenceStep::Shape::Banner ||
                                ((s.from.isEmpty() || lanes_.contains(s.from)) &&
                                 (s.to.isEmpty() || lanes_.contains(s.to)));
        if (s.setup || !lanesKnown || laneNeed(s, fm, fmBold, l.lineH, l.extraLines) > l.spacing ||
            fm.horizontalAdvance(SqlLogModel::formatTime(s.tMs)) + fm.averageCharWidth() * 2 >
                l.timeW) {
            showLast(trace, upTo, freshFrom, relaidRows);
            return;
        }
    }
    const DiagramPalette pal = DiagramPalette::from(palette());
    // The previous step's rows (the last ones) lose their emphasis.
    qsizetype first = rows_.size();
    while (first > 0 && rows_[first - 1].step.fresh) --first;
    double top =
        rows_.isEmpty() ? l.headerH + l.lineH * 0.4 : rows_.last().top + rows_.last().height;
    if (first < rows_.size())
        top = rows_[first].top;
    for (qsizetype i = first; i < rows_.size(); ++i) {
        Row& row = rows_[i];
        removeRow(row);
        row.step.fresh = false;
        drawRow(row, top, i > 0 ? rows_[i - 1].step.tMs : -1, pal);
        top += row.height;
    }
    for (const SequenceStep& s : std::as_const(added)) {
        Row row;
        row.step = s;
        drawRow(row, top, rows_.isEmpty() ? -1 : rows_.last().step.tMs, pal);
        top += row.height;
        rows_ << row;
    }
    // Only the last kMaxEvents events stay drawn.
    // (After a leap the rows begin later still: those events stay left out.)
    earlier_ = std::max<qsizetype>(earlier_, upTo - kMaxEvents);
    while (!rows_.isEmpty() && rows_.first().step.event < earlier_) {
        removeRow(rows_.first());
        rows_.removeFirst();
    }
    steps_.clear();
    labels_.clear();
    for (const Row& row : std::as_const(rows_)) {
        steps_ << row.step;
        labels_ << row.lines;
    }
    drawnUpTo_ = upTo;
    placeFrame(pal);
}

double SequenceView::rowHeight(const SequenceStep& s) const {
    const double lineH = QFontMetricsF(font()).height();
    const double lines = double(s.label.count(QLatin1Char('\n')) + 1);
    return s.shape == Shape::Bar ? lineH * (3.5 + lines) : lineH * (1.0 + lines);
}

double SequenceView::labelRoom(const SequenceStep& s, const Layout& l) const {
    const double icon = s.hourglass ? l.lineH : 0;
    switch (s.shape) {
        case Shape::Arrow: {
            const qsizetype span = std::abs(lanes_.indexOf(s.to) - lanes_.indexOf(s.from));
            if (span > 0)
                return double(span) * l.spacing - 14 - icon;
            return l.spacing - kLoopWidth - 16;
        }
        case Shape::Loop:
        case Shape::Bar:
            return l.spacing - kLoopWidth - 16;
        case Shape::Banner:
            return l.width - l.timeW - 12 - 2 * l.lineH * 0.6;
        case Shape::Tag:
        case Shape::Cross:
            break;
    }
    return l.spacing - 20 - icon;
}

void SequenceView::draw() {
    scene_->clear();
    rows_.clear();
    rowsScene_->setLanes({}, 0, 0, QPen());
    earlierNote_ = nullptr;
    layout_.reset();
    arrows_ = 0;
    labels_.clear();
    const DiagramPalette pal = DiagramPalette::from(palette());
    // The views draw the scene's background (a brush of their own would
    // stand in for it, lifelines and all).
    scene_->setBackgroundBrush(pal.background);

    Layout l;
    l.font = font();
    l.bold = font();
    l.bold.setBold(true);
    const QFontMetricsF fm(l.font), fmBold(l.bold);
    l.lineH = fm.height();
    l.headerH = l.lineH * 2.4;
    if (empty_) {
        header_->setFixedHeight(0);
        auto* note = addText(scene_, tr("Fire a run to see its attempts here."), l.font, pal.muted);
        note->setPos(l.lineH, l.lineH);
        view_->setSceneRect(scene_->itemsBoundingRect().adjusted(-8, -8, 8, 8));
        return;
    }

    // Lanes as wide as their labels need when each label may take two lines;
    // wider when the window has the room (then labels keep to one line). When
    // the lanes would not fit the view (five or six lanes on a projector),
    // labels and lane names take more lines instead, so that every lane stays
    // in sight without a sideways scroll.
    for (const SequenceStep& s : std::as_const(steps_))
        l.timeW = std::max(l.timeW, fm.horizontalAdvance(SqlLogModel::formatTime(s.tMs)));
    l.timeW += fm.averageCharWidth() * 2;
    drawnWidth_ = view_->viewport()->width();
    const double room = (drawnWidth_ - l.timeW - 4) / double(lanes_.size());
    // Only a diagram on screen is squeezed: one drawn for a file (a report,
    // a hand-out) takes the width its labels need on two or three lines.
    const int mostExtra = isVisible() ? kMaxExtraLines : 0;
    double need = 0;
    for (int extra = 0; extra <= mostExtra; ++extra) {
        need = fm.averageCharWidth() * (extra == 0 ? 14 : 10);
        for (const QString& lane : std::as_const(lanes_))
            need = std::max(need, laneNameNeed(laneName(lane), fmBold, extra));
        for (const SequenceStep& s : std::as_const(steps_))
            need = std::max(need, laneNeed(s, fm, fmBold, l.lineH, extra));
        l.extraLines = extra;
        if (need <= room)
            break;
    }
    l.spacing = std::max(need, room);
    for (const QString& lane : std::as_const(lanes_)) {
        const int lines = laneNameLines(laneName(lane), fmBold, l.spacing);
        l.headerH = std::max(l.headerH, l.lineH * (1.4 + lines));
    }
    for (qsizetype i = 0; i < lanes_.size(); ++i) {
        l.x.insert(lanes_[i], l.timeW + l.spacing * (double(i) + 0.5));
    }
    l.width = l.timeW + l.spacing * double(lanes_.size());
    lanesWidth_ = l.width;
    layout_ = std::make_shared<Layout>(l);

    double top = l.headerH + l.lineH * 0.4;
    if (earlier_ > 0)
        top += l.lineH * 1.8;  // room for the note on earlier events
    for (const SequenceStep& s : std::as_const(steps_)) {
        Row row;
        row.step = s;
        drawRow(row, top, rows_.isEmpty() ? -1 : rows_.last().step.tMs, pal);
        top += row.height;
        rows_ << row;
    }
    drawHeaders(l, pal);
    header_->setFixedHeight(int(std::ceil(l.headerH)));
    // Wider than the rows, so the header can follow the rows' scroll bar all the way.
    header_->setSceneRect(0, 0, l.width + 64, l.headerH);
    placeFrame(pal);
    // The lane a lesson points at is in sight, however many lanes there are.
    if (l.x.contains(pointedLane_)) {
        QScrollBar* across = view_->horizontalScrollBar();
        const double x = l.x.value(pointedLane_);
        const int left = int(x - l.spacing / 2);
        const int right = int(std::ceil(x + l.spacing / 2));
        const int width = view_->viewport()->width();
        if (left < across->value())
            across->setValue(left);
        else if (right > across->value() + width)
            across->setValue(std::min(left, right - width));
    }
    header_->horizontalScrollBar()->setValue(view_->horizontalScrollBar()->value());
}

QRect SequenceView::pointedLaneRect() const {
    if (empty_ || pointedLane_.isEmpty())
        return {};
    const QList<QGraphicsItem*> items = scene_->items();
    for (const QGraphicsItem* item : items) {
        if (item->data(0).toString() != QLatin1String("pointed"))
            continue;
        const QRect inHeader = header_->mapFromScene(item->sceneBoundingRect()).boundingRect();
        return inHeader.translated(header_->viewport()->mapTo(this, QPoint(0, 0)));
    }
    return {};
}

QRect SequenceView::laneNamesRect() const {
    if (!header_->isVisible())
        return {};
    const QWidget* names = header_->viewport();
    return QRect(names->mapTo(this, QPoint(0, 0)), names->size());
}

double SequenceView::laneNeed(const SequenceStep& s, const QFontMetricsF& fm,
                              const QFontMetricsF& fmBold, double lineH, int extraLines) {
    const QFontMetricsF& m = s.fresh ? fmBold : fm;
    // Arrows carry two lines; boxes on one lane three (more when lanes are short of room).
    const int lines = (s.shape == Shape::Arrow ? 2 : 3) + extraLines;
    const QString key = QString::number(int(s.fresh) * 10 + lines) + s.label;
    if (!narrowest_.contains(key))
        narrowest_.insert(key, narrowest(s.label, m, lines));
    const double w = narrowest_.value(key) + 32 + (s.hourglass ? lineH : 0);
    const qsizetype span = std::abs(lanes_.indexOf(s.to) - lanes_.indexOf(s.from));
    // As a last resort an arrow's label may reach a little past the two
    // lifelines it joins: its row holds nothing else, and the scene has half
    // a lane to spare at either end.
    if (s.shape == Shape::Arrow && span > 0 && extraLines == kMaxExtraLines && isVisible())
        return (w - 24) / (double(span) + 0.4);
    if (s.shape == Shape::Arrow && span > 0)
        return w / double(span);
    if (s.shape == Shape::Tag || s.shape == Shape::Cross)
        return w;
    if (s.shape == Shape::Loop || s.shape == Shape::Bar || (s.shape == Shape::Arrow && span == 0))
        return w + kLoopWidth;
    return 0;
}

void SequenceView::drawRow(Row& row, double top, qint64 lastTime, const DiagramPalette& pal) {
    const Layout& l = *layout_;
    const QFontMetricsF fm(l.font), fmBold(l.bold);
    // Each label on one line where it fits, else on two.
    SequenceStep s = row.step;
    s.label = wrapped(s.label, s.fresh ? fmBold : fm, labelRoom(s, l));
    row.lines = s.label.split(QLatin1Char('\n'));
    labels_ << row.lines;
    const double h = rowHeight(s);
    // Drawn on a scratch scene, so that the row's own items are known.
    QGraphicsScene* main = scene_;
    scene_ = &scratch_;
    const int arrowsBefore = arrows_;
    if (s.fresh) {
        auto* band = scene_->addRect(0, top, l.width, h, Qt::NoPen,
                                     DiagramPalette::tint(pal.highlight, pal.dark ? 60 : 38));
        band->setZValue(-2);
    }
    auto* time = addText(scene_, SqlLogModel::formatTime(s.tMs), l.font,
                         s.tMs == lastTime ? pal.muted : pal.text);
    time->setPos(fm.averageCharWidth() * 0.5, top + (h - l.lineH) / 2);
    drawStep(s, l, top, h, pal);
    if (s.waitedFrom >= 0)
        drawWait(s, l, top + h / 2, pal);
    scene_ = main;
    row.items = scratch_.items();
    row.items.removeIf([](QGraphicsItem* item) { return item->parentItem() != nullptr; });
    for (QGraphicsItem* item : std::as_const(row.items)) scene_->addItem(item);
    row.arrows = arrows_ - arrowsBefore;
    row.top = top;
    row.height = h;
}

void SequenceView::removeRow(Row& row) {
    qDeleteAll(row.items);
    row.items.clear();
    arrows_ -= row.arrows;
    row.arrows = 0;
}

void SequenceView::placeFrame(const DiagramPalette& pal) {
    const Layout& l = *layout_;
    const double firstTop = rows_.isEmpty() ? l.headerH + l.lineH * 0.4 : rows_.first().top;
    const double bottom =
        (rows_.isEmpty() ? firstTop : rows_.last().top + rows_.last().height) + l.lineH * 0.6;
    double sceneTop = firstTop - l.lineH * 0.4;
    if (earlier_ > 0) {
        sceneTop -= l.lineH * 1.8;
        if (!earlierNote_) {
            earlierNote_ = addText(scene_, QString(), l.font, pal.muted);
        }
        earlierNote_->setText(earlier_ == 1 ? tr("… 1 earlier event")
                                            : tr("… %1 earlier events").arg(earlier_));
        earlierNote_->setPos(l.timeW, sceneTop + l.lineH * 0.7);
    } else if (earlierNote_) {
        delete earlierNote_;
        earlierNote_ = nullptr;
    }
    // The lifelines reach from the top of the rows (from under the lane
    // names once the view has scrolled) to below the last row.
    rowsScene_->setLanes(l.x.values(), std::min(sceneTop, l.headerH), bottom,
                         QPen(pal.muted, 1, Qt::DashLine));
    if (l.x.contains(pointedLane_))
        rowsScene_->setBand(l.x.value(pointedLane_), l.spacing * 0.3,
                            DiagramPalette::tint(pal.highlight, 40));
    else
        rowsScene_->setBand(0, 0, QColor());
    view_->setSceneRect(0, sceneTop, l.width, bottom - sceneTop);
    view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->maximum());
}

bool SequenceView::allLanesInSight() const {
    return lanesWidth_ <= view_->viewport()->width() + 1;
}

bool SequenceView::eventFilter(QObject* watched, QEvent* event) {
    // Lane widths follow the viewport's width (known only once it has resized).
    if (watched == view_->viewport() && event->type() == QEvent::Resize) {
        const int width = view_->viewport()->width();
        if (width != drawnWidth_ && !empty_)
            draw();
    }
    return QWidget::eventFilter(watched, event);
}

void SequenceView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        nameForScreenReaders();
    if (event->type() == QEvent::FontChange)
        narrowest_.clear();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        draw();
}

void SequenceView::setPointedLane(const QString& lane) {
    if (lane == pointedLane_)
        return;
    pointedLane_ = lane;
    if (layout_)
        draw();
}

QRectF SequenceView::sceneInSight() const {
    return view_->mapToScene(view_->viewport()->rect()).boundingRect();
}

int SequenceView::rowsInSight() const {
    const QRectF sight = sceneInSight();
    return int(std::count_if(rows_.cbegin(), rows_.cend(), [&](const Row& r) {
        return r.top >= sight.top() - 0.5 && r.top + r.height <= sight.bottom() + 0.5;
    }));
}

bool SequenceView::latestRowInSight() const {
    if (rows_.isEmpty())
        return true;
    const QRectF sight = sceneInSight();
    const Row& r = rows_.last();
    return r.top >= sight.top() - 0.5 && r.top + r.height <= sight.bottom() + 0.5;
}

}  // namespace idem
