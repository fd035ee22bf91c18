#include "lessonruns.h"

#include "attack.h"
#include "challenge.h"
#include "lessonbook.h"

#include <QMap>

#include <mutex>

namespace idem {

namespace {

struct Found {
    std::mutex lock;
    QMap<QString, RunConfig> runs;  // challenge id → its starter's run
};

Found& found() {
    static Found f;
    return f;
}

QString challengeOf(const RunConfig& config) {
    return config.workbench.value(QLatin1String("challenge")).toString();
}

QString scenarioOf(const QString& challenge) {
    return findChallenge(challenge) ? challengeScenarioId(challenge) : QString();
}

QStringList challengeIds() {
    QStringList ids;
    for (const Challenge& c : allChallenges()) ids << c.id;
    return ids;
}

bool knows(const RunConfig& config) {
    Found& f = found();
    const std::lock_guard guard(f.lock);
    return f.runs.contains(challengeOf(config));
}

bool findRun(RunConfig* config, QString* error, const std::atomic<bool>* cancel) {
    const QString id = challengeOf(*config);
    Found& f = found();
    {
        const std::lock_guard guard(f.lock);
        if (const auto it = f.runs.constFind(id); it != f.runs.constEnd()) {
            *config = *it;
            return true;
        }
    }
    const Challenge* challenge = findChallenge(id);
    if (!challenge) {
        *error = QStringLiteral("unknown challenge \"%1\"").arg(id);
        return false;
    }
    // As the page's Check runs it on a first open: the starter, named as
    // its file is, at the default bound, on SQLite.
    AttackOptions options;
    options.cancel = cancel;
    const AttackResult result =
        attackHandler(*challenge, challenge->starter, id + QStringLiteral(".js"), options);
    switch (result.outcome) {
        case AttackResult::Outcome::Failed:
            break;
        case AttackResult::Outcome::Passed:
            *error =
                QStringLiteral("the starter of %1 passes on SQLite: it has no failing run").arg(id);
            return false;
        case AttackResult::Outcome::Cancelled:
            *error = QStringLiteral("stopped");
            return false;
        case AttackResult::Outcome::BadHandler:
        case AttackResult::Outcome::RunFailed:
            *error = result.message;
            return false;
    }
    if (!result.counterexample) {
        *error = QStringLiteral("the check of %1's starter kept no run").arg(id);
        return false;
    }
    const std::lock_guard guard(f.lock);
    f.runs.insert(id, result.counterexample->config);
    *config = result.counterexample->config;
    return true;
}

}  // namespace

void registerLessonRuns() {
    LessonWorkbenchRuns runs;
    runs.scenarioOf = &scenarioOf;
    runs.challenges = &challengeIds;
    runs.findRun = &findRun;
    runs.knows = &knows;
    setLessonWorkbenchRuns(runs);
}

}  // namespace idem
