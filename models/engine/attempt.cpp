#include "attempt.h"

#include "scheduler.h"

namespace idem {

Attempt::Attempt(Scheduler& run, const AttemptSpec& spec, int number)
    : run_(run),
      intent_(spec.intent),
      number_(number),
      kind_(spec.kind),
      caller_(spec.caller),
      actor_(nameId(spec.actor)),
      payload_(spec.payload),
      arrivedAt_(run.now()),
      retryDepth_(spec.retryDepth),
      counted_(spec.counted),
      changedPayload_(spec.changedPayload),
      operation_(spec.operation) {}

const RunConfig& Attempt::config() const {
    return run_.config();
}
const VariantInfo& Attempt::variant() const {
    return run_.variant();
}
qint64 Attempt::now() const {
    return run_.now();
}

Attempt::SqlStep Attempt::begin() {
    return sql(run_.backend().beginStatement());
}

void Attempt::SqlStep::await_suspend(std::coroutine_handle<> h) {
    attempt.run_.suspendOnSql(attempt, h, this);
}

SqlResult Attempt::SqlStep::await_resume() {
    if (!result.ok && !mayFail) {
        throw SqlFailure(QStringLiteral("the statement %1 failed: %2")
                             .arg(sql.simplified().left(60), result.errorText())
                             .toStdString());
    }
    return std::move(result);
}

bool Attempt::usesRedis() const {
    return config().redis != QLatin1String("off");
}

void Attempt::RedisStep::await_suspend(std::coroutine_handle<> h) {
    attempt.run_.suspendOnRedis(attempt, h, this);
}

RedisReply Attempt::RedisStep::await_resume() {
    if (reply.isError() && !mayFail)
        throw SqlFailure(QStringLiteral("Redis refused %1: %2")
                             .arg(commandText(command).left(60), reply.text)
                             .toStdString());
    return std::move(reply);
}

bool Attempt::CrashStep::await_ready() const noexcept {
    return !attempt.crashesAt(point);
}

void Attempt::CrashStep::await_suspend(std::coroutine_handle<> h) {
    if (point == CrashPoint::LongPause) {
        attempt.run_.pause(attempt, h);
    } else {
        attempt.run_.crash(attempt, point);
    }
}

void Attempt::WaitStep::await_suspend(std::coroutine_handle<> h) {
    attempt.run_.suspendOnWait(attempt, h, ms, what);
}

void Attempt::fire(const AttemptSpec& spec) {
    run_.fire(spec);
}

bool Attempt::crashesAt(CrashPoint point) const {
    return run_.attemptCrashes(*this, point);
}

void Attempt::guard(const char* guardName, const char* decision, Fields details) {
    if (!run_.tracing())
        return;
    Fields fields{{"guard", QString::fromLatin1(guardName)},
                  {"decision", QString::fromLatin1(decision)}};
    for (const Field& f : details) fields.set(f.key, f.value);
    run_.recordFor(*this, EventKind::Guard, std::move(fields));
}

void Attempt::transition(const QString& entity, const QString& from, const QString& to,
                         bool accepted) {
    if (!run_.tracing())
        return;
    run_.recordFor(
        *this, EventKind::Transition,
        {{"entity", entity}, {"from_state", from}, {"to_state", to}, {"accepted", accepted}});
}

void Attempt::alert(const QString& key, qint64 count, const Phrase& message) {
    run_.raiseAlert(*this, key, count, message);
}

void Attempt::note(const QString& kind, Fields fields) {
    if (!run_.tracing())
        return;
    TraceEvent e;
    e.kind = EventKind::Note;
    e.note = nameId(kind);
    e.fields = std::move(fields);
    e.actor = actorId();
    e.intent = intent();
    e.attempt = number();
    run_.record(std::move(e));
}

}  // namespace idem
