#include "lessonbook.h"

#include "configcheck.h"
#include "jsonkeys.h"
#include "privateredis.h"
#include "recordedbackend.h"
#include "redisrecording.h"
#include "registry.h"
#include "run.h"
#include "serverinstall.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

namespace idem {

namespace {

LessonWorkbenchRuns& workbenchRuns() {
    static LessonWorkbenchRuns runs;
    return runs;
}

// A frame's "load" from a challenge: its starter's smallest failing run.
bool resolveChallengeRun(const QJsonObject& load, RunConfig* out, QString* error) {
    // Read without the workbench: whether the challenge is one is asked
    // where its run is found (checkFrame, the window).
    const QString id = load.value(QLatin1String("challenge")).toString();
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9][a-z0-9-]*$"));
    if (!idPattern.match(id).hasMatch()) {
        *error = QStringLiteral("challenge must be an id of `idemlab challenge list`");
        return false;
    }
    RunConfig c;
    c.scenario = QStringLiteral("challenge:") + id;  // as the workbench's runs name it
    // On SQLite: a frame on a server comes with a recording of its run
    // (bundledTraceName), and a challenge's run is found where it is shown.
    for (auto it = load.begin(); it != load.end(); ++it) {
        if (it.key() != QLatin1String("challenge")) {
            *error = QStringLiteral(
                         "unknown field \"%1\" (a challenge's run takes only \"challenge\": "
                         "its starter's smallest failing run on SQLite)")
                         .arg(it.key());
            return false;
        }
    }
    const QJsonObject workbench{{QStringLiteral("challenge"), id},
                                {QStringLiteral("starter"), true}};
    c.workbench = workbench;
    *out = c;
    return true;
}

// A frame's "load": the scenario's defaults with the fields given.
bool resolveConfig(const QJsonObject& load, RunConfig* out, QString* error) {
    if (load.contains(QLatin1String("challenge")))
        return resolveChallengeRun(load, out, error);
    const QString id = load.value(QLatin1String("scenario")).toString();
    const Scenario* scenario = findScenario(id);
    if (!scenario) {
        QStringList ids;
        for (const Scenario* s : allScenarios()) ids << s->info().id;
        *error = QStringLiteral("unknown scenario \"%1\" (allowed: %2)").arg(id, ids.join(", "));
        return false;
    }
    RunConfig c = defaultConfig(*scenario);
    for (auto it = load.begin(); it != load.end(); ++it) {
        const QString key = it.key();
        const QJsonValue v = it.value();
        if (key == QLatin1String("scenario"))
            continue;
        if (key == QLatin1String("variant")) {
            c.variant = v.toString();
        } else if (key == QLatin1String("redis")) {
            // A lesson's Redis is the lab's own: a user's server is not the
            // lesson's to name.
            if (v.toString() != QLatin1String("private") && v.toString() != QLatin1String("off")) {
                *error = QStringLiteral("redis must be \"private\" or \"off\"");
                return false;
            }
            c.redis = v.toString();
        } else if (key == QLatin1String("backend") || key == QLatin1String("isolation")) {
            // Checked with the rest below (checkConfig): a database the lab
            // has, a level that database has.
            if (!v.isString()) {
                *error = QStringLiteral("%1 must be a text").arg(key);
                return false;
            }
            (key == QLatin1String("backend") ? c.backend : c.isolation) = v.toString();
        } else if (key == QLatin1String("timing")) {
            const auto t = timingFromId(v.toString());
            if (!t) {
                *error = QStringLiteral("unknown timing \"%1\" (allowed: %2)")
                             .arg(v.toString(), timingIds().join(", "));
                return false;
            }
            c.timing = *t;
        } else if (key == QLatin1String("source")) {
            const auto s = sourceFromId(v.toString());
            if (!s) {
                *error = QStringLiteral("unknown source \"%1\" (allowed: %2)")
                             .arg(v.toString(), sourceIds().join(", "));
                return false;
            }
            c.source = *s;
        } else if (key == QLatin1String("crash")) {
            const auto p = crashPointFromId(v.toString());
            if (!p) {
                *error = QStringLiteral("unknown crash point \"%1\" (allowed: none, %2)")
                             .arg(v.toString(), crashPointIds().join(", "));
                return false;
            }
            c.crash = *p;
        } else if (key == QLatin1String("params")) {
            const QJsonObject params = v.toObject();
            for (auto p = params.begin(); p != params.end(); ++p)
                c.params.insert(p.key(), p.value().toVariant().toString());
        } else {
            bool known = false;
            for (NumberField field : kNumberFields) {
                if (jsonKey(field) != key)
                    continue;
                known = true;
                const QString text =
                    v.isDouble() ? QString::number(v.toDouble(), 'f', 0) : v.toVariant().toString();
                if (!v.isDouble() || v.toDouble() != double(qint64(v.toDouble()))) {
                    *error = QStringLiteral("%1 must be a whole number").arg(key);
                    return false;
                }
                if (const auto problem = readNumber(field, text, &c)) {
                    *error = QStringLiteral("%1 = %2 is out of range (allowed: %3 to %4)")
                                 .arg(key, text)
                                 .arg(problem->allowed.min)
                                 .arg(problem->allowed.max);
                    return false;
                }
            }
            if (!known) {
                *error = QStringLiteral("unknown field \"%1\"").arg(key);
                return false;
            }
        }
    }
    if (const QString problem = checkConfig(c, scenario->info()); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    *out = c;
    return true;
}

struct Book {
    QList<Lesson> lessons;
    QStringList errors;
};

const Book& book() {
    static const Book b = [] {
        Book b;
        const QDir dir(QStringLiteral(":/lessons"));
        for (const QString& name :
             dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
            Lesson lesson;
            QString error;
            if (readLessonFile(dir.filePath(name), &lesson, &error))
                b.lessons << lesson;
            else
                b.errors << error;
        }
        std::stable_sort(b.lessons.begin(), b.lessons.end(),
                         [](const Lesson& x, const Lesson& y) { return x.order < y.order; });
        return b;
    }();
    return b;
}

}  // namespace

void setLessonWorkbenchRuns(const LessonWorkbenchRuns& runs) {
    workbenchRuns() = runs;
}

bool isStarterRunToFind(const RunConfig& config) {
    return config.workbench.value(QLatin1String("starter")).toBool();
}

bool frameAwaitsSearch(const Lesson& lesson, int frame) {
    const int loading = frameLoading(lesson, frame);
    if (loading < 0)
        return false;
    const RunConfig& load = *lesson.frames.at(loading).load;
    return isStarterRunToFind(load) && workbenchRuns().knows && !workbenchRuns().knows(load);
}

bool findFrameRun(const Lesson& lesson, int frame, QString* error,
                  const std::atomic<bool>* cancel) {
    const int loading = frameLoading(lesson, frame);
    if (loading < 0 || !isStarterRunToFind(*lesson.frames.at(loading).load))
        return true;
    RunConfig config = *lesson.frames.at(loading).load;
    QString why;
    if (!workbenchRuns().findRun || !workbenchRuns().findRun(&config, &why, cancel)) {
        if (error)
            *error = why;
        return false;
    }
    return true;
}

const QList<Lesson>& bundledLessons() {
    return book().lessons;
}

QStringList bundledLessonErrors() {
    return book().errors;
}

const Lesson* findLesson(const QString& id) {
    for (const Lesson& l : bundledLessons())
        if (l.id == id)
            return &l;
    return nullptr;
}

bool readLessonFile(const QString& path, Lesson* out, QString* error, bool* ioError) {
    QFile file(path);
    const QString name = path.startsWith(QLatin1Char(':')) ? QFileInfo(path).fileName() : path;
    if (ioError)
        *ioError = false;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(name, file.errorString());
        if (ioError)
            *ioError = true;
        return false;
    }
    QJsonParseError parse;
    // Read to the end, a piece at a time: a disk error after the first piece
    // is only told by the read that follows it.
    constexpr qsizetype kMostBytes = 4 * 1024 * 1024;
    QByteArray bytes;
    for (QByteArray piece; !(piece = file.read(64 * 1024)).isEmpty();) {
        bytes += piece;
        if (bytes.size() > kMostBytes) {
            *error = QStringLiteral("%1: larger than %2 MiB, not a lesson")
                         .arg(name)
                         .arg(kMostBytes >> 20);
            return false;
        }
    }
    if (file.error() != QFileDevice::NoError) {
        *error = QStringLiteral("%1: cannot read it: %2").arg(name, file.errorString());
        if (ioError)
            *ioError = true;
        return false;
    }
    if (const QString twice = json::duplicateKey(bytes); !twice.isEmpty()) {
        *error = QStringLiteral("%1: the key \"%2\" is given twice").arg(name, twice);
        return false;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (!doc.isObject()) {
        *error =
            QStringLiteral("%1: not a lesson (JSON: %2 at offset %3)")
                .arg(name, doc.isNull() ? parse.errorString() : QStringLiteral("not an object"))
                .arg(parse.offset);
        return false;
    }
    QString why;
    if (!readLesson(doc.object(), resolveConfig, out, &why)) {
        *error = QStringLiteral("%1: %2").arg(name, why);
        return false;
    }
    return true;
}

bool frameFires(const Lesson& lesson, int frame) {
    for (int j = std::min<int>(frame, lesson.frames.size() - 1); j >= 0; --j)
        if (lesson.frames.at(j).load)
            return lesson.frames.at(j).fire;
    return false;
}

std::optional<CostlyFrame> firstCostlyFrame(const Lesson& lesson) {
    qint64 together = 0;
    for (int i = 0; i < lesson.frames.size(); ++i) {
        // A challenge's run is one schedule of its few attempts: nothing to
        // estimate, and finding it is the attack's (bounded) work.
        const int loading = frameLoading(lesson, i);
        if (loading >= 0 && isStarterRunToFind(*lesson.frames.at(loading).load))
            continue;
        const std::optional<RunConfig> config = frameConfig(lesson, i);
        const Scenario* scenario = config ? findScenario(config->scenario) : nullptr;
        // Each frame that fires is run again from the start by the check and
        // the hand-out; one that only shows its settings runs nothing there,
        // but the window loads its run, once, to show it at its start.
        if (!scenario || !(frameFires(lesson, i) || lesson.frames.at(i).load))
            continue;  // no run, or refused when the lesson was read
        const CostEstimate cost = estimateCost(*config, scenario->info(), Keeps::Events);
        if (cost.overLimit())
            return CostlyFrame{i, cost};
        together += cost.statements();
        if (together * kKeptBytesPerStatement > kMaxKeptBytes)
            return CostlyFrame{i, cost, together};
    }
    return std::nullopt;
}

QString lessonCostProblem(const Lesson& lesson) {
    const std::optional<CostlyFrame> costly = firstCostlyFrame(lesson);
    if (!costly)
        return {};
    const QString where = QStringLiteral("frame %1 (%2)")
                              .arg(costly->frame + 1)
                              .arg(lesson.frames.at(costly->frame).title.en);
    if (costly->together == 0)
        return QStringLiteral("%1, load: %2").arg(where, costText(costly->cost));
    const QLocale english(QLocale::English);
    constexpr qint64 mb = 1024 * 1024;
    return QStringLiteral(
               "%1: the lesson's runs up to this frame come to about %2 SQL statements "
               "estimated, whose events kept in memory would take about %3 MB, above the "
               "limit of %4 MB for a lesson's runs together")
        .arg(where, english.toString(costly->together), english.toString(costly->keptBytes() / mb),
             english.toString(kMaxKeptBytes / mb));
}

std::optional<RunConfig> frameConfig(const Lesson& lesson, int frame) {
    const int loading = frameLoading(lesson, frame);
    if (loading < 0)
        return std::nullopt;
    RunConfig config = *lesson.frames.at(loading).load;
    if (isStarterRunToFind(config)) {
        QString why;
        if (!workbenchRuns().findRun || !workbenchRuns().findRun(&config, &why, nullptr))
            return std::nullopt;
    }
    return config;
}

int frameLoading(const Lesson& lesson, int frame) {
    for (int i = std::min<int>(frame, lesson.frames.size() - 1); i >= 0; --i)
        if (lesson.frames.at(i).load)
            return i;
    return -1;
}

QString bundledTraceName(const Lesson& lesson, int frame) {
    const int loading = frameLoading(lesson, frame);
    if (loading < 0)
        return {};
    const RunConfig& load = *lesson.frames.at(loading).load;
    if (load.backend == QLatin1String("sqlite") && load.redis == QLatin1String("off"))
        return {};
    return QStringLiteral("%1-%2.json").arg(lesson.id).arg(loading + 1);
}

QString bundledTracePath(const Lesson& lesson, int frame) {
    const QString name = bundledTraceName(lesson, frame);
    return name.isEmpty() ? QString() : QStringLiteral(":/lessons/traces/") + name;
}

std::optional<MissingServer> frameMissingServer(const Lesson& lesson, int frame) {
    // The frame's load as written: its database, without finding a
    // challenge's run (which is on SQLite).
    const int loading = frameLoading(lesson, frame);
    if (loading < 0)
        return std::nullopt;
    const std::optional<RunConfig>& config = lesson.frames.at(loading).load;
    const QString package = missingServerPackage(config->backend);
    if (!package.isEmpty())
        return MissingServer{config->backend, package, bundledTracePath(lesson, frame)};
    if (config->redis != QLatin1String("off") && !PrivateRedis::missingPackage().isEmpty()) {
        return MissingServer{QStringLiteral("redis"), PrivateRedis::missingPackage(),
                             bundledTracePath(lesson, frame)};
    }
    return std::nullopt;
}

std::optional<RunConfig> playableFrameConfig(const Lesson& lesson, int frame, QString* whyNot) {
    const std::optional<RunConfig> config = frameConfig(lesson, frame);
    const std::optional<MissingServer> missing = frameMissingServer(lesson, frame);
    if (!config || !missing)
        return config;
    QString error = QStringLiteral("the lesson has no recording of this run");
    if (!missing->tracePath.isEmpty() && missing->backend == QLatin1String("redis")) {
        // The database runs here; Redis's replies come from the recording.
        RunConfig played = *config;
        played.redisRecording = loadRedisRecording(missing->tracePath, &error);
        if (played.redisRecording)
            return played;
    } else if (!missing->tracePath.isEmpty()) {
        if (std::optional<RunConfig> played = recordedConfig(*config, missing->tracePath, &error))
            return played;
    }
    if (whyNot)
        *whyNot = error;
    return std::nullopt;
}

FrameCheck checkFrame(const Lesson& lesson, int i, const PauseVisitor& atPause,
                      const std::atomic<bool>* cancel) {
    FrameCheck check;
    QStringList& problems = check.problems;
    const LessonFrame& frame = lesson.frames.at(i);
    const QString where = QStringLiteral("frame %1 (%2)").arg(i + 1).arg(frame.title.en);
    const LessonWorkbenchRuns& runs = workbenchRuns();
    const auto unknown = [&runs](const QString& id) {
        return !runs.scenarioOf || runs.scenarioOf(id).isEmpty();
    };
    const auto allowed = [&runs] {
        return runs.challenges ? runs.challenges().join(QStringLiteral(", ")) : QString();
    };
    if (frame.workbench && unknown(frame.workbench->challenge)) {
        problems << QStringLiteral(
                        "%1: workbench.challenge \"%2\" is not a challenge (allowed: %3)")
                        .arg(where, frame.workbench->challenge, allowed());
    }
    if (frame.load && isStarterRunToFind(*frame.load)) {
        const QString id = frame.load->workbench.value(QLatin1String("challenge")).toString();
        if (unknown(id)) {
            problems << QStringLiteral("%1: load.challenge \"%2\" is not a challenge (allowed: %3)")
                            .arg(where, id, allowed());
            return check;
        }
    }
    QString notFound;
    if (!findFrameRun(lesson, i, &notFound, cancel)) {
        if (cancel && *cancel)
            check.cancelled = true;
        else
            problems << QStringLiteral("%1: load: %2").arg(where, notFound);
        return check;
    }
    const std::optional<RunConfig> config = frameConfig(lesson, i);
    if (!config)
        return check;  // a frame before any run: only words
    const Scenario& scenario = *findScenario(config->scenario);
    if (!frame.highlight.table.isEmpty() &&
        !scenario.info().tables.contains(frame.highlight.table)) {
        problems << QStringLiteral("%1: highlight.table \"%2\" is not a table of %3 (allowed: %4)")
                        .arg(where, frame.highlight.table, config->scenario,
                             scenario.info().tables.join(", "));
    }
    if (frame.highlight.locks && config->backend == QLatin1String("sqlite")) {
        problems << QStringLiteral(
                        "%1: highlight.locks points at a server's locks, and this run "
                        "is on SQLite (add \"backend\" to its load)")
                        .arg(where);
    }
    if (!frameFires(lesson, i)) {
        if (frame.pause.kind != PausePoint::Kind::Start)
            problems << QStringLiteral("%1: pause needs a fired run (\"fire\": true)").arg(where);
        return check;
    }
    // Where the server is missing, the run recorded with the lesson.
    QString whyNot;
    const std::optional<RunConfig> played = playableFrameConfig(lesson, i, &whyNot);
    if (!played) {
        const std::optional<MissingServer> missing = frameMissingServer(lesson, i);
        check.notRun = QStringLiteral("%1: not run here: it needs %2 (Debian package %3), and %4")
                           .arg(where, backendName(missing->backend), missing->package, whyNot);
        return check;
    }
    RunOptions options;
    options.cancel = cancel;
    Run run(*played, scenario, options);
    QString error;
    // The machine's failures and a stop on request are told apart from the
    // lesson's own problems: they say nothing about the file.
    const auto stopped = [&run, &check, &where](const QString& why) {
        if (run.failure() == RunFailure::Cancelled) {
            check.cancelled = true;
            return true;
        }
        if (run.failure() == RunFailure::Io || run.failure() == RunFailure::Internal) {
            check.failure = QStringLiteral("%1: %2").arg(where, why);
            return true;
        }
        return false;
    };
    if (!run.start(&error)) {
        if (!stopped(error))
            problems << QStringLiteral("%1: the run cannot start: %2").arg(where, error);
        return check;
    }
    qsizetype lastStepBegin = 0;
    const int reached = runToPause(run, frame.pause, &lastStepBegin);
    if (stopped(run.failureMessage()))
        return check;
    if (reached < 0) {
        problems << QStringLiteral("%1: pause at %2 is never reached in %3 / %4")
                        .arg(where, frame.pause.describe(), config->scenario, config->variant);
        return check;
    }
    check.paused = true;
    if (atPause)
        atPause(run, lastStepBegin);
    if (!frame.question)
        return check;
    run.runToEnd();
    if (!run.finish(&error)) {
        if (!stopped(error))
            problems << QStringLiteral("%1: the run failed: %2").arg(where, error);
        return check;
    }
    const QString answer = lessonAnswer(frame.question->answer, run.summary());
    if (answer.isEmpty()) {
        problems << QStringLiteral("%1: question.answer \"%2\" has no answer in %3 / %4")
                        .arg(where, frame.question->answer, config->scenario, config->variant);
        return check;
    }
    bool offered = false;
    QStringList values;
    for (const LessonChoice& c : frame.question->choices) {
        offered = offered || c.value == answer;
        values << c.value;
    }
    if (!offered) {
        problems << QStringLiteral(
                        "%1: the run answers %2 = %3, which none of the choices "
                        "(%4) is")
                        .arg(where, frame.question->answer, answer, values.join(", "));
        return check;
    }
    check.answer = answer;
    return check;
}

QStringList checkLesson(const Lesson& lesson) {
    QStringList problems;
    for (int i = 0; i < lesson.frames.size(); ++i) {
        const FrameCheck frame = checkFrame(lesson, i);
        problems << frame.problems;
        if (!frame.failure.isEmpty())
            problems << frame.failure;
    }
    return problems;
}

}  // namespace idem
