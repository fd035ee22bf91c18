// Plays a lesson in the window: each frame loads its configuration (when it
// has one), runs it to the frame's pause, points at what to look at, and keeps
// the outcome hidden until a frame reveals it. Page Down goes on (first
// revealing a prediction's answer, read from the run), Page Up goes back,
// Space plays the current frame again from the previous pause. F5 replays the
// frame and Escape brings it back: the stage never shows another frame's run
// under this frame's words.
#pragma once

#include "lesson.h"
#include "run.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace idem {

class LessonPanel;
struct MissingServer;
class MainWindow;

class LessonPlayer : public QObject {
    Q_OBJECT
public:
    LessonPlayer(MainWindow* window, LessonPanel* panel);

    void start(const Lesson& lesson, int frame = 0);
    void stop();
    bool isActive() const { return active_; }
    const Lesson& lesson() const { return lesson_; }
    int frame() const { return frame_; }
    bool answerShown() const { return answerShown_; }
    // Where the run stops at frame `frame`; -1 when it has no run.
    int pausePosition(int frame);
    // Why the frame on screen has no run: its configuration could not run
    // (a full temporary folder); empty when it ran or has none.
    QString fireError() const { return fireError_; }
    // What the frame on screen says instead of its run (its server is not
    // installed here); empty when it has its run.
    QString notice() const { return notice_; }
    RunFailure fireFailure() const { return fireFailure_; }
    // A frame on a server is on its way: its run starts (a server may start
    // first) and steps to its pause in a worker, while the window answers.
    bool arriving() const { return arriving_; }
    // Waits for that here (`idemlab shot`, tests).
    void finishArriving();

public slots:
    void next();
    void back();
    void play();
    // F5 in a lesson: the frame's run fired again and stepped to its pause.
    void replay();
    // Escape in a lesson: what a worker does besides bringing the frame
    // (a Space's step on a server, a save) stops, and the stage is the
    // frame's again (its run at its pause, or at its end once answered). The
    // frame's own way to its pause goes on: stopping it would leave the
    // previous run under this frame's words.
    void restoreFrame();
    // The window's language changed: show the frame's words again.
    void retell();

signals:
    void activeChanged(bool active);

private:
    // refire: the frame's run fired anew even when it is the one on screen.
    void enterFrame(int frame, bool refire = false);
    // The stage shows the frame on screen: its run, where the frame has it.
    bool stageAtFrame();
    // The keys pressed while the frame was on its way are forgotten.
    void forgetWanted();
    // The way to a frame whose steps are a worker's (stepsAway): fired, if
    // the run on screen is not its run, then stepped to its pause.
    void arriveInBackground(int frame, const RunConfig& config, bool fire);
    void goToPause(int frame, quint64 ticket);
    void arrivedAt(quint64 ticket);
    void enterFrameWithoutServer(const MissingServer& missing);
    void searchThenEnter(int frame);
    void showWorkbench();
    // The run frame `frame` shows here (lessonbook.h, playableFrameConfig).
    std::optional<RunConfig> runOf(int frame);
    void revealAnswer();
    void show();
    void highlight();
    void playStep();

    MainWindow* window_;
    LessonPanel* panel_;
    Lesson lesson_;
    bool active_ = false;
    int frame_ = 0;
    bool answerShown_ = false;
    QHash<int, int> pauses_;                     // frame → playback position
    QHash<int, std::optional<RunConfig>> runs_;  // frame → its run here (runOf)
    // A run's configuration → the frame whose prediction about it was
    // answered first (from then on its verdict is not hidden).
    QHash<QByteArray, int> revealedAt_;
    QTimer player_;
    int playTo_ = 0;
    QString fireError_;
    QString notice_;
    RunFailure fireFailure_ = RunFailure::None;
    // Each arrival's number: what a replaced one's jobs deliver is dropped.
    quint64 ticket_ = 0;
    bool arriving_ = false;
    bool revealWanted_ = false;  // Page Down on a question while arriving
    int nextsWanted_ = 0;        // ... and more: on to the next frames after it
    bool playWanted_ = false;    // Space while arriving
};

}  // namespace idem
