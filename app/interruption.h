// Ctrl+C, SIGTERM and SIGHUP on the command line. The first asks the work in
// progress to stop at its next step: the command drops what it was writing
// (an output never appears half-written, an earlier file stays as it was),
// removes its work files and exits 128 + the signal's number (130 for
// Ctrl+C). A second one ends the program at once, after removing the work
// files of the runs in progress (scratchfiles.h).
#pragma once

#include <atomic>

namespace idem::cli {

class Interruption {
public:
    // Installs the handlers; the destructor puts the previous ones back.
    // A command that cannot stop between steps (a picture drawn in the
    // window's thread) and has written nothing yet ends at the first signal
    // instead: `atOnce`, after removing its runs' work files.
    explicit Interruption(bool atOnce = false);
    ~Interruption();
    Interruption(const Interruption&) = delete;
    Interruption& operator=(const Interruption&) = delete;

    // The flag a run, a reader or a writer polls (RunOptions::cancel).
    static const std::atomic<bool>* flag();
    static bool requested();
    // The exit code for the signal that came: 128 + its number.
    static int exitCode();

    // While one lives, a signal waits: for the few moments a finished
    // output is committed, so that it lands whole or not at all.
    class Held {
    public:
        Held();
        ~Held();
        Held(const Held&) = delete;
        Held& operator=(const Held&) = delete;
    };
};

}  // namespace idem::cli
