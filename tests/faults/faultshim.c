/* Makes the system fail where the loaders depend on it, for faults_test.py,
 * loaded with LD_PRELOAD into idemlab:
 *   IDEM_FAULT_PATH=FILE  the file whose reading is watched
 *   IDEM_FAULT_READ=N     read() of that file fails with EIO once N bytes were read
 *   IDEM_FAULT_ALLOC=N    counting from that file's first opening, the N-th
 *                         allocation (malloc, calloc, realloc) of the thread
 *                         that opened it returns NULL (other threads' work,
 *                         such as fonts being found, is not the loader's)
 * The count of allocations made since the opening is written to the file
 * IDEM_FAULT_COUNT names when the program ends, so that the test knows how
 * far to go. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t n, size_t size);
extern void* __libc_realloc(void* p, size_t size);

static int watched[64];
static int watchedCount;
static long long readBytes;
static long long failReadAfter = -1;
static long long failAllocAt = -1;
static long long allocations;
static int counting;
static int ready;
static pid_t opener;  /* only this thread's allocations count: the loader's */

static void setup(void) {
    if (ready)
        return;
    ready = 1;
    const char* r = getenv("IDEM_FAULT_READ");
    const char* a = getenv("IDEM_FAULT_ALLOC");
    if (r)
        failReadAfter = atoll(r);
    if (a)
        failAllocAt = atoll(a);
}

static void reportCount(void) {
    const char* path = getenv("IDEM_FAULT_COUNT");
    if (!path)
        return;
    FILE* f = fopen(path, "w");
    if (f) {
        fprintf(f, "%lld\n", allocations);
        fclose(f);
    }
}

static int isWatched(const char* path) {
    const char* want = getenv("IDEM_FAULT_PATH");
    if (!want || !path)
        return 0;
    const size_t n = strlen(path), m = strlen(want);
    return n >= m && strcmp(path + n - m, want) == 0;
}

static int opened(const char* path, int fd) {
    if (fd >= 0 && isWatched(path)) {
        setup();
        if (watchedCount < 64)
            watched[watchedCount++] = fd;
        if (!counting) {
            counting = 1;
            opener = gettid();
            atexit(reportCount);
        }
    }
    return fd;
}

static int closing(int fd) {
    for (int i = 0; i < watchedCount; ++i) {
        if (watched[i] == fd)
            watched[i] = watched[--watchedCount];
    }
    return fd;
}

typedef int (*OpenFn)(const char*, int, ...);
typedef int (*OpenAtFn)(int, const char*, int, ...);
typedef ssize_t (*ReadFn)(int, void*, size_t);
typedef int (*CloseFn)(int);

#define MODE_ARG                                                  \
    mode_t mode = 0;                                              \
    if (flags & (O_CREAT | O_TMPFILE)) {                          \
        va_list ap;                                               \
        va_start(ap, flags);                                      \
        mode = va_arg(ap, mode_t);                                \
        va_end(ap);                                               \
    }

int open(const char* path, int flags, ...) {
    MODE_ARG
    static OpenFn real;
    if (!real)
        real = (OpenFn)dlsym(RTLD_NEXT, "open");
    return opened(path, real(path, flags, mode));
}

int open64(const char* path, int flags, ...) {
    MODE_ARG
    static OpenFn real;
    if (!real)
        real = (OpenFn)dlsym(RTLD_NEXT, "open64");
    return opened(path, real(path, flags, mode));
}

int openat(int dir, const char* path, int flags, ...) {
    MODE_ARG
    static OpenAtFn real;
    if (!real)
        real = (OpenAtFn)dlsym(RTLD_NEXT, "openat");
    return opened(path, real(dir, path, flags, mode));
}

int openat64(int dir, const char* path, int flags, ...) {
    MODE_ARG
    static OpenAtFn real;
    if (!real)
        real = (OpenAtFn)dlsym(RTLD_NEXT, "openat64");
    return opened(path, real(dir, path, flags, mode));
}

int close(int fd) {
    static CloseFn real;
    if (!real)
        real = (CloseFn)dlsym(RTLD_NEXT, "close");
    return real(closing(fd));
}

ssize_t read(int fd, void* buf, size_t count) {
    static ReadFn real;
    if (!real)
        real = (ReadFn)dlsym(RTLD_NEXT, "read");
    int isWatchedFd = 0;
    for (int i = 0; i < watchedCount; ++i)
        isWatchedFd |= watched[i] == fd;
    if (isWatchedFd && failReadAfter >= 0) {
        if (readBytes >= failReadAfter) {
            errno = EIO;
            return -1;
        }
        if ((long long)count > failReadAfter - readBytes)
            count = (size_t)(failReadAfter - readBytes);
    }
    const ssize_t n = real(fd, buf, count);
    if (isWatchedFd && n > 0)
        readBytes += n;
    return n;
}

static int allocFails(void) {
    if (!counting || gettid() != opener)
        return 0;
    return ++allocations == failAllocAt;
}

void* malloc(size_t size) {
    if (allocFails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

void* calloc(size_t n, size_t size) {
    if (allocFails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}

void* realloc(void* p, size_t size) {
    if (allocFails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, size);
}
