#include "outofmemory.h"

#include <atomic>

namespace idem::memory {

namespace {
std::atomic<bool> failed{false};
}

void noteFailedAllocation() {
    failed.store(true, std::memory_order_relaxed);
}

bool allocationFailed() {
    return failed.load(std::memory_order_relaxed);
}

}  // namespace idem::memory
