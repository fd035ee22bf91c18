// The run the window plays and where it stands: the run, a connection that
// reads what it has committed, its position and latest step, and the
// narration of its steps. One thread owns it at a time: Playback on the
// window's thread, or a worker's job that took it (Playback::lend) until the
// job hands it back. Nothing else points into it meanwhile, so nothing here
// locks or waits.
#pragma once

#include "stepnarrator.h"

#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace idem {

class Run;
class Scenario;
class SqlConnection;
struct RunConfig;
struct Summary;
struct TraceEvent;

class PlayedRun {
public:
    // A run of `config` started here, `length` steps long (a dry run
    // counted them); null with a message when it cannot start or `cancel`
    // stops it (planning the largest runs takes seconds).
    static std::unique_ptr<PlayedRun> start(const RunConfig& config, const Scenario& scenario,
                                            int length, QString* error,
                                            const std::atomic<bool>* cancel = nullptr);
    // A run started elsewhere (Playback::prepare), waiting at step 0.
    PlayedRun(std::shared_ptr<Run> started, int length);
    ~PlayedRun();
    PlayedRun(const PlayedRun&) = delete;
    PlayedRun& operator=(const PlayedRun&) = delete;

    const Run& run() const { return *run_; }
    // A connection that reads what the run has committed so far.
    SqlConnection* reader() const { return reader_.get(); }
    // The open write transaction's connection; null when none is open.
    SqlConnection* writer() const;
    // How many of the run's trace events the steps so far recorded (the
    // judge's events, once judged for a saved trace, are not steps).
    qsizetype eventCount() const;
    int position() const { return position_; }
    int length() const { return length_; }
    bool atEnd() const { return position_ >= length_; }
    // Where the trace events of the latest step begin.
    qsizetype lastStepBegin() const { return stepBegin_; }
    qint64 virtualTime() const;
    // The judge's verdict on the database as it is at this step.
    Summary liveSummary() const;
    bool judged() const { return judged_; }

    // One step; false at the end.
    bool stepForward();
    // Steps forward for about `budgetMs` of work and at most `maxEvents`
    // new events.
    void stepFor(int budgetMs, qsizetype maxEvents);
    // Steps to `target` (starting the run again first when it is behind).
    // Stops early when `cancel` is set; `done` counts the steps taken.
    void advance(int target, const std::atomic<bool>* cancel = nullptr,
                 std::atomic<qint64>* done = nullptr);
    // At the end: the judge reads the final database and records its
    // events, as a saved trace has them.
    bool judgeEnd(QString* error);

    // The next seek forward stops after the first step that matters (a
    // crash, a refused statement or move, an answer other than success, a
    // retry, an alert), if it comes before the target; cleared when it did.
    void setStopAtTurn(bool stop) { stopAtTurn_ = stop; }
    bool stopsAtTurn() const { return stopAtTurn_; }
    static bool isTurn(const TraceEvent& e);

    // What the steps since the views were last told changed: the first new
    // event (-1: nothing to tell), and whether the run was started again
    // (then the views take in all its events).
    qsizetype pendingFrom() const { return pendingRewound_ ? 0 : pendingFrom_; }
    bool pendingRewound() const { return pendingRewound_; }
    void clearPending();

    StepNarrator& narrator() { return narrator_; }

    // The runs a step back replaced, for the owner to let go of (the window
    // a slice at a time, Sweeper).
    std::vector<std::shared_ptr<Run>> takeReplaced() { return std::move(replaced_); }
    // The run itself, its reader closed: this is done with.
    std::shared_ptr<Run> release();

private:
    // A fresh run at step 0 in place of this one; false (and this one
    // unchanged) when it cannot start or `cancel` stops it.
    bool rebuild(QString* error, const std::atomic<bool>* cancel);
    // A workbench run started on another thread is started again here and
    // brought to where it was (the same steps, the same events): its
    // handler's engine belongs to the thread that started it. False when
    // that could not be done (it then stays as it was).
    bool onThisThread(const std::atomic<bool>* cancel = nullptr);
    void restartAt(std::shared_ptr<Run> run);

    std::shared_ptr<Run> run_;
    std::unique_ptr<SqlConnection> reader_;  // closed before run_ goes
    StepNarrator narrator_;
    std::vector<std::shared_ptr<Run>> replaced_;
    int position_ = 0;
    int length_ = 0;
    qsizetype stepBegin_ = 0;
    bool judged_ = false;
    qsizetype steppedEvents_ = 0;  // events before the judge's, once judged
    bool stopAtTurn_ = false;
    bool pendingRewound_ = false;
    qsizetype pendingFrom_ = -1;
};

}  // namespace idem
