// The lessons that come with the program (resources/lessons/*.json) and
// teachers' own lesson files: reading them against the scenarios, and
// checking that every frame's run does what the frame says.
#pragma once

#include "lesson.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace idem {

class Run;

// The bundled lessons, in their order. A bundled lesson that does not read
// is a bug of the program: it is left out and named in bundledLessonErrors().
const QList<Lesson>& bundledLessons();
QStringList bundledLessonErrors();
const Lesson* findLesson(const QString& id);

// Reads a lesson file; false with a message naming the file, the frame and
// the field.
bool readLessonFile(const QString& path, Lesson* out, QString* error);

// One frame played headless: its configuration (frameConfig) fired and run
// to its pause, then, for a question, on to the end and judged.
struct FrameCheck {
    QStringList problems;  // each naming the frame; empty when the frame holds
    bool paused = false;   // a fired run reached the frame's pause
    QString answer;        // the question's answer read from the run (lessonAnswer)
};
// Sees the run standing at the frame's pause; lastStepBegin: where the trace
// events of the step it stopped after begin (as runToPause counts them).
using PauseVisitor = std::function<void(const Run& run, qsizetype lastStepBegin)>;
// Plays frame `frame` (0-based) as checkLesson does; `atPause`, when given,
// is called once the pause is reached, before the run goes on to the end.
FrameCheck checkFrame(const Lesson& lesson, int frame, const PauseVisitor& atPause = {});

// Runs every frame headless: its pause is reached, its highlighted table is
// one of the scenario's, its question's answer is one of its choices.
// Returns the problems, each naming the frame; empty when the lesson holds.
QStringList checkLesson(const Lesson& lesson);

// The run a frame shows: the nearest frame at or before it that loads one.
// nullopt when no frame up to it loads a configuration.
std::optional<RunConfig> frameConfig(const Lesson& lesson, int frame);

}  // namespace idem
