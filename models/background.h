// Work done beside the window (a run measured in a worker, a run let go
// of) gives way to the window's thread when both want a CPU.
#pragma once

namespace idem {

// Makes the calling thread run only when no ordinary thread wants its CPU
// (Linux's SCHED_IDLE; nice 10 where that is refused). Qt's thread
// priorities below normal change nothing on Linux, whose default policy has
// a single priority: a worker there took the window's CPU for 4-7 ms at a
// time. A thread cannot take its share back without privilege, so this is
// for threads that only do background work.
void becomeBackground();

}  // namespace idem
