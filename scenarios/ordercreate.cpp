#include "ordercreate.h"

#include "attempt.h"
#include "dedupguard.h"
#include "uniquekey.h"

#include <QCoreApplication>

#include <optional>

namespace idem {

namespace {

const QString kInsertOrder =
    QStringLiteral(R"(INSERT INTO orders (request_id, user_id, amount, created_at)
VALUES (?, ?, ?, ?)
RETURNING id)");
const QString kFindOrder = QStringLiteral("SELECT id FROM orders WHERE request_id = ?");
// A locking read: on a missing key InnoDB locks the gap where it would be.
const QString kFindOrderForUpdate =
    QStringLiteral("SELECT id FROM orders WHERE request_id = ? FOR UPDATE");

// The live servers' orders table (SPEC section 8): an identity column on
// PostgreSQL, AUTO_INCREMENT on MariaDB, and a bounded key that an index
// can hold whole.
const QString kOrdersPostgres = QStringLiteral(R"(CREATE TABLE orders (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request_id VARCHAR(64) NOT NULL,
    user_id    BIGINT NOT NULL,
    amount     BIGINT NOT NULL,
    created_at BIGINT NOT NULL
))");
const QString kOrdersMariaDb = QStringLiteral(R"(CREATE TABLE orders (
    id         BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    request_id VARCHAR(64) NOT NULL,
    user_id    BIGINT NOT NULL,
    amount     BIGINT NOT NULL,
    created_at BIGINT NOT NULL
) ENGINE = InnoDB)");
// The article's own form of the unique key.
const QString kUniqueMariaDb =
    QStringLiteral("ALTER TABLE orders ADD UNIQUE KEY uk_orders_request_id (request_id)");

// This scenario's sentences, said in English in the summary and the trace
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::OrderCreate", source, std::move(args));
}

Phrase riskUnavailable() {
    return said(QT_TRANSLATE_NOOP("idem::OrderCreate", "risk service unavailable (503)"));
}
// The error a dedup record keeps is the risk service's, written in English
// in the table: said as that error again.
Phrase storedError(const QString& stored) {
    const Phrase risk = riskUnavailable();
    return stored == risk.english() ? risk : Phrase(stored);
}

qint64 userOf(int intent) {
    return 10001 + intent;
}
qint64 amountOf(int intent) {
    return 199 + (intent % 7) * 100;
}
// With payload=changed, the k-th duplicate asks for 100 more per k.
qint64 changedAmount(int intent, int change) {
    return amountOf(intent) + 100 * change;
}
// Which payload asked for this amount (AttemptSpec::changedPayload).
int changeOfAmount(int intent, qint64 amount) {
    const qint64 more = amount - amountOf(intent);
    return more > 0 && more % 100 == 0 ? int(more / 100) : 0;
}
// The amount this request asks for: the intent's, unless the request reuses
// the key with a changed amount (payload=changed).
qint64 amountOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("amount"), amountOf(a.intent())).toLongLong();
}
// What the request asks for, as a fingerprint sees it (the key itself apart).
QVariantMap requestOf(const Attempt& a) {
    return {{QStringLiteral("user_id"), userOf(a.intent())},
            {QStringLiteral("amount"), amountOf(a)}};
}

// The key must name the intent; with request-id=per-click the page makes a
// new one on every click, and the dedup table can no longer see duplicates.
QString requestIdOf(const Attempt& a) {
    if (a.config().params.value(QStringLiteral("request-id")) == QLatin1String("per-click")) {
        return QStringLiteral("req-%1-click-%2").arg(a.intent() + 1).arg(a.number());
    }
    return QStringLiteral("req-%1").arg(a.intent() + 1);
}

// With business-error=1 the first business step of the intent fails with a
// transient error, as when the risk service answers 503 for a moment. The
// first is the attempt that claimed the key (under concurrent it need not be
// attempt 1); without a dedup table to tell, it is attempt 1.
bool businessStepFails(const Attempt& a, bool firstToRun) {
    return a.config().param(QStringLiteral("business-error")) == QLatin1String("1") && firstToRun;
}

// A claim that did not make this attempt the owner already says what to
// answer: the stored result, "in progress", the stored error, or a refusal
// of a reused key (the IETF draft's 422).
std::optional<Reply> answerFromClaim(const DedupGuard::Claim& claim) {
    switch (claim.outcome) {
        case DedupGuard::Outcome::Done:
            return Reply{Response::Success, claim.result};
        case DedupGuard::Outcome::InProgress:
            return Reply{Response::InProgress, {}};
        case DedupGuard::Outcome::Failed:
            return Reply{Response::Error, storedError(claim.result)};
        case DedupGuard::Outcome::KeyReused:
            return Reply{Response::Rejected, QStringLiteral("key-reused")};
        case DedupGuard::Outcome::Claimed:
        case DedupGuard::Outcome::TakenOver:
            break;
    }
    return std::nullopt;
}

}  // namespace

OrderCreate::OrderCreate() {
    const QList<CrashPoint> separate{CrashPoint::AfterGuard, CrashPoint::AfterBusiness,
                                     CrashPoint::BeforeResponse};
    const QList<CrashPoint> answerOnly{CrashPoint::BeforeResponse};
    const QString uniqueRequestId =
        QStringLiteral("CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)");
    auto dedup = [this](DedupPolicy policy) {
        return [this, policy](Attempt& a) {
            return dedupTable(a, policy);
        };
    };
    info_.id = QStringLiteral("order-create");
    info_.group = ScenarioGroup::Recommended;
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
        {.id = "check-in-tx",
         .crashPoints = answerOnly,
         .summary = "BEGIN; SELECT by request_id; INSERT if absent; COMMIT; no constraint",
         .handle = [this](Attempt& a) { return checkInTransaction(a); },
         .serverLesson = true},
        {.id = "check-for-update",
         .crashPoints = answerOnly,
         .summary = "BEGIN; SELECT ... FOR UPDATE by request_id; INSERT if absent; COMMIT; "
                    "UNIQUE(request_id) as the backstop",
         .handle = [this](Attempt& a) { return checkForUpdate(a); },
         .schema = {uniqueRequestId},
         .serverOnly = true,
         .serverLesson = true},
        {.id = "dedup-table",
         .recommended = true,
         .crashPoints = separate,
         .summary = "dedup row PROCESSING -> order -> SUCCESS in separate transactions; expiry "
                    "+ recheck",
         .handle = dedup({}),
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-no-expiry",
         .crashPoints = separate,
         .summary = "dedup table whose PROCESSING rows never expire",
         .handle = dedup({.expiry = false}),
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-no-recheck",
         .crashPoints = separate,
         .summary = "dedup table; takeover after expiry without checking the order",
         .handle = dedup({.recheck = false}),
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-same-tx",
         .crashPoints = answerOnly,
         .summary = "dedup row and order in one transaction",
         .handle = [this](Attempt& a) { return dedupSameTransaction(a); },
         .schema = {DedupGuard::schema()}},
        {.id = "dedup-and-unique",
         .crashPoints = separate,
         .summary = "dedup table, plus UNIQUE(request_id) on orders as the database backstop",
         .handle = dedup({.backstop = true}),
         .schema = {DedupGuard::schema(), uniqueRequestId}},
        {.id = "dedup-fingerprint",
         .crashPoints = separate,
         .summary = "dedup table storing a hash of the request; another payload under the key "
                    "is rejected: key-reused",
         .handle = dedup({.fingerprint = true}),
         .schema = {DedupGuard::schema(), DedupGuard::fingerprintColumn()}},
        {.id = "dedup-cache-error",
         .crashPoints = separate,
         .summary = "dedup table that keeps a failed business step as the final answer",
         .handle = dedup({.cacheErrors = true}),
         .schema = {DedupGuard::schema()}},
    };
    info_.sources = {Source::DoubleClick, Source::GatewayRetry};
    info_.defaultTiming = Timing::Concurrent;
    info_.params = {
        {"request-id",
         "per-intent",
         {"per-intent", "per-click"},
         0,
         0,
         "per-intent: one requestId per order form; per-click: a new one per click"},
        {"payload",
         "same",
         {"same", "changed"},
         0,
         0,
         "changed: every duplicate reuses the requestId with a different amount"},
        {"business-error",
         "0",
         {"0", "1"},
         0,
         0,
         "1: the first business step fails with a transient error (risk service 503)"},
    };
    info_.tables = {"dedup", "orders"};
    info_.guardTable = "dedup";
    info_.lanes = {"client", "gateway", "service"};
    info_.baseline = "none";
    info_.effectTable = "orders";
    info_.effectNames = {"orders"};
    info_.stateMachine = {"dedup record",
                          {{"", "", 0, 1},
                           {"PROCESSING", "处理中", 2, 1},
                           {"SUCCESS", "成功", 4.5, 0},
                           {"FAILED", "失败", 4.5, 2}},
                          {{"", "PROCESSING"},
                           {"PROCESSING", "PROCESSING"},
                           {"PROCESSING", "SUCCESS"},
                           {"PROCESSING", "FAILED"},
                           {"FAILED", "PROCESSING"}},
                          {"dedup-table", "dedup-no-expiry", "dedup-no-recheck", "dedup-same-tx",
                           "dedup-and-unique", "dedup-fingerprint", "dedup-cache-error"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT biz_id, status FROM dedup");
    info_.words = {
        .notes = {{"business-error",
                   said(QT_TRANSLATE_NOOP("idem::OrderCreate", "business error")),
                   said(QT_TRANSLATE_NOOP("idem::OrderCreate",
                                          "%1's business step fails with a transient error (%2): "
                                          "nothing was written, a retry may succeed.")),
                   {NoteArg::who(), NoteArg::phraseIn("error")}}},
        .guards = {{"check-then-insert",
                    said(QT_TRANSLATE_NOOP("idem::OrderCreate", "check then insert"))}},
        .params =
            {{"request-id",
              said(QT_TRANSLATE_NOOP("idem::OrderCreate", "Request id")),
              said(QT_TRANSLATE_NOOP("idem::OrderCreate",
                                     "One requestId per order form, or a new one for every click "
                                     "(then repeats look like new orders)")),
              {{"per-intent", said(QT_TRANSLATE_NOOP("idem::OrderCreate", "one per order form"))},
               {"per-click", said(QT_TRANSLATE_NOOP("idem::OrderCreate", "a new one per click"))}}},
             {"payload",
              said(QT_TRANSLATE_NOOP("idem::OrderCreate", "Payload of repeats")),
              said(QT_TRANSLATE_NOOP("idem::OrderCreate",
                                     "Changed: every repeat reuses the requestId with a different "
                                     "amount")),
              {{"same", said(QT_TRANSLATE_NOOP("idem::OrderCreate", "the same"))},
               {"changed", said(QT_TRANSLATE_NOOP("idem::OrderCreate", "changed"))}}},
             {"business-error", said(QT_TRANSLATE_NOOP("idem::OrderCreate", "Business step fails")),
              said(QT_TRANSLATE_NOOP("idem::OrderCreate",
                                     "On: the first business step fails with a transient error "
                                     "(the risk service answers 503)"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::OrderCreate", "dedup record")),
    };
}

void OrderCreate::plan(Planner& planner, int intent) const {
    std::vector<AttemptSpec> specs = planner.defaultSpecs(intent);
    if (info_.paramValue(planner.config(), QStringLiteral("payload")) == QLatin1String("changed")) {
        // Every duplicate reuses the key with an amount of its own. Arriving
        // at the same instant, they come in the seed's order like any
        // duplicates: a changed request may get to the key first.
        for (AttemptSpec& s : specs) {
            if (s.number == 1)
                continue;
            s.changedPayload = s.number - 1;
            s.payload = {{"amount", changedAmount(intent, s.changedPayload)}};
        }
    }
    for (const AttemptSpec& s : specs) planner.fire(s);
}

QStringList OrderCreate::schema(const RunConfig& config) const {
    QStringList s = Scenario::schema(config);
    if (config.backend == QLatin1String("sqlite"))
        return s;
    const bool maria = config.backend == QLatin1String("mariadb");
    for (QString& statement : s) {
        if (statement.startsWith(QLatin1String("CREATE TABLE orders")))
            statement = maria ? kOrdersMariaDb : kOrdersPostgres;
        else if (maria && statement.startsWith(QLatin1String("CREATE UNIQUE INDEX uk_orders")))
            statement = kUniqueMariaDb;
    }
    return s;
}

Task<QString> OrderCreate::insertOrder(Attempt& a) const {
    const SqlResult r =
        co_await a.sql(kInsertOrder, requestIdOf(a), userOf(a.intent()), amountOf(a), a.now());
    co_return r.value().toString();
}

// With UNIQUE(request_id) the database has the last word: a second INSERT
// for the same request is refused, and the order that holds the id is the
// answer.
Task<QString> OrderCreate::insertOrFindOrder(Attempt& a) const {
    const UniqueInsert u =
        co_await insertUnique(a, requestIdOf(a), kInsertOrder,
                              bound(requestIdOf(a), userOf(a.intent()), amountOf(a), a.now()),
                              kFindOrder, bound(requestIdOf(a)));
    co_return u.row.value().toString();
}

// The price and risk checks before the order is written; false when the risk
// service failed (a transient error). Under gateway-retry the first attempt
// is slower than the gateway's timeout.
Task<bool> OrderCreate::priceAndRiskChecks(Attempt& a, bool firstToRun) const {
    if (businessStepFails(a, firstToRun)) {
        a.note(QStringLiteral("business-error"),
               {{"step", QStringLiteral("risk check")}, {"error", riskUnavailable().toVariant()}});
        co_return false;
    }
    const bool slow = a.config().source == Source::GatewayRetry && a.number() == 1;
    co_await a.work(slow ? retryIntervalMs(Source::GatewayRetry, 0) + 1'000 : 0,
                    said(QT_TRANSLATE_NOOP("idem::OrderCreate", "price and risk checks")));
    co_return true;
}

Task<Reply> OrderCreate::createWithoutGuard(Attempt& a) const {
    if (!co_await priceAndRiskChecks(a, a.number() == 1))
        co_return Reply{Response::Error, riskUnavailable()};
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
    if (!co_await priceAndRiskChecks(a, a.number() == 1))
        co_return Reply{Response::Error, riskUnavailable()};
    const QString id = co_await insertOrder(a);
    co_return Reply{Response::Success, id};
}

// BEGIN, then look for the order: found, the transaction ends and the
// order is the answer; not found, the price and risk checks run, and a
// failed one ends the transaction with its error. Nothing to answer yet:
// the caller inserts in the open transaction.
Task<std::optional<Reply>> OrderCreate::lookInTransaction(Attempt& a, const QString& find) const {
    co_await a.begin();
    const SqlResult found = co_await a.sql(find, requestIdOf(a));
    if (!found.empty()) {
        a.guard("check-then-insert", "found", {{"request_id", requestIdOf(a)}});
        co_await a.commit();
        co_return Reply{Response::Success, found.value().toString()};
    }
    a.guard("check-then-insert", "not-found", {{"request_id", requestIdOf(a)}});
    if (!co_await priceAndRiskChecks(a, a.number() == 1)) {
        co_await a.rollback();
        co_return Reply{Response::Error, riskUnavailable()};
    }
    co_return std::nullopt;
}

// The check and the insert in one transaction, with no constraint: only the
// isolation level can keep a second order out. SQLite's BEGIN IMMEDIATE makes
// the second writer wait (so it passes); a server's default level lets both
// SELECTs see nothing (SPEC section 8).
Task<Reply> OrderCreate::checkInTransaction(Attempt& a) const {
    if (std::optional<Reply> answer = co_await lookInTransaction(a, kFindOrder))
        co_return *answer;
    const QString id = co_await insertOrder(a);
    co_await a.commit();
    co_return Reply{Response::Success, id};
}

// The pattern many services write: a locking read, then the insert, with
// UNIQUE(request_id) as the backstop. PostgreSQL locks no gap, so the second
// INSERT waits for the first and then meets the key; InnoDB locks the gap
// of the missing key for both, and their INSERTs deadlock.
Task<Reply> OrderCreate::checkForUpdate(Attempt& a) const {
    if (std::optional<Reply> answer = co_await lookInTransaction(a, kFindOrderForUpdate))
        co_return *answer;
    const SqlResult inserted =
        co_await a.trySql(kInsertOrder, requestIdOf(a), userOf(a.intent()), amountOf(a), a.now());
    if (inserted.isUniqueViolation()) {
        // Another transaction created it first; PostgreSQL has aborted this
        // one, so the order is read after the rollback.
        co_await a.rollback();
        const SqlResult existing = co_await a.sql(kFindOrder, requestIdOf(a));
        a.guard("unique-key", "duplicate",
                {{"key", requestIdOf(a)}, {"conflict", inserted.errorText()}});
        co_return Reply{Response::Success, existing.value().toString()};
    }
    if (!inserted.ok) {
        // A deadlock's victim: the server rolled the transaction back
        // (InnoDB) or aborted it (PostgreSQL, which still wants ROLLBACK).
        co_await a.rollback();
        co_return Reply{Response::Error, inserted.errorText()};
    }
    co_await a.commit();
    co_return Reply{Response::Success, inserted.value().toString()};
}

Task<Reply> OrderCreate::uniqueKey(Attempt& a) const {
    if (!co_await priceAndRiskChecks(a, a.number() == 1))
        co_return Reply{Response::Error, riskUnavailable()};
    const QString id = co_await insertOrFindOrder(a);
    co_return Reply{Response::Success, id};
}

Task<Reply> OrderCreate::dedupTable(Attempt& a, DedupPolicy policy) const {
    const RunConfig& c = a.config();
    const DedupGuard dedup(
        QStringLiteral("order-create"),
        DedupGuard::Options{policy.expiry, c.expiryMs, c.retentionMs, policy.cacheErrors});
    const QString key = requestIdOf(a);
    const QString fingerprint =
        policy.fingerprint ? DedupGuard::fingerprint(requestOf(a)) : QString();

    // 1. Claim the request id (its own transaction).
    const DedupGuard::Claim claim = co_await dedup.claim(a, key, fingerprint);
    if (const std::optional<Reply> answer = answerFromClaim(claim))
        co_return *answer;
    co_await a.crashPoint(CrashPoint::AfterGuard);

    // 2. After a takeover, ask the business whether the dead owner got as far
    //    as creating the order (状态回查) before creating it again.
    if (claim.outcome == DedupGuard::Outcome::TakenOver && policy.recheck) {
        const SqlResult found = co_await a.sql(kFindOrder, key);
        a.guard("dedup", found.empty() ? "recheck-not-found" : "recheck-found", {{"biz_id", key}});
        if (!found.empty()) {
            co_await dedup.markSuccess(a, key, found.value().toString());
            co_return Reply{Response::Success, found.value().toString()};
        }
    }

    // 3. The business, in its own transaction. A transient failure is
    //    recorded, so that a retry may claim the key again (or, caching
    //    errors, so that every repeat hears the same error).
    if (!co_await priceAndRiskChecks(a, claim.outcome == DedupGuard::Outcome::Claimed)) {
        co_await dedup.markFailed(a, key, riskUnavailable().english());
        co_return Reply{Response::Error, riskUnavailable()};
    }
    co_await a.begin();
    QString id;
    if (policy.backstop)
        id = co_await insertOrFindOrder(a);
    else
        id = co_await insertOrder(a);
    co_await a.commit();
    co_await a.crashPoint(CrashPoint::AfterBusiness);

    // 4. Record the outcome so duplicates get the same answer.
    co_await dedup.markSuccess(a, key, id);
    co_return Reply{Response::Success, id};
}

Task<Reply> OrderCreate::dedupSameTransaction(Attempt& a) const {
    const RunConfig& c = a.config();
    const DedupGuard dedup(QStringLiteral("order-create"),
                           DedupGuard::Options{false, c.expiryMs, c.retentionMs});
    const QString key = requestIdOf(a);
    co_await a.begin();
    const DedupGuard::Claim claim = co_await dedup.claim(a, key);
    if (const std::optional<Reply> answer = answerFromClaim(claim)) {
        co_await a.commit();
        co_return *answer;
    }
    // A failure rolls the claim back with everything else: nothing to record.
    if (!co_await priceAndRiskChecks(a, a.number() == 1)) {
        co_await a.rollback();
        co_return Reply{Response::Error, riskUnavailable()};
    }
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
    // Each user's first order, and how many there are.
    const SqlResult r = db.query(QStringLiteral(R"(SELECT o.user_id, f.n, o.id, o.amount
FROM orders o
JOIN (SELECT user_id, COUNT(*) AS n, MIN(id) AS first_id
      FROM orders
      GROUP BY user_id) f ON o.id = f.first_id)"));
    for (const QVariantList& row : r.data) {
        const qint64 intent = row[0].toLongLong() - userOf(0);
        if (intent < 0 || intent >= intents)
            continue;
        AnswerTruth& t = all[std::size_t(intent)];
        t.happened = true;
        // Two orders are already a duplicate; no single id is the right one.
        if (row[1].toLongLong() == 1)
            t.result = row[2].toString();
        // The amount tells whose request the order is.
        t.payloadDone = changeOfAmount(int(intent), row[3].toLongLong());
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
