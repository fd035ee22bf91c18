// Drives one run step by step for the window: reset, step, step back, seek.
// Stepping back re-runs the same configuration deterministically up to the
// previous step, so no step needs hand-written undo.
//
// The long parts (the dry run that measures a configuration, a seek over
// many steps, judging the end for a saved trace) come in two halves: one that
// may run in a worker thread and emits nothing, and one on the owner's thread
// that tells the views. While a worker holds the run, nothing else touches it.
#pragma once

#include "run.h"
#include "runconfig.h"
#include "summary.h"

#include <QJsonObject>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace idem {

struct TraceEvent;

class Run;
class Scenario;
class SqlConnection;
class Sweeper;

class Playback : public QObject {
    Q_OBJECT
public:
    // A seek that steps more than this many times goes to the long-seek
    // handler when there is one (about a 60 Hz frame at the largest runs).
    static constexpr int kInlineSteps = 400;
    // The most events one stepFor tick adds (the views draw them in the same tick).
    static constexpr qsizetype kTickEvents = 200;

    // What a dry run to the end found: how many steps, how it ends.
    struct Measure {
        bool ok = false;
        bool cancelled = false;
        QString error;
        RunFailure failure = RunFailure::None;  // why not ok: bad input or the machine
        int steps = 0;
        Summary summary;
        // From prepare: a run of the configuration started beside the dry
        // run and waiting at step 0, which install takes as it is.
        std::shared_ptr<Run> ready;
    };
    // The dry run alone, touching no Playback: safe in any thread. `steps`
    // counts as it goes (for a progress bar); `cancel` stops it.
    static Measure measure(const RunConfig& config, const Scenario& scenario,
                           const std::atomic<bool>* cancel = nullptr,
                           std::atomic<qint64>* steps = nullptr);

    // The dry run, and a run started for install to take: both in the
    // caller's thread, so a window's worker leaves its thread nothing to plan.
    static Measure prepare(const RunConfig& config, const Scenario& scenario,
                           const std::atomic<bool>* cancel = nullptr,
                           std::atomic<qint64>* steps = nullptr);

    explicit Playback(QObject* parent = nullptr);
    ~Playback() override;

    // Loads a configuration: a dry run measures its length and final summary,
    // then a fresh run waits at step 0. Returns false with a message.
    bool load(const RunConfig& config, const Scenario& scenario, QString* error);
    // The second half of load, with a measure taken elsewhere.
    bool install(const RunConfig& config, const Scenario& scenario, const Measure& measured,
                 QString* error);
    bool isLoaded() const { return run_ != nullptr; }

    const RunConfig& config() const { return config_; }
    const Scenario* scenario() const { return scenario_; }
    const Run* run() const { return run_.get(); }
    // Lets go of long runs a slice at a time between frames: the one this
    // playback replaces, and any other the window is done with (Compare's).
    Sweeper* sweeper() const { return sweeper_; }
    // A connection that reads what the run has committed so far.
    SqlConnection* reader() const { return reader_.get(); }
    // The open write transaction's connection, to show what it has not
    // committed yet; null when none is open (Run::openWriter).
    SqlConnection* writer() const;
    // How many of the run's trace events the steps so far recorded (the
    // judge's events, once judged for a saved trace, are not steps).
    qsizetype eventCount() const;

    int position() const { return position_; }
    // Where the trace events of the latest step begin.
    qsizetype lastStepBegin() const { return stepBegin_; }
    int length() const { return length_; }
    bool atEnd() const { return position_ >= length_; }
    qint64 virtualTime() const;
    // The summary of the whole run (from the dry run).
    const Summary& finalSummary() const { return finalSummary_; }
    // The judge's verdict on the database as it is at this step.
    Summary liveSummary() const;

    // Called instead of stepping inline when a requested seek is long (set
    // by the window, which runs it in a worker: advance, then publish).
    // The next seek forward stops after the first step that matters (a
    // crash, a refused statement or move, an answer other than success, a
    // retry, an alert), if it comes before the target; cleared when it did.
    void setStopAtTurn(bool stop) { stopAtTurn_ = stop; }
    bool stopsAtTurn() const { return stopAtTurn_; }
    // Whether an event is one such step's.
    static bool isTurn(const TraceEvent& e);
    void setLongSeekHandler(std::function<void(int target)> handler) {
        longSeek_ = std::move(handler);
    }
    // How many steps reaching `target` costs (a seek back re-runs from 0).
    int seekCost(int target) const;

    // First half of a seek: steps to `target` (rebuilding first when it is
    // behind) and emits nothing. Stops early when `cancel` is set; `done`
    // counts the steps taken. Safe in a worker while nothing else uses this.
    void advance(int target, const std::atomic<bool>* cancel = nullptr,
                 std::atomic<qint64>* done = nullptr);
    // At the end: the judge reads the final database and records its events,
    // as a saved trace has them. Worker-safe like advance.
    bool judgeEnd(QString* error);
    bool judged() const { return judged_; }
    // Second half: tells the views what advance changed.
    void publish();
    // What publish will tell: the first new event (-1: nothing to tell), and
    // whether the run was rebuilt (then the views take in all its events).
    qsizetype pendingFrom() const { return pendingRewound_ ? 0 : pendingFrom_; }
    bool pendingRewound() const { return pendingRewound_; }

public slots:
    void stepForward();
    void stepBack();
    // Seeks at once, however long it takes (tests, `idemlab shot`).
    void seek(int position);
    // Seeks from the window's controls: a long seek goes to the handler.
    void requestSeek(int position);
    // Steps forward for about `budgetMs` of work (and at most `maxEvents`
    // new events, which the views then draw), then tells the views once:
    // playing at "instant" costs the same per tick on any run.
    void stepFor(int budgetMs, qsizetype maxEvents = kTickEvents);
    void reset() { requestSeek(0); }
    void toEnd() { seek(length_); }

signals:
    // A new configuration was loaded: views start over.
    void loaded();
    // The run went forward; trace events [from, to) are new.
    void advanced(qsizetype from, qsizetype to);
    // The run was rebuilt at an earlier position: views rebuild from the trace.
    void rewound();
    void positionChanged(int position, int length);

private:
    // A fresh run at step 0 in place of the one on screen; false (and the
    // run on screen unchanged) when it cannot start or `cancel` stops it.
    bool rebuild(QString* error, const std::atomic<bool>* cancel = nullptr);

    RunConfig config_;
    const Scenario* scenario_ = nullptr;
    // In place of a run that goes: a long one is let go of a slice at a
    // time, between frames (sweeper.h).
    void replaceRun(std::shared_ptr<Run> run);
    Sweeper* sweeper_;

    std::shared_ptr<Run> run_;
    std::unique_ptr<SqlConnection> reader_;
    int position_ = 0;
    int length_ = 0;
    qsizetype stepBegin_ = 0;
    Summary finalSummary_;
    std::function<void(int)> longSeek_;
    std::atomic<bool> stopAtTurn_ = false;  // read by a worker's seek
    bool judged_ = false;
    qsizetype steppedEvents_ = 0;  // events before the judge's, once judged
    // What advance changed, for publish.
    bool pendingRewound_ = false;
    qsizetype pendingFrom_ = -1;
};

}  // namespace idem
