#include "watchdog.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdio>

#include <chrono>

namespace idem {

namespace {

qint64 cpuNs(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// How often an armed watchdog looks at the step's CPU time and memory.
constexpr auto kLook = std::chrono::milliseconds(10);

// The process's resident memory, from /proc/self/statm (pages).
qint64 residentBytes() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    long long size = 0;
    long long resident = 0;
    const int read = std::fscanf(f, "%lld %lld", &size, &resident);
    std::fclose(f);
    return read == 2 ? qint64(resident) * sysconf(_SC_PAGESIZE) : 0;
}

}  // namespace

Watchdog::Watchdog() : baselineBytes_(residentBytes()), thread_([this] { watch(); }) {}

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
        overMemory_.store(false, std::memory_order_relaxed);
    }
}

void Watchdog::rebase() {
    const qint64 now = residentBytes();
    std::lock_guard lock(mutex_);
    baselineBytes_ = now;
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
        if (!armed_ || fired_.load(std::memory_order_relaxed))
            continue;
        const bool memory = residentBytes() - baselineBytes_ > kMemoryBound;
        if (memory || cpuNs(clock_) - startNs_ > limitNs_) {
            overMemory_.store(memory, std::memory_order_relaxed);
            fired_.store(true, std::memory_order_relaxed);
            engine_->setInterrupted(true);
        }
    }
}

}  // namespace idem
