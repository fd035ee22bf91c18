// `idemlab lesson list | check | export`: the lessons without the window.
#pragma once

#include <QStringList>

namespace idem {
struct Lesson;
}

namespace idem::cli {

int lesson(const QStringList& args);

// A bundled lesson by its id, or a lesson file. False with the message
// `lesson check` gives (an unknown id lists the bundled ones; a file that
// does not read names the frame and the field).
// *code: the exit code for the failure (1 when the disk failed, else 2).
bool namedLesson(const QString& name, Lesson* out, QString* error, int* code = nullptr);

// Why the lesson `name` is too large to run without --allow-large: its
// first frame above the cost limit and the estimate; empty when it is not.
QString lessonTooLarge(const QString& name, const Lesson& lesson);

}  // namespace idem::cli
