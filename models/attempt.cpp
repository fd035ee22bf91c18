#include "attempt.h"

#include "run.h"

namespace idem {

Attempt::Attempt(Run& run, int intent, int number, QString kind, QString caller,
                 QVariantMap payload)
    : run_(run),
      intent_(intent),
      number_(number),
      kind_(std::move(kind)),
      caller_(std::move(caller)),
      payload_(std::move(payload)) {}

const RunConfig& Attempt::config() const {
    return run_.config();
}
qint64 Attempt::now() const {
    return run_.now();
}

void Attempt::SqlStep::await_suspend(std::coroutine_handle<> h) {
    attempt.run_.suspendOnSql(attempt, h, std::move(sql), std::move(params));
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
    const RunConfig& c = config();
    if (!counted_ || point == CrashPoint::None || c.crash != point || c.crashAttempt != number_) {
        return false;
    }
    const VariantInfo* v = run_.scenario().info().variant(c.variant);
    return v && v->crashPoints.contains(point);
}

void Attempt::guard(const QString& guardName, const QString& decision, QVariantMap data) {
    data.insert(QStringLiteral("guard"), guardName);
    data.insert(QStringLiteral("decision"), decision);
    run_.record(this, QStringLiteral("guard"), std::move(data));
}

void Attempt::transition(const QString& entity, const QString& from, const QString& to,
                         bool accepted) {
    run_.record(this, QStringLiteral("transition"),
                {{"entity", entity}, {"from", from}, {"to", to}, {"accepted", accepted}});
}

void Attempt::alert(const QString& key, qint64 count, const QString& message) {
    run_.record(this, QStringLiteral("alert"),
                {{"key", key}, {"count", count}, {"message", message}});
}

void Attempt::note(const QString& kind, QVariantMap data) {
    run_.record(this, kind, std::move(data));
}

}  // namespace idem
