// A student's handler file in Qt's own JavaScript engine: loaded once, given
// a fresh copy of its module state for each run, and stepped from C++ one
// yielded database call at a time, so that the scheduler interleaves it like
// the lab's own coroutine handlers. The engine reaches nothing but what the
// lab hands it: no files, network, timers, real clock or process.
#pragma once

#include "redisreply.h"
#include "sqlconnection.h"

#include <QJSEngine>
#include <QJSValue>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>

#include <memory>

namespace idem {

class Watchdog;

// What is wrong with a handler, where: file:line:column: message.
struct HandlerProblem {
    QString file;
    int line = 0;
    int column = 0;
    QString message;
    QString text() const;
};

// One database call the handler yielded, or one Redis command.
struct HandlerCall {
    enum class Kind { Query, Exec, Begin, Commit, Rollback, Redis };
    Kind kind = Kind::Query;
    QString sql;
    QVariantList params;
    QStringList command;  // Kind::Redis: redis.call("SET", key, ...)'s words
    QString isolation;    // db.begin(level): empty for the run's own
    int line = 0;         // the handler's line that made the call
};

// What one step of a handler came to.
struct HandlerStep {
    enum class Kind { Call, Returned, Failed };
    Kind kind = Kind::Failed;
    HandlerCall call;      // Kind::Call
    QVariant answer;       // Kind::Returned: what the handler returned
    QString error;         // Kind::Failed: the engine's words and the line
    bool runaway = false;  // ... stopped by the watchdog
};

class HandlerProgram {
public:
    // The most CPU time one step may take without yielding.
    static constexpr int kStepCpuMs = 100;
    // The largest handler file the lab reads.
    static constexpr qsizetype kMaxSourceBytes = 256 * 1024;

    HandlerProgram();
    ~HandlerProgram();
    HandlerProgram(const HandlerProgram&) = delete;
    HandlerProgram& operator=(const HandlerProgram&) = delete;

    // Compiles `source`, runs its top level once and checks that it defines
    // `function* handle(request, db)`. False with the problem.
    bool load(const QString& source, const QString& fileName, HandlerProblem* problem);
    const QString& source() const { return source_; }
    const QString& fileName() const { return fileName_; }
    // SHA-256 of the source, hex.
    QString digest() const;
    // The student's DDL for this backend (`schema`: one string, a list, or
    // an object by backend id). False with a message when it has another shape.
    bool schema(const QString& backend, QStringList* statements, QString* error);

    // A fresh module state (the file's top level run again) and the random
    // numbers seeded: one per run, so that no run sees another's globals.
    bool beginRun(quint32 seed, QString* error);

    // One attempt's generator.
    class Generator {
    public:
        // The next step, given the last call's result (undefined at first).
        HandlerStep next(const QJSValue& input, qint64 now);
        bool valid() const { return !generator_.isUndefined(); }

    private:
        friend class HandlerProgram;
        HandlerProgram* program_ = nullptr;
        QJSValue generator_;
        QJSValue next_;
        int line_ = 0;  // where the step to come starts, for messages
    };
    // Calls handle(request, db); a handler that throws at once, or is not a
    // generator, gives an invalid generator and the message.
    Generator start(const QVariantMap& request, QString* error);

    // A result as the handler sees it: rows as an array of objects, or
    // {rowsAffected, insertId, error, code, message}.
    QJSValue resultValue(HandlerCall::Kind kind, const SqlResult& r);
    // A Redis reply as the handler sees it: a string, a number, null, an
    // array of them; an error as {error: "BUSYGROUP", message}.
    QJSValue redisValue(const RedisReply& reply);
    QJSValue undefinedValue() const { return QJSValue(); }

private:
    QJSValue guarded(const QJSValue& function, const QJSValue& self, const QJSValueList& args,
                     bool* runaway);
    QString errorText(const QJSValue& error, int fallbackLine) const;
    int columnOf(int line) const;

    std::unique_ptr<QJSEngine> engine_;
    std::unique_ptr<Watchdog> watchdog_;
    QString source_;
    QString fileName_;
    QJSValue lab_;      // the prelude's state: now, seed
    QJSValue db_;       // the db object handed to every attempt
    QJSValue factory_;  // runs the file's top level, returns {handle, schema}
    QJSValue module_;   // this run's {handle, schema}
};

}  // namespace idem
