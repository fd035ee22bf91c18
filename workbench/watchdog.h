// Stops a handler's step that runs too long without yielding: a thread that
// watches the CPU time of the thread running the engine and interrupts the
// engine (QJSEngine::setInterrupted, which Qt allows from any thread) once
// the step has used more than its share.
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
    std::thread thread_;
};

}  // namespace idem
