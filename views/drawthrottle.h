// At most one drawing per interval, for a view told of every step that need
// not draw each one (playing at "instant"): a request within the interval of
// the last drawing is drawn when the interval ends, once for every request
// meanwhile. With no interval (the default) every request draws at once.
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <functional>

class QTimer;

namespace idem {

class DrawThrottle : public QObject {
public:
    DrawThrottle(std::function<void()> draw, QObject* parent);
    // Draws now, or when the interval since the last drawing ends.
    void request();
    // Draws now; a drawing that waited is this one.
    void drawNow();
    // 0: no interval. Lifting the interval draws what waited. Starting one,
    // the next drawing comes no sooner than `offsetMs` from now: views held
    // back by the same interval, each at an offset of its own, draw in
    // frames of their own.
    void setInterval(int ms, int offsetMs = 0);

private:
    std::function<void()> draw_;
    QTimer* later_;
    QElapsedTimer clock_;
    qint64 drawnAt_ = -1;  // on clock_; -1: never drawn
    qint64 nextAt_ = 0;    // the soonest a request draws at once, on clock_
    int intervalMs_ = 0;
};

}  // namespace idem
