// The trace in other shapes: CSV for spreadsheets, a ShiViz log (so a run
// opens as a space-time diagram in ShiViz), and a self-contained HTML report.
#pragma once

#include "trace.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace idem {

QByteArray traceToCsv(const QList<TraceEvent>& events);
// One line per event and one vector clock per actor; a fire or a response is
// a message from one actor to another, so the clocks merge there.
QByteArray traceToShiViz(const QList<TraceEvent>& events);
// diagrams: SVG documents to embed (title, svg), may be empty.
// warning: shown at the top of the report (a summary a re-run does not confirm).
QByteArray traceToHtml(const Trace::Loaded& trace,
                       const QList<QPair<QString, QByteArray>>& diagrams,
                       const QString& warning = {});

// Writes bytes through QSaveFile: complete or untouched. A short write (a full
// disk) is never committed; the message gives the path and the system's words
// ("No space left on device").
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace idem
