// Checks a configuration against its scenario before a run: whole numbers
// parsed and range-checked as 64-bit values before they are narrowed, the
// ids and parameters the scenario knows, and an estimate of the run's cost.
#pragma once

#include "numberfields.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace idem {

struct RunConfig;
struct ScenarioInfo;

// The first number of `config` (scenario parameters included) that is out of
// range or not a whole number; nullopt when all are allowed.
std::optional<NumberProblem> checkNumbers(const RunConfig& config, const ScenarioInfo& info);
// A variant, source, crash point, parameter or parameter value the scenario
// does not have: which, the value as given, and the ones it has. Like
// NumberProblem, each caller phrases it in its own words.
struct ChoiceProblem {
    enum class Kind { Variant, Source, CrashPoint, Param, ParamValue };
    Kind kind = Kind::Variant;
    QString value;        // the id, key or value as given (a source, crash point: its id)
    QString param{};      // ParamValue: the parameter's key
    QStringList allowed;  // the ids, keys or values there are (may be empty)
};
// The first choice of `config` that `info` does not have, in the order
// variant, source, crash point (the variant's), parameters.
std::optional<ChoiceProblem> findChoiceProblem(const RunConfig& config, const ScenarioInfo& info);
// "unknown variant \"x\" for scenario order-create (allowed: none, ...)".
QString optionMessage(const ChoiceProblem& problem, const RunConfig& config,
                      const ScenarioInfo& info);
// findChoiceProblem phrased with option names; empty when all exist.
QString checkChoices(const RunConfig& config, const ScenarioInfo& info);

// "--duplicates 5000 is out of range (allowed: 0 to 1000)",
// "--param rows=abc is not a whole number (allowed: 1 to 10000)".
QString optionMessage(const NumberProblem& problem);
// The value as a reader can see it: quoted when it is empty or has spaces.
QString shownValue(const QString& value);

// checkChoices, then checkNumbers phrased with option names; empty when the
// configuration can run.
QString checkConfig(const RunConfig& config, const ScenarioInfo& info);

// What a run costs, in SQL statements, at most: every intent's original and
// duplicates, each retried (or redelivered) as often as --max-retries allows,
// each running the scenario's most statements per attempt.
// Real runs retry far less, so this is an upper bound (about four times the
// real count with the default 3 retries). Every way a run starts (the command
// line, a trace, a lesson's frame, the window) is held to this one estimate.
// The most an ordinary attempt of any variant runs; a scenario whose attempt
// runs more (pagination's reader, one page after another) says so in
// ScenarioInfo::statementsPerAttempt.
inline constexpr qint64 kStatementsPerAttempt = 8;
// What a run keeps while it goes. Its counts are a few numbers however long
// it runs (run, run --trace, which streams its events to the file, replay,
// experiment); its events, kept in memory for the captions of run --narrate,
// a lesson's frame checked, exported or played in the window, grow with it.
enum class Keeps { Counts, Events };
// The memory a run's kept events take per SQL statement estimated,
// measured on order-create with 15,000 intents x 5 duplicates (2.88 million
// estimated): 176 bytes each above the program's own for lesson check, 184
// for run --narrate; rounded up.
inline constexpr qint64 kKeptBytesPerStatement = 192;
// Above this, a run keeping its events is refused like one above the
// statements' limit (about 2.8 million statements estimated: a lesson's
// check, export or run --narrate under 600 MB and half a minute), and so
// are a lesson's runs added up: its check runs every frame that fires.
inline constexpr qint64 kMaxKeptBytes = 512LL * 1024 * 1024;
struct CostEstimate {
    qint64 intents = 0;
    qint64 deliveries = 0;  // the original and its duplicates
    qint64 tries = 0;       // each delivery and its retries
    qint64 perAttempt = kStatementsPerAttempt;
    Keeps keeps = Keeps::Counts;
    qint64 statements() const { return intents * deliveries * tries * perAttempt; }
    // The memory its kept events take, estimated; 0 when it keeps counts only.
    qint64 keptBytes() const {
        return keeps == Keeps::Events ? statements() * kKeptBytesPerStatement : 0;
    }
    bool overLimit() const;
};
CostEstimate estimateCost(const RunConfig& config, const ScenarioInfo& info,
                          Keeps keeps = Keeps::Counts);
qint64 estimatedStatements(const RunConfig& config, const ScenarioInfo& info);
// Above this estimate a run is refused unless the user says otherwise
// (--allow-large; the window asks, No by default).
// 100 000 intents with the defaults (duplicates 2, retries 3) estimate 9.6
// million and take about a minute; 1 000 intents with 1 000 duplicates
// estimate 32 million and would take several minutes.
inline constexpr qint64 kMaxEstimatedStatements = 20'000'000;
// "about 32,032,000 SQL statements estimated (1,000 intents x 1,001
// deliveries x 4 tries x 8 statements), above the limit of 20,000,000": the
// command line's words; each caller says where the configuration came from.
// A run keeping its events: "about 19,200,000 SQL statements estimated
// (...), whose events kept in memory would take about 3,515 MB, above the
// limit of 512 MB".
QString costText(const CostEstimate& cost);

}  // namespace idem
