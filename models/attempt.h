// One attempt (one delivery of an intent) running as a simulated process: the
// scenario's handler is a coroutine over this object, and every co_await on it
// is a point where virtual time passes, SQL runs, or the process may die.
#pragma once

#include "scenario.h"
#include "sqlconnection.h"
#include "task.h"

#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include <coroutine>

namespace idem {

class Run;
struct AttemptSpec;
struct RunConfig;

class Attempt {
public:
    Attempt(Run& run, int intent, int number, QString kind, QString caller, QVariantMap payload);

    int intent() const { return intent_; }
    int number() const { return number_; }         // 1 = the original, per intent
    const QString& kind() const { return kind_; }  // original, duplicate, retry
    const QString& caller() const { return caller_; }
    const QString& actor() const { return actor_; }  // the lane it runs in: service, node-a, ...
    void setActor(const QString& actor) { actor_ = actor; }
    const QVariantMap& payload() const { return payload_; }
    const RunConfig& config() const;
    qint64 now() const;

    // --- awaitables -------------------------------------------------------
    struct SqlStep {
        Attempt& attempt;
        QString sql;
        QVariantList params;
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h);
        SqlResult await_resume() { return attempt.lastResult_; }
    };
    struct CrashStep {
        Attempt& attempt;
        CrashPoint point;
        bool await_ready() const noexcept;
        void await_suspend(std::coroutine_handle<> h);
        void await_resume() const noexcept {}
    };
    struct WaitStep {
        Attempt& attempt;
        qint64 ms;
        QString what;
        bool await_ready() const noexcept { return ms <= 0; }
        void await_suspend(std::coroutine_handle<> h);
        void await_resume() const noexcept {}
    };

    // co_await a.sql(kInsertOrder, requestId, userId, amount, a.now()): the
    // values are bound in order, never spliced into the text.
    template <typename... Values>
    SqlStep sql(QString text, Values&&... values) {
        return SqlStep{*this, std::move(text), bound(std::forward<Values>(values)...)};
    }
    SqlStep sqlWith(QString text, QVariantList values) {
        return SqlStep{*this, std::move(text), std::move(values)};
    }
    SqlStep begin() { return sql(QStringLiteral("BEGIN IMMEDIATE")); }
    SqlStep commit() { return sql(QStringLiteral("COMMIT")); }
    SqlStep rollback() { return sql(QStringLiteral("ROLLBACK")); }
    // Dies here when this is the configured crash attempt and point; for
    // long-pause, stalls for twice the lease and goes on.
    CrashStep crashPoint(CrashPoint point) { return CrashStep{*this, point}; }
    // Time spent outside the database (a slow computation, a remote call).
    WaitStep work(qint64 ms, QString what) { return WaitStep{*this, ms, std::move(what)}; }

    // --- trace ------------------------------------------------------------
    // A guard's decision: claimed, duplicate, in-progress, takeover, rechecked ...
    void guard(const QString& guardName, const QString& decision, QVariantMap data = {});
    // A state-machine step that the database accepted (1 row) or rejected (0 rows).
    void transition(const QString& entity, const QString& from, const QString& to, bool accepted);
    void alert(const QString& key, qint64 count, const QString& message);
    void note(const QString& kind, QVariantMap data);

    bool crashesAt(CrashPoint point) const;
    bool counted() const { return counted_; }
    // Starts another process from this one (a broker delivering a message,
    // a scheduler node firing a job); spec.at earlier than now means now.
    void fire(const AttemptSpec& spec);

private:
    friend class Run;
    enum class Op { None, Sql, Wait };

    Run& run_;
    int intent_;
    int number_;
    QString kind_;
    QString caller_;
    QString actor_ = QStringLiteral("service");
    QVariantMap payload_;

    SqlConnection* connection_ = nullptr;
    Task<Reply> root_;
    std::coroutine_handle<> resumeAt_;
    Op op_ = Op::None;
    QString opSql_;
    QVariantList opParams_;
    SqlResult lastResult_;
    qint64 readyAt_ = 0;
    int retryDepth_ = 0;
    bool counted_ = true;
    bool crashed_ = false;
    bool finished_ = false;
    CrashPoint crashedAt_ = CrashPoint::None;
};

}  // namespace idem
