// Drives one run step by step for the window: reset, step, step back, seek.
// Stepping back re-runs the same configuration deterministically up to the
// previous step, so no step needs hand-written undo.
//
// The long parts (the dry run that measures a configuration, a seek over
// many steps, judging the end for a saved trace) run in a worker thread: the
// dry run on nothing of this, the others on the run itself, which the job
// takes whole (lend) and hands back (handBack), then publish tells the views.
// While a job holds the run, nothing here can reach it.
#pragma once

#include "run.h"
#include "runconfig.h"
#include "summary.h"

#include <QJsonObject>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace idem {

struct TraceEvent;

class PlayedRun;
class StepNarrator;
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
    // `serverProgress` hears a live server's start (RunOptions::serverProgress).
    using ServerProgress = std::function<void(const QString& stage)>;
    static Measure measure(const RunConfig& config, const Scenario& scenario,
                           const std::atomic<bool>* cancel = nullptr,
                           std::atomic<qint64>* steps = nullptr,
                           const ServerProgress& serverProgress = {});

    // The dry run, and a run started for install to take: both in the
    // caller's thread, so a window's worker leaves its thread nothing to plan.
    static Measure prepare(const RunConfig& config, const Scenario& scenario,
                           const std::atomic<bool>* cancel = nullptr,
                           std::atomic<qint64>* steps = nullptr,
                           const ServerProgress& serverProgress = {});

    explicit Playback(QObject* parent = nullptr);
    ~Playback() override;

    // Loads a configuration: a dry run measures its length and final summary,
    // then a fresh run waits at step 0. Returns false with a message.
    bool load(const RunConfig& config, const Scenario& scenario, QString* error);
    // The second half of load, with a measure taken elsewhere.
    bool install(const RunConfig& config, const Scenario& scenario, const Measure& measured,
                 QString* error);
    // A run is on screen: here, or lent to a worker's job.
    bool isLoaded() const { return played_ || lent_; }

    // The run on screen and where it stands; null while a worker's job
    // holds it (and before the first load): what reads the run asks here.
    const PlayedRun* played() const { return played_.get(); }
    // A worker's job holds the run (lend): until it hands it back, the run
    // cannot be read, stepped or sought here, and where it stands is where
    // it stood when it was lent (what the views still show).
    bool isLent() const { return lent_.has_value(); }
    // The narration of the run's steps (the caption's); null while a job
    // holds the run.
    StepNarrator* narrator();
    // Gives the run to a worker's job, whole: null when it is not here.
    // `heading` is the step the job takes it to, when it is a seek.
    std::unique_ptr<PlayedRun> lend(std::optional<int> heading = {});
    // Takes back what lend gave, when the job is done with it; publish then
    // tells the views what the job changed.
    void handBack(std::unique_ptr<PlayedRun> played);
    // Tells the views what the steps since they were last told changed.
    void publish();

    const RunConfig& config() const { return config_; }
    const Scenario* scenario() const { return scenario_; }
    // The run itself and its connections; null while a job holds it.
    const Run* run() const;
    // A connection that reads what the run has committed so far.
    SqlConnection* reader() const;
    // The open write transaction's connection, to show what it has not
    // committed yet; null when none is open (Run::openWriter).
    SqlConnection* writer() const;
    // Lets go of long runs a slice at a time between frames: the one this
    // playback replaces, and any other the window is done with (Compare's).
    Sweeper* sweeper() const { return sweeper_; }
    // How many of the run's trace events the steps so far recorded (the
    // judge's events, once judged for a saved trace, are not steps).
    qsizetype eventCount() const;

    int position() const;
    // Where the trace events of the latest step begin.
    qsizetype lastStepBegin() const;
    int length() const { return length_; }
    bool atEnd() const { return position() >= length_; }
    qint64 virtualTime() const;
    // The summary of the whole run (from the dry run).
    const Summary& finalSummary() const { return finalSummary_; }
    // The judge's verdict on the database as it is at this step.
    Summary liveSummary() const;

    // Called instead of stepping inline when a requested seek is long (set
    // by the window, which lends the run to a worker that advances it).
    // The next seek forward stops after the first step that matters (a
    // crash, a refused statement or move, an answer other than success, a
    // retry, an alert), if it comes before the target; cleared when it did.
    void setStopAtTurn(bool stop);
    bool stopsAtTurn() const { return stopAtTurn_; }
    // Whether an event is one such step's.
    static bool isTurn(const TraceEvent& e);
    void setLongSeekHandler(std::function<void(int target)> handler) {
        longSeek_ = std::move(handler);
    }
    // A run on a live server: each step waits for the server (a lock wait
    // is certain only once the server says so, up to a few hundred ms), so
    // with a long-seek handler every step, forward or back, goes to it.
    bool stepsInWorker() const;
    // How many steps reaching `target` costs (a seek back re-runs from 0).
    int seekCost(int target) const;
    // The keys a class presses while a job holds the run are not lost: a
    // step, a step back, a seek asked for then aims at a step still to come
    // (stepping on from where the job is going), which the window takes
    // once the run is back. A new configuration, or a cancelled job
    // (dropQueued), drops it.
    std::optional<int> takeQueued();
    void dropQueued() { queued_.reset(); }

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
    // A key pressed while a job holds the run asked for `target` (takeQueued).
    void queued(int target);

private:
    // In place of a run that goes: a long one is let go of a slice at a
    // time, between frames (sweeper.h).
    void letGoOf(std::shared_ptr<Run> run);
    void letGoOfReplaced();

    RunConfig config_;
    const Scenario* scenario_ = nullptr;
    int length_ = 0;
    Summary finalSummary_;
    Sweeper* sweeper_;
    std::unique_ptr<PlayedRun> played_;
    // Where the run stood when it was lent; set while a job holds it.
    struct Shown {
        int position = 0;
        qsizetype stepBegin = 0;
        qsizetype events = 0;
        qint64 time = 0;
        std::optional<int> heading;  // where the job takes it
    };
    std::optional<Shown> lent_;
    // Where the keys pressed while it was lent aim (takeQueued).
    std::optional<int> queued_;
    // Where a key pressed now steps on from: what was queued, else where
    // the job goes, else where the run stood when it was lent.
    int aim() const;
    std::function<void(int)> longSeek_;
    bool stopAtTurn_ = false;
};

}  // namespace idem
