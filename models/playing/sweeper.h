// Lets go of what a long run leaves behind (the run and its events, the SQL
// log's old rows) a slice at a time on the owner's thread, between frames.
//
// The largest run holds 656,000 events. Freed at once they cost the window a
// frame or more; freed at once in a pool thread they still do, as the window
// paints with the same allocator the pool thread holds. Each turn of the
// event loop lets go of slices of a few hundred events for about two
// milliseconds (a slice of 2,048 took 2 to 5 ms).
#pragma once

#include "traceevent.h"

#include <QList>
#include <QObject>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class QTimer;

namespace idem {

class Run;

class Sweeper : public QObject {
    Q_OBJECT
public:
    static constexpr qsizetype kSlice = 256;   // events let go of at a time
    static constexpr qint64 kBudgetUs = 2000;  // per turn
    static constexpr int kIntervalMs = 8;

    // Has the C library's allocator merge freed blocks as they are freed.
    // By default glibc keeps small freed blocks aside ("fast bins") and merges
    // them all at once later, under its lock: after the largest run, freeing
    // the rest of it in a pool thread held that lock for about 100 ms, and
    // the window's next allocation waited as long. Called once, before the
    // window is built.
    static void freeEvenly();

    explicit Sweeper(QObject* parent = nullptr);
    ~Sweeper() override;

    // Takes what is to go. Callable from any thread; the sweeping happens on
    // this object's thread.
    void take(std::shared_ptr<Run> run);
    void take(std::vector<QList<TraceEvent>> rows);
    // Nothing left to let go of, here or in the background.
    bool idle() const;

signals:
    // Emitted by take, in the caller's thread: the timer starts in this one.
    void taken(QPrivateSignal);

private:
    void sweep();
    bool sweepSlice();  // false: nothing was left
    // Lets go of the rest of a run in the background thread (started at the
    // first, ended with this object), which gives way to the window's.
    void freeInBackground(std::shared_ptr<Run> run);
    void freeing();

    // Standard locks, not Qt's: ThreadSanitizer sees only what the lab's
    // own code does (Debian's Qt is not instrumented).
    mutable std::mutex mutex_;
    std::deque<std::shared_ptr<Run>> runs_;
    std::deque<QList<TraceEvent>> rows_;
    QTimer* timer_;
    std::deque<std::shared_ptr<Run>> toFree_;  // for the background thread
    int freeing_ = 0;                          // ... and being freed there now
    bool ending_ = false;                      // this object is going: it ends
    std::condition_variable freeable_;
    std::thread freer_;
};

}  // namespace idem
