#include "drawthrottle.h"

#include <QTimer>

#include <algorithm>

namespace idem {

DrawThrottle::DrawThrottle(std::function<void()> draw, QObject* parent)
    : QObject(parent), draw_(std::move(draw)), later_(new QTimer(this)) {
    later_->setSingleShot(true);
    connect(later_, &QTimer::timeout, this, &DrawThrottle::drawNow);
    clock_.start();
}

void DrawThrottle::request() {
    const qint64 now = clock_.elapsed();
    if (intervalMs_ <= 0 || drawnAt_ < 0 || now >= nextAt_) {
        drawNow();
    } else if (!later_->isActive()) {
        later_->start(int(nextAt_ - now));
    }
}

void DrawThrottle::drawNow() {
    later_->stop();
    drawnAt_ = clock_.elapsed();
    nextAt_ = drawnAt_ + intervalMs_;
    draw_();
}

void DrawThrottle::setInterval(int ms, int offsetMs) {
    const bool waiting = later_->isActive();
    const bool starting = intervalMs_ == 0 && ms > 0;
    intervalMs_ = std::max(0, ms);
    if (intervalMs_ == 0) {
        if (waiting)
            drawNow();
        return;
    }
    if (drawnAt_ < 0)
        return;
    nextAt_ = drawnAt_ + intervalMs_;
    if (starting)
        nextAt_ = std::max(nextAt_, clock_.elapsed() + std::max(0, offsetMs));
}

}  // namespace idem
