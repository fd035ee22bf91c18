// One attempt (one delivery of an intent) running as a simulated process: the
// scenario's handler is a coroutine over this object, and every co_await on it
// is a point where virtual time passes, SQL runs, or the process may die.
#pragma once

#include "authoring.h"
#include "redisreply.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "task.h"
#include "traceevent.h"

#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <coroutine>
#include <stdexcept>

namespace idem {

class Scheduler;
struct RunConfig;

// A statement failed in a way the handler did not expect: the attempt ends
// with an `error` answer that says which statement and why.
struct SqlFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Attempt {
public:
    Attempt(Scheduler& run, const AttemptSpec& spec, int number);

    int intent() const { return intent_; }
    // 1 = the original, per intent; -1, -2 ... a numbered helper's own
    // (AttemptSpec::numbered); 0 an unnumbered helper.
    int number() const { return number_; }
    const QString& kind() const { return kind_; }  // original, duplicate, retry
    const QString& caller() const { return caller_; }
    // The lane it runs in: service, node-a, ...
    QString actor() const { return nameOf(actor_); }
    NameId actorId() const { return actor_; }
    void setActor(const QString& actor) { actor_ = nameId(actor); }
    const QVariantMap& payload() const { return payload_; }
    int retryDepth() const { return retryDepth_; }
    int changedPayload() const { return changedPayload_; }
    const QString& operation() const { return operation_; }
    bool counted() const { return counted_; }
    const RunConfig& config() const;
    // The variant this run serves (its handler, its crash points).
    const VariantInfo& variant() const;
    qint64 now() const;
    // The virtual instant this attempt arrived: its fire time. Every guard
    // that asks whether a record has expired (an in-progress claim, a dedup
    // row past its retention, a lease, a TTL key) asks it at this instant,
    // with one rule: expired when arrivedAt() - stamp >= limit. A decision
    // then depends on the interval between two arrivals, not on how long
    // the statements before it happened to take.
    qint64 arrivedAt() const { return arrivedAt_; }

    // --- awaitables -------------------------------------------------------
    struct SqlStep {
        Attempt& attempt;
        QString sql;
        QVariantList params;
        bool mayFail = false;  // the handler reads the error itself
        SqlResult result;      // filled by the scheduler before resuming
        // Where one error aborts the whole transaction (PostgreSQL), a
        // statement that may fail is wrapped in a savepoint so that the
        // lab's own handlers go on as on the other databases. A student's
        // handler (the workbench) meets the database as it is: false.
        bool shieldsTransaction = true;
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h);
        SqlResult await_resume();
    };
    struct CrashStep {
        Attempt& attempt;
        CrashPoint point;
        bool await_ready() const noexcept;
        void await_suspend(std::coroutine_handle<> h);
        void await_resume() const noexcept {}
    };
    // One command to the run's Redis (--redis): one step, on this attempt's
    // own connection. A key the lab let expire in virtual time is first
    // waited for until Redis itself reports it gone.
    struct RedisStep {
        Attempt& attempt;
        QStringList command;
        qint64 asOf = -1;      // the virtual instant its key is judged at (-1: now)
        qint64 keyLives = -1;  // SET ... PX: until when the key counts, in virtual ms
        bool frees = false;    // the command deletes its key where it answers 1
        RedisReply reply;      // filled by the scheduler before resuming
        bool mayFail = false;  // an error reply is the handler's to read
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h);
        RedisReply await_resume();
    };
    struct WaitStep {
        Attempt& attempt;
        qint64 ms;
        Phrase what;
        bool await_ready() const noexcept { return ms <= 0; }
        void await_suspend(std::coroutine_handle<> h);
        void await_resume() const noexcept {}
    };

    // co_await a.sql(kInsertOrder, requestId, userId, amount, a.now()): the
    // values are bound in order, never spliced into the text. A statement
    // that fails ends the attempt with an `error` answer (SqlFailure).
    template <typename... Values>
    SqlStep sql(QString text, Values&&... values) {
        return SqlStep{*this, std::move(text), bound(std::forward<Values>(values)...), false, {}};
    }
    SqlStep sqlWith(QString text, QVariantList values) {
        return SqlStep{*this, std::move(text), std::move(values), false, {}};
    }
    // A statement that may be refused (a UNIQUE or CHECK constraint): the
    // handler gets the error in the result and decides what it means.
    template <typename... Values>
    SqlStep trySql(QString text, Values&&... values) {
        return SqlStep{*this, std::move(text), bound(std::forward<Values>(values)...), true, {}};
    }
    SqlStep trySqlWith(QString text, QVariantList values) {
        return SqlStep{*this, std::move(text), std::move(values), true, {}};
    }
    // Whether the run has a real Redis (--redis private or a URL, or its
    // recording): a guard that keeps keys in Redis then sends commands.
    bool usesRedis() const;
    // co_await a.redis({"GET", key}): the reply; an error reply ends the
    // attempt with an `error` answer (SqlFailure), as a failed statement does.
    RedisStep redis(QStringList command, qint64 asOf = -1, qint64 keyLives = -1) {
        return RedisStep{*this, std::move(command), asOf, keyLives, false, {}};
    }
    // A command that deletes its key when it answers 1 (DEL, a
    // compare-and-delete script): the key's virtual life ends with it.
    RedisStep redisFreeing(QStringList command) {
        return RedisStep{*this, std::move(command), -1, -1, true, {}};
    }
    // A command whose error reply the handler reads (XGROUP CREATE answers
    // BUSYGROUP where the group is there already).
    RedisStep tryRedis(QStringList command) {
        return RedisStep{*this, std::move(command), -1, -1, false, {}, true};
    }
    // Opens a transaction as the run's database does (SQLite: BEGIN IMMEDIATE).
    SqlStep begin();
    SqlStep commit() { return sql(QStringLiteral("COMMIT")); }
    SqlStep rollback() { return sql(QStringLiteral("ROLLBACK")); }
    // Dies here when this is the configured crash attempt and point; for
    // long-pause, stalls for twice the lease and goes on.
    CrashStep crashPoint(CrashPoint point) { return CrashStep{*this, point}; }
    // Time spent outside the database (a slow computation, a remote call).
    // `what` is shown on the diagram and in the captions.
    WaitStep work(qint64 ms, Phrase what) { return WaitStep{*this, ms, std::move(what)}; }

    // --- trace ------------------------------------------------------------
    // A guard's decision: claimed, duplicate, in-progress, takeover, rechecked ...
    void guard(const char* guardName, const char* decision, Fields details = {});
    // A state-machine step that the database accepted (1 row) or rejected (0 rows).
    void transition(const QString& entity, const QString& from, const QString& to, bool accepted);
    void alert(const QString& key, qint64 count, const Phrase& message);
    // A scenario's own event (a page read, a downstream call ...).
    void note(const QString& kind, Fields fields);

    bool crashesAt(CrashPoint point) const;
    // Starts another process from this one (a broker delivering a message,
    // a scheduler node firing a job); spec.at earlier than now means now.
    void fire(const AttemptSpec& spec);

private:
    Scheduler& run_;
    int intent_;
    int number_;
    QString kind_;
    QString caller_;
    NameId actor_;
    QVariantMap payload_;
    qint64 arrivedAt_;
    int retryDepth_;
    bool counted_;
    int changedPayload_;
    QString operation_;
};

}  // namespace idem
