// How a process's Redis commands run (Scheduler, SPEC section 10): each one
// step on the attempt's own connection, its reply traced as a `redis`
// event, so that a run replays from its recording without Redis. Real
// expiry is real time: a key whose virtual life has ended is waited for
// until Redis itself reports it gone, before the step that reads it, so
// that no verdict depends on the machine's speed.
#include "scheduler.h"

#include "attempt.h"

namespace idem {

namespace {

bool isSet(const QStringList& command) {
    return command.value(0).compare(QLatin1String("SET"), Qt::CaseInsensitive) == 0;
}

// Whether the command asks to set a key only where there is none.
bool setsIfAbsent(const QStringList& command) {
    if (!isSet(command))
        return false;
    for (const QString& word : command.mid(3))
        if (word.compare(QLatin1String("NX"), Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

}  // namespace

bool Scheduler::startRedis(QString* error) {
    if (config_.redis == QLatin1String("off"))
        return true;
    bool badInput = false;
    if (config_.redisRecording)
        redis_ = RunRedis::play(config_.redisRecording->exchanges);
    else if (config_.redis == QLatin1String("private") && !options_.sharedRedis.isEmpty())
        redis_ = RunRedis::connectTo(options_.sharedRedis, error);
    else if (config_.redis == QLatin1String("private"))
        redis_ = RunRedis::startPrivate(error, &badInput);
    else if (isRedisUrl(config_.redis))
        redis_ = RunRedis::connectTo(config_.redis, error);
    else {
        *error = QStringLiteral(
            "this run's Redis was a user's server, whose URL a trace does not keep: replay it "
            "from its recording");
        badInput = true;
    }
    if (!redis_)
        fail(badInput ? RunFailure::BadInput : RunFailure::Io, *error);
    return redis_ != nullptr;
}

void Scheduler::suspendOnRedis(Attempt& a, std::coroutine_handle<> h, Attempt::RedisStep* step) {
    Process& p = processOf(a);
    p.pendingRedis = step;
    p.resumeAt = h;
    schedule(std::max(now_, p.readyAt), [this, &p] { runRedis(p); });
}

void Scheduler::runRedis(Process& p) {
    Attempt::RedisStep& step = *p.pendingRedis;
    RedisReply reply;
    if (!redis_) {
        reply = RedisReply::error(QStringLiteral("this run has no Redis (--redis off)"));
    } else if (!p.redis) {
        QString error;
        p.redis = redis_->connect(QStringLiteral("r%1").arg(nextRedis_++), &error);
        if (!p.redis)
            reply = RedisReply::error(error);
    }
    const QList<qsizetype> keys = keyPositions(step.command);
    const QString key = keys.isEmpty() ? QString() : step.command.value(keys.first());
    const qint64 asOf = step.asOf >= 0 ? step.asOf : now_;
    const bool known = redisExpiry_.contains(key);
    const qint64 livesUntil = redisExpiry_.value(key);
    const bool expired = known && livesUntil <= asOf;
    if (p.redis && expired) {
        // The key's virtual life is over: the command goes only once Redis
        // has let it go.
        const RedisReply gone = p.redis->waitUntilGone(key, options_.cancel);
        recordRedis(p, commandText({QStringLiteral("PTTL"), key}), gone, "expiry");
        redisExpiry_.remove(key);
        if (gone.isError())
            reply = gone;
    }
    const QString name = step.command.value(0).toUpper();
    if (p.redis && !reply.isError() && name == QLatin1String("XAUTOCLAIM")) {
        // XAUTOCLAIM key group consumer min-idle start: what it takes is
        // decided by Redis's clock; it goes once every entry it could take
        // is idle long enough, so the same entries are taken on any machine.
        const QString error =
            p.redis->waitUntilIdle(key, step.command.value(2), step.command.value(5),
                                   step.command.value(4).toLongLong(), options_.cancel);
        if (!error.isEmpty())
            reply = RedisReply::error(error);
    }
    if (p.redis && !reply.isError())
        reply = p.redis->run(step.command, options_.cancel);
    // What the views need of the key, which the reply alone does not say:
    // until when it counts (virtual), and that a script deleted it.
    const bool setsKey = reply.isOk() && isSet(step.command) && step.keyLives >= 0;
    const bool freed = step.frees && reply.type == RedisReply::Type::Integer && reply.integer == 1;
    recordRedis(p, commandText(step.command), reply, nullptr, setsKey ? step.keyLives : -1, freed);
    if (freed)
        redisExpiry_.remove(key);  // deleted before its time: nothing to wait for
    if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
        fail(RunFailure::Cancelled, QStringLiteral("the run was stopped before its end"));
        while (!queue_.empty()) queue_.pop();
        return;
    }
    if (redis_ && !redis_->failure().isEmpty()) {
        fail(RunFailure::BadInput, redis_->failure());
        while (!queue_.empty()) queue_.pop();
        return;
    }
    if (reply.isOk() && isSet(step.command)) {
        if (known && !expired && setsIfAbsent(step.command)) {
            // Redis forgot a key the run's clock says still lives: real
            // time outran the key, and the verdict would follow the machine.
            fail(RunFailure::Io,
                 QStringLiteral("Redis let %1 expire before the run's clock reached its end "
                                "(virtual %2 ms): this machine was too slow between two "
                                "steps for the key's real lifetime")
                     .arg(key)
                     .arg(livesUntil));
            while (!queue_.empty()) queue_.pop();
            return;
        }
        if (step.keyLives >= 0)
            redisExpiry_.insert(key, step.keyLives);
        else if (!step.command.contains(QStringLiteral("KEEPTTL"), Qt::CaseInsensitive))
            redisExpiry_.remove(key);  // set for good: nothing to wait for
    }
    step.reply = std::move(reply);
    p.pendingRedis = nullptr;
    p.readyAt = now_ + 1;  // Redis answers within the virtual millisecond
    resume(p, p.resumeAt);
}

void Scheduler::recordRedis(const Process& p, const QString& command, const RedisReply& reply,
                            const char* cause, qint64 expiresAt, bool freed) {
    if (!tracing())
        return;
    Fields fields{{"connection", p.redis ? p.redis->id() : QString()},
                  {"command", command},
                  {"reply_type", QString::fromLatin1(reply.typeId())},
                  {"reply", reply.value()}};
    if (cause)
        fields.set("cause", QString::fromLatin1(cause));
    if (expiresAt >= 0)
        fields.set("expires_at", expiresAt);
    if (freed)
        fields.set("freed", true);
    TraceEvent e;
    e.kind = EventKind::Note;
    e.note = nameId(QStringLiteral("redis"));
    e.fields = std::move(fields);
    e.actor = p.attempt->actorId();
    e.intent = p.attempt->intent();
    e.attempt = p.attempt->number();
    record(std::move(e));
}

}  // namespace idem
