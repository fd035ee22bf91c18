// Recorded play: a server run (MariaDB, PostgreSQL) played from its trace
// where the server is not installed (a classroom's laptop). The engine, the
// scenario's code, the scheduler, the narration and the window are the
// same; only the database's answers come from the recording:
//
// - each session (c0, c1 ...) answers its statements in the order the
//   recording has them, on that connection; the text this version sends
//   must be the text recorded, else the run stops with one message naming
//   the event (the recording does not match this version of the lab);
// - results, errors and outcomes (deadlock, serialization failure, unique
//   violation ...) and the rows a statement returned (an sql event's
//   `values`) are the recorded ones;
// - a statement finishes, or waits for a lock, where the recording has its
//   sql event or its lock-wait: the backend follows the run's events
//   (Backend::eventRecorded), and a statement settles as finished only
//   when its own sql event is the next one the recording has, so that the
//   scheduler parks and wakes it at the same point;
// - the locks (the Locks view) and the committed rows are the recorded
//   `locks` and `tables` events, given at the same steps; the reader (the
//   tables view, the judge, the integrity check) is an SQLite database
//   loaded from the latest `tables` event at the run's position.
//
// A played run's own trace is the recording again, event by event (a
// locks event's transaction ids included). A run plays a recording when its
// RunConfig carries one (RunConfig::recording): the window's playback, its
// re-runs to step back, the dry run that counts the steps and a lesson's
// frames all build their runs from the configuration.
#pragma once

#include "backend.h"
#include "runconfig.h"
#include "traceevent.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace idem {

// A server run's trace, loaded to be played.
struct Recording {
    QString path;  // the file it was read from
    RunConfig config;
    QString serverVersion;        // as the run's summary says it ("10.11.6")
    QStringList sessionSettings;  // ... and what each session was told
    QList<TraceEvent> events;
    // Each connection's sql events, in order: indexes into events.
    QHash<int, QList<qsizetype>> statements;
};

// Reads a server run's trace to be played. Null with a message a student
// understands when the file is not a trace, not a server's run, or was
// written by a lab that did not keep what playing needs (the committed
// rows), or keeps only some of the rows a statement returned.
std::shared_ptr<const Recording> loadRecording(const QString& path, QString* error);

// For the lesson player: the run of a lesson frame whose database is a
// server that is not installed here, played from the trace at `tracePath`
// (a trace bundled with the lesson, written by `idemlab run --backend ...
// --trace`). `frame` is the frame's configuration (frameConfig); the trace
// must be a run of the same configuration (its isolation level may be the
// one the server chose when the frame names none). Returns the
// configuration to run instead: the trace's own, carrying the recording,
// so that any Run, the window's fire (MainWindow::fire) and Playback made
// from it play the recording; nullopt with a message otherwise.
std::optional<RunConfig> recordedConfig(const RunConfig& frame, const QString& tracePath,
                                        QString* error);

// The backend that plays `recording` (makeBackend's, for a configuration
// that carries one).
std::unique_ptr<Backend> makeRecordedBackend(std::shared_ptr<const Recording> recording);

}  // namespace idem
