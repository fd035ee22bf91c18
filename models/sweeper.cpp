#include "sweeper.h"

#include "background.h"
#include "run.h"

#include <QElapsedTimer>
#include <QMutexLocker>
#include <QThreadPool>
#include <QTimer>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace idem {

void Sweeper::freeEvenly() {
#ifdef __GLIBC__
    mallopt(M_MXFAST, 0);
#endif
}

Sweeper::Sweeper(QObject* parent)
    : QObject(parent), timer_(new QTimer(this)), pool_(new QThreadPool(this)) {
    pool_->setMaxThreadCount(1);
    timer_->setInterval(kIntervalMs);
    connect(timer_, &QTimer::timeout, this, &Sweeper::sweep);
}

Sweeper::~Sweeper() = default;

void Sweeper::take(std::shared_ptr<Run> run) {
    if (!run)
        return;
    {
        QMutexLocker lock(&mutex_);
        runs_.push_back(std::move(run));
    }
    wake();
}

void Sweeper::take(std::vector<QList<TraceEvent>> rows) {
    {
        QMutexLocker lock(&mutex_);
        for (QList<TraceEvent>& piece : rows) {
            if (!piece.isEmpty())
                rows_.push_back(std::move(piece));
        }
    }
    wake();
}

bool Sweeper::idle() const {
    QMutexLocker lock(&mutex_);
    return runs_.empty() && rows_.empty() && freeing_ == 0;
}

void Sweeper::wake() {
    // Started on the sweeper's own thread, whichever thread handed things over.
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!timer_->isActive())
                timer_->start();
        },
        Qt::QueuedConnection);
}

void Sweeper::sweep() {
    // Slices until the turn's budget is spent: what a slice costs depends on
    // what its events hold and on the allocator, not on their number alone.
    QElapsedTimer clock;
    clock.start();
    while (sweepSlice() && clock.nsecsElapsed() < kBudgetUs * 1000) {
    }
}

bool Sweeper::sweepSlice() {
    // The lock is held to pick the slice (and to shorten a piece of rows); a
    // run's events are let go of outside it, so a worker handing more over
    // waits at most that long.
    std::shared_ptr<Run> done;
    QList<TraceEvent> slice;
    {
        QMutexLocker lock(&mutex_);
        if (!rows_.empty()) {
            QList<TraceEvent>& piece = rows_.back();
            if (piece.size() <= kSlice || !piece.isDetached()) {
                slice = std::move(piece);
                rows_.pop_back();
            } else {
                piece.resize(piece.size() - kSlice);
            }
        } else if (!runs_.empty()) {
            done = std::move(runs_.front());
            runs_.pop_front();
        } else {
            timer_->stop();
            return false;
        }
    }
    if (done) {
        // The run's events a slice at a time; then the rest of it (its
        // attempts, its connections) in a pool thread: there is less of it,
        // and in one piece it is a long frame here.
        if (done.use_count() == 1 && done->dropLastEvents(kSlice)) {
            QMutexLocker lock(&mutex_);
            runs_.push_front(std::move(done));
        } else if (done.use_count() == 1) {
            auto* going = new std::shared_ptr<Run>(std::move(done));
            ++freeing_;
            pool_->start([this, going] {
                becomeBackground();
                delete going;
                --freeing_;
            });
        }
    }
    return true;
}

}  // namespace idem
