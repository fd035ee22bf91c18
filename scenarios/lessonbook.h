// The lessons that come with the program (resources/lessons/*.json) and
// teachers' own lesson files: reading them against the scenarios, and
// checking that every frame's run does what the frame says.
#pragma once

#include "configcheck.h"
#include "lesson.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace idem {

class Run;

// The workbench's part in lessons (SPEC section 9), given by the workbench
// (registerChallengeScenarios): a frame may load the smallest failing run
// of a challenge's starter, `"load": {"challenge": ID}`, found by the same
// attack as the Workbench page's Check, and may show the challenge on that
// page (LessonWorkbench). Without it such a lesson does not read.
struct LessonWorkbenchRuns {
    // The scenario id a challenge's runs carry; empty for an unknown id.
    QString (*scenarioOf)(const QString& challenge) = nullptr;
    QStringList (*challenges)() = nullptr;  // every id, for messages
    // Fills in the run of `config` (whose workbench names the challenge):
    // the attack on the starter, once per program. False with why: the
    // starter passes there, or the search was stopped (`cancel`).
    bool (*findRun)(RunConfig* config, QString* error, const std::atomic<bool>* cancel) = nullptr;
    // Whether findRun has that run already (and so returns at once).
    bool (*knows)(const RunConfig& config) = nullptr;
};
void setLessonWorkbenchRuns(const LessonWorkbenchRuns& runs);
// A configuration a lesson loads from a challenge, its run not found yet.
bool isStarterRunToFind(const RunConfig& config);
// Whether frame `frame`'s run is such a run that findRun does not know yet:
// the window finds it in a worker before showing the frame.
bool frameAwaitsSearch(const Lesson& lesson, int frame);
// Finds it (blocking; `cancel` stops it); false with why.
bool findFrameRun(const Lesson& lesson, int frame, QString* error,
                  const std::atomic<bool>* cancel = nullptr);

// The bundled lessons, in their order. A bundled lesson that does not read
// is a bug of the program: it is left out and named in bundledLessonErrors().
const QList<Lesson>& bundledLessons();
QStringList bundledLessonErrors();
const Lesson* findLesson(const QString& id);

// Reads a lesson file; false with a message naming the file, the frame and
// the field. *ioError (when given): the disk failed, not the file's content.
bool readLessonFile(const QString& path, Lesson* out, QString* error, bool* ioError = nullptr);

// Whether frame `frame` (0-based) runs anything: the nearest frame at or
// before it that loads a configuration fires it. A frame that only shows
// the settings ("fire": false), or comes before any run, runs nothing.
bool frameFires(const Lesson& lesson, int frame);

// The first frame that makes the lesson too large to run (configcheck.h),
// named with its number and title and the estimate: "frame 2 (Many at
// once), load: about 32,032,000 SQL statements estimated (...), above the
// limit of 20,000,000". Each frame that fires, and each that loads a run
// without firing it (the window loads it to show its start), is estimated
// as a run that keeps its events in memory (checking, exporting and
// playing a frame does), and the frames together are held to that limit
// once more: a lesson's check runs every frame that fires. Empty when the
// lesson is within the limits. A lesson is checked with this before any of
// its runs starts.
QString lessonCostProblem(const Lesson& lesson);
// The same frame as data, for the window's own words.
struct CostlyFrame {
    int frame = 0;        // 0-based
    CostEstimate cost;    // the frame's own run
    qint64 together = 0;  // else: the statements of the runs up to this frame, added up
    qint64 keptBytes() const {
        return together > 0 ? together * kKeptBytesPerStatement : cost.keptBytes();
    }
};
std::optional<CostlyFrame> firstCostlyFrame(const Lesson& lesson);

// One frame played headless: its configuration (frameConfig) fired and run
// to its pause, then, for a question, on to the end and judged.
struct FrameCheck {
    QStringList problems;  // each naming the frame; empty when the frame holds
    bool paused = false;   // a fired run reached the frame's pause
    QString answer;        // the question's answer read from the run (lessonAnswer)
    // The run could not start or go on for a reason of the machine's (a full
    // or missing temporary folder), not of the lesson's: the message, with
    // the path and the system's words. Not one of `problems`.
    QString failure;
    bool cancelled = false;  // stopped on request before its end
    // The frame runs on a server whose package this machine lacks: what it
    // needs, naming the frame ("frame 3 (…): not run here: it needs MariaDB
    // (Debian package mariadb-server-core)"). Neither a problem of the
    // lesson's nor a failure: the frame is not checked here.
    QString notRun;
};
// Sees the run standing at the frame's pause; lastStepBegin: where the trace
// events of the step it stopped after begin (as runToPause counts them).
using PauseVisitor = std::function<void(const Run& run, qsizetype lastStepBegin)>;
// Plays frame `frame` (0-based) as checkLesson does; `atPause`, when given,
// is called once the pause is reached, before the run goes on to the end.
// `cancel` set: the frame's run stops at its next step (FrameCheck::cancelled).
FrameCheck checkFrame(const Lesson& lesson, int frame, const PauseVisitor& atPause = {},
                      const std::atomic<bool>* cancel = nullptr);

// Runs every frame headless: its pause is reached, its highlighted table is
// one of the scenario's, its question's answer is one of its choices.
// Returns the problems, each naming the frame; empty when the lesson holds.
QStringList checkLesson(const Lesson& lesson);

// The run a frame shows: the nearest frame at or before it that loads one
// (a challenge's run found first, blocking: see frameAwaitsSearch).
// nullopt when no frame up to it loads a configuration, or when a
// challenge's run cannot be found (findFrameRun says why).
std::optional<RunConfig> frameConfig(const Lesson& lesson, int frame);
// That frame's index (0-based); -1 when there is none.
int frameLoading(const Lesson& lesson, int frame);

// A frame on a server comes with the trace of its run, recorded on that
// server (scripts/record-lesson-traces.sh): "<lesson id>-<n>.json", n the
// 1-based number of the frame that loads the run, in resources/lessons/traces/.
// Empty for a frame on SQLite or before any run.
QString bundledTraceName(const Lesson& lesson, int frame);
// The same as a resource path, ":/lessons/traces/<name>".
QString bundledTracePath(const Lesson& lesson, int frame);

// A frame whose run needs a server this machine does not have.
struct MissingServer {
    QString backend;    // "mariadb", "postgres"
    QString package;    // the Debian package to install (serverinstall.h)
    QString tracePath;  // the frame's bundled trace (bundledTracePath)
};
std::optional<MissingServer> frameMissingServer(const Lesson& lesson, int frame);
// The run a frame shows here: frameConfig, or, where its server is missing,
// the same run played from the frame's bundled trace (recordedbackend.h:
// the engine, the scenario and the window as on the server, the server's
// answers from the recording). nullopt for a frame before any run, and for a
// frame whose server is missing and whose recording cannot be played
// (*whyNot then says why).
std::optional<RunConfig> playableFrameConfig(const Lesson& lesson, int frame,
                                             QString* whyNot = nullptr);

}  // namespace idem
