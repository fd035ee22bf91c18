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
    // SCHED_IDLE: the kernel hands the CPU to the window's thread the moment
    // it wakes, and counts a CPU running only such threads as free when it
    // places the window's thread. A nice value alone still let a worker keep
    // the CPU the window's thread woke on for 16 ms (seen by the heartbeat
    // bench, the window's thread ready to run all that time).
    sched_param param{};
    param.sched_priority = 0;
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &param) == 0)
        return;
    // On Linux a thread is a task of its own: PRIO_PROCESS with its id sets
    // this thread's nice value, not the whole process's.
    if (getpriority(PRIO_PROCESS, id_t(gettid())) < kBackgroundNice)
        setpriority(PRIO_PROCESS, id_t(gettid()), kBackgroundNice);
#endif
}

}  // namespace idem
