// A diagram label broken into lines no wider than the room it has, between
// words, between Chinese characters or after a state change's arrow; never
// cut. The sequence diagram sizes its lanes and wraps its labels with these.
#pragma once

#include <QString>

class QFontMetricsF;

namespace idem {

// A label in lines no wider than `width`, broken between words or after a
// state change's arrow (the words of a label are short: a statement's head,
// an arrow, a count). Nothing is cut: a word wider than that stands on a
// line of its own.
QString wrapped(const QString& text, const QFontMetricsF& fm, double width);

// The least width at which the label takes at most `lines` lines.
double narrowest(const QString& text, const QFontMetricsF& fm, int lines);

// The width of the label's widest line.
double widest(const QString& text, const QFontMetricsF& fm);

}  // namespace idem
