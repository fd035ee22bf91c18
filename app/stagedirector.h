// Puts the run on the stage: fires a configuration (checked, asked about
// when large, measured in a worker), takes long seeks and saving to a worker
// and hands back what they counted, and shows each step on the live views,
// the outcome and the caption. MainWindow builds the widgets and hands them
// over; this is the behaviour between them and Playback.
#pragma once

#include "livestage.h"
#include "playback.h"
#include "runconfig.h"
#include "runcontroller.h"
#include "trace.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QStatusBar;
class QTabWidget;
class QTimer;

namespace idem {

class CompareView;
class ExperimentView;
class ExplanationView;
class FirePanel;
class LessonPlayer;
class OutcomePanel;
class PaginationView;
struct PagingRuns;
class PlayedRun;
class PlaybackBar;
class Scenario;
class ScenarioPicker;
class StageHeader;
class StepCaption;

class StageDirector : public QObject {
    Q_OBJECT
public:
    // What it plays onto; every pointer set, all living as long as it.
    struct Stage {
        Playback* playback;
        RunController* jobs;
        QStatusBar* status;
        ScenarioPicker* picker;
        FirePanel* firePanel;
        PlaybackBar* playbackBar;
        QTabWidget* tabs;
        LiveStage* live;
        PaginationView* pagination;
        CompareView* compare;
        ExperimentView* experiment;
        StepCaption* caption;
        StageHeader* header;
        OutcomePanel* outcome;
        ExplanationView* explanation;
        LessonPlayer* lessons;
    };
    StageDirector(const Stage& stage, QObject* parent);

    // Fires the fire panel's configuration, asking for a prediction first
    // when View → Predict first is on.
    void fireFromPanel();
    // Checks the input, asks before a run above the cost limit, then measures
    // it in the background (Escape cancels).
    void fireInBackground(const RunConfig& config);
    // The same, waited for (tests, `idemlab shot`). False on bad input.
    bool fire(const RunConfig& config, QString* error, RunFailure* failure = nullptr);
    // What a lesson hears once the run it fired is on screen at step 0
    // (ok), or why it is not (a fire stopped or replaced: no error).
    using Arrived = std::function<void(bool ok, const QString& error, RunFailure failure)>;
    // Fires a lesson frame's run (checked when the lesson was read) in the
    // background, as fireInBackground does but without asking and without a
    // first step: the run waits at step 0 for `arrived` to take it on. A run
    // on a server starts the server first: seconds the window keeps answering.
    void fireForLesson(const RunConfig& config, Arrived arrived);
    // What a job does to the run on screen, in its worker: the run is the
    // job's alone (the window's thread has no pointer to it) until done.
    using RunWork = std::function<void(PlayedRun& run, RunController::Progress& p)>;
    // Lends the run to `work` in a worker; once it is back, the views are
    // told what changed, then `done` runs. False when a job is running or
    // no run is here. `heading`: the step a seek takes the run to. The keys
    // pressed meanwhile are kept (Playback::takeQueued) and carried out
    // after `done`; a cancelled job drops them with itself.
    bool holdRun(const QString& title, RunWork work, std::function<void(bool cancelled)> done,
                 std::optional<int> heading = {});
    // Reads a trace in the background, then fires its configuration
    // (traceOpened tells which way it went).
    void openTrace(const QString& path);
    // Plays the run on screen to its end and writes it, in the background.
    void saveTraceTo(const QString& path);
    // Plays the run on screen to its end and judges it in the background,
    // then hands `done` the whole run as its trace file holds it (in this
    // thread), with what `render` (when given) made of it in the worker.
    // Nothing when no run is loaded or a job is busy.
    using RenderWhole = std::function<QByteArray(const Trace::Loaded& whole)>;
    void withWholeRun(const QString& jobTitle, RenderWhole render,
                      std::function<void(const Trace::Loaded& whole, const QByteArray&)> done);
    // Draws the views again from the run's start (language, theme, lanes).
    void redraw();
    // Shows now what a job's hand-over left for a frame later: the SQL log,
    // the tables, the sequence diagram (before it is exported, say).
    void showLaterNow();
    void updateCaption();
    // A worker's job holds the run: the playback keys wait.
    bool isHeld() const { return playback_.isLent(); }
    // View → Predict first: a fire asks the class for a verdict first.
    void setPredictFirst(bool on) { predictFirst_ = on; }

signals:
    void heldChanged();
    void errorRaised(const QString& title, const QString& message);
    // A trace was read and its run fired (opened), or could not be (the
    // error was raised).
    void traceOpened(const QString& path, bool opened);
    // The run on the stage now comes from this trace file (empty: from
    // the fire panel, a lesson, the workbench): the window's title names it.
    void shownTraceChanged(const QString& path);
    // A run was fired: its page (Live or Pagination) should be in front.
    void playbackTabWanted();
    // Hidden while a prediction is open, shown when the run answers it.
    void outcomeWithheldChanged(bool withheld);

private:
    // The next part of what a job's hand-over left, at the later timer.
    void showLaterPart();
    void seekInBackground(int target);
    void compareInBackground();
    // Asks before a run whose estimate is above the cost limit; true to run.
    bool confirmLarge(const RunConfig& config);
    // The fired configuration on screen: views set up for it, the run at its
    // first step. After a worker the first step comes a frame later
    // (takeFirstStep): the window paints the new run between. A lesson's
    // run takes none: the lesson steps it to its pause.
    enum class FirstStep { Now, Later, None };
    bool showFired(const RunConfig& config, const Scenario& scenario,
                   const Playback::Measure& measured, const PagingRuns* paging, QString* error,
                   FirstStep first = FirstStep::Now);
    // Replaces whatever job runs with a run of `config`, measured and
    // started in a worker; without `arrived`, a failure is raised as an
    // error and the page of the run comes to the front.
    void startFire(const RunConfig& config, const Scenario* scenario, Arrived arrived);
    // waited: in this thread, even where a step is a worker's (a server).
    void takeFirstStep(bool waited = false);
    void showStep(qsizetype from, qsizetype to, bool rebuild);
    // In a job's worker, after its work: what the caption's narrator and the
    // views take in from the new events, so that the window's thread only
    // hands it over when the work is done. `narrate`: the narrator goes on
    // from where it was (the views do not start over).
    static void catchUpInWorker(PlayedRun& run, LiveStage::CatchUp& views, bool narrate);
    // In a worker: plays the run to its end and judges it; false when
    // cancelled or the judge failed (error says why).
    static bool toEndInWorker(PlayedRun& run, RunController::Progress& p, QString* error);
    // Hands over what the worker counted (Playback::publish).
    void publishFromWorker(const std::shared_ptr<LiveStage::CatchUp>& views);
    // Cancels whatever runs, quietly: a newer fire replaces it.
    void replaceJob();

    Stage stage_;
    Playback& playback_;
    QString pendingTrace_;  // the trace whose run is fired next
    bool predictFirst_ = false;
    bool redrawAfterJob_ = false;    // a step or a redraw came during a job: draw after it
    bool narrationStale_ = true;     // the run was replaced or rewound: narrate from its start
    bool narratorCaughtUp_ = false;  // a long seek fed the narrator in its worker
    LiveStage::CatchUp* viewsCaughtUp_ = nullptr;  // ... and counted for the views
    // After a job the SQL log and the tables are shown a frame later, and
    // the sequence diagram a frame after them (showLaterPart), once the
    // window has painted the rest of what the job changed: each part and its
    // repaint fit a frame, where together they overran one.
    struct LaterDue {
        bool due = false;
        qsizetype to = 0;
        qsizetype fresh = 0;
        bool rebuild = false;
    };
    LaterDue laterDue_;
    QTimer* laterTimer_;
    QTimer* firstStepTimer_;       // a fired run's first step, a frame after its hand-over
    bool repeatWrote_ = false;     // a repeat has changed the database in the run on screen
    QString prediction_;           // the verdict id the class predicted (Predict first)
    bool predictionOpen_ = false;  // ... and the run has not reached its end yet
    bool compareRunning_ = false;
    bool replacing_ = false;  // a job cancelled to make way for a newer one says nothing
    QString queuedSaid_;      // the status bar's word for keys a job's hand-back carries out
};

}  // namespace idem
