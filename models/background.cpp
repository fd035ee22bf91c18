#include "background.h"

#ifdef __linux__
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

}  // namespace idem
