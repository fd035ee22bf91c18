// What the narrator's caption files share: a caption template's
// translation, kept track of for the test that every caption is translated,
// and how a caption's sentences are filled in and put together. Private to
// the narrator (narration*.cpp).
#pragma once

#include <QString>
#include <QStringList>

#include <initializer_list>

namespace idem {

class Phrase;
struct TraceEvent;

namespace narration {

// A caption template in the application's language (context idem::Narration).
QString translated(const char* source);
// A scenario's caption, in its own context, kept track of as SAY does.
QString translated(const Phrase& caption);

qint64 attemptKey(const TraceEvent& e);

// Puts `args` in the place of %1, %2 … of `text`; unlike QString::arg, a
// sentence may leave out any of them (one decision's sentence names the
// guard, another does not).
QString fill(const QString& text, std::initializer_list<QString> args);

// Sentences one after the other: a space after an English full stop, none
// after a Chinese one (。 takes its own room).
QString joinSentences(const QStringList& sentences);
// The same for two, with no list: a list built from {a, b} writes through a
// null block when its allocation fails, where appending to a string throws
// std::bad_alloc (the command's "out of memory").
QString joinSentences(const QString& first, const QString& second);

// A table's name as a sentence shows it: as it is, in either language (a
// caption on a projector is no place for code marks).
QString quoted(const QString& name);

}  // namespace narration
}  // namespace idem

// Every caption template goes through here, so that a test can tell which
// ones lack a translation.
#define SAY(source) translated(source)
