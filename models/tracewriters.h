// The trace in other shapes: CSV for spreadsheets, a ShiViz log (so a run
// opens as a space-time diagram in ShiViz), a self-contained HTML report, a
// Jepsen-style history and Chrome trace events (Perfetto).
#pragma once

#include "trace.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace idem {

// RFC 4180 CSV, one row per event; numbers stay numbers and text that a
// spreadsheet would run as a formula is neutralised. excel: starts with a
// UTF-8 byte-order mark, without which Excel reads UTF-8 (Chinese, "→") as
// the system's code page.
QByteArray traceToCsv(const QList<TraceEvent>& events, bool excel = false);
// A ShiViz log that ShiViz's upload reads as is: its default parser regex on
// the first line, the multi-execution delimiter on the second (empty for one
// run), then a line per event and a line with its host and vector clock. Each
// process that handles an attempt is a host ("service#2"), so concurrent
// attempts are drawn side by side; the database is a host that receives each
// statement and returns its result; fires, answers, downstream calls and
// their answers are messages, and an answer that never arrived goes to the
// host "lost". Several runs become several executions, each under its label.
struct ShiVizRun {
    QString label;
    QList<TraceEvent> events;
};
QByteArray traceToShiViz(const QList<TraceEvent>& events);
QByteArray runsToShiViz(const QList<ShiVizRun>& runs);
// ShiViz's default parser and the delimiter between executions, as written on
// the first two lines.
extern const char* const kShiVizParser;
extern const char* const kShiVizDelimiter;
// JSON lines, one per operation: an invoke when an attempt is fired, then ok
// (success), fail (a definite refusal: error carries the response) or info
// (the caller got no answer: Jepsen's indeterminate outcome). time in
// nanoseconds of virtual time, process one per attempt.
QByteArray traceToHistory(const Trace::Loaded& trace);
// Chrome trace-event JSON for Perfetto and chrome://tracing: one track per
// actor, virtual milliseconds as microseconds (ts), attempts and work as
// async spans, every other event an instant with its fields as args.
QByteArray traceToChromeTrace(const Trace::Loaded& trace);
// A diagram of the report: one SVG document, or several parts top to bottom
// (a long sequence diagram cut between rows, the lanes named atop each part).
struct ReportDiagram {
    QString title;
    QList<QByteArray> parts;
};
struct ReportOptions {
    QString lang = QStringLiteral("en");  // the html lang attribute: "en", "zh-CN"
    QString verdictText = {};             // the verdict as the window names it
    QString warning = {};                 // shown at the top (a summary a re-run does not confirm)
};
// A self-contained HTML report; headings in the language of the installed
// translator. Printed, each diagram part fits the page's width and stays
// whole, table headers repeat on every page and no row is split.
QByteArray traceToHtml(const Trace::Loaded& trace, const QList<ReportDiagram>& diagrams,
                       const ReportOptions& options = {});

// Writes bytes through QSaveFile: complete or untouched. A short write (a full
// disk) is never committed; the message gives the path and the system's words
// ("No space left on device").
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace idem
