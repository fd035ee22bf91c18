// One run of a scenario, as its drivers see it: the command line, the
// window's worker, the experiment, replay and the lessons start it, step it
// and finish it, then read its trace, summary and database. The scheduler
// that does the work (scheduler.h) stays inside models/.
#pragma once

#include "runinputs.h"
#include "trace.h"

#include <QString>

#include <memory>
#include <vector>

namespace idem {

class Backend;
class Reader;
class Scenario;
class Scheduler;
class SqlConnection;
struct VariantInfo;

class Run {
public:
    // What one attempt was told.
    struct Answer {
        int attempt = 0;
        Response response = Response::None;
        Phrase result;
        int changedPayload = 0;  // AttemptSpec::changedPayload
        QString operation;       // empty: the intent's one request
    };

    Run(const RunConfig& config, const Scenario& scenario, RunOptions options = {});
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    // Creates the database, its schema and seed rows, and counts what the
    // plan draws. Cancelled while counting: true, and failure() says
    // Cancelled, as when a step is cancelled.
    bool start(QString* error);
    // The flag that stops the run (RunOptions::cancel): one job's, set for
    // that job and cleared after it, so that the run never reads a flag
    // that is gone.
    void setCancel(const std::atomic<bool>* cancel);
    // Scheduler::setWaitStop: ends only a wait on another client of the server.
    void setWaitStop(const std::atomic<bool>* stop);
    // Runs the next scheduled event; false when nothing is left, the run
    // failed (a full disk) or was cancelled.
    bool step();
    bool atEnd() const;
    // Steps to the end, honouring the cancellation flag.
    void runToEnd();
    // Judges the final database, records effect and verdict events, and (with
    // a dbPath) moves the database into place. False with a message when the
    // run failed; the summary is still filled as far as it could be read.
    bool finish(QString* error);
    // The judge's view of the database as it is now, without touching the
    // trace (for live views mid-run).
    Summary judgeNow(Reader& reader) const;
    // The answers intent `intent` got so far, in the order they were given.
    std::vector<Answer> answersOf(int intent) const;

    const RunConfig& config() const;
    const Scenario& scenario() const;
    const VariantInfo& variant() const;
    const Trace& trace() const;
    // Lets go of up to `n` of the latest events; false when none were left
    // (a run on its way out is freed a slice at a time: sweeper.h).
    bool dropLastEvents(qsizetype n);
    qint64 now() const;
    qint64 eventCount() const;
    RunFailure failure() const;
    QString failureMessage() const;
    const Summary& summary() const;
    // A connection that reads the database as it is now (not traced).
    std::unique_ptr<SqlConnection> openReader() const;
    // The connection of the transaction that holds the write lock now, or
    // null: reading through it shows what that transaction has not
    // committed (the stage marks it so). Valid until the next step.
    SqlConnection* openWriter() const;
    QString databasePath() const;
    const Backend& backend() const;
    Backend& backend();
    // --keep with Redis (SPEC section 10): leaves it, and says how to reach
    // it with redis-cli; empty for a run without Redis.
    QString keepRedis();
    // Whether events go anywhere: without a trace file and a kept trace, a
    // run builds no events at all.
    bool tracing() const;
    // The thread that started it (threadSerial). A workbench run's handler
    // lives in the JavaScript engine of that thread: it is stepped there
    // (PlayedRun).
    quint64 startedOn() const { return startedOn_; }
    // This thread's number, never given to another thread of the process
    // (a system's thread id is given again once its thread is gone).
    static quint64 threadSerial();

private:
    std::unique_ptr<Scheduler> scheduler_;
    quint64 startedOn_ = 0;
};

}  // namespace idem
