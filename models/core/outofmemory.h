// Whether an allocation of this process has failed. Qt's own code goes on
// after one in places (an element left out of a list, a string left empty),
// so a result computed after it cannot be trusted: the command line marks
// the moment (app/allocation.cpp) and nothing is committed or reported as a
// success after it (an output is dropped, the command ends with exit 1).
#pragma once

namespace idem::memory {

void noteFailedAllocation();
bool allocationFailed();
// The words for it, on one line.
inline constexpr const char* kOutOfMemory = "out of memory; nothing was written";

}  // namespace idem::memory
