// Runs the window's long computations (a fired run's dry run, End and other
// long seeks, Compare, saving and opening a trace) in a worker thread, one at
// a time, with a progress bar and Cancel in the status bar: the window keeps
// painting and answering while they run. A job owns what it works on (moved
// in, handed back when it is delivered): the two threads share only the
// job's Progress.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;

namespace idem {

class RunController : public QObject {
    Q_OBJECT
public:
    // What a job reports and reads while it runs; both threads touch it.
    struct Progress {
        std::atomic<qint64> done{0};
        std::atomic<qint64> total{0};  // 0: not known (the bar only moves)
        std::atomic<bool> cancel{false};
        // What the job is doing now, in a few words shown after its title
        // ("Starting MariaDB…"); empty: nothing beyond the title.
        void setNote(const QString& note) {
            const std::lock_guard lock(noteLock);
            noteText = note;
        }
        QString note() const {
            const std::lock_guard lock(noteLock);
            return noteText;
        }

    private:
        mutable std::mutex noteLock;
        QString noteText;
    };
    using Work = std::function<void(Progress&)>;
    // Runs on the window's thread after the work; `cancelled` when stopped.
    using Done = std::function<void(bool cancelled)>;

    // The progress bar and Cancel go into `bar`, hidden while idle.
    explicit RunController(QStatusBar* bar, QObject* parent = nullptr);
    ~RunController() override;

    bool isBusy() const { return worker_.joinable(); }
    // How far the job in progress has got (its Progress::done).
    qint64 doneSoFar() const { return progress_.done.load(std::memory_order_relaxed); }
    // Starts `work` in a worker thread, which gives way to the window's
    // (becomeBackground); false when a job is running already.
    bool start(const QString& what, Work work, Done done);
    // Starts `work` on `held` in a worker thread: the job owns it while it
    // runs (nothing else has a pointer to it), and `done` gets it back on
    // this thread once the worker has ended. When a job is running already,
    // `done` gets it back at once, cancelled. A job that is never delivered
    // (abandon, the controller going) lets go of it with itself.
    template <class Held>
    void startWith(const QString& what, std::unique_ptr<Held> held,
                   std::function<void(Held&, Progress&)> work,
                   std::function<void(std::unique_ptr<Held>, bool cancelled)> done) {
        if (isBusy()) {
            done(std::move(held), true);
            return;
        }
        // One box for both halves (a std::function cannot hold a unique_ptr):
        // the worker works on what it holds, then this thread takes it out
        // after joining the worker.
        auto box = std::make_shared<std::unique_ptr<Held>>(std::move(held));
        start(
            what, [box, work = std::move(work)](Progress& p) { work(**box, p); },
            [box, done = std::move(done)](bool cancelled) { done(std::move(*box), cancelled); });
    }
    // Waits for the job in progress and delivers its result now, without a
    // nested event loop (tests, `idemlab shot`, a fresh synchronous fire).
    void finishNow();
    // True while a job's result is delivered by finishNow (its caller wants
    // everything done before it returns), false when the event loop delivers it.
    bool isFinishingNow() const { return finishingNow_; }
    // Asks the job to stop, then finishNow.
    void cancelNow();
    // Asks the job to stop and waits for it, delivering nothing: what it
    // held goes with it (the window is going away).
    void abandon();
    QProgressBar* progressBar() const { return bar_; }
    QPushButton* cancelButton() const { return cancelButton_; }
    QLabel* label() const { return label_; }
    void retranslate();

public slots:
    // Asks the job to stop; its Done runs with cancelled = true.
    void cancel();

signals:
    void busyChanged(bool busy);
    // Emitted by the worker as it ends (so, queued to this thread).
    void workerEnded(quint64 generation, QPrivateSignal);

private:
    // linger: the bar stays a moment (see kLingerMs); finishNow's takes it away now.
    void deliver(bool linger);
    // Stops the job, waits for its worker and lets go of it, undelivered.
    void dropJob();
    void showProgress();
    void hideProgress();
    void updateVisibility();

    QStatusBar* status_;
    QLabel* label_;
    QProgressBar* bar_;
    QPushButton* cancelButton_;
    QTimer* poll_;
    QTimer* linger_;
    // Joined before its job is delivered or dropped: whatever the worker
    // wrote is this thread's then, and no thread is left behind.
    std::thread worker_;
    Progress progress_;
    Work work_;
    Done done_;
    QString what_;
    int polls_ = 0;
    quint64 generation_ = 0;  // a finished() from a job already delivered is ignored
    bool finishingNow_ = false;
};

}  // namespace idem
