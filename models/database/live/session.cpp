#include "session.h"

#include "mariasession.h"
#include "pgsession.h"

#include <atomic>
#include <chrono>

namespace idem::live {

QString serverName(ServerKind kind) {
    switch (kind) {
        case ServerKind::Postgres:
            return QStringLiteral("PostgreSQL");
        case ServerKind::MariaDb:
            return QStringLiteral("MariaDB");
    }
    return {};
}

QString StatementResult::errorText() const {
    if (ok())
        return {};
    if (sqlState.isEmpty())
        return message;
    if (nativeCode != 0)
        return QStringLiteral("%1 (%2, SQLSTATE %3)").arg(message).arg(nativeCode).arg(sqlState);
    return QStringLiteral("%1 (%2)").arg(message, sqlState);
}

Session::Session(ServerKind kind, const QString& id) : kind_(kind), id_(id) {}

Session::~Session() = default;

qint64 steadyMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void Session::markSent() {
    static std::atomic<quint64> sent{0};
    busy_ = true;
    sentOrder_ = ++sent;
    sentAtMs_ = steadyMs();
}

const StatementResult& Session::exec(const QString& sql, const QVariantList& params) {
    if (send(sql, params))
        poll(-1);
    return result_;
}

const StatementResult& Session::exec(const QString& sql, const QVariantList& params,
                                     const std::atomic<bool>* stop) {
    if (send(sql, params))
        waitForAnswer(stop);
    return result_;
}

void Session::waitForAnswer(const std::atomic<bool>* stop) {
    while (!poll(100)) {
        if (!stop || !stop->load(std::memory_order_relaxed))
            continue;
        if (!cancel() || !poll(5000))
            close();
        StatementResult stopped;
        stopped.outcome = SqlOutcome::OtherError;
        stopped.message = QStringLiteral("stopped");
        finish(std::move(stopped));
        break;
    }
}

void Session::finish(StatementResult result) {
    result_ = std::move(result);
    busy_ = false;
}

void Session::failToSend(const QString& message) {
    StatementResult failed;
    failed.outcome = SqlOutcome::OtherError;
    failed.message = message;
    result_ = std::move(failed);
}

std::unique_ptr<Session> openSession(const Endpoint& endpoint, const QString& id) {
    switch (endpoint.kind) {
        case ServerKind::Postgres:
            return std::make_unique<PgSession>(endpoint, id);
        case ServerKind::MariaDb:
            return std::make_unique<MariaSession>(endpoint, id);
    }
    return nullptr;
}

}  // namespace idem::live
