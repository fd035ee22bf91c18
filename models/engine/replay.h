// Re-runs a trace's configuration and compares, as the stored events are
// read, every field of every event (its type included) and the whole
// summary: a trace passes only when this program, given the same input,
// writes exactly the same thing.
#pragma once

#include "run.h"
#include "trace.h"

#include <QHash>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace idem {

struct ReplayOutcome {
    RunFailure failure = RunFailure::None;  // the fresh run could not run
    QString error;                          // why reading or running failed
    bool identical = false;
    QString difference;  // the first one: where, what was stored, what the run gave
    qint64 events = 0;   // events compared
    Summary summary;     // the fresh run's
    // The fresh run's sentences in its events (results, time spent outside
    // the database) by their English: a stored trace holds only the
    // English, and an export that found it identical says them in its
    // language.
    QHash<QString, Phrase> phrases{};
};

// The comparison fed one stored event at a time, as a reader hands them
// out: replay reads the trace for it alone, an export while it reads the
// trace for its own pass (so that the file is read once for both).
class ReplayCheck {
public:
    // header: read already; config: its configuration, checked. cancel set:
    // the run stops at its next step (failure Cancelled).
    ReplayCheck(const TraceReader::Header& header, const RunConfig& config,
                const Scenario& scenario, const std::atomic<bool>* cancel = nullptr);
    ~ReplayCheck();
    // Starts the fresh run; false when it cannot (outcome() says why).
    bool start();
    // The next stored event; false once the comparison is decided (the
    // first difference, a run that failed or was stopped): later events are
    // not looked at.
    bool compare(const QJsonObject& stored);
    // After the last stored event: the fresh run's end, the summary and the
    // digest. read: whether the whole trace was read (else readError).
    const ReplayOutcome& finish(bool read, const QString& readError, bool digestMatches);
    const ReplayOutcome& outcome() const { return out_; }

private:
    std::optional<TraceEvent> next();
    void finishRun();

    class Queue;
    const TraceReader::Header& header_;
    std::unique_ptr<Queue> fresh_;
    std::unique_ptr<Run> run_;
    ReplayOutcome out_;
    bool finished_ = false;
    bool decided_ = false;
};

// The whole replay: reads `reader`'s events into a ReplayCheck.
ReplayOutcome replayTrace(TraceReader& reader, const TraceReader::Header& header,
                          const RunConfig& config, const Scenario& scenario,
                          const std::atomic<bool>* cancel = nullptr);

// The first difference between two JSON values, types included (a whole
// number is not a fraction, null is not 0), named by its path; empty when
// they are the same.
QString firstDifference(const QJsonValue& stored, const QJsonValue& fresh, const QString& path);

}  // namespace idem
