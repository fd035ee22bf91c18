// Stops a handler's step that runs too long without yielding, or that takes
// more memory than a handler may hold: a thread that watches the CPU time of
// the thread running the engine and the process's resident memory, and
// interrupts the engine (QJSEngine::setInterrupted, which Qt allows from any
// thread) once the step has used more than its share.
#pragma once

#include <QJSEngine>

#include <atomic>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>

namespace idem {

class Watchdog {
public:
    Watchdog();
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // A step of `engine` starts on this thread, with `cpuMs` of CPU time.
    void arm(QJSEngine* engine, int cpuMs);
    // The step is over: whether the watchdog had to stop it.
    bool disarm();
    // A run of the handler begins: its memory is counted from here.
    void rebase();
    // Why it did: the process held more than its memory bound above what it
    // held when the run began (the handler's allocations, kept across its
    // steps, count until it lets go of them; a run, not a whole check, so
    // that what the lab itself keeps over thousands of runs is not counted).
    bool overMemory() const { return overMemory_.load(std::memory_order_relaxed); }
    static constexpr qint64 kMemoryBound = qint64(256) * 1024 * 1024;

private:
    void watch();

    std::mutex mutex_;
    std::condition_variable wake_;
    bool quit_ = false;
    bool armed_ = false;
    QJSEngine* engine_ = nullptr;
    clockid_t clock_{};
    qint64 startNs_ = 0;
    qint64 limitNs_ = 0;
    std::atomic<bool> fired_{false};
    std::atomic<bool> overMemory_{false};
    qint64 baselineBytes_ = 0;  // resident when the run began
    std::thread thread_;
};

}  // namespace idem
