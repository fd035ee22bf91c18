// What a run ended with, as the judge read it from the database: one typed
// struct that the CLI, the trace, the exports and the window all share, with
// the one place its JSON form is written and read.
#pragma once

#include "phrase.h"
#include "runconfig.h"
#include "vocabulary.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <array>

namespace idem {

using Effects = QMap<QString, qint64>;

// A monitoring rule that fired during the run.
struct AlertRecord {
    qint64 tMs = 0;
    int intent = -1;
    QString key;
    qint64 count = 0;  // how many repeats the rule had counted when it fired
    // How many the window held at the end of the run; -1: not known. Under
    // a burst many repeats are logged before the first check counts them,
    // so `count` can be well past the threshold, and below this.
    qint64 finalCount = -1;
    Phrase message;
};

// A definite answer the final database contradicts.
struct WrongAnswer {
    int intent = 0;
    int attempt = 0;
    Response told = Response::Success;
    Phrase result;    // what the answer carried
    Phrase database;  // what the database shows instead
};

// What the run cost the database, over all attempts (set-up excluded): the
// statements sent, the transactions opened, the rows written (inserted,
// updated or deleted) and the times an attempt waited for a lock. The
// article's "a generic scheme costs": a dedup table writes more per intent
// than a unique key.
struct RunCost {
    qint64 statements = 0;
    qint64 transactions = 0;
    qint64 rowsWritten = 0;
    qint64 lockWaits = 0;
    // On a server (SPEC section 8): transactions the server broke.
    qint64 deadlocks = 0;
    qint64 serializationFailures = 0;
    bool operator==(const RunCost&) const = default;
};

struct Summary {
    RunConfig config;
    int intents = 0;
    qint64 attempts = 0;
    Effects effects;
    Effects expectedEffects;
    std::array<qint64, kResponseCount> responses{};
    std::array<qint64, kVerdictCount> verdicts{};  // intents per verdict
    Verdict verdict = Verdict::ExactlyOnce;        // the worst
    // Duplicated, and every duplicated intent repeated only effects the
    // variant declares acceptable (SPEC section 2, Tolerated effects).
    bool tolerated = false;
    QString serverVersion;  // a server's version ("15.18"); empty on SQLite
    // What every session of the run was told before its first statement,
    // as sent ("SET SESSION TRANSACTION ISOLATION LEVEL ..."); empty on
    // SQLite, and in traces written before the lab kept it.
    QStringList sessionSettings;
    QList<AlertRecord> alerts;
    QList<Phrase> inconsistencies;    // why effects and state disagree (at most 20)
    QList<WrongAnswer> wrongAnswers;  // at most 50
    RunCost cost;                     // from version 4 on
    QString integrity;                // the database's own check: "ok"
    qint64 endMs = 0;                 // virtual time when the last event ran
    bool complete = true;             // false: the run was stopped before its end
    // Fields a scenario adds of its own (pagination's pages, the broker's
    // counts), written as they are.
    QJsonObject extras;

    QString verdictId() const { return toId(verdict); }
    qint64 responseCount(Response r) const { return responses[std::size_t(r)]; }
    qint64 verdictCount(Verdict v) const { return verdicts[std::size_t(v)]; }

    // As traces of `version` held it (an older one for comparing a fresh
    // run with such a trace): version 1 without wrong answers, before 4
    // without the cost.
    QJsonObject toJson(int version = kTraceVersion) const;
    // Reads a summary written by toJson; false with a message naming the field.
    static bool fromJson(const QJsonObject& json, Summary* out, QString* error);
};

}  // namespace idem
