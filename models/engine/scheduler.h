// The engine's scheduler, private to models/: a virtual-time discrete-event
// loop that starts attempts as simulated processes, each on a connection of
// the run's database, runs their SQL one statement at a time, and judges the
// final database. Scenarios never see it (they write against attempt.h and
// authoring.h); drivers see it through Run (run.h).
#pragma once

#include "attempt.h"
#include "backend.h"
#include "locktable.h"
#include "run.h"
#include "runconfig.h"
#include "runredis.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "summary.h"
#include "trace.h"

#include <QHash>
#include <QString>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <unordered_map>
#include <vector>

namespace idem {

class Scheduler {
public:
    using Answer = Run::Answer;
    // The answers intent `intent` got so far, in the order they were given.
    std::vector<Answer> answersOf(int intent) const;
    Scheduler(const RunConfig& config, const Scenario& scenario, RunOptions options = {});
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // Creates the database, its schema and seed rows, and counts what the
    // plan draws; an intent's attempts are planned when the scheduler comes
    // near its first one (see planDue). Cancelled while counting: true, and
    // failure() says Cancelled, as when a step is cancelled.
    bool start(QString* error);
    // The flag that stops the run (RunOptions::cancel): one job's, set for
    // that job and cleared after it, so that the run never reads a flag
    // that is gone.
    void setCancel(const std::atomic<bool>* cancel);
    // A flag that ends only a statement's wait for another client of the
    // server (then the run is cancelled), not the steps between: a window's
    // seek, whose steps stop on their own flag. Cleared as setCancel's is.
    void setWaitStop(const std::atomic<bool>* stop);
    // Runs the next scheduled event; false when nothing is left, the run
    // failed (a full disk) or was cancelled.
    bool step();
    bool atEnd() const {
        return (queue_.empty() && parked_.empty() && planned_ >= int(intents_.size())) ||
               failure_ != RunFailure::None;
    }
    // Steps to the end, honouring the cancellation flag.
    void runToEnd();
    // Judges the final database, records effect and verdict events, and (with
    // a dbPath) moves the database into place. False with a message when the
    // run failed; the summary is still filled as far as it could be read.
    bool finish(QString* error);
    // The judge's view of the database as it is now, without touching the
    // trace (for live views mid-run).
    Summary judgeNow(Reader& reader) const;

    const RunConfig& config() const { return config_; }
    const Scenario& scenario() const { return scenario_; }
    const VariantInfo& variant() const { return *variant_; }
    const Trace& trace() const { return trace_; }
    // Lets go of up to `n` of the latest events; false when none were left
    // (a run on its way out is freed a slice at a time: sweeper.h).
    bool dropLastEvents(qsizetype n) { return trace_.dropLast(n); }
    qint64 now() const { return now_; }
    qint64 eventCount() const { return nextEventSeq_ - 1; }
    RunFailure failure() const { return failure_; }
    QString failureMessage() const { return failureMessage_; }
    const Summary& summary() const { return summary_; }
    // A connection that reads the database as it is now (not traced).
    std::unique_ptr<SqlConnection> openReader() const;
    // The connection of the transaction that holds the write lock now, or
    // null: reading through it shows what that transaction has not
    // committed (the stage marks it so). Valid until the next step.
    SqlConnection* openWriter() const {
        SqlConnection* writer = locks_.holderOf(LockTable::wholeDatabase());
        return writer && writer->inTransaction() ? writer : nullptr;
    }
    QString databasePath() const { return backend_->location(); }
    const Backend& backend() const { return *backend_; }
    Backend& backend() { return *backend_; }

    // Whether events go anywhere: without a trace file and a kept trace, a
    // run builds no events at all.
    // (A recording's play always follows its events: recordedbackend.h.)
    bool tracing() const {
        return options_.sink || options_.keepTrace || backend_->playsRecording();
    }

    // --- for Attempt, Planner and Setup -----------------------------------
    void schedule(qint64 at, std::function<void()> action);
    void fire(AttemptSpec spec);
    // Planner::fire and Planner::random: counted while start() counts the
    // plan, scheduled when an intent is planned.
    void planFire(AttemptSpec spec);
    quint32 planRandom(quint32 bound);
    void record(TraceEvent event);
    // The sql event of a statement `c` ran, by the database (set-up) until
    // the caller names an attempt: the text sent, its result.
    static TraceEvent sqlEvent(const SqlConnection& c, const QString& sql,
                               const QVariantList& params, const SqlResult& r);
    // An sql event's returned rows, on a server (tablesnapshot.h).
    void keepValues(TraceEvent& e, const SqlResult& r) const;
    void recordFor(const Attempt& a, EventKind kind, Fields fields);
    quint32 random(quint32 bound);
    void suspendOnSql(Attempt& a, std::coroutine_handle<> h, Attempt::SqlStep* step);
    void suspendOnRedis(Attempt& a, std::coroutine_handle<> h, Attempt::RedisStep* step);
    // --keep with Redis: the lines that say how to reach it; empty without.
    QString keepRedis() { return redis_ ? redis_->keep() : QString(); }
    void suspendOnWait(Attempt& a, std::coroutine_handle<> h, qint64 ms, const Phrase& what);
    void crash(Attempt& a, CrashPoint point);
    void pause(Attempt& a, std::coroutine_handle<> h);
    void raiseAlert(const Attempt& a, const QString& key, qint64 count, const Phrase& message);
    qint64 intentStart(int intent) const { return intents_[std::size_t(intent)].start; }
    bool attemptCrashes(const Attempt& a, CrashPoint point) const;

private:
    struct Entry {
        qint64 at;
        qint64 seq;
        std::function<void()> action;
        bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    // A running attempt and what the scheduler keeps for it.
    struct Process {
        std::unique_ptr<Attempt> attempt;
        SqlConnection* connection = nullptr;
        Task<Reply> root;
        std::coroutine_handle<> resumeAt;
        Attempt::SqlStep* pendingSql = nullptr;
        qint64 readyAt = 0;
        int busyPolls = 0;
        bool crashed = false;
        bool parked = false;     // a server's statement waits for another session's lock
        qint64 wait = 0;         // ... that wait's number (the lock timeout finds it by it)
        bool savepoint = false;  // ... that may fail, behind a savepoint (PostgreSQL)
        // Who ended the wait, when the lab cancelled it: "lock-timeout"
        // (--lock-timeout-ms) or "lab-cancel" (every session waited and
        // nothing was left to send); the trace's sql event says so.
        const char* cancelledAs = nullptr;
        Attempt::RedisStep* pendingRedis = nullptr;
        std::unique_ptr<RedisSession> redis;  // opened at its first command
    };
    struct IntentState {
        qint64 start = 0;
        // No attempt of this intent or a later one fires before this instant
        // (the earliest planned fire of each, the minimum from here on).
        qint64 planDue = 0;
        int nextNumber = 1;
        // A numbered helper's last number, per actor (AttemptSpec::numbered).
        QHash<NameId, int> helperNumbers;
        bool answered = false;
        std::array<qint64, kResponseCount> responses{};
        qint32 firstAnswer = -1;  // into answers_, chained by AnswerRecord::next
        qint32 lastAnswer = -1;
    };
    // An Answer kept small: a run keeps one per counted attempt until the
    // judge has read them. Texts live once in textArena_.
    struct AnswerRecord {
        qint32 attempt = 0;
        qint32 next = -1;       // the intent's next answer
        quint32 result = 0;     // index into textStart_
        quint16 operation = 0;  // index into operations_; 0: none
        quint8 response = quint8(Response::None);
        quint16 changedPayload = 0;  // AttemptSpec::changedPayload
    };
    enum class Planning { Counting, Firing };

    Process& processOf(const Attempt& a);
    void startAttempt(const AttemptSpec& spec, int number);
    void resume(Process& p, std::coroutine_handle<> h);
    void afterResume(Process& p);
    void runPendingSql(Process& p);
    // A server's statement: sent, then settled (serverbackend.h).
    void runSteppedSql(Process& p);
    // Redis (schedulerredis.cpp): the run's server, and each command.
    bool startRedis(QString* error);
    void runRedis(Process& p);
    // A `redis` event; expiresAt: the key a SET ... NX set counts until then
    // (virtual ms); freed: the command deleted its key (redisFreeing).
    void recordRedis(const Process& p, const QString& command, const RedisReply& reply,
                     const char* cause = nullptr, qint64 expiresAt = -1, bool freed = false);
    void settleStepped(Process& p);
    void wakeParked();
    // The parked statements' connections, and every connection of the run.
    void parkedConnections(std::vector<SqlConnection*>* waiting,
                           std::vector<SqlConnection*>* all) const;
    void scheduleLockTimeout(qint64 wait);
    void cancelAStuckWait();
    void scheduleSettle(qint64 wait);
    Process* parkedWith(qint64 wait) const;
    void recordTables();
    void wakeFinished();
    void finishAttempt(Process& p, Response response, const Phrase& result,
                       const QString& reason = {});
    void maybeRetry(const Attempt& a, Response response);
    void release(Process& p);
    SqlConnection* acquireConnection();
    void releaseConnection(Process& p, bool close);
    void transactionEnded(SqlConnection* connection);
    // Each intent's judgement goes to `judged` (when given) as soon as it is
    // made, so that no run keeps them all.
    Summary judgeAll(Reader& reader,
                     const std::function<void(int, const IntentJudgement&)>& judged) const;
    void recordJudgement(int intent, const IntentJudgement& j);
    void traceSql(const Attempt* a, const SqlConnection& c, const QString& sql,
                  const QVariantList& params, const SqlResult& r, const char* cause = nullptr);
    void fail(RunFailure failure, const QString& message);
    void countPlan();
    void planDueIntents();
    void scheduleFire(AttemptSpec spec, qint64 at, qint64 seq);
    void keepAnswer(const Attempt& a, Response response, const Phrase& result);
    quint32 keepText(const Phrase& text);
    QString textAt(quint32 index) const;
    Phrase phraseAt(quint32 index) const;
    Answer answerAt(qint32 index) const;  // answers_[index], its texts looked up
    static qint16 connectionNumber(const SqlConnection& c);

    RunConfig config_;
    const Scenario& scenario_;
    const VariantInfo* variant_ = nullptr;
    RunOptions options_;
    const std::atomic<bool>* waitStop_ = nullptr;  // setWaitStop's
    const std::atomic<bool>* waitStop() const { return waitStop_ ? waitStop_ : options_.cancel; }
    std::unique_ptr<Backend> backend_;
    std::unique_ptr<SqlConnection> setupConnection_;
    std::vector<std::unique_ptr<SqlConnection>> idle_;
    std::vector<std::unique_ptr<SqlConnection>> busy_;
    int nextConnection_ = 1;
    qint64 nextWait_ = 1;
    LockTable locks_;
    std::unique_ptr<RunRedis> redis_;
    int nextRedis_ = 1;  // r1, r2 ...: one connection per attempt
    // Keys set with PX: the virtual instant each stops counting.
    QHash<QString, qint64> redisExpiry_;
    std::vector<Process*> parked_;  // a server's waiting statements, in the order they blocked

    std::mt19937 rng_;
    qint64 now_ = 0;
    qint64 nextSeq_ = 0;
    qint64 nextEventSeq_ = 1;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
    // Running attempts; a finished one is freed at once.
    std::unordered_map<const Attempt*, std::unique_ptr<Process>> processes_;
    qint64 countedAttempts_ = 0;
    std::vector<IntentState> intents_;
    // Lazy planning. start() runs every intent's plan once with its fires
    // only counted (Planning::Counting), drawing from rng_ exactly as an
    // eager plan did; planRng_ is rng_ as it was before, so the plans made
    // later, intent by intent (Planning::Firing), draw the same numbers, and
    // their fires get the sequence numbers an eager plan gave them.
    Planning planning_ = Planning::Counting;
    std::mt19937 planRng_;
    int planned_ = 0;         // intents planned so far, in order
    int planningIntent_ = 0;  // the intent whose plan is being counted
    qint64 planSeq_ = 0;      // the next planned fire's sequence number
    std::vector<AnswerRecord> answers_;
    // What the judge found of each intent's answers, and against which
    // truth: a later judgement with the same truth checks only the answers
    // given since (a step late in a long run judges as quickly as an early one).
    struct CheckedAnswers {
        AnswerTruth truth;
        bool valid = false;
        qint32 last = -1;  // the last answer checked, into answers_
        qint64 wrongCount = 0;
        QList<WrongAnswer> firstWrong;  // the first kMaxWrongAnswers of them
    };
    static constexpr int kMaxWrongAnswers = 50;
    // The judge's, filled as it judges (mutable: judging reads the run).
    mutable std::vector<CheckedAnswers> checkedAnswers_;
    // Brings intent `intent`'s checked answers up to date with `truth`.
    const CheckedAnswers& checkAnswers(int intent, const AnswerTruth& truth) const;
    std::vector<char16_t> textArena_;
    std::vector<quint32> textStart_{0, 0};  // text 0 is the empty one
    QHash<quint32, Phrase> phrases_;        // the texts that are sentences, by index
    QStringList operations_{QString()};
    QList<AlertRecord> alerts_;
    Trace trace_;
    Summary summary_;
    RunCost cost_;  // counted as the statements run, traced or not
    RunFailure failure_ = RunFailure::None;
    QString failureMessage_;

    friend class Planner;
};

}  // namespace idem
