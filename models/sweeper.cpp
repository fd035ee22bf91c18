#include "sweeper.h"

#include "run.h"

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

Sweeper::Sweeper(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
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
    return runs_.empty() && rows_.empty();
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
    // What is freed here is freed outside the lock: a worker handing more
    // over never waits for a slice.
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
            std::shared_ptr<Run>& run = runs_.front();
            if (run.use_count() > 1 || !run->dropLastEvents(kSlice)) {
                done = std::move(run);
                runs_.pop_front();
            }
        } else {
            timer_->stop();
        }
    }
    // The rest of a run (its attempts, its connections) goes in a pool
    // thread: there is less of it, and in one piece it is a long frame here.
    if (done && done.use_count() == 1) {
        auto* going = new std::shared_ptr<Run>(std::move(done));
        QThreadPool::globalInstance()->start([going] { delete going; });
    }
}

}  // namespace idem
