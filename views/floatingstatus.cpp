#include "floatingstatus.h"

#include <QEvent>
#include <QPainter>
#include <QTimer>

#include <algorithm>

namespace idem {

namespace {
// Room between the bar and the left and top edges of the widget it floats
// over (it sits in the bottom right corner).
constexpr int kInset = 4;
}  // namespace

FloatingStatus::FloatingStatus(QWidget* window, QWidget* over)
    : QStatusBar(window), over_(over), messageTimer_(new QTimer(this)) {
    setObjectName(QStringLiteral("floatingStatus"));
    setSizeGripEnabled(false);
    setAutoFillBackground(true);
    over_->installEventFilter(this);
    messageTimer_->setSingleShot(true);
    messageTimer_->setInterval(kMessageMs);
    connect(messageTimer_, &QTimer::timeout, this, &QStatusBar::clearMessage);
    // A new message: sized and placed again.
    connect(this, &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty())
            messageTimer_->stop();
        else
            messageTimer_->start();
        place();
    });
}

void FloatingStatus::place() {
    if (!isVisible() || !over_)
        return;
    // As wide as its message and its job's widgets, within the widget it
    // floats over; anchored at that widget's bottom right.
    const QString message = currentMessage();
    int width = sizeHint().width();
    if (!message.isEmpty())
        width += fontMetrics().horizontalAdvance(message) + 3 * fontMetrics().averageCharWidth();
    const QRect area = over_->geometry().adjusted(kInset, kInset, 0, 0);
    width = std::clamp(width, std::min(area.width(), fontMetrics().averageCharWidth() * 24),
                       area.width());
    const int height = std::max(sizeHint().height(), fontMetrics().height() + 10);
    const QPoint topLeft = over_->parentWidget()->mapTo(
        parentWidget(), QPoint(area.right() - width + 1, area.bottom() - height + 1));
    setGeometry(QRect(topLeft, QSize(width, height)));
    raise();
}

bool FloatingStatus::eventFilter(QObject* watched, QEvent* event) {
    if (watched == over_ && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        place();
    return QStatusBar::eventFilter(watched, event);
}

bool FloatingStatus::event(QEvent* event) {
    const bool done = QStatusBar::event(event);
    // A job's label or bar shown, hidden or given new words.
    if (event->type() == QEvent::LayoutRequest)
        place();
    return done;
}

void FloatingStatus::showEvent(QShowEvent* event) {
    QStatusBar::showEvent(event);
    place();
}

void FloatingStatus::paintEvent(QPaintEvent* event) {
    QStatusBar::paintEvent(event);
    // An edge, so that it reads as lying over the views.
    QPainter painter(this);
    QColor edge = palette().color(QPalette::WindowText);
    edge.setAlpha(120);
    painter.setPen(edge);
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
}

}  // namespace idem
