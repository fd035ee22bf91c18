#include "experiment.h"

#include "privateredis.h"
#include "runner.h"

#include <algorithm>

namespace idem {

RunConfig experimentBatch(const ScenarioInfo& info, const QString& variant, int intents,
                          std::mt19937& random) {
    RunConfig c;
    c.scenario = info.id;
    c.variant = variant;
    c.source = info.sources.value(int(random() % quint32(info.sources.size())));
    c.timing = static_cast<Timing>(random() % 4);
    c.duplicates = info.defaultDuplicates == 0 ? 0 : int(1 + random() % 3);
    const VariantInfo* v = info.variant(variant);
    const int points = v ? int(v->crashPoints.size()) : 0;
    const int pick = int(random() % quint32(points + 1));
    c.crash = pick < points ? v->crashPoints[pick] : CrashPoint::None;
    // Crash columns are read under retries: the caller comes back.
    if (c.crash != CrashPoint::None)
        c.timing = Timing::Retry;
    c.intents = intents;
    c.seed = random();
    return c;
}

CostEstimate experimentCost(const ScenarioInfo& info, const ExperimentPlan& plan) {
    RunConfig most;
    most.scenario = info.id;
    most.duplicates = info.defaultDuplicates == 0 ? 0 : 3;  // experimentBatch draws 1 to 3
    most.intents = 1;
    CostEstimate cost = estimateCost(most, info);
    const qint64 variants =
        plan.variants.isEmpty()
            ? std::count_if(info.variants.cbegin(), info.variants.cend(),
                            [](const VariantInfo& v) { return !v.serverLesson; })
            : plan.variants.size();
    cost.intents = variants * std::max(0, plan.intentsPerVariant);
    return cost;
}

std::vector<ExperimentTally> runExperiment(const Scenario& scenario, const ExperimentPlan& plan,
                                           const std::atomic<bool>* cancel,
                                           const ExperimentProgress& progress, QString* failure) {
    const ScenarioInfo& info = scenario.info();
    QStringList variants = plan.variants;
    if (variants.isEmpty()) {
        // Every variant the backend runs; the servers' own lessons only on
        // a server.
        const bool server = plan.backend != QLatin1String("sqlite");
        for (const VariantInfo& v : info.variants) {
            if (server ? v.servers.contains(plan.backend) : !v.serverLesson && !v.serverOnly)
                variants << v.id;
        }
    }
    // One private Redis for every run: its start (a tenth of a second)
    // would otherwise come with every batch.
    std::unique_ptr<PrivateRedis> redisServer;
    QString redis = plan.redis;
    if (redis == QLatin1String("private")) {
        QString error;
        bool badInput = false;
        redisServer = PrivateRedis::start(&error, &badInput);
        if (!redisServer) {
            if (failure)
                *failure = error;
            return {};
        }
        redis = QStringLiteral("unix://") + redisServer->place().socket;
    }
    const int batch = std::max(1, plan.batch);
    const int batchesPerVariant = (plan.intentsPerVariant + batch - 1) / batch;
    const int total = int(variants.size()) * batchesPerVariant;
    std::vector<ExperimentTally> tallies;
    std::mt19937 random(plan.seed);
    int done = 0;
    auto stopped = [cancel] {
        return cancel && cancel->load(std::memory_order_relaxed);
    };
    for (const QString& variant : variants) {
        ExperimentTally tally;
        tally.variant = variant;
        for (int left = plan.intentsPerVariant; left > 0 && !stopped(); left -= batch) {
            RunConfig c = experimentBatch(info, variant, std::min(left, batch), random);
            c.backend = plan.backend;
            c.isolation = plan.isolation;
            c.lockTimeoutMs = plan.lockTimeoutMs;
            c.connect = plan.connect;
            if (const VariantInfo* v = info.variant(variant); v && v->redis)
                c.redis = redis;
            RunOptions options = RunOptions::untraced();
            options.cancel = cancel;
            const RunResult r = runToEnd(c, scenario, options);
            if (r.failure == RunFailure::Cancelled)
                break;
            if (!r.ok()) {
                if (failure)
                    *failure = r.error;
                tallies.push_back(tally);
                return tallies;
            }
            std::array<qint64, kVerdictCount> counts = r.summary.verdicts;
            for (std::size_t v = 0; v < counts.size(); ++v) tally.verdicts[v] += counts[v];
            tally.intents += c.intents;
            tally.cost.statements += r.summary.cost.statements;
            tally.cost.transactions += r.summary.cost.transactions;
            tally.cost.rowsWritten += r.summary.cost.rowsWritten;
            tally.cost.lockWaits += r.summary.cost.lockWaits;
            ++done;
            if (progress)
                progress(variant, counts, r.summary.cost, done, total);
        }
        tallies.push_back(tally);
        if (stopped())
            break;
    }
    return tallies;
}

}  // namespace idem
