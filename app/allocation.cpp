// The program's allocations, watched: each goes to the allocator found next
// (glibc's, or one a test preloads), and one that fails is noted
// (outofmemory.h) so that no result computed after it is committed. Left
// out under AddressSanitizer, which brings its own allocator.
#include "outofmemory.h"

#if !defined(__SANITIZE_ADDRESS__)

#include <dlfcn.h>

#include <atomic>
#include <cstddef>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
}

namespace {

using Malloc = void* (*)(std::size_t);
using Calloc = void* (*)(std::size_t, std::size_t);
using Realloc = void* (*)(void*, std::size_t);

// The next allocator, found once. dlsym may allocate while it looks: those
// allocations go straight to glibc.
thread_local bool resolving = false;

template <typename Fn>
Fn next(const char* name) {
    resolving = true;
    const Fn fn = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
    resolving = false;
    return fn;
}

void* noted(void* p, bool asked) {
    if (!p && asked)
        idem::memory::noteFailedAllocation();
    return p;
}

}  // namespace

extern "C" void* malloc(std::size_t size) {
    static std::atomic<Malloc> found{nullptr};
    Malloc real = found.load(std::memory_order_relaxed);
    if (!real) {
        if (resolving)
            return __libc_malloc(size);
        real = next<Malloc>("malloc");
        found.store(real, std::memory_order_relaxed);
    }
    return noted(real(size), size != 0);
}

extern "C" void* calloc(std::size_t n, std::size_t size) {
    static std::atomic<Calloc> found{nullptr};
    Calloc real = found.load(std::memory_order_relaxed);
    if (!real) {
        if (resolving)
            return __libc_calloc(n, size);
        real = next<Calloc>("calloc");
        found.store(real, std::memory_order_relaxed);
    }
    return noted(real(n, size), n != 0 && size != 0);
}

extern "C" void* realloc(void* p, std::size_t size) {
    static std::atomic<Realloc> found{nullptr};
    Realloc real = found.load(std::memory_order_relaxed);
    if (!real) {
        if (resolving)
            return __libc_realloc(p, size);
        real = next<Realloc>("realloc");
        found.store(real, std::memory_order_relaxed);
    }
    return noted(real(p, size), size != 0);
}

#endif
