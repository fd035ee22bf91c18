#include "drawthrottle.h"

#include <QTimer>

#include <algorithm>

namespace idem {

DrawThrottle::DrawThrottle(std::function<void()> draw, QObject* parent)
    : QObject(parent), draw_(std::move(draw)), later_(new QTimer(this)) {
    later_->setSingleShot(true);
    connect(later_, &QTimer::timeout, this, &DrawThrottle::drawNow);
}

void DrawThrottle::request() {
    if (intervalMs_ <= 0 || !drawn_.isValid() || drawn_.hasExpired(intervalMs_)) {
        drawNow();
    } else if (!later_->isActive()) {
        later_->start(int(std::max<qint64>(0, intervalMs_ - drawn_.elapsed())));
    }
}

void DrawThrottle::drawNow() {
    later_->stop();
    drawn_.start();
    draw_();
}

void DrawThrottle::setInterval(int ms) {
    const bool waiting = later_->isActive();
    intervalMs_ = std::max(0, ms);
    if (intervalMs_ == 0 && waiting)
        drawNow();
}

}  // namespace idem
