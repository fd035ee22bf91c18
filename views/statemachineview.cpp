#include "statemachineview.h"

#include "diagrampalette.h"
#include "drawthrottle.h"
#include "scenario.h"
#include "statemachinelayout.h"
#include "trace.h"

#include <QEvent>
#include <QFontInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QVariantAnimation>
#include <QtMath>

#include <algorithm>

namespace idem {

using namespace statediagram;

namespace {

constexpr double kLeastMargin = 3;  // when the room is short

}  // namespace

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
