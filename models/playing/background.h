// Work done beside the window (a run measured in a worker, a run let go
// of) gives way to the window's thread when both want a CPU.
#pragma once

namespace idem {

// Lowers the calling thread's share of the CPU (nice 10). Qt's thread
// priorities below normal change nothing on Linux, whose default policy has
// a single priority: a worker there took the window's CPU for 4-7 ms at a
// time. A thread cannot take its share back without privilege, so this is
// for threads that only do background work. Not SCHED_IDLE: beside programs
// that keep every CPU busy such a thread gets almost nothing (a fire of the
// fire panel's maximum did not end in 140 s; at nice 10 it took 108 s).
void becomeBackground();
// Lets the calling thread run only on a CPU nothing else wants (SCHED_IDLE,
// what QThread::IdlePriority asks for on Linux): for work nobody waits on,
// the stress experiment's.
void becomeIdle();

}  // namespace idem
