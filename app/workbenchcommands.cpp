#include "workbenchcommands.h"

#include "attack.h"
#include "backendnames.h"
#include "challenge.h"
#include "challengescenario.h"
#include "cli.h"
#include "interruption.h"
#include "outputpaths.h"
#include "privateredis.h"
#include "runredis.h"
#include "serverbackend.h"
#include "serverinstall.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace idem::cli {

namespace {

QString challengeIds() {
    QStringList ids;
    for (const Challenge& c : allChallenges()) ids << c.id;
    return ids.join(QStringLiteral(", "));
}

const Challenge* namedChallenge(const QString& id, QString* error) {
    const Challenge* c = findChallenge(id);
    if (!c)
        *error = QStringLiteral("unknown challenge \"%1\" (allowed: %2)").arg(id, challengeIds());
    return c;
}

int listChallenges(bool json, const QString& lang) {
    if (json) {
        QJsonArray list;
        for (const Challenge& c : allChallenges()) {
            list.append(QJsonObject{{"id", c.id},
                                    {"scenario", c.scenario},
                                    {"title", QJsonObject{{"zh", c.title.zh}, {"en", c.title.en}}},
                                    {"hints", int(c.hints.size())}});
        }
        out() << QJsonDocument(QJsonObject{{"challenges", list}}).toJson(QJsonDocument::Compact)
              << Qt::endl;
        return Ok;
    }
    for (const Challenge& c : allChallenges())
        out() << QStringLiteral("%1  %2\n").arg(c.id, -20).arg(c.title.in(lang));
    out() << Qt::flush;
    return Ok;
}

int showChallenge(const Challenge& c, const QString& lang, int hints) {
    out() << c.title.in(lang) << "\n\n" << c.story.in(lang) << "\n\n";
    out() << (lang == QLatin1String("zh") ? "角色：" : "Role: ") << c.role.in(lang) << "\n";
    out() << (lang == QLatin1String("zh") ? "数据表与裁决来自场景 "
                                          : "Tables and judge of scenario ")
          << c.scenario << "\n";
    const bool zh = lang == QLatin1String("zh");
    QStringList where;
    for (const QString& b : c.backends) where << backendName(b);
    out() << (zh ? "检查于：" : "Checked on: ") << where.join(QStringLiteral(", "))
          << (c.everyIsolation ? (zh ? "，每个隔离级别" : ", every isolation level") : "") << "\n";
    if (c.statementBudget > 0)
        out() << (zh ? "目标：每个请求最多 " : "Target: at most ") << c.statementBudget
              << (zh ? " 条语句" : " statements a request") << "\n";
    if (c.maxDeadlocks >= 0)
        out() << (zh ? "目标：死锁不超过 " : "Target: at most ") << c.maxDeadlocks
              << (zh ? " 次" : " deadlocks") << "\n";
    for (int i = 0; i < std::min<int>(hints, int(c.hints.size())); ++i)
        out() << "\n"
              << (lang == QLatin1String("zh") ? "提示 " : "Hint ") << i + 1 << ": "
              << c.hints[i].in(lang) << "\n";
    if (hints < c.hints.size())
        out() << "\n"
              << (lang == QLatin1String("zh") ? "还有提示：--hints N 显示前 N 条。"
                                              : "More hints: --hints N shows the first N.")
              << "\n";
    out() << Qt::flush;
    return Ok;
}

int startChallenge(const Challenge& c, const QString& path) {
    if (path.isEmpty()) {
        out() << c.starter << Qt::flush;
        return Ok;
    }
    if (QFileInfo::exists(path))
        return badInput(QStringLiteral("%1 exists already; the starter is written only to a new "
                                       "file")
                            .arg(path));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly) || f.write(c.starter.toUtf8()) < 0 ||
        !f.flush()) {
        return failWith(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()), Failure);
    }
    return Ok;
}

// The challenge a handler file names in its first lines ("// challenge: ID").
QString namedInFile(const QString& source) {
    static const QRegularExpression named(QStringLiteral("challenge:\\s*([a-z0-9-]+)"));
    const QRegularExpressionMatch m = named.match(source.left(400));
    return m.hasMatch() ? m.captured(1) : QString();
}

QString resultLine(const AttackResult& r) {
    // SQLite has one level: naming it says nothing.
    QString where = r.isolation.isEmpty() || r.backend == QLatin1String("sqlite")
                        ? r.backend
                        : QStringLiteral("%1 (%2)").arg(r.backend, r.isolation);
    if (r.redis != QLatin1String("off"))
        where += QStringLiteral(" with Redis");
    const QString counts = QStringLiteral(
                               "schedules run: %1, skipped as repeats: %2, left out by "
                               "the preemption bound: %3")
                               .arg(r.run)
                               .arg(r.skipped)
                               .arg(r.bounded);
    if (r.outcome == AttackResult::Outcome::Passed)
        return QStringLiteral("%1: passed (%2)").arg(where, counts);
    if (!r.counterexample)
        return QStringLiteral("%1: %2").arg(where, r.message);
    const Counterexample& c = *r.counterexample;
    QString text = QStringLiteral(
                       "%1: %2 (%3)\n  counterexample: attempts %4, statements %5, "
                       "preemptions %6; schedule %7 (%8, %9)")
                       .arg(where,
                            c.target.isEmpty() ? toId(c.summary.verdict)
                                               : QStringLiteral("over the challenge's target"),
                            counts)
                       .arg(c.attempts)
                       .arg(c.statements)
                       .arg(c.preemptions)
                       .arg(c.schedule, toId(c.config.source), toId(c.config.timing));
    for (const WrongAnswer& w : c.summary.wrongAnswers)
        text += QStringLiteral("\n  #%1 was told %2 %3, but the database shows %4")
                    .arg(w.attempt)
                    .arg(toId(w.told),
                         w.result.english().isEmpty() ? QStringLiteral("without a result")
                                                      : w.result.english(),
                         w.database.english());
    if (!c.failure.isEmpty())
        text += QStringLiteral("\n  the handler failed: %1").arg(c.failure);
    if (!c.target.isEmpty())
        text += QStringLiteral("\n  over the challenge's target: %1").arg(c.target);
    if (!c.tracePath.isEmpty())
        text += QStringLiteral("\n  trace: %1 (idemlab replay / open it)").arg(c.tracePath);
    return text;
}

}  // namespace

int challenge(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument("action", "list, show ID or start ID");
    parser.addOption({"json", "With list: the challenges as one JSON object."});
    parser.addOption({"lang", "The language of the story: zh or en.", "LANG", "en"});
    parser.addOption({"hints", "With show: reveal the first N hints.", "N", "0"});
    parser.addOption(
        {"out", "With start: write the starter handler to FILE (a new file).", "FILE"});
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab challenge")} + args))
        return badInput(parser.errorText());
    if (printedUsage(parser, QStringLiteral("challenge")))
        return Ok;
    const QString lang = parser.value("lang");
    if (lang != QLatin1String("zh") && lang != QLatin1String("en"))
        return badInput(QStringLiteral("unknown language \"%1\" (allowed: zh, en)").arg(lang));
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    if (action == QLatin1String("list"))
        return listChallenges(parser.isSet("json"), lang);
    if (action != QLatin1String("show") && action != QLatin1String("start"))
        return badInput(
            QStringLiteral("unknown challenge action \"%1\" (allowed: list, show, start)")
                .arg(action));
    if (positional.size() != 2)
        return badInput(QStringLiteral("challenge %1 takes one challenge id").arg(action));
    QString error;
    const Challenge* c = namedChallenge(positional.at(1), &error);
    if (!c)
        return badInput(error);
    if (action == QLatin1String("show")) {
        bool ok = false;
        const int hints = parser.value("hints").toInt(&ok);
        if (!ok || hints < 0)
            return badInput(
                QStringLiteral("--hints is \"%1\", not a count").arg(parser.value("hints")));
        return showChallenge(*c, lang, hints);
    }
    return startChallenge(*c, parser.value("out"));
}

int check(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument("file", "the handler, a JavaScript file");
    parser.addOption({"challenge",
                      "The challenge (default: the one the file names in a "
                      "\"// challenge: ID\" line, else double-click).",
                      "ID"});
    parser.addOption({"backend",
                      "sqlite, mariadb, postgres or all (default: the databases the challenge "
                      "names, SQLite for most).",
                      "B"});
    parser.addOption({"isolation",
                      "The isolation level (default: the backend's own; all: each of its levels).",
                      "LEVEL"});
    parser.addOption({"redis",
                      "off (default), private (a redis-server of the lab's own) or a URL: the "
                      "Redis the handler's redis.call reaches, and a consumer's stream.",
                      "R", "off"});
    parser.addOption({"preemptions", "The preemption bound (default 2).", "N", "2"});
    parser.addOption({"json", "One JSON object per backend, one per line."});
    parser.addOption({"trace-dir", "Write the counterexample's trace into DIR.", "DIR"});
    addHelpFlag(parser);
    if (!parser.parse(QStringList{QStringLiteral("idemlab check")} + args))
        return badInput(parser.errorText());
    if (printedUsage(parser, QStringLiteral("check")))
        return Ok;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return badInput(QStringLiteral("check takes one handler file"));
    const QString path = positional.first();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return badInput(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    const QByteArray bytes = f.read(4 * 1024 * 1024);
    const QString source = QString::fromUtf8(bytes);
    QString id = parser.value("challenge");
    if (id.isEmpty())
        id = namedInFile(source);
    if (id.isEmpty())
        id = QStringLiteral("double-click");
    QString error;
    const Challenge* c = namedChallenge(id, &error);
    if (!c)
        return badInput(error);
    bool ok = false;
    const int preemptions = parser.value("preemptions").toInt(&ok);
    if (!ok || preemptions < 0 || preemptions > 5)
        return badInput(QStringLiteral("--preemptions is \"%1\" (allowed: 0 to 5)")
                            .arg(parser.value("preemptions")));
    const QString backend = parser.value("backend");
    QStringList backends;
    if (backend.isEmpty())
        backends = c->backends;
    else if (backend == QLatin1String("all"))
        backends = {QStringLiteral("sqlite"), QStringLiteral("mariadb"),
                    QStringLiteral("postgres")};
    else if (backend == QLatin1String("sqlite") || backend == QLatin1String("mariadb") ||
             backend == QLatin1String("postgres"))
        backends = {backend};
    else
        return badInput(QStringLiteral("unknown backend \"%1\" (allowed: sqlite, mariadb, "
                                       "postgres, all)")
                            .arg(backend));
    const QString redis = parser.value("redis");
    if (redis != QLatin1String("off")) {
        QString problem;
        if (redis != QLatin1String("private") && !parseRedisUrl(redis, &problem))
            return badInput(problem.isEmpty()
                                ? QStringLiteral("--redis is \"%1\" (allowed: off, private, a "
                                                 "redis:// or unix:// URL)")
                                      .arg(redis)
                                : problem);
        if (const QString package = PrivateRedis::missingPackage();
            redis == QLatin1String("private") && !package.isEmpty())
            return badInput(QStringLiteral("Redis is not installed (Debian package %1): %2")
                                .arg(package, installCommand(package)));
        const ChallengeScenario* s = findChallengeScenario(c->id);
        if (!s || !s->info().variants.value(0).redis)
            return badInput(QStringLiteral("the challenge %1 keeps nothing in Redis: check it "
                                           "without --redis")
                                .arg(c->id));
    }
    const QString traceDir = parser.value("trace-dir");
    if (!traceDir.isEmpty() && !QFileInfo(traceDir).isDir())
        return badInput(QStringLiteral("--trace-dir %1 is not a folder").arg(traceDir));

    const Interruption interruption;
    int exit = Ok;
    for (const QString& b : backends) {
        // The backend's own level when none is named; `all`: each of its
        // levels in turn.
        const QString named = parser.isSet("isolation") ? parser.value("isolation")
                              : c->everyIsolation       ? QStringLiteral("all")
                                                        : QString();
        if (!named.isEmpty() && named != QLatin1String("all") && !isolationIds(b).contains(named))
            return badInput(QStringLiteral("--isolation %1 is not a level of %2 (allowed: %3, all)")
                                .arg(named, b, isolationIds(b).join(QStringLiteral(", "))));
        const QStringList levels = named == QLatin1String("all") ? isolationIds(b)
                                   : named.isEmpty()             ? isolationIds(b).mid(0, 1)
                                                                 : QStringList{named};
        for (const QString& isolation : levels) {
            AttackOptions options;
            options.backend = b;
            options.isolation = isolation;
            options.redis = redis;
            options.preemptions = preemptions;
            options.traceDir = traceDir;
            options.cancel = Interruption::flag();
            const AttackResult r = attackHandler(*c, source, QFileInfo(path).fileName(), options);
            if (r.outcome == AttackResult::Outcome::BadHandler)
                return badInput(r.message);
            if (parser.isSet("json"))
                out() << QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact) << Qt::endl;
            else
                out() << resultLine(r) << Qt::endl;
            switch (r.outcome) {
                case AttackResult::Outcome::Passed:
                    break;
                case AttackResult::Outcome::Failed:
                    exit = std::max<int>(exit, Failure);
                    break;
                case AttackResult::Outcome::Cancelled:
                    return Interruption::exitCode();
                case AttackResult::Outcome::RunFailed:
                    return failWith(r.message, Failure);
                case AttackResult::Outcome::BadHandler:
                    return BadInput;
            }
        }
    }
    return exit;
}

}  // namespace idem::cli
