#include "handlerrun.h"

#include "run.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QThread>

#include <map>
#include <mutex>

namespace idem {

namespace {

struct ThreadRuns {
    std::shared_ptr<HandlerProgram> shared;  // useProgram's
    std::shared_ptr<HandlerRun> last;
};

// Every run's handler, by the run's own configuration (its address names the
// run while it lives), until the run goes (forgetHandlerRun).
struct Registry {
    std::mutex lock;
    std::map<const RunConfig*, std::shared_ptr<HandlerRun>> runs;
};

Registry& registry() {
    static Registry r;
    return r;
}

ThreadRuns& threadRuns() {
    thread_local ThreadRuns runs;
    return runs;
}

// The main thread's engine goes before the application object does.
void releaseOnQuit() {
    static bool added = false;
    if (!added && QCoreApplication::instance() &&
        QThread::currentThread() == QCoreApplication::instance()->thread()) {
        qAddPostRoutine(&releaseHandlerRuns);
        added = true;
    }
}

}  // namespace

int Schedule::segmentOf(int attempt, int step) const {
    int left = step;
    bool listed = false;
    for (int i = 0; i < segments.size(); ++i) {
        const Segment& s = segments[i];
        if (s.attempt != attempt)
            continue;
        listed = true;
        if (s.steps < 0 || left <= s.steps)
            return i;
        left -= s.steps;
    }
    // Past its listed statements: after every listed segment, in the order
    // of the attempts' numbers.
    return listed ? int(segments.size()) + attempt : -1;
}

int Schedule::preemptions() const {
    int n = 0;
    for (const Segment& s : segments) n += s.steps >= 0 ? 1 : 0;
    return n;
}

QString Schedule::text() const {
    QStringList parts;
    for (const Segment& s : segments)
        parts << (s.steps < 0 ? QString::number(s.attempt)
                              : QStringLiteral("%1:%2").arg(s.attempt).arg(s.steps));
    // No segments: each attempt runs as it arrives (they arrive apart).
    QString t = parts.isEmpty() ? QStringLiteral("as they arrive") : parts.join(QLatin1Char(' '));
    if (crashAttempt > 0)
        t += QStringLiteral(", #%1 %2 before statement %3")
                 .arg(crashAttempt)
                 .arg(pause ? QStringLiteral("pauses past its lease") : QStringLiteral("crashes"))
                 .arg(crashBeforeStep);
    return t;
}

QJsonObject Schedule::toJson() const {
    QJsonArray list;
    for (const Segment& s : segments) list.append(QJsonArray{s.attempt, s.steps});
    QJsonObject o{{"segments", list}};
    if (crashAttempt > 0) {
        o.insert("crash_attempt", crashAttempt);
        o.insert("crash_before_step", crashBeforeStep);
        if (pause)
            o.insert("pause", true);
    }
    return o;
}

Schedule Schedule::fromJson(const QJsonObject& json) {
    Schedule s;
    for (const QJsonValue& v : json.value("segments").toArray()) {
        const QJsonArray pair = v.toArray();
        s.segments << Segment{pair.at(0).toInt(), pair.at(1).toInt(-1)};
    }
    s.crashAttempt = json.value("crash_attempt").toInt();
    s.crashBeforeStep = json.value("crash_before_step").toInt();
    s.pause = json.value("pause").toBool();
    return s;
}

void useProgram(std::shared_ptr<HandlerProgram> program) {
    releaseOnQuit();
    threadRuns().shared = std::move(program);
}

void releaseHandlerRuns() {
    ThreadRuns& runs = threadRuns();
    runs.last.reset();
    runs.shared.reset();
}

void releaseSharedProgram() {
    ThreadRuns& runs = threadRuns();
    if (runs.last && runs.last->program == runs.shared)
        runs.last.reset();
    runs.shared.reset();
}

HandlerRun* currentHandlerRun() {
    return threadRuns().last.get();
}

std::shared_ptr<HandlerRun> handlerRunOf(const RunConfig& config) {
    Registry& r = registry();
    const std::lock_guard guard(r.lock);
    const auto it = r.runs.find(&config);
    // Its generators are values of the engine of the thread that began it.
    if (it == r.runs.end() || it->second->thread != Run::threadSerial())
        return nullptr;
    return it->second;
}

void forgetHandlerRun(const RunConfig& config) {
    std::shared_ptr<HandlerRun> gone;  // let go of outside the lock
    Registry& r = registry();
    const std::lock_guard guard(r.lock);
    if (const auto it = r.runs.find(&config); it != r.runs.end()) {
        gone = std::move(it->second);
        r.runs.erase(it);
    }
}

std::shared_ptr<HandlerRun> beginHandlerRun(const RunConfig& config, QString* error) {
    releaseOnQuit();
    ThreadRuns& runs = threadRuns();
    const QJsonObject& w = config.workbench;
    const QString source = w.value("source").toString();
    std::shared_ptr<HandlerProgram> program = runs.shared;
    if (!program || program->source() != source) {
        program = std::make_shared<HandlerProgram>();
        HandlerProblem problem;
        if (!program->load(source, w.value("file").toString(), &problem)) {
            *error = problem.text();
            return nullptr;
        }
    }
    if (!program->beginRun(config.seed, error))
        return nullptr;
    auto run = std::make_shared<HandlerRun>();
    run->program = std::move(program);
    run->schedule = Schedule::fromJson(w.value("schedule").toObject());
    run->thread = Run::threadSerial();
    std::shared_ptr<HandlerRun> replaced;  // let go of outside the lock
    {
        Registry& r = registry();
        const std::lock_guard guard(r.lock);
        std::shared_ptr<HandlerRun>& slot = r.runs[&config];
        replaced = std::move(slot);
        slot = run;
    }
    runs.last = run;
    return run;
}

}  // namespace idem
