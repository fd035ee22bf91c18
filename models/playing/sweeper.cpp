#include "sweeper.h"

#include "background.h"
#include "run.h"

#include <QElapsedTimer>
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

Sweeper::Sweeper(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
    timer_->setInterval(kIntervalMs);
    connect(timer_, &QTimer::timeout, this, &Sweeper::sweep);
    // Queued when taken in another thread.
    connect(this, &Sweeper::taken, this, [this] {
        if (!timer_->isActive())
            timer_->start();
    });
}

Sweeper::~Sweeper() {
    // What the background thread holds goes before this does.
    {
        const std::lock_guard lock(mutex_);
        ending_ = true;
    }
    freeable_.notify_one();
    if (freer_.joinable())
        freer_.join();
}

void Sweeper::take(std::shared_ptr<Run> run) {
    if (!run)
        return;
    {
        const std::lock_guard lock(mutex_);
        runs_.push_back(std::move(run));
    }
    emit taken(QPrivateSignal());
}

void Sweeper::take(std::vector<QList<TraceEvent>> rows) {
    {
        const std::lock_guard lock(mutex_);
        for (QList<TraceEvent>& piece : rows) {
            if (!piece.isEmpty())
                rows_.push_back(std::move(piece));
        }
    }
    emit taken(QPrivateSignal());
}

bool Sweeper::idle() const {
    const std::lock_guard lock(mutex_);
    return runs_.empty() && rows_.empty() && toFree_.empty() && freeing_ == 0;
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
        const std::lock_guard lock(mutex_);
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
        // attempts, its connections) in the background thread: there is less
        // of it, and in one piece it is a long frame here.
        if (done.use_count() == 1 && done->dropLastEvents(kSlice)) {
            const std::lock_guard lock(mutex_);
            runs_.push_front(std::move(done));
        } else if (done.use_count() == 1) {
            freeInBackground(std::move(done));
        }
    }
    return true;
}

void Sweeper::freeInBackground(std::shared_ptr<Run> run) {
    {
        const std::lock_guard lock(mutex_);
        toFree_.push_back(std::move(run));
        if (!freer_.joinable())
            freer_ = std::thread([this] { freeing(); });
    }
    freeable_.notify_one();
}

void Sweeper::freeing() {
    becomeBackground();
    std::unique_lock lock(mutex_);
    for (;;) {
        freeable_.wait(lock, [this] { return ending_ || !toFree_.empty(); });
        if (toFree_.empty())
            return;  // ending, and all of it let go of
        std::shared_ptr<Run> run = std::move(toFree_.front());
        toFree_.pop_front();
        ++freeing_;
        lock.unlock();
        run.reset();
        lock.lock();
        --freeing_;
    }
}

}  // namespace idem
