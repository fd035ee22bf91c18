// A lesson: the article told as a sequence of frames a teacher steps through
// with a presentation remote. A frame says something (in Chinese and
// English), may load and fire a configuration, runs it to a pause point, may
// point at a table, state or lane, and may ask the class to predict what the
// run will do. The right answer of a prediction is never written in the
// lesson: it is read from the run when it is revealed.
//
// Lessons are JSON files (docs/LESSONS.md describes the format); the bundled
// ones live in resources/lessons/. Loading checks the shape of the file; a
// lesson's runs are checked by checkLesson (scenarios/lessonbook.h).
#pragma once

#include "runconfig.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace idem {

class Run;
struct Summary;
struct TraceEvent;

// A text in both languages.
struct LessonText {
    QString zh;
    QString en;
    // The text in `lang` ("zh" or "en"); the other one when that is empty.
    QString in(const QString& lang) const;
};

// Where a frame's run stops.
struct PausePoint {
    enum class Kind {
        Start,  // before the first step: only the configuration is shown
        Step,   // after `step` steps
        Event,  // at the step that records the first event matching `event`
        End,    // at the end of the run, judged
    };
    Kind kind = Kind::End;
    int step = 0;
    // Event: "kind" (an event kind id such as "guard", "transition",
    // "effect", or the kind of one of the scenario's notes), optionally
    // "attempt", "actor" and any of the event's own fields ("decision",
    // "accepted", "to_state", "response", "rows_changed", "code" …), all of which
    // must be equal.
    QJsonObject event;

    bool matches(const TraceEvent& e) const;
    // "the first guard event with decision duplicate" — for messages.
    QString describe() const;
};

struct LessonHighlight {
    QString table;        // a table of the scenario, brought to the front
    QString state;        // a state of the state diagram
    QString lane;         // a lane of the sequence diagram
    bool locks = false;   // the Locks view (what the database holds and awaits) in front
    bool sqlLog = false;  // the SQL log in front (a tab of the tables' in presenter mode)
    bool isEmpty() const {
        return table.isEmpty() && state.isEmpty() && lane.isEmpty() && !locks && !sqlLog;
    }
};

struct LessonChoice {
    LessonText label;
    QString value;  // compared with the answer read from the run
};

struct LessonQuestion {
    LessonText prompt;
    QList<LessonChoice> choices;
    // What the run is asked: "verdict", "effect:NAME" (how many times the
    // effect happened), "responses:ID" (how many attempts got that answer),
    // "wrong-answers", "alerts", "tolerated" ("yes" / "no"); on a server
    // (SPEC section 8) "lock-waits", "deadlocks", "serialization-failures"
    // (how many), and each as "any:NAME" ("yes" / "no").
    QString answer;
    LessonText why;  // said after the reveal (optional)
};

// A frame on the Workbench page (SPEC section 9): the challenge open, its
// starter in the editor when asked (one edit, which undo takes back; the
// student's saved handler stays in its file), Check pressed when asked.
struct LessonWorkbench {
    QString challenge;
    bool starter = false;
    bool check = false;
};

struct LessonFrame {
    LessonText title;
    LessonText narration;
    // A configuration to load: the scenario's defaults overlaid with the
    // fields given. Absent: the previous frame's run goes on.
    std::optional<RunConfig> load;
    bool fire = true;  // with `load`: run it (false: only show the settings)
    PausePoint pause;
    LessonHighlight highlight;
    std::optional<LessonQuestion> question;
    bool revealOutcome = false;  // the outcome panel and the verdict are shown
    // Set: the frame shows the Workbench page instead of the stage.
    std::optional<LessonWorkbench> workbench;
};

struct Lesson {
    QString id;
    LessonText title;
    LessonText summary;
    int order = 0;  // place in the lesson list
    QList<LessonFrame> frames;

    int questionCount() const;
};

// The answer a question asks for, read from a run's summary; empty when the
// question's kind is unknown.
QString lessonAnswer(const QString& answer, const Summary& summary);
// The answer as the class sees it: the matching choice's label.
QString lessonAnswerLabel(const LessonQuestion& question, const QString& value,
                          const QString& lang);

// Reads a lesson file's JSON. `resolve` completes a frame's configuration
// from the scenario's defaults and checks it (a message when the scenario,
// variant, crash point or a number is wrong). False with a message naming
// the frame (1-based) and the field.
using ConfigResolver = bool (*)(const QJsonObject& load, RunConfig* out, QString* error);
bool readLesson(const QJsonObject& json, ConfigResolver resolve, Lesson* out, QString* error);

// Steps `run` (started) until `pause` holds; returns the number of steps
// taken, or -1 when the run ended without it (an End pause always holds).
// An Event pause stops after the step that recorded the event.
// lastStepBegin (when given): where the trace events of the last step taken
// begin, as the window's playback counts them (0 when no step was taken).
int runToPause(Run& run, const PausePoint& pause, qsizetype* lastStepBegin = nullptr);

}  // namespace idem
