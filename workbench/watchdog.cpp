#include "watchdog.h"

#include <pthread.h>

#include <chrono>

namespace idem {

namespace {

qint64 cpuNs(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// How often an armed watchdog looks at the step's CPU time.
constexpr auto kLook = std::chrono::milliseconds(10);

}  // namespace

Watchdog::Watchdog() : thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void Watchdog::arm(QJSEngine* engine, int cpuMs) {
    clockid_t clock{};
    pthread_getcpuclockid(pthread_self(), &clock);
    const qint64 start = cpuNs(clock);
    {
        // No notification: the watchdog looks every few milliseconds, so
        // that a step costs no wake-up of another thread.
        std::lock_guard lock(mutex_);
        armed_ = true;
        engine_ = engine;
        clock_ = clock;
        startNs_ = start;
        limitNs_ = qint64(cpuMs) * 1'000'000;
        fired_.store(false, std::memory_order_relaxed);
    }
}

bool Watchdog::disarm() {
    std::lock_guard lock(mutex_);
    armed_ = false;
    return fired_.load(std::memory_order_relaxed);
}

void Watchdog::watch() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
        wake_.wait_for(lock, kLook);
        if (armed_ && !fired_.load(std::memory_order_relaxed) &&
            cpuNs(clock_) - startNs_ > limitNs_) {
            fired_.store(true, std::memory_order_relaxed);
            engine_->setInterrupted(true);
        }
    }
}

}  // namespace idem
