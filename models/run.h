// One run of a scenario: a virtual-time discrete-event scheduler that starts
// attempts as simulated processes, each on its own SQLite connection, and a
// judge that reads the verdict from the final database.
#pragma once

#include "runconfig.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "trace.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariantMap>

#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <vector>

class QTemporaryDir;

namespace idem {

class Attempt;
class Run;

// When and how an attempt arrives.
struct AttemptSpec {
    int intent = 0;
    qint64 at = 0;
    int number = 0;                              // 0: the intent's next number
    QString caller;                              // empty: the source's actor
    QString actor = QStringLiteral("service");   // the lane that serves it
    QString kind = QStringLiteral("duplicate");  // original, duplicate, retry
    QVariantMap payload;  // scenario data: a callback's status, a message id ...
    int retryDepth = 0;   // how many retries led to this attempt
    // false: a helper process of the simulation (a broker sweep, a writer
    // between page reads): it runs SQL like any process but is no attempt,
    // gets no response counted and is never retried.
    bool counted = true;
};

class Planner {
public:
    explicit Planner(Run& run) : run_(run) {}
    const RunConfig& config() const;
    qint64 intentStart(int intent) const;
    void fire(const AttemptSpec& spec);
    // The original and `duplicates` duplicates, spaced as the timing says;
    // under `concurrent` all at one instant in a seed-chosen order.
    void fireDefault(int intent, const QVariantMap& payload = {});
    // The same attempts, in firing order, for a scenario that adjusts them
    // (which node serves which attempt ...) before firing them itself.
    std::vector<AttemptSpec> defaultSpecs(int intent, const QVariantMap& payload = {});
    quint32 random(quint32 bound);

private:
    Run& run_;
};

// Set-up statements (schema, seed rows): traced, on connection c0.
class Setup {
public:
    Setup(Run& run, SqlConnection& connection) : run_(run), connection_(connection) {}
    const RunConfig& config() const;
    SqlResult exec(const QString& sql, const QVariantList& params = {}, int intent = -1);
    // A state change made while setting up (the user started paying ...).
    void transition(int intent, const QString& entity, const QString& from, const QString& to);

private:
    Run& run_;
    SqlConnection& connection_;
};

// The judge's and the views' read-only access: not traced.
class Reader {
public:
    explicit Reader(SqlConnection& connection) : connection_(connection) {}
    SqlResult query(const QString& sql, const QVariantList& params = {});
    qint64 count(const QString& sql, const QVariantList& params = {});

private:
    SqlConnection& connection_;
};

struct IntentOutcome {
    IntentJudgement judgement;
    QList<Response> responses;
};

class Run {
public:
    // dbPath empty: a temporary file that lives as long as the run.
    Run(const RunConfig& config, const Scenario& scenario, const QString& dbPath = {});
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    // Creates the database, its schema and seed rows, and plans the attempts.
    bool start(QString* error);
    // Runs the next scheduled event; false when nothing is left.
    bool step();
    void runToEnd();
    bool atEnd() const { return queue_.empty(); }
    // Judges the final database and appends effect and verdict events.
    QJsonObject finish();
    // The judge's view of the database as it is now, without touching the
    // trace (for live views mid-run).
    QJsonObject judgeNow(Reader& reader);

    const RunConfig& config() const { return config_; }
    const Scenario& scenario() const { return scenario_; }
    const Trace& trace() const { return trace_; }
    qint64 now() const { return now_; }
    QString databasePath() const { return dbPath_; }
    QJsonObject summary() const { return summary_; }
    const std::vector<IntentOutcome>& outcomes() const { return outcomes_; }
    // A fresh read-only view of the database (for the judge and live views).
    IntentJudgement judgeIntent(Reader& reader, int intent) const;
    // A connection that reads the database as it is now (not traced).
    std::unique_ptr<SqlConnection> openReader() const;

    // --- used by Attempt, Planner, Setup -----------------------------------
    void schedule(qint64 at, std::function<void()> action);
    void fire(AttemptSpec spec);
    TraceEvent& record(TraceEvent event);
    TraceEvent& record(const Attempt* attempt, const QString& kind, QVariantMap data = {});
    quint32 random(quint32 bound);
    void suspendOnSql(Attempt& a, std::coroutine_handle<> h, QString sql, QVariantList params);
    void suspendOnWait(Attempt& a, std::coroutine_handle<> h, qint64 ms, const QString& what);
    void crash(Attempt& a, CrashPoint point);
    void pause(Attempt& a, std::coroutine_handle<> h);

private:
    struct Entry {
        qint64 at;
        qint64 seq;
        std::function<void()> action;
        bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    struct IntentState {
        qint64 start = 0;
        int nextNumber = 1;
        bool answered = false;
        QList<Response> responses;
    };

    void startAttempt(const AttemptSpec& spec, int number);
    void resume(Attempt& a, std::coroutine_handle<> h);
    void afterResume(Attempt& a);
    void runPendingSql(Attempt& a);
    void finishAttempt(Attempt& a, Response response, const QString& result);
    void maybeRetry(Attempt& a, Response response);
    SqlConnection* acquireConnection();
    void releaseConnection(Attempt& a, bool close);
    void transactionEnded(SqlConnection* connection);
    QJsonObject judgeAll(Reader& reader, bool record);
    void traceSql(const Attempt* a, const SqlConnection& c, const QString& sql,
                  const QVariantList& params, const SqlResult& r, const QString& cause = {});

    RunConfig config_;
    const Scenario& scenario_;
    QString dbPath_;
    std::unique_ptr<QTemporaryDir> tempDir_;
    std::unique_ptr<SqlConnection> setupConnection_;
    std::vector<std::unique_ptr<SqlConnection>> idle_;
    std::vector<std::unique_ptr<SqlConnection>> busy_;
    int nextConnection_ = 1;
    SqlConnection* writer_ = nullptr;
    std::deque<Attempt*> lockWaiters_;

    std::mt19937 rng_;
    qint64 now_ = 0;
    qint64 nextSeq_ = 0;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
    std::vector<std::unique_ptr<Attempt>> attempts_;
    std::vector<IntentState> intents_;
    std::vector<IntentOutcome> outcomes_;
    Trace trace_;
    QJsonObject summary_;

    friend class Planner;
    friend class Setup;
};

}  // namespace idem
