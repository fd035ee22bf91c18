#include "ordercreate.h"

#include "attempt.h"
#include "dedupguard.h"
#include "run.h"
#include "uniquekey.h"

namespace idem {

namespace {

const QString kInsertOrder =
    QStringLiteral(R"(INSERT INTO orders (request_id, user_id, amount, created_at)
VALUES (?, ?, ?, ?)
RETURNING id)");
const QString kFindOrder = QStringLiteral("SELECT id FROM orders WHERE request_id = ?");

qint64 userOf(int intent) {
    return 10001 + intent;
}
qint64 amountOf(int intent) {
    return 199 + (intent % 7) * 100;
}

// The key must name the intent; with request-id=per-click the page makes a
// new one on every click, and the dedup table can no longer see duplicates.
QString requestIdOf(const Attempt& a) {
    if (a.config().params.value(QStringLiteral("request-id")) == QLatin1String("per-click")) {
        return QStringLiteral("req-%1-click-%2").arg(a.intent() + 1).arg(a.number());
    }
    return QStringLiteral("req-%1").arg(a.intent() + 1);
}

// Under gateway-retry the first attempt is slower than the gateway's timeout.
Attempt::WaitStep businessWork(Attempt& a) {
    const bool slow = a.config().source == Source::GatewayRetry && a.number() == 1;
    return a.work(slow ? retryIntervalMs(Source::GatewayRetry, 0) + 1'000 : 0,
                  QStringLiteral("price and risk checks"));
}

DedupGuard::Options dedupOptions(const RunConfig& c, bool expiry) {
    return DedupGuard::Options{expiry, c.expiryMs, c.retentionMs};
}

}  // namespace

OrderCreate::OrderCreate() {
    const QList<CrashPoint> separate{CrashPoint::AfterGuard, CrashPoint::AfterBusiness,
                                     CrashPoint::BeforeResponse};
    const QList<CrashPoint> answerOnly{CrashPoint::BeforeResponse};
    const QString uniqueRequestId =
        QStringLiteral("CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)");
    info_.id = QStringLiteral("order-create");
    info_.group = QStringLiteral("recommended");
    info_.title = QStringLiteral("Order creation");
    info_.schema = {QStringLiteral(R"(CREATE TABLE orders (
    id         INTEGER PRIMARY KEY,
    request_id TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"),
                    // Orders are looked up by user (the judge counts a user's orders).
                    QStringLiteral("CREATE INDEX idx_orders_user_id ON orders (user_id)")};
    info_.variants = {
        {.id = "none",
         .crashPoints = answerOnly,
         .summary = "insert the order, no guard",
         .handle =
             [this](Attempt& a) {
                 return createWithoutGuard(a);
             }},
        {.id = "check-then-insert",
         .crashPoints = answerOnly,
         .summary = "SELECT by request_id, then INSERT; no constraint",
         .handle =
             [this](Attempt& a) {
                 return checkThenInsert(a);
             }},
        {.id = "unique-key",
         .crashPoints = answerOnly,
         .summary = "UNIQUE(request_id); on conflict return the existing order",
         .handle = [this](Attempt& a) { return uniqueKey(a); },
         .schema = {uniqueRequestId}},
        {.id = "dedup-table",
         .recommended = true,
         .crashPoints = separate,
         .summary = "dedup row PROCESSING -> order -> SUCCESS in separate transactions; expiry "
                    "+ recheck",
         .handle = [this](Attempt& a) { return dedupTable(a, true, true); },
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-no-expiry",
         .crashPoints = separate,
         .summary = "dedup table whose PROCESSING rows never expire",
         .handle = [this](Attempt& a) { return dedupTable(a, false, true); },
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-no-recheck",
         .crashPoints = separate,
         .summary = "dedup table; takeover after expiry without checking the order",
         .handle = [this](Attempt& a) { return dedupTable(a, true, false); },
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-same-tx",
         .crashPoints = answerOnly,
         .summary = "dedup row and order in one transaction",
         .handle = [this](Attempt& a) { return dedupSameTransaction(a); },
         .schema = {DedupGuard::schema()}},
    };
    info_.sources = {Source::DoubleClick, Source::GatewayRetry};
    info_.defaultTiming = Timing::Concurrent;
    info_.params = {{"request-id",
                     "per-intent",
                     {"per-intent", "per-click"},
                     0,
                     0,
                     "per-intent: one requestId per order form; per-click: a new one per click"}};
    info_.tables = {"dedup", "orders"};
    info_.guardTable = "dedup";
    info_.effectNames = {"orders"};
    info_.stateMachine = {
        "dedup record",
        {{"", "", 0, 1}, {"PROCESSING", "处理中", 2, 1}, {"SUCCESS", "成功", 4, 1}},
        {{"", "PROCESSING"}, {"PROCESSING", "PROCESSING"}, {"PROCESSING", "SUCCESS"}},
        {"dedup-table", "dedup-no-expiry", "dedup-no-recheck", "dedup-same-tx"}};
}

Task<QString> OrderCreate::insertOrder(Attempt& a) const {
    const SqlResult r = co_await a.sql(kInsertOrder, requestIdOf(a), userOf(a.intent()),
                                       amountOf(a.intent()), a.now());
    co_return r.value().toString();
}

Task<Reply> OrderCreate::createWithoutGuard(Attempt& a) const {
    co_await businessWork(a);
    const QString id = co_await insertOrder(a);
    co_return Reply{Response::Success, id};
}

Task<Reply> OrderCreate::checkThenInsert(Attempt& a) const {
    const SqlResult found = co_await a.sql(kFindOrder, requestIdOf(a));
    if (!found.empty()) {
        a.guard("check-then-insert", "found", {{"request_id", requestIdOf(a)}});
        co_return Reply{Response::Success, found.value().toString()};
    }
    a.guard("check-then-insert", "not-found", {{"request_id", requestIdOf(a)}});
    co_await businessWork(a);
    const QString id = co_await insertOrder(a);
    co_return Reply{Response::Success, id};
}

Task<Reply> OrderCreate::uniqueKey(Attempt& a) const {
    co_await businessWork(a);
    const UniqueInsert u = co_await insertUnique(
        a, requestIdOf(a), kInsertOrder,
        bound(requestIdOf(a), userOf(a.intent()), amountOf(a.intent()), a.now()), kFindOrder,
        bound(requestIdOf(a)));
    co_return Reply{Response::Success, u.row.value().toString()};
}

Task<Reply> OrderCreate::dedupTable(Attempt& a, bool expiry, bool recheck) const {
    const DedupGuard dedup(QStringLiteral("order-create"), dedupOptions(a.config(), expiry));
    const QString key = requestIdOf(a);

    // 1. Claim the request id (its own transaction).
    const DedupGuard::Claim claim = co_await dedup.claim(a, key);
    if (claim.outcome == DedupGuard::Outcome::Done)
        co_return Reply{Response::Success, claim.result};
    if (claim.outcome == DedupGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};
    co_await a.crashPoint(CrashPoint::AfterGuard);

    // 2. After a takeover, ask the business whether the dead owner got as far
    //    as creating the order (状态回查) before creating it again.
    if (claim.outcome == DedupGuard::Outcome::TakenOver && recheck) {
        const SqlResult found = co_await a.sql(kFindOrder, key);
        a.guard("dedup", found.empty() ? "recheck-not-found" : "recheck-found", {{"biz_id", key}});
        if (!found.empty()) {
            co_await dedup.markSuccess(a, key, found.value().toString());
            co_return Reply{Response::Success, found.value().toString()};
        }
    }

    // 3. The business, in its own transaction.
    co_await businessWork(a);
    co_await a.begin();
    const QString id = co_await insertOrder(a);
    co_await a.commit();
    co_await a.crashPoint(CrashPoint::AfterBusiness);

    // 4. Record the outcome so duplicates get the same answer.
    co_await dedup.markSuccess(a, key, id);
    co_return Reply{Response::Success, id};
}

Task<Reply> OrderCreate::dedupSameTransaction(Attempt& a) const {
    const DedupGuard dedup(QStringLiteral("order-create"), dedupOptions(a.config(), false));
    const QString key = requestIdOf(a);
    co_await a.begin();
    const DedupGuard::Claim claim = co_await dedup.claim(a, key);
    if (claim.outcome != DedupGuard::Outcome::Claimed) {
        co_await a.commit();
        co_return Reply{
            claim.outcome == DedupGuard::Outcome::Done ? Response::Success : Response::InProgress,
            claim.result};
    }
    co_await businessWork(a);
    const QString id = co_await insertOrder(a);
    co_await dedup.markSuccess(a, key, id);
    co_await a.commit();
    co_return Reply{Response::Success, id};
}

Effects OrderCreate::effects(Reader& db, int intent) const {
    return {{QStringLiteral("orders"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM orders WHERE user_id = ?"),
                      {userOf(intent)})}};
}

std::vector<AnswerTruth> OrderCreate::answerTruthOfAll(Reader& db, int intents) const {
    std::vector<AnswerTruth> all(static_cast<std::size_t>(intents), AnswerTruth{true, false, {}});
    const SqlResult r = db.query(QStringLiteral(R"(SELECT user_id, COUNT(*), MIN(id)
FROM orders
GROUP BY user_id)"));
    for (const QVariantList& row : r.data) {
        const qint64 intent = row[0].toLongLong() - userOf(0);
        if (intent < 0 || intent >= intents)
            continue;
        AnswerTruth& t = all[std::size_t(intent)];
        t.happened = true;
        // Two orders are already a duplicate; no single id is the right one.
        if (row[1].toLongLong() == 1)
            t.result = row[2].toString();
    }
    return all;
}

std::vector<Effects> OrderCreate::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all(std::size_t(intents), Effects{{QStringLiteral("orders"), 0}});
    const SqlResult r = db.query(QStringLiteral(R"(SELECT user_id, COUNT(*)
FROM orders
GROUP BY user_id)"));
    for (const QVariantList& row : r.data) {
        const qint64 intent = row[0].toLongLong() - userOf(0);
        if (intent >= 0 && intent < intents)
            all[std::size_t(intent)][QStringLiteral("orders")] = row[1].toLongLong();
    }
    return all;
}

}  // namespace idem
