// A lesson as a hand-out a teacher prints or sends to the class: one
// self-contained HTML page with the lesson's words, and for every frame the
// run it loads, its diagrams as they stand at the frame's pause (drawn off
// screen from the real run) and its prediction; the answers, read from the
// runs as the lesson player reads them, on a page of their own at the end.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>

namespace idem {

struct Lesson;

// The hand-out in `lang` ("zh" or "en"), its headings in the language of the
// installed translator. Empty with the lesson's problems (each naming the
// frame, as `lesson check` words them) when a frame does not hold; empty
// with `failure` set when a frame's run could not run on this machine (a full
// temporary folder), or when `cancel` stopped it.
QByteArray lessonToHtml(const Lesson& lesson, const QString& lang, QStringList* problems,
                        QString* failure = nullptr, const std::atomic<bool>* cancel = nullptr);

}  // namespace idem

namespace idem::cli {

// `idemlab lesson export ID|FILE --format html [--lang zh|en] --out FILE`;
// args start after "export". Needs a QApplication (off screen will do).
int lessonExport(const QStringList& args);

}  // namespace idem::cli
