// What a scenario's author works with, apart from the scheduler: how attempts
// are planned (AttemptSpec, Planner), the set-up statements (Setup), and the
// judge's read-only access to the final database (Reader). The service code
// itself runs on an Attempt (attempt.h).
#pragma once

#include "runconfig.h"
#include "sqlconnection.h"

#include <QString>
#include <QVariantMap>

#include <stdexcept>
#include <vector>

namespace idem {

class Scheduler;

// When and how an attempt arrives.
struct AttemptSpec {
    int intent = 0;
    qint64 at = 0;
    int number = 0;                              // 0: the intent's next number
    QString caller;                              // empty: the source's actor
    QString actor = QStringLiteral("service");   // the lane that serves it
    QString kind = QStringLiteral("duplicate");  // original, duplicate, retry
    QVariantMap payload;   // scenario data: a callback's status, a message id ...
    int retryDepth = 0;    // how many retries led to this attempt
    QString retryAfter{};  // a retry: the answer the attempt before it got (none, error ...)
    // false: a helper process of the simulation (a broker sweep, a writer
    // between page reads): it runs SQL like any process but is no attempt,
    // gets no response counted and is never retried.
    bool counted = true;
    // A helper numbered apart from the requests (the outbox relay's passes,
    // the broker's and the consumer's work): each actor counts its own
    // processes of the intent, 1, 2 ... ("relay R1", "R2"), written as -1,
    // -2 ... wherever an attempt's number goes, so that a positive number
    // is always a request's. Unnumbered helpers are 0.
    bool numbered = false;
    // Which payload under the intent's key the attempt carries: 0 the
    // intent's own, k > 0 the k-th different one (a stale callback, a client
    // that reused a key with changed parameters). Its answer is held against
    // the payload the key was first carried out with, whichever came first
    // (SPEC, Answers; AnswerTruth::payloadDone).
    int changedPayload = 0;
    // What the attempt asks for when one intent's attempts ask for different
    // things (TCC's Try, Confirm, Cancel); empty: the intent's one request.
    // Its answer is held against that operation's truth (SPEC, Answers).
    QString operation;
};

// A scenario's plan() may depend on the configuration, intentStart() and
// random() only: the run calls it twice per intent, once at the start to count
// what it fires and draws, once when the run comes near the intent's first
// attempt, and both calls must fire the same attempts.
class Planner {
public:
    explicit Planner(Scheduler& run) : run_(run) {}
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
    Scheduler& run_;
};

// A set-up statement failed: the run cannot start (a bug in the scenario, or a
// disk that refuses to write).
struct SetupFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
    SetupFailure(const std::string& what, bool disk) : std::runtime_error(what), storage(disk) {}
    bool storage = false;  // the disk refused (full, failing): not the scenario's fault
};

// Set-up statements (schema, seed rows): traced, on connection c0. A failing
// statement stops the run with SetupFailure.
class Setup {
public:
    Setup(Scheduler& run, SqlConnection& connection) : run_(run), connection_(connection) {}
    const RunConfig& config() const;
    SqlResult exec(const QString& sql, const QVariantList& params = {}, int intent = -1);
    // A state change made while setting up (the user started paying ...).
    void transition(int intent, const QString& entity, const QString& from, const QString& to);

private:
    Scheduler& run_;
    SqlConnection& connection_;
};

// A judge's query failed: no verdict can be read from this database.
struct ReadFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The judge's and the views' read-only access: not traced. A failing query
// throws ReadFailure instead of passing for an empty answer.
class Reader {
public:
    explicit Reader(SqlConnection& connection) : connection_(connection) {}
    SqlResult query(const QString& sql, const QVariantList& params = {});
    qint64 count(const QString& sql, const QVariantList& params = {});
    // Whether the schema has this table (a variant may keep tables others lack).
    bool hasTable(const QString& table);
    // The database's own integrity check: "ok" or what it found.
    QString integrity();

private:
    SqlResult checked(SqlResult r, const QString& what);
    SqlConnection& connection_;
};

}  // namespace idem
