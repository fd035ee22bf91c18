// The trace in other shapes: CSV for spreadsheets, a ShiViz log (so a run
// opens as a space-time diagram in ShiViz), a self-contained HTML report, a
// Jepsen-style history and Chrome trace events (Perfetto).
#pragma once

#include "eventtable.h"
#include "lockstory.h"
#include "narration.h"
#include "statetally.h"
#include "summary.h"
#include "trace.h"
#include "traceexport.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace idem {

struct ScenarioWords;
struct StateMachineInfo;

// RFC 4180 CSV, one row per event (EventTable's columns); numbers stay
// numbers and text that a spreadsheet would run as a formula is
// neutralised. excel: starts with a UTF-8 byte-order mark, without which
// Excel reads UTF-8 (Chinese, "→") as the system's code page; LibreOffice
// asks for the character set whatever the file starts with, which the
// spreadsheet export (xlsxexport.h) never needs. words: the run's
// scenario's, for the captions of its notes.
class CsvExport : public TraceExport {
public:
    explicit CsvExport(bool excel = false, const ScenarioWords* words = nullptr)
        : excel_(excel), table_(words) {}
    ~CsvExport() override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput&) override {}

private:
    bool excel_;
    EventTable table_;
};
QByteArray traceToCsv(const QList<TraceEvent>& events, bool excel = false,
                      const ScenarioWords* words = nullptr);

// A ShiViz log that ShiViz's upload reads as is: its default parser regex on
// the first line, the multi-execution delimiter on the second (empty for one
// run), then a line per event and a line with its host and clock. Each
// process that handles an attempt is a host ("service#2"), so concurrent
// attempts are drawn side by side; the database is a host that receives each
// statement and returns its result; fires, answers, downstream calls and
// their answers are messages, and an answer that never arrived goes to the
// host "lost". Several runs become several executions, each under its label.
//
// Each clock is a true vector clock of its execution: a host keeps its whole
// vector, an event adds one to the host's own entry, and an event that
// receives a message first takes, entry by entry, the larger of its own and
// the sender's vector as of the sender's latest event. ShiViz computes each
// event's clock from the arrows it draws and refuses a log whose clock
// differs (its modelGraph.js), so no entry a host has heard of may be left
// out; the price is a log that grows with the hosts a run has times its
// events. Each execution's clocks start afresh.
//
// On a server, a statement blocked on a lock is an event of its attempt's
// host when it blocks (who holds the lock, which lock); when it goes on, an
// event of the same host receives a message from the holder whose
// transaction ended, so that the release happens before the statement's
// result; a deadlock, serialization failure or lock timeout is an event of
// the victim's host.
class ShiVizExport : public TraceExport {
public:
    explicit ShiVizExport(int runs = 1) : runs_(runs) {}
    bool twoPasses() const override { return true; }
    void look(const TraceEvent& e) override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

private:
    QString host(const QString& actor, const TraceEvent& e) const;
    QString host(const AttemptRef& a) const;
    QString prefix(const TraceEvent& e, const QString& host, const QString& text) const;
    void event(ExportOutput& out, const QString& host, const TraceEvent& e, const QString& text,
               const QString& from = {});

    int runs_;
    bool started_ = false;
    QSet<QString> perAttempt_;
    bool manyIntents_ = false;
    bool judged_ = false;
    QHash<QString, QJsonObject> clocks_;  // each host's vector clock
    LockStory locks_{0};
};
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
// nanoseconds of virtual time, process one per attempt. On a server, an
// attempt whose transaction the server refused (a deadlock, a serialization
// failure, a lock timeout) fails with that error ("deadlock", its code and
// the server's message), and the lock waits an operation went through are
// listed on its completion (lock_waits: holders, lock, from and to).
class HistoryExport : public TraceExport {
public:
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

private:
    struct Operation {
        qint64 process = 0;
        QString f;
        bool completed = false;
        QJsonArray waits;     // the lock waits it went through
        QJsonObject refused;  // the server's refusal of its transaction, if any
    };
    void line(ExportOutput& out, const char* type, const Operation& op, qint64 tMs, int intent,
              int attempt, const QJsonObject& more);

    QString scenario_;
    QHash<qint64, Operation> operations_;  // by intent and attempt
    qint64 index_ = 0;
    qint64 endMs_ = 0;
    LockStory locks_{0};
};

// Chrome trace-event JSON for Perfetto and chrome://tracing: one track per
// actor, virtual milliseconds as microseconds (ts), attempts and work as
// async spans, every other event an instant with its fields as args. The
// tracks are named first: the events go by once to learn them. On a server,
// a lock wait is a complete slice ("X") on its attempt's track, from the
// blocked statement to its grant (or the deadlock or error that ended it),
// the holders and the lock as args; a flow arrow ("s" to "f") runs from the
// holder's statement that let it go to the grant; a deadlock, serialization
// failure or lock timeout is an instant on the victim's attempt. Nothing of
// an attempt comes after its span's end: the first pass learns which of the
// holders' statements let a wait go, so that the arrow leaves it in order.
class ChromeExport : public TraceExport {
public:
    bool twoPasses() const override { return true; }
    void look(const TraceEvent& e) override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

private:
    int track(const QString& actor);
    void append(ExportOutput& out, const QJsonObject& o);
    void lockEvents(const TraceEvent& e, ExportOutput& out);
    void endWait(const QString& waiter, qint64 endMs, const QJsonObject& more, ExportOutput& out);
    void releases(const TraceEvent& e, ExportOutput& out);

    QMap<QString, int> tracks_;  // actor → track, in order of appearance
    QStringList actors_;
    // Attempts fired and not answered → their track and the span's name (its
    // end carries the same name: Perfetto and DevTools pair by it).
    struct OpenSpan {
        int track = 0;
        QString name;
    };
    QMap<QString, OpenSpan> open_;
    // Lock waits begun and not ended, by attempt: written whole when they end.
    struct OpenWait {
        int track = 0;
        qint64 startMs = 0;
        QString name;
        QJsonObject args;
    };
    QMap<QString, OpenWait> waits_;
    QHash<QString, int> attemptTracks_;  // every attempt's track, learnt in the first pass
    // Learnt in the first pass: a holder's statement (by seq) that let waits
    // go → those waits (their seq is the flow's id).
    struct Release {
        qint64 wait = 0;
        AttemptRef holder;
        AttemptRef waiter;
    };
    QHash<qint64, QList<Release>> releases_;
    LockStory lookLocks_{0};
    LockStory locks_{0};
    bool first_ = true;
    qint64 lastMs_ = 0;
};
QByteArray traceToChromeTrace(const Trace::Loaded& trace);

// A diagram of the report: one SVG document, or several parts top to bottom
// (a long sequence diagram cut between rows, the lanes named atop each part).
struct ReportDiagram {
    QString title;
    QList<QByteArray> parts;
};
struct ReportOptions {
    QString lang = QStringLiteral("en");   // the html lang attribute: "en", "zh-CN"
    QString verdictText = {};              // the verdict as the window names it
    QString warning = {};                  // shown at the top (a trace a re-run does not confirm)
    const ScenarioWords* words = nullptr;  // the scenario's, for the captions of its notes
};
// What the report's diagrams are drawn from, kept in the first pass: the
// state diagram's counts over every event, and the events the sequence
// diagram shows (the first `head`, for what a diagram learns at the start,
// and the last `tail`, the rows it draws).
struct ReportEvents {
    StateTally tally;
    Trace recent;
};
using ReportDrawing = std::function<QList<ReportDiagram>(const ExportRun&, const ReportEvents&)>;
// A self-contained HTML report; headings in the language of the installed
// translator. On a server, a section tells the lock waits, deadlocks and
// serialization failures in order, each with the lock table of its moment,
// and the locks still held at the end. Printed, each diagram part fits the page's width and stays
// whole, table headers repeat on every page and no row is split.
class HtmlExport : public TraceExport {
public:
    // Diagrams drawn from the events (the first of two passes), with the
    // scenario's state machine to count them on.
    HtmlExport(ReportOptions options, const StateMachineInfo& machine, ReportDrawing draw,
               qsizetype head, qsizetype tail);
    ~HtmlExport() override;
    // Said at the top of the report; known after the first pass (a re-run
    // that disagrees with the trace).
    void setWarning(const QString& warning) { options_.warning = warning; }
    // The run's own summary and the sentences its events hold (results,
    // time spent outside the database) by their English, which the report
    // says in its language; without them (a trace no run confirmed) the
    // report shows the trace's English words.
    void setJudged(const Summary& judged, QHash<QString, Phrase> phrases = {}) {
        judged_ = judged;
        phrases_ = std::move(phrases);
    }
    bool twoPasses() const override { return true; }
    void look(const TraceEvent& e) override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

private:
    ReportOptions options_;
    std::optional<Summary> judged_;
    QHash<QString, Phrase> phrases_;
    ReportDrawing draw_;
    qsizetype head_ = 0;
    qsizetype tail_ = 0;
    ReportEvents seen_;
    LockStory locks_;                // a server's waits and refusals, and its locks at the end
    std::deque<TraceEvent> latest_;  // after the first `head_`, the last `tail_`
    std::unique_ptr<Narrator> narrator_;
};

// Writes bytes through an OutputFile: complete or untouched. A short write (a
// full disk), also one found only when the last bytes are flushed, is never
// committed; the message gives the path and the system's words ("No space left
// on device"). The path noted when `file` was made must still hold what it
// held (file.refused(): it changed hands, and is left as it is).
bool writeFileAtomically(OutputFile& file, const QByteArray& bytes, QString* error);
// The same for a path noted now (the window's exports, after its own dialog).
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace idem
