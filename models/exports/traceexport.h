// Exports written as the trace is read: each format takes one event at a
// time and writes as it goes, so that memory holds the event being written
// and what the format must remember (a counter per host, the attempts not
// yet answered), never the trace, and time grows with the trace's length.
// A format that must know something before its first line (the lanes of a
// sequence diagram, ShiViz's hosts) reads the events twice.
#pragma once

#include "outputfile.h"
#include "trace.h"

#include <QByteArray>
#include <QIODevice>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace idem {

// Where an export writes: a device (an OutputFile's, a QBuffer) behind a buffer
// of its own, so that a line is an append. The first failed write is kept
// with the system's words ("No space left on device"); later ones are dropped.
class ExportOutput {
public:
    explicit ExportOutput(QIODevice& device) : device_(device) {}
    void write(const QByteArray& bytes);
    void write(const QString& text) { write(text.toUtf8()); }
    bool flush();
    // A format that cannot go on says why; nothing more is written.
    void fail(const QString& why) {
        if (!failed())
            error_ = why;
    }
    bool failed() const { return !error_.isEmpty(); }
    QString error() const { return error_; }

private:
    QIODevice& device_;
    QByteArray buffer_;
    QString error_;
};

// One run as an export sees it: its header and how its execution is named.
struct ExportRun {
    QString label;  // ShiViz's execution ("a.json: order-create/none"); empty for one run
    int version = Trace::kVersion;
    QJsonObject config;
    QJsonObject summary;
    int intents = 1;  // captions name the intent when there are several
};

class TraceExport {
public:
    virtual ~TraceExport() = default;
    // True: the events of each run go by look() once before begin().
    virtual bool twoPasses() const { return false; }
    virtual void look(const TraceEvent&) {}
    virtual void begin(const ExportRun& run, ExportOutput& out) = 0;
    virtual void add(const TraceEvent& event, ExportOutput& out) = 0;
    virtual void end(ExportOutput& out) = 0;
};

// A trace to stream: its reader, its header read already.
struct ExportSource {
    QString path;  // for messages
    TraceReader* reader = nullptr;
    TraceReader::Header header;
    ExportRun run;
    // Sees each stored event the first time the trace is read (a re-run
    // comparing them: the file is read once for both), then hears that the
    // read is over, before the format's header is written when it reads
    // twice; false (with *error) stops the export and nothing is written.
    std::function<void(const QJsonObject& stored)> observe{};
    std::function<bool(bool digestMatches, QString* error)> observed{};
};

// Streams every source through `format` into `out`. False with a message
// naming the trace (a read error), or with *cancelled when `cancel` was set.
bool streamExport(const QList<ExportSource>& sources, TraceExport& format, ExportOutput& out,
                  const std::atomic<bool>* cancel, QString* error, bool* cancelled);

// The same over events in memory (the window's runs, the tests).
QByteArray exportEvents(const QList<QPair<ExportRun, QList<TraceEvent>>>& runs,
                        TraceExport& format);
QByteArray exportEvents(const QList<TraceEvent>& events, TraceExport& format,
                        const ExportRun& run = {});

// Writes `file` (outputfile.h): `fill` writes the content; the file is
// committed only when it wrote everything, so a full disk, a failed read or
// a cancel leaves the path as it was. The message names the path and gives
// the system's words; file.refused(): the path changed hands meanwhile.
// *cancelled: fill gave up because `cancel` was set.
using ExportFill = std::function<bool(ExportOutput& out, QString* error, bool* cancelled)>;
bool writeExportFile(OutputFile& file, const ExportFill& fill, QString* error, bool* cancelled);

}  // namespace idem
