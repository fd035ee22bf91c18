#include "challengescenario.h"

#include "lessonruns.h"

#include "attempt.h"
#include "authoring.h"
#include "handlerrun.h"
#include "mqstream.h"
#include "registry.h"
#include "runhooks.h"
#include "sqlstatement.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <memory>

namespace idem {

namespace {

// The most statements one request may send: a handler that loops over
// its yields is stopped as one that never yields is.
constexpr int kMaxStatements = 1'000;

// The most real time a handler's key is given in Redis (virtualLife).
constexpr qint64 kRealLifeMs = 200;

// The one variant of a challenge: the student's handler.
const QString kVariant = QStringLiteral("handler");

Phrase waitsItsTurn() {
    return Phrase("idem::Workbench",
                  QT_TRANSLATE_NOOP("idem::Workbench", "waits for its turn in the schedule"));
}

// The statements a handler may send itself: reads and writes of rows.
// Tables and indexes come from `schema`, transactions from db.begin().
bool handlerMaySend(const QString& sql) {
    switch (sqlVerb(sql)) {
        case SqlVerb::Select:
        case SqlVerb::With:
        case SqlVerb::Values:
        case SqlVerb::Insert:
        case SqlVerb::Replace:
        case SqlVerb::Update:
        case SqlVerb::Delete:
            return true;
        default:
            return false;
    }
}

// A server says which row an INSERT made only when asked (SQLite keeps the
// last row id of every connection): an INSERT sent with db.exec that does
// not ask itself is sent with RETURNING id, MariaDB's and PostgreSQL's
// common spelling, so that `r.insertId` means the same on every database.
// The trace and the SQL log show the statement as the server received it.
bool asksForInsertId(const QString& backend, const HandlerCall& call,
                     const QSet<QString>& tablesWithId) {
    if (backend == QLatin1String("sqlite") || call.kind != HandlerCall::Kind::Exec ||
        sqlVerb(call.sql) != SqlVerb::Insert)
        return false;
    static const QRegularExpression into(
        QStringLiteral("^\\s*INSERT\\s+(?:IGNORE\\s+)?INTO\\s+[`\"]?(\\w+)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression returning(QStringLiteral("\\bRETURNING\\b"),
                                              QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch table = into.match(call.sql);
    // A statement that asks itself has nothing to add.
    return table.hasMatch() && tablesWithId.contains(table.captured(1).toLower()) &&
           !returning.match(call.sql).hasMatch();
}

// The tables a schema makes with a column `id`: the ones an INSERT can
// return an id of.
QSet<QString> tablesWithId(const QStringList& schema) {
    static const QRegularExpression table(
        QStringLiteral("^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?[`\"]?(\\w+)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression id(QStringLiteral("[(,]\\s*[`\"]?id[`\"]?\\s"),
                                       QRegularExpression::CaseInsensitiveOption);
    QSet<QString> tables;
    for (const QString& statement : schema) {
        const QRegularExpressionMatch m = table.match(statement);
        if (m.hasMatch() && id.match(statement).hasMatch())
            tables.insert(m.captured(1).toLower());
    }
    return tables;
}

// On its own line, after any trailing semicolon: a trailing comment stays one.
QString withReturningId(QString sql) {
    while (!sql.isEmpty() && (sql.back().isSpace() || sql.back() == QLatin1Char(';'))) sql.chop(1);
    return sql + QStringLiteral("\nRETURNING id");
}

// The row the INSERT returned becomes its id; the handler sees the rows it
// changed, as from any INSERT.
void takeReturnedId(SqlResult& r) {
    if (!r.ok)
        return;
    if (!r.data.isEmpty())
        r.insertId = r.data.back().value(0).toLongLong();
    r.data.clear();
    r.columns.clear();
    r.counts = RowCount::Changed;
}

// The Redis commands a handler may send: keys, counters, hashes, and a
// stream's reads and acks. Nothing that reaches past the run's own keys
// (FLUSHALL, KEYS, CONFIG, SHUTDOWN), no script (EVAL could call any of
// those), no expiry of its own (SET's PX and EX count in the run's clock).
bool handlerMaySendRedis(const QString& name) {
    static const QSet<QString> allowed{
        QStringLiteral("GET"),     QStringLiteral("SET"),    QStringLiteral("DEL"),
        QStringLiteral("EXISTS"),  QStringLiteral("INCR"),   QStringLiteral("INCRBY"),
        QStringLiteral("DECR"),    QStringLiteral("PTTL"),   QStringLiteral("TTL"),
        QStringLiteral("HGET"),    QStringLiteral("HSET"),   QStringLiteral("HGETALL"),
        QStringLiteral("HINCRBY"), QStringLiteral("XADD"),   QStringLiteral("XACK"),
        QStringLiteral("XLEN"),    QStringLiteral("XRANGE"), QStringLiteral("XPENDING")};
    return allowed.contains(name);
}

// SET key value ... PX n (or EX s): the key lives n ms of the run's clock;
// Redis is told at most a fifth of a second, and a command that comes
// after the key's end waits until Redis reports it gone, as the lab's own
// keys do (those are told up to a second: a lesson's single run can wait
// that long, an attack's hundreds of runs cannot). -1 where the command
// sets no expiry.
qint64 virtualLife(QStringList& command) {
    if (command.value(0).compare(QLatin1String("SET"), Qt::CaseInsensitive) != 0)
        return -1;
    for (qsizetype i = 3; i + 1 < command.size(); ++i) {
        const QString word = command[i].toUpper();
        if (word != QLatin1String("PX") && word != QLatin1String("EX"))
            continue;
        bool ok = false;
        const qint64 n = command[i + 1].toLongLong(&ok);
        if (!ok || n <= 0)
            return -1;
        const qint64 ms = word == QLatin1String("EX") ? n * 1000 : n;
        command[i] = QStringLiteral("PX");
        command[i + 1] = QString::number(std::clamp<qint64>(ms, 1, kRealLifeMs));
        return ms;
    }
    return -1;
}

Response responseOf(const QString& status) {
    static const QHash<QString, Response> responses{
        {QStringLiteral("created"), Response::Success},
        {QStringLiteral("duplicate"), Response::Success},
        {QStringLiteral("success"), Response::Success},
        {QStringLiteral("ok"), Response::Success},
        {QStringLiteral("in-progress"), Response::InProgress},
        {QStringLiteral("rejected"), Response::Rejected},
        {QStringLiteral("key-reused"), Response::Rejected},
        {QStringLiteral("error"), Response::Error}};
    return responses.value(status, Response::Error);
}

// A handler error the attempt ends with: the caller hears `error`, and the
// trace and the attack say why.
struct HandlerFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace

ChallengeScenario::ChallengeScenario(const Challenge& challenge, const Scenario& base)
    : challenge_(challenge), base_(base), info_(base.info()) {
    info_.id = challengeScenarioId(challenge.id);
    info_.title = challenge.title.en;
    // --redis where one of the scenario's own variants has a Redis form:
    // the handler may then send Redis commands (redis.call).
    const bool redis = std::any_of(base.info().variants.cbegin(), base.info().variants.cend(),
                                   [](const VariantInfo& v) { return v.redis; });
    info_.variants = {VariantInfo{
        .id = kVariant,
        .recommended = true,
        .crashPoints = {CrashPoint::BeforeCommit, CrashPoint::BeforeResponse,
                        CrashPoint::LongPause},
        .summary = QStringLiteral("the student's handler"),
        .redis = redis,
    }};
    info_.baseline = kVariant;
}

QStringList ChallengeScenario::schema(const RunConfig& config) const {
    // Each run starts here: the handler's module state is made afresh.
    QString error;
    const std::shared_ptr<HandlerRun> run = beginHandlerRun(config, &error);
    QStringList own;
    if (!run || !run->program->schema(config.backend, &own, &error))
        throw SetupFailure(error.toStdString());
    QStringList all = base_.schema(config) + own;
    run->tablesWithId = tablesWithId(all);
    return all;
}

void ChallengeScenario::seed(Setup& setup, int intent) const {
    base_.seed(setup, intent);
}

void ChallengeScenario::plan(Planner& planner, int intent) const {
    base_.plan(planner, intent);
}

Task<Reply> ChallengeScenario::handle(Attempt& attempt) const {
    // The scenario's own helpers (a broker, a writer) run its own code; the
    // requests are the student's.
    if (!attempt.counted())
        return base_.handle(attempt);
    return runHandler(attempt);
}

Reply ChallengeScenario::replyOf(const QVariant& answer) const {
    const QVariantMap m = answer.toMap();
    const QString status = m.value(QStringLiteral("status")).toString();
    Reply r{responseOf(status), {}};
    if (r.response == Response::Rejected && status == QLatin1String("key-reused"))
        r.result = Phrase(status);
    const QVariant result = m.value(challenge_.resultKey);
    if (r.response == Response::Success && result.isValid() && !result.isNull())
        r.result = Phrase(result.toString());
    return r;
}

Task<Reply> ChallengeScenario::runHandler(Attempt& a) const {
    // Held by this attempt: its generator's values belong to the run's
    // engine, which must outlast them (they are declared after it).
    const std::shared_ptr<HandlerRun> run = handlerRunOf(a.config());
    if (!run)
        throw HandlerFailure("the handler's run was not set up on this thread");
    HandlerProgram& program = *run->program;
    QVariantMap request = challenge_.request;
    for (auto it = a.payload().cbegin(); it != a.payload().cend(); ++it)
        request.insert(it.key(), it.value());
    // A consumer on a Redis stream is handed what it reads or claims (one
    // step of the lab's, before the handler's): the message as the stream
    // has it, and where, for its XACK.
    if (a.usesRedis() && challenge_.scenario == QLatin1String("mq-consume")) {
        const mq::Message m = co_await mq::readFromStream(a, mq::fromPayload(a));
        if (m.id.isEmpty())
            co_return Reply{Response::None, {}};
        request.insert(QStringLiteral("msg_id"), m.id);
        request.insert(QStringLiteral("user_id"), m.userId);
        request.insert(QStringLiteral("campaign"), m.campaign);
        request.insert(QStringLiteral("stream"), m.stream);
        request.insert(QStringLiteral("group"), mq::group());
        request.insert(QStringLiteral("entry"), m.entry);
    }
    request.insert(QStringLiteral("attempt"), a.number());
    request.insert(QStringLiteral("actor"), a.actor());
    QString error;
    HandlerProgram::Generator g = program.start(request, &error);
    if (!g.valid()) {
        run->failure = error;
        throw HandlerFailure(error.toStdString());
    }
    const Schedule& schedule = run->schedule;
    QJSValue input;
    int step = 0;
    int segment = -1;
    for (;;) {
        const HandlerStep s = g.next(input, a.now());
        if (s.kind == HandlerStep::Kind::Failed) {
            if (run->failure.isEmpty())
                run->failure = s.error;
            run->runaway = run->runaway || s.runaway;
            throw HandlerFailure(s.error.toStdString());
        }
        if (s.kind == HandlerStep::Kind::Returned)
            co_return replyOf(s.answer);
        ++step;
        if (step > kMaxStatements) {
            const QString why = QStringLiteral(
                                    "%1:%2: the handler sent more than %3 statements "
                                    "for one request; stopped")
                                    .arg(program.fileName())
                                    .arg(s.call.line)
                                    .arg(kMaxStatements);
            run->failure = why;
            run->runaway = true;
            throw HandlerFailure(why.toStdString());
        }
        if (schedule.crashAttempt == a.number() && schedule.crashBeforeStep == step)
            co_await a.crashPoint(schedule.pause ? CrashPoint::LongPause
                                                 : CrashPoint::BeforeCommit);
        // The attack's schedule: this statement waits for its segment.
        const int now = schedule.segmentOf(a.number(), step);
        if (now >= 0 && now != segment) {
            segment = now;
            const qint64 at = a.arrivedAt() + segment * kSegmentMs;
            if (at > a.now())
                co_await a.work(at - a.now(), waitsItsTurn());
        }
        const HandlerCall& call = s.call;
        if (call.kind == HandlerCall::Kind::Redis) {
            QStringList command = call.command;
            const QString name = command.value(0).toUpper();
            const QString refusal =
                !a.usesRedis() ? QStringLiteral(
                                     "this run has no Redis (check it with --redis "
                                     "private, or choose Redis in the window)")
                : !handlerMaySendRedis(name)
                    ? QStringLiteral(
                          "a handler sends Redis only GET, SET, DEL, EXISTS, INCR, "
                          "INCRBY, DECR, PTTL, TTL, HGET, HSET, HGETALL, HINCRBY, "
                          "XADD, XACK, XLEN, XRANGE and XPENDING: %1")
                          .arg(name)
                    : QString();
            if (!refusal.isEmpty()) {
                const QString why =
                    QStringLiteral("%1:%2: %3").arg(program.fileName()).arg(call.line).arg(refusal);
                run->failure = why;
                run->refused = true;
                throw HandlerFailure(why.toStdString());
            }
            const qint64 life = virtualLife(command);
            Attempt::RedisStep redis = a.tryRedis(std::move(command));
            if (life > 0)
                redis.keyLives = a.now() + life;
            const RedisReply reply = co_await redis;
            run->steps[a.number()] = step;
            run->lines[a.number()].append(call.line);
            input = program.redisValue(reply);
            continue;
        }
        SqlResult r;
        switch (call.kind) {
            case HandlerCall::Kind::Begin: {
                Attempt::SqlStep begin = a.begin();
                begin.mayFail = true;
                begin.shieldsTransaction = false;
                r = co_await begin;
                break;
            }
            case HandlerCall::Kind::Commit: {
                Attempt::SqlStep commit = a.trySql(QStringLiteral("COMMIT"));
                commit.shieldsTransaction = false;
                r = co_await commit;
                break;
            }
            case HandlerCall::Kind::Rollback: {
                Attempt::SqlStep rollback = a.trySql(QStringLiteral("ROLLBACK"));
                rollback.shieldsTransaction = false;
                r = co_await rollback;
                break;
            }
            case HandlerCall::Kind::Query:
            case HandlerCall::Kind::Exec:
                if (!handlerMaySend(call.sql)) {
                    const QString why = QStringLiteral(
                                            "%1:%2: a handler reads and writes rows only (SELECT, "
                                            "INSERT, UPDATE, DELETE); tables and indexes belong in "
                                            "`schema`, transactions in db.begin(): %3")
                                            .arg(program.fileName())
                                            .arg(call.line)
                                            .arg(call.sql.simplified().left(60));
                    run->failure = why;
                    run->refused = true;
                    throw HandlerFailure(why.toStdString());
                }
                {
                    const bool askId = asksForInsertId(a.config().backend, call, run->tablesWithId);
                    // Named, not a temporary: g++ 12 mishandles a temporary's
                    // lifetime inside a co_await expression.
                    const QString sent = askId ? withReturningId(call.sql) : call.sql;
                    Attempt::SqlStep statement = a.trySqlWith(sent, call.params);
                    statement.shieldsTransaction = false;
                    r = co_await statement;
                    if (askId)
                        takeReturnedId(r);
                    if (sqlVerb(call.sql) != SqlVerb::Insert)
                        r.insertId = 0;
                    break;
                }
            case HandlerCall::Kind::Redis:
                break;  // above
        }
        run->steps[a.number()] = step;
        run->lines[a.number()].append(call.line);
        input = program.resultValue(call.kind, r);
    }
}

Effects ChallengeScenario::effects(Reader& db, int intent) const {
    return base_.effects(db, intent);
}
Effects ChallengeScenario::expectedEffects(const RunConfig& config, int intent) const {
    return base_.expectedEffects(config, intent);
}
Phrase ChallengeScenario::inconsistency(Reader& db, int intent) const {
    return base_.inconsistency(db, intent);
}
std::vector<Effects> ChallengeScenario::effectsOfAll(Reader& db, int intents) const {
    return base_.effectsOfAll(db, intents);
}
std::vector<Phrase> ChallengeScenario::inconsistenciesOfAll(Reader& db, int intents) const {
    return base_.inconsistenciesOfAll(db, intents);
}
std::vector<AnswerTruth> ChallengeScenario::answerTruthOfAll(Reader& db, int intents) const {
    return base_.answerTruthOfAll(db, intents);
}
Verdict ChallengeScenario::judge(const IntentJudgement& j) const {
    return base_.judge(j);
}
void ChallengeScenario::completeAlerts(Reader& db, QList<AlertRecord>& alerts) const {
    base_.completeAlerts(db, alerts);
}
void ChallengeScenario::extendSummary(Reader& db, const RunConfig& config,
                                      QJsonObject& summary) const {
    base_.extendSummary(db, config, summary);
}

namespace {

const Scenario* findForTrace(const QString& id) {
    for (const Challenge& c : allChallenges()) {
        if (challengeScenarioId(c.id) == id)
            return findChallengeScenario(c.id);
    }
    return nullptr;
}

}  // namespace

const ChallengeScenario* findChallengeScenario(const QString& challengeId) {
    static const std::map<QString, std::unique_ptr<ChallengeScenario>> all = [] {
        std::map<QString, std::unique_ptr<ChallengeScenario>> m;
        for (const Challenge& c : allChallenges()) {
            if (const Scenario* base = findScenario(c.scenario))
                m.emplace(c.id, std::make_unique<ChallengeScenario>(c, *base));
        }
        return m;
    }();
    const auto it = all.find(challengeId);
    return it == all.end() ? nullptr : it->second.get();
}

void registerChallengeScenarios() {
    static bool registered = false;
    if (registered)
        return;
    registered = true;
    addScenarioFinder(&findForTrace);
    setRunEndedHook(&forgetHandlerRun);  // a run's handler goes with the run
    registerLessonRuns();                // a lesson may show a starter's failing run
}

}  // namespace idem
