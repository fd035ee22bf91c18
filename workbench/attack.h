// The attack on a student's handler (SPEC section 9): for each of a
// challenge's configurations it runs every interleaving of the concurrent
// attempts' statements up to a preemption bound, a crash before every
// statement of every attempt and every answer lost, judges each run with the
// scenario's own judge, and keeps the smallest failing schedule as an
// ordinary trace. No widgets: the window runs it in a worker with a
// progress callback and a cancel flag.
#pragma once

#include "challenge.h"
#include "runconfig.h"
#include "summary.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace idem {

struct AttackOptions {
    QString backend = QStringLiteral("sqlite");
    QString isolation;                      // empty: the backend's own
    QString redis = QStringLiteral("off");  // private or a URL: redis.call reaches it
    int preemptions = 2;  // the bound: switches away from an attempt with statements left
    QString traceDir;     // where the counterexample's trace goes; empty: not written
    // Told after each schedule run, with the count so far.
    std::function<void(qint64 runs)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// The smallest failing run: fewest attempts, then statements, then
// preemptions.
struct Counterexample {
    RunConfig config;
    Summary summary;
    int attempts = 0;
    int statements = 0;
    int preemptions = 0;
    QString schedule;  // in words: "1:2 2 1, #1 crashes before statement 3"
    QString failure;   // the handler's own failure, if that is what failed
    QString target;    // the challenge's target it missed ("3 statements, budget 2"), if any
    QString tracePath;
    // The handler's line of each statement each attempt ran, in order: the
    // window marks the line of the statement a step ran.
    QMap<int, QList<int>> lines;
};

struct AttackResult {
    enum class Outcome { Passed, Failed, BadHandler, Cancelled, RunFailed };
    Outcome outcome = Outcome::Passed;
    QString message;  // BadHandler: file:line:column: message; RunFailed: why
    QString backend;
    QString isolation;
    QString redis = QStringLiteral("off");
    qint64 run = 0;
    qint64 skipped = 0;  // schedules whose run could only repeat one already made
    qint64 bounded = 0;  // schedules one more preemption would have added
    std::optional<Counterexample> counterexample;

    QJsonObject toJson() const;
};

// Attacks `source` (the file's text, named `fileName` in messages) on one
// backend and isolation level.
AttackResult attackHandler(const Challenge& challenge, const QString& source,
                           const QString& fileName, const AttackOptions& options);

}  // namespace idem
