// What starts a run and how it can fail: the options a driver (the command
// line, the window's worker, the experiment, a lesson) passes to a run.
#pragma once

#include "trace.h"

#include <QString>

#include <atomic>
#include <functional>

namespace idem {

struct RunOptions {
    QString dbPath;             // empty: a temporary file that lives as long as the run
    bool replaceDb = false;     // replace an earlier idemlab run database at dbPath
    bool keepTrace = true;      // keep every event in memory (the window, tests)
    TraceSink* sink = nullptr;  // where else events go (a trace file)
    const std::atomic<bool>* cancel = nullptr;  // set: stop at the next step
    // Replaying a trace of an older format: run as that version did (version
    // 1 wrote seed rows one transaction each).
    int formatVersion = Trace::kVersion;
    // A server's start, step by step (its first start initialises it).
    std::function<void(const QString&)> serverProgress;
    // --redis private served by this running Redis (a unix:// URL), the
    // run's keys under a prefix of their own and deleted after it: the
    // workbench's many runs share one server instead of starting one each.
    QString sharedRedis;

    // Common shapes: no events kept (only the summary is wanted), events
    // streamed to a sink, the database kept at a path.
    static RunOptions untraced(TraceSink* sink = nullptr) {
        RunOptions o;
        o.keepTrace = false;
        o.sink = sink;
        return o;
    }
    static RunOptions keptAt(const QString& path) {
        RunOptions o;
        o.dbPath = path;
        return o;
    }
};

// Why a run could not start or go on.
enum class RunFailure {
    None,
    BadInput,   // the configuration or a path the user gave
    Io,         // the disk (full, unwritable) or another program
    Internal,   // a statement the engine itself runs failed
    Cancelled,  // stopped on request; the summary says it is incomplete
};

}  // namespace idem
