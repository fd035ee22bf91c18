#include "attack.h"

#include "backendnames.h"

#include "runredis.h"

#include "challengescenario.h"
#include "handlerrun.h"
#include "runner.h"
#include "trace.h"

#include <QDir>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <deque>
#include <numeric>

namespace idem {

namespace {

// One trial: a schedule, and where (if anywhere) an attempt dies.
struct Trial {
    Schedule schedule;
    CrashPoint crash = CrashPoint::None;  // BeforeResponse: the answer is lost
    int crashAttempt = 1;
};

struct TrialOutcome {
    RunResult result;
    QMap<int, int> steps;
    QMap<int, QList<int>> lines;
    QString failure;
    bool runaway = false;
    bool refused = false;
    bool failed() const { return result.summary.verdict != Verdict::ExactlyOnce; }
    int statements() const { return std::accumulate(steps.cbegin(), steps.cend(), 0); }
};

// The orders in which `n` attempts can run one after the other.
QList<Schedule> serialOrders(int n) {
    std::vector<int> order(static_cast<std::size_t>(n), 0);
    std::iota(order.begin(), order.end(), 1);
    QList<Schedule> all;
    do {
        Schedule s;
        for (int a : order) s.segments << Segment{a, -1};
        all << s;
    } while (std::next_permutation(order.begin(), order.end()));
    return all;
}

// The schedules one more preemption makes of `parent`, given the statements
// each attempt ran under it: at each point where the running attempt still
// had statements left, switch to another attempt that had some left too,
// then let every attempt run to its end in the order of their numbers.
QList<Schedule> preempted(const Schedule& parent, const QMap<int, int>& steps) {
    QList<Schedule> children;
    QMap<int, int> consumed;
    for (int j = 0; j < parent.segments.size(); ++j) {
        const Segment& seg = parent.segments[j];
        const int left = steps.value(seg.attempt) - consumed.value(seg.attempt);
        const int ran = seg.steps < 0 ? left : std::min(seg.steps, left);
        for (int cut = 1; cut < ran; ++cut) {
            for (auto it = steps.cbegin(); it != steps.cend(); ++it) {
                const int other = it.key();
                if (other == seg.attempt || consumed.value(other) >= it.value())
                    continue;
                Schedule child;
                child.segments = parent.segments.mid(0, j);
                child.segments << Segment{seg.attempt, cut} << Segment{other, -1};
                for (auto rest = steps.cbegin(); rest != steps.cend(); ++rest) {
                    if (rest.key() != other)
                        child.segments << Segment{rest.key(), -1};
                }
                children << child;
            }
        }
        consumed[seg.attempt] += ran;
    }
    return children;
}

class Explorer {
public:
    Explorer(const ChallengeScenario& scenario, const QJsonObject& workbench,
             const AttackOptions& options)
        : scenario_(scenario), workbench_(workbench), options_(options) {}

    void shareRedis(const QString& url) { sharedRedis_ = url; }

    RunConfig configOf(const Attack& attack, const Trial& trial) const {
        RunConfig c;
        c.scenario = scenario_.info().id;
        c.variant = scenario_.info().variants.first().id;
        c.source = attack.source;
        c.timing = attack.timing;
        c.duplicates = attack.duplicates;
        c.params = attack.params;
        c.backend = options_.backend;
        c.isolation = options_.isolation;
        c.redis = options_.redis;
        c.crash = trial.crash;
        c.crashAttempt = trial.crashAttempt;
        QJsonObject w = workbench_;
        w.insert("schedule", trial.schedule.toJson());
        c.workbench = w;
        return c;
    }

    TrialOutcome run(const Attack& attack, const Trial& trial) {
        TrialOutcome o;
        RunOptions options = RunOptions::untraced();
        options.sharedRedis = sharedRedis_;
        o.result = runToEnd(configOf(attack, trial), scenario_, options);
        if (const HandlerRun* h = currentHandlerRun()) {
            o.steps = h->steps;
            o.lines = h->lines;
            o.failure = h->failure;
            o.runaway = h->runaway;
            o.refused = h->refused;
        }
        ++runs_;
        if (options_.progress)
            options_.progress(runs_);
        return o;
    }

    bool cancelled() const {
        return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
    }
    qint64 runs() const { return runs_; }

private:
    const ChallengeScenario& scenario_;
    QJsonObject workbench_;
    const AttackOptions& options_;
    QString sharedRedis_;
    qint64 runs_ = 0;
};

// Smaller counterexamples first: fewest attempts, then statements, then
// preemptions.
bool smaller(const Counterexample& a, const Counterexample& b) {
    return std::tie(a.attempts, a.statements, a.preemptions) <
           std::tie(b.attempts, b.statements, b.preemptions);
}

QString traceName(const Challenge& c, const AttackOptions& o) {
    QString name = QStringLiteral("%1-%2").arg(c.id, o.backend);
    if (!o.isolation.isEmpty() && o.isolation != isolationIds(o.backend).value(0))
        name += QLatin1Char('-') + o.isolation;
    return name + QStringLiteral(".trace.json");
}

}  // namespace

QJsonObject AttackResult::toJson() const {
    static const char* const outcomes[] = {"passed", "failed", "bad-handler", "cancelled",
                                           "run-failed"};
    QJsonObject o{{"backend", backend},
                  {"isolation", isolation},
                  {"outcome", QString::fromLatin1(outcomes[int(outcome)])},
                  {"schedules_run", run},
                  {"schedules_skipped", skipped},
                  {"schedules_bounded", bounded}};
    if (redis != QLatin1String("off"))
        o.insert("redis", isRedisUrl(redis) ? QStringLiteral("url") : redis);
    if (!message.isEmpty())
        o.insert("message", message);
    if (counterexample) {
        const Counterexample& c = *counterexample;
        QJsonArray wrong;
        for (const WrongAnswer& w : c.summary.wrongAnswers) {
            wrong.append(QJsonObject{{"attempt", w.attempt},
                                     {"told", toId(w.told)},
                                     {"result", w.result.english()},
                                     {"database", w.database.english()}});
        }
        o.insert("verdict", toId(c.summary.verdict));
        o.insert("counterexample", QJsonObject{{"attempts", c.attempts},
                                               {"statements", c.statements},
                                               {"preemptions", c.preemptions},
                                               {"schedule", c.schedule},
                                               {"source", toId(c.config.source)},
                                               {"timing", toId(c.config.timing)},
                                               {"crash", toId(c.config.crash)},
                                               {"crash_attempt", c.config.crashAttempt},
                                               {"wrong_answers", wrong},
                                               {"handler_failure", c.failure},
                                               {"missed_target", c.target},
                                               {"trace", c.tracePath}});
        o.insert("cost", QJsonObject{{"statements", c.summary.cost.statements},
                                     {"transactions", c.summary.cost.transactions},
                                     {"lock_waits", c.summary.cost.lockWaits},
                                     {"deadlocks", c.summary.cost.deadlocks}});
    } else if (outcome == Outcome::Passed) {
        o.insert("verdict", toId(Verdict::ExactlyOnce));
    }
    return o;
}

AttackResult attackHandler(const Challenge& challenge, const QString& source,
                           const QString& fileName, const AttackOptions& options) {
    AttackResult result;
    result.backend = options.backend;
    result.isolation = options.isolation;
    result.redis = options.redis;
    const ChallengeScenario* scenario = findChallengeScenario(challenge.id);
    auto program = std::make_shared<HandlerProgram>();
    HandlerProblem problem;
    if (!scenario || !program->load(source, fileName, &problem)) {
        result.outcome = AttackResult::Outcome::BadHandler;
        result.message = scenario
                             ? problem.text()
                             : QStringLiteral("the challenge %1 has no scenario").arg(challenge.id);
        return result;
    }
    // The attack's runs share the program, and only they: once it is over,
    // a run begun on this thread (the window's, a lesson's) loads its own.
    useProgram(program);
    struct LetGo {
        ~LetGo() { releaseSharedProgram(); }
    } letGo;
    const QJsonObject workbench{{"challenge", challenge.id},
                                {"file", fileName},
                                {"source", source},
                                {"digest", program->digest()}};
    Explorer explorer(*scenario, workbench, options);
    // One private Redis for every run of the attack (hundreds of them),
    // each run's keys apart under a prefix of its own.
    std::unique_ptr<RunRedis> shared;
    if (options.redis == QLatin1String("private")) {
        QString error;
        bool badInput = false;
        shared = RunRedis::startPrivate(&error, &badInput);
        if (!shared) {
            result.outcome =
                badInput ? AttackResult::Outcome::BadHandler : AttackResult::Outcome::RunFailed;
            result.message = error;
            return result;
        }
        explorer.shareRedis(shared->socketUrl());
    }

    // The configurations with fewer attempts first: a counterexample found
    // there is smaller than any with more.
    QList<Attack> attacks = challenge.attacks;
    std::stable_sort(attacks.begin(), attacks.end(),
                     [](const Attack& a, const Attack& b) { return a.duplicates < b.duplicates; });
    std::optional<Counterexample> best;
    // The request that sent the most statements, when it sent more than
    // the challenge's budget.
    auto overBudget = [&](const TrialOutcome& o) {
        if (challenge.maxDeadlocks >= 0 &&
            o.result.summary.cost.deadlocks > qint64(challenge.maxDeadlocks))
            return QStringLiteral("deadlocks: %1, the target is %2")
                .arg(o.result.summary.cost.deadlocks)
                .arg(challenge.maxDeadlocks);
        if (challenge.statementBudget <= 0)
            return QString();
        for (auto it = o.steps.cbegin(); it != o.steps.cend(); ++it) {
            if (it.value() > challenge.statementBudget)
                return QStringLiteral("#%1 sent %2 statements; the budget is %3 per request")
                    .arg(it.key())
                    .arg(it.value())
                    .arg(challenge.statementBudget);
        }
        return QString();
    };
    auto consider = [&](const Attack& attack, const Trial& trial, const TrialOutcome& o) {
        const QString target = overBudget(o);
        if (!o.failed() && target.isEmpty())
            return;
        Counterexample c;
        c.config = explorer.configOf(attack, trial);
        c.summary = o.result.summary;
        c.attempts = int(o.result.summary.attempts);
        c.statements = o.statements();
        c.preemptions = trial.schedule.preemptions();
        c.schedule = trial.schedule.text();
        if (trial.crash == CrashPoint::BeforeResponse)
            c.schedule += QStringLiteral(", #%1's answer is lost").arg(trial.crashAttempt);
        c.failure = o.failure;
        c.target = target;
        c.lines = o.lines;
        if (!best || smaller(c, *best)) {
            best = c;
        }
    };
    // A handler that the lab had to stop, or that sent what it may not,
    // is bad input whatever the verdict.
    auto badHandler = [&](const TrialOutcome& o) {
        if (!o.runaway && !o.refused && (o.result.ok() || !o.failure.isEmpty()))
            return false;
        if (o.runaway || o.refused) {
            result.outcome = AttackResult::Outcome::BadHandler;
            result.message = o.failure;
        } else if (o.result.failure == RunFailure::Cancelled) {
            result.outcome = AttackResult::Outcome::Cancelled;
            result.message = o.result.error;
        } else {
            result.outcome = AttackResult::Outcome::RunFailed;
            result.message = o.result.error;
        }
        return true;
    };
    auto stop = [&](const TrialOutcome& o) {
        if (badHandler(o))
            return true;
        if (!o.result.ok()) {
            result.outcome = o.result.failure == RunFailure::Cancelled
                                 ? AttackResult::Outcome::Cancelled
                                 : AttackResult::Outcome::RunFailed;
            result.message = o.result.error;
            return true;
        }
        if (explorer.cancelled()) {
            result.outcome = AttackResult::Outcome::Cancelled;
            result.message = QStringLiteral("the check was stopped before its end");
            return true;
        }
        return false;
    };

    for (const Attack& attack : attacks) {
        if (best && best->attempts <= attack.duplicates + 1)
            break;
        const bool concurrent = attack.timing == Timing::Concurrent && attack.duplicates > 0;
        const int attempts = attack.duplicates + 1;
        std::deque<Schedule> queue;
        QSet<QString> seen;
        for (const Schedule& s :
             concurrent ? serialOrders(attempts) : QList<Schedule>{Schedule{}}) {
            queue.push_back(s);
            seen.insert(s.text());
        }
        while (!queue.empty()) {
            const Schedule schedule = queue.front();
            queue.pop_front();
            const Trial plain{schedule, CrashPoint::None, 1};
            const TrialOutcome o = explorer.run(attack, plain);
            if (stop(o))
                goto done;
            consider(attack, plain, o);
            if (attack.crashes) {
                for (int k = 1; k <= attempts; ++k) {
                    for (int n = 2; n <= o.steps.value(k); ++n) {
                        Trial t{schedule, CrashPoint::BeforeCommit, k};
                        t.schedule.crashAttempt = k;
                        t.schedule.crashBeforeStep = n;
                        const TrialOutcome c = explorer.run(attack, t);
                        if (stop(c))
                            goto done;
                        consider(attack, t, c);
                    }
                    // A lost answer matters where the caller retries on no
                    // answer; a broker redelivers what was not acked instead.
                    if (!scenario->info().callerRetries)
                        continue;
                    const Trial lost{schedule, CrashPoint::BeforeResponse, k};
                    const TrialOutcome l = explorer.run(attack, lost);
                    if (stop(l))
                        goto done;
                    consider(attack, lost, l);
                }
            }
            if (attack.pauses) {
                for (int n = 1; n <= std::max(1, o.steps.value(1)); ++n) {
                    Trial t{schedule, CrashPoint::LongPause, 1};
                    t.schedule.crashAttempt = 1;
                    t.schedule.crashBeforeStep = n;
                    t.schedule.pause = true;
                    const TrialOutcome p = explorer.run(attack, t);
                    if (stop(p))
                        goto done;
                    consider(attack, t, p);
                }
            }
            if (!concurrent)
                continue;
            const QList<Schedule> children = preempted(schedule, o.steps);
            for (const Schedule& child : children) {
                if (child.preemptions() > options.preemptions) {
                    ++result.bounded;
                } else if (seen.contains(child.text())) {
                    ++result.skipped;
                } else {
                    seen.insert(child.text());
                    queue.push_back(child);
                }
            }
        }
    }
done:
    result.run = explorer.runs();
    if (result.outcome != AttackResult::Outcome::Passed)
        return result;
    if (!best)
        return result;
    result.outcome = AttackResult::Outcome::Failed;
    if (!options.traceDir.isEmpty()) {
        // The counterexample again, this time written as a trace.
        const QString path = QDir(options.traceDir).filePath(traceName(challenge, options));
        TraceFileWriter trace;
        QString error;
        if (!trace.open(path, best->config, &error)) {
            result.message = error;
        } else {
            RunOptions written = RunOptions::untraced(&trace);
            written.sharedRedis = shared ? shared->socketUrl() : QString();
            const RunResult again = runToEnd(best->config, *scenario, written);
            if (!again.ok() || !trace.commit(again.summary.toJson(), &error)) {
                trace.cancel();
                result.message = again.ok() ? error : again.error;
            } else {
                best->tracePath = path;
            }
        }
    }
    result.counterexample = best;
    return result;
}

}  // namespace idem
