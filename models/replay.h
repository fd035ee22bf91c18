// Re-runs a trace's configuration and compares, as the stored events are
// read, every field of every event (its type included) and the whole
// summary: a trace passes only when this program, given the same input,
// writes exactly the same thing.
#pragma once

#include "run.h"
#include "trace.h"

#include <QString>

namespace idem {

struct ReplayOutcome {
    RunFailure failure = RunFailure::None;  // the fresh run could not run
    QString error;                          // why reading or running failed
    bool identical = false;
    QString difference;  // the first one: where, what was stored, what the run gave
    qint64 events = 0;   // events compared
    Summary summary;     // the fresh run's
};

// header: read from `reader` already; config: its configuration, checked.
// cancel set: the run stops at its next step (failure Cancelled).
ReplayOutcome replayTrace(TraceReader& reader, const TraceReader::Header& header,
                          const RunConfig& config, const Scenario& scenario,
                          const std::atomic<bool>* cancel = nullptr);

// The first difference between two JSON values, types included (a whole
// number is not a fraction, null is not 0), named by its path; empty when
// they are the same.
QString firstDifference(const QJsonValue& stored, const QJsonValue& fresh, const QString& path);

}  // namespace idem
