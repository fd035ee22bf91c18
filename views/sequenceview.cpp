#include "sequenceview.h"

#include "diagrampalette.h"
#include "lineitem.h"
#include "names.h"
#include "scenario.h"
#include "sqllogmodel.h"
#include "trace.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QMap>
#include <QPaintEngine>
#include <QPainterPath>
#include <QScrollBar>
#include <QTextBoundaryFinder>
#include <QVBoxLayout>

#include <algorithm>

namespace idem {

namespace {

using Shape = SequenceStep::Shape;
using Tone = SequenceStep::Tone;

constexpr double kArrowLength = 9;
constexpr double kArrowWidth = 4.5;
constexpr double kLoopWidth = 22;

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

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, const QFont& font,
                                 const QColor& color, QGraphicsItem* parent = nullptr) {
    auto* item = new QGraphicsSimpleTextItem(text, parent);
    item->setFont(font);
    item->setBrush(color);
    if (!parent)
        scene->addItem(item);
    return item;
}

// The pieces a label may break between: where the Unicode line-breaking
// rules allow (between words, between Chinese characters but not before a
// closing mark), and after a state change's arrow ("PENDING→" "SENT"); a
// lone "·" stays at the end of its line and a lone "…" at the start of the
// next ("SELECT" "… FROM jobs"), so that no line ends as if it were cut.
// Each piece says whether a space joins it to the one before.
struct Piece {
    QString text;
    bool spaced = true;
};

QList<Piece> pieces(const QString& text) {
    QList<Piece> all;
    QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, text);
    qsizetype start = 0;
    bool afterSpace = false;
    QString held;  // a lone "…", waiting for the word it leads into
    bool heldSpaced = false;
    for (qsizetype end = breaks.toNextBoundary(); end > 0; end = breaks.toNextBoundary()) {
        const QString segment = text.mid(start, end - start);
        start = end;
        QString word = segment.trimmed();
        if (word.isEmpty()) {
            afterSpace = true;
            continue;
        }
        bool spaced = afterSpace;
        afterSpace = segment.back().isSpace();
        if (word == QStringLiteral("\u2026")) {
            held = afterSpace ? QStringLiteral("\u2026 ") : word;
            heldSpaced = spaced;
            continue;
        }
        if (!held.isEmpty()) {
            word = held + word;
            spaced = heldSpaced;
            held.clear();
        }
        const qsizetype arrow = word.indexOf(QChar(0x2192));
        if (word == QStringLiteral("\u00b7") && !all.isEmpty()) {
            all.last().text += spaced ? QStringLiteral(" \u00b7") : QStringLiteral("\u00b7");
        } else if (arrow > 0 && arrow + 1 < word.size()) {
            all.append({word.left(arrow + 1), spaced});
            all.append({word.mid(arrow + 1), false});
        } else {
            all.append({word, spaced});
        }
    }
    if (!held.isEmpty())
        all.append({held.trimmed(), heldSpaced});
    return all;
}

// A label's pieces with their widths, each measured once: breaking it into
// lines is then sums, however many widths are tried.
struct Measured {
    QList<Piece> pieces;
    QList<double> widths;
    double space = 0;
};

Measured measure(const QString& text, const QFontMetricsF& fm) {
    Measured m;
    m.pieces = pieces(text);
    m.space = fm.horizontalAdvance(QLatin1Char(' '));
    for (const Piece& piece : std::as_const(m.pieces)) m.widths << fm.horizontalAdvance(piece.text);
    return m;
}

// Where lines begin (indexes of pieces) when no line is wider than `width`.
QList<qsizetype> breaks(const Measured& m, double width) {
    QList<qsizetype> starts{0};
    double line = 0;
    for (qsizetype i = 0; i < m.pieces.size(); ++i) {
        const double longer = i == starts.last()
                                  ? m.widths[i]
                                  : line + (m.pieces[i].spaced ? m.space : 0) + m.widths[i];
        if (i > starts.last() && longer > width) {
            starts << i;
            line = m.widths[i];
        } else {
            line = longer;
        }
    }
    return starts;
}

// A label in lines no wider than `width`, broken between words or after a
// state change's arrow (the words of a label are short: a statement's head,
// an arrow, a count). Nothing is cut: a word wider than that stands on a
// line of its own.
QString wrapped(const QString& text, const QFontMetricsF& fm, double width) {
    if (fm.horizontalAdvance(text) <= width)
        return text;
    const Measured m = measure(text, fm);
    const QList<qsizetype> starts = breaks(m, width);
    QStringList lines;
    for (qsizetype l = 0; l < starts.size(); ++l) {
        const qsizetype end = l + 1 < starts.size() ? starts[l + 1] : m.pieces.size();
        QString line;
        for (qsizetype i = starts[l]; i < end; ++i) {
            if (i > starts[l] && m.pieces[i].spaced)
                line += QLatin1Char(' ');
            line += m.pieces[i].text;
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

// The least width at which the label takes at most `lines` lines.
double narrowest(const QString& text, const QFontMetricsF& fm, int lines) {
    const double whole = fm.horizontalAdvance(text);
    const Measured m = measure(text, fm);
    double low = 0;
    for (double w : std::as_const(m.widths)) low = std::max(low, w);
    double high = std::max(low, whole);
    // wrapped() keeps a label that fits whole on one line.
    auto fits = [&](double width) {
        return width >= whole || breaks(m, width).size() <= lines;
    };
    while (high - low > 2) {
        const double mid = (low + high) / 2;
        if (fits(mid))
            high = mid;
        else
            low = mid;
    }
    return high;
}

double widest(const QString& text, const QFontMetricsF& fm) {
    double w = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        w = std::max(w, fm.horizontalAdvance(line));
    return w;
}

// The spacing a lane name needs: on one line, or on two when labels may take
// extra lines ("outbox relay" over two lines).
double laneNameNeed(const QString& name, const QFontMetricsF& fmBold, int extraLines) {
    return narrowest(name, fmBold, extraLines > 0 ? 2 : 1) + 28;
}

// How many lines a lane name takes at `spacing`.
int laneNameLines(const QString& name, const QFontMetricsF& fmBold, double spacing) {
    return int(wrapped(name, fmBold, spacing - 28).count(QLatin1Char('\n'))) + 1;
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

// The lanes' dashed lifelines are the rows' background, drawn in scene
// coordinates for whatever strip needs painting: a row added at the bottom
// draws only its own strip of them, where one line item per lane, growing
// at every step, made every view repaint whole. Dashes start at whole
// periods from the top, so strips painted apart line up.
class LaneScene : public QGraphicsScene {
public:
    using QGraphicsScene::QGraphicsScene;

    // A lane a lesson points at: a tinted band behind its lifeline, `half`
    // either side of `x` (half 0: none).
    void setBand(double x, double half, const QColor& color) {
        if (x == bandX_ && half == bandHalf_ && color == bandColor_)
            return;
        bandX_ = x;
        bandHalf_ = half;
        bandColor_ = color;
        update();
    }

    void setLanes(const QList<double>& xs, double top, double bottom, const QPen& pen) {
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
                update(
                    QRectF(*left - 2, std::min(a, b) - 1, *right - *left + 4, std::abs(a - b) + 2));
        };
        strip(bottom, bottom_);
        strip(top, top_);
        top_ = top;
        bottom_ = bottom;
    }

protected:
    void drawBackground(QPainter* painter, const QRectF& rect) override {
        QGraphicsScene::drawBackground(painter, rect);
        if (xs_.isEmpty())
            return;
        const double to = std::min(rect.bottom() + 1, bottom_);
        const double from = std::max(rect.top() - 1, top_);
        if (from >= to)
            return;
        if (bandHalf_ > 0)
            painter->fillRect(QRectF(bandX_ - bandHalf_, from, 2 * bandHalf_, to - from),
                              bandColor_);
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

private:
    double bandX_ = 0;
    double bandHalf_ = 0;
    QColor bandColor_;
    QList<double> xs_;
    double top_ = 0;
    double bottom_ = 0;
    QPen pen_;
};

struct SequenceView::Layout {
    QFont font;
    QFont bold;
    double lineH = 0;
    double timeW = 0;
    double spacing = 0;
    double headerH = 0;
    double width = 0;
    int extraLines = 0;       // lines each label may take beyond two (arrows) or three (boxes)
    QMap<QString, double> x;  // lane centres
};

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
    header_->horizontalScrollBar()->setValue(view_->horizontalScrollBar()->value());
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
