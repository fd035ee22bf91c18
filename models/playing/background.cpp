#include "background.h"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace idem {

namespace {
constexpr int kBackgroundNice = 10;
}  // namespace

void becomeBackground() {
#ifdef __linux__
    // On Linux a thread is a task of its own: PRIO_PROCESS with its id sets
    // this thread's nice value, not the whole process's.
    if (getpriority(PRIO_PROCESS, id_t(gettid())) < kBackgroundNice)
        setpriority(PRIO_PROCESS, id_t(gettid()), kBackgroundNice);
#endif
}

void becomeIdle() {
#ifdef __linux__
    const sched_param none{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);
#endif
}

}  // namespace idem
