// The stress experiment without a window: many intents per variant, each
// batch with its own random duplicates, source, timing and crash point,
// judged from the database like any run. Cancellable, with progress.
#pragma once

#include "configcheck.h"
#include "runconfig.h"
#include "scenario.h"
#include "summary.h"

#include <QString>
#include <QStringList>

#include <array>
#include <atomic>
#include <functional>
#include <random>
#include <vector>

namespace idem {

struct ExperimentPlan {
    QStringList variants;  // empty: every variant of the scenario
    int intentsPerVariant = 300;
    quint32 seed = 1;
    int batch = 10;                              // intents per run; each run draws its own input
    QString backend = QStringLiteral("sqlite");  // where every run runs (RunConfig's)
    QString isolation;                           // empty: the backend's own
    qint64 lockTimeoutMs = 0;                    // RunConfig::lockTimeoutMs
    QString connect;                             // RunConfig::connect: the user's server
    // The Redis of the variants that keep keys there (the others run
    // without): off (the simulation), private (one private redis-server for
    // the whole experiment, each run's keys under a prefix of its own) or a
    // user's server's URL.
    QString redis = QStringLiteral("off");
};

struct ExperimentTally {
    QString variant;
    qint64 intents = 0;
    std::array<qint64, kVerdictCount> verdicts{};
    RunCost cost;  // over all its batches
};

// After each batch: which variant, what that batch counted and cost, how
// many batches are done of how many.
using ExperimentProgress =
    std::function<void(const QString& variant, const std::array<qint64, kVerdictCount>& batch,
                       const RunCost& cost, int done, int total)>;

// One batch's configuration, drawn from `random`.
RunConfig experimentBatch(const ScenarioInfo& info, const QString& variant, int intents,
                          std::mt19937& random);

// What the whole plan costs at most (configcheck.h): every variant's intents,
// each batch with at most three duplicates and the default retries.
CostEstimate experimentCost(const ScenarioInfo& info, const ExperimentPlan& plan);

// Runs the plan; with `cancel` set it stops at the next step of the batch in
// progress and returns what it counted before. A batch that cannot run (a
// full or missing temporary folder) stops the experiment: `failure` (when
// given) gets its message, with the path and the system's words, and the
// counts so far are returned, never an empty count taken for a result.
std::vector<ExperimentTally> runExperiment(const Scenario& scenario, const ExperimentPlan& plan,
                                           const std::atomic<bool>* cancel = nullptr,
                                           const ExperimentProgress& progress = {},
                                           QString* failure = nullptr);

}  // namespace idem
