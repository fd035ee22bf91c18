// The record of a run: where its events go (kept in memory for the window and
// the tests, streamed to a file for --trace, or nowhere), and how a trace file
// is read back, event by event, in bounded memory.
#pragma once

#include "digest.h"
#include "summary.h"
#include "traceevent.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QIODevice;

namespace idem {

class OutputFile;
struct RunConfig;

// Receives every event of a run as it happens.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void add(const TraceEvent& event) = 0;
    // The run's configuration as it runs, before its first event: what the
    // backend filled in (a server's isolation level when none was asked for).
    virtual void started(const RunConfig&) {}
};

// The events of a run in memory, for playback, the views and the tests.
class Trace : public TraceSink {
public:
    static constexpr const char* kFormat = "idemlab-trace";
    // Version 3 says what an sql event's number counts (rows_returned,
    // rows_changed, or neither on BEGIN, COMMIT ...); version 2 named each
    // other field once (a message's sender and receiver, a transition's
    // from_state and to_state) and added SQLite's result code. Versions 1 and
    // 2 are still read.
    static constexpr int kVersion = kTraceVersion;

    void add(const TraceEvent& event) override { events_.append(event); }
    void append(TraceEvent event) { events_.append(std::move(event)); }
    const QList<TraceEvent>& events() const { return events_; }
    qsizetype size() const { return events_.size(); }
    void clear() { events_.clear(); }
    // Lets go of up to `n` of the latest events; false when there were none.
    bool dropLast(qsizetype n) {
        if (events_.isEmpty())
            return false;
        if (!events_.isDetached()) {  // shared: nothing of its own to free
            events_ = {};
            return true;
        }
        events_.resize(events_.size() - std::min(n, events_.size()));
        return true;
    }

    // The whole trace file at once (small runs, tests).
    QByteArray toJson(const RunConfig& config, const QJsonObject& summary) const;
    // Writes through an OutputFile: the file is either complete or untouched.
    bool save(const QString& path, const RunConfig& config, const QJsonObject& summary,
              QString* error) const;

    struct Loaded {
        int version = Trace::kVersion;
        QJsonObject config;
        QJsonObject summary;
        // false: the events or the summary were changed after the trace
        // was written (or it predates digests: version 1)
        bool digestMatches = false;
        QList<TraceEvent> events;
        // The run's own summary, its sentences typed, when the run is at
        // hand (a trace read from a file holds only their English).
        std::optional<Summary> judged{};
    };
    // Reads a whole trace file; a corrupt, truncated or newer-version file
    // gives a message a student understands.
    static bool load(const QString& path, Loaded* out, QString* error);
    static bool parse(const QByteArray& bytes, Loaded* out, QString* error);

private:
    QList<TraceEvent> events_;
};

// Streams a trace to a file while the run goes on: the header when opened,
// each event as it happens, the summary and a digest when committed. Nothing
// appears at the path until commit succeeds; a failed write (a full disk) is
// reported with the OS's words and leaves any earlier file untouched.
class TraceFileWriter : public TraceSink {
public:
    TraceFileWriter();
    ~TraceFileWriter() override;

    bool open(const QString& path, const RunConfig& config, QString* error);
    void add(const TraceEvent& event) override;
    void started(const RunConfig& config) override;
    bool commit(const QJsonObject& summary, QString* error);
    // Drops what was written; the path keeps what it had.
    void cancel();
    bool failed() const { return !error_.isEmpty(); }
    // commit() found someone else's file at the path (bad input): it is
    // left as it is (outputfile.h).
    bool refused() const { return refused_; }

private:
    void write(const QByteArray& bytes);
    void flush();

    std::unique_ptr<OutputFile> file_;
    QString path_;
    QByteArray buffer_;
    Sha256 digest_;
    bool first_ = true;
    bool refused_ = false;
    QString error_;
};

// Reads a trace file piece by piece: the header (format, version, config,
// summary) first, then each event in order, so that a trace of any size that
// this program wrote can be read back on the same machine.
class TraceReader {
public:
    struct Header {
        int version = 0;
        QJsonObject config;
        QJsonObject summary;
        bool hasSummary = false;
        QByteArray digest;  // "sha256:…", empty in version 1
        qint64 events = 0;
    };
    // onEvent gets each event, parsed and as its JSON object; returning false
    // stops reading (with *error set by the callback, or not at all).
    using EventHandler = std::function<bool(TraceEvent&& event, const QJsonObject& json)>;

    explicit TraceReader(QString path);
    explicit TraceReader(QByteArray bytes);  // a trace already in memory
    // Set: reading stops at the next event (false, cancelled() true).
    void setCancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }
    bool cancelled() const { return cancelled_; }
    // The last read failed for the disk's sake (the file could not be opened
    // or read), not the file's content: an I/O failure, not bad input.
    bool ioError() const { return ioError_; }
    // The header; also counts the events and checks the file's structure.
    bool readHeader(Header* header, QString* error);
    // Every event, in order; digestMatches tells whether the events and the
    // summary are the ones the digest was made of.
    bool readEvents(const EventHandler& onEvent, bool* digestMatches, QString* error);

private:
    std::unique_ptr<QIODevice> openDevice(QString* error) const;

    QString path_;
    QByteArray bytes_;
    bool inMemory_ = false;
    Header header_;
    QByteArray summaryRaw_;
    qint64 eventsOffset_ = -1;
    const std::atomic<bool>* cancel_ = nullptr;
    bool cancelled_ = false;
    bool ioError_ = false;
    bool stopRequested(QString* error);
    bool readFailed(const QIODevice& device, QString* error);
    bool parseHeader(QIODevice& device, Header* header, QString* error);
    bool parseEvents(QIODevice& device, const EventHandler& onEvent, bool* digestMatches,
                     QString* error);
};

}  // namespace idem
