#include "bolton.h"

#include "attempt.h"
#include "dedupguard.h"
#include "statemachine.h"
#include "uniquekey.h"

#include <QCoreApplication>

namespace idem {

namespace {

// This scenario's words, said in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::BoltOn", source, std::move(args));
}

// The model the layer was bolted onto: an order and a list of refunds,
// nothing that could tell a first refund from a second one.
const QString kLooseOrders = QStringLiteral(R"(CREATE TABLE orders (
    id       TEXT    PRIMARY KEY,
    user_id  INTEGER NOT NULL,
    amount   INTEGER NOT NULL,
    refunded INTEGER NOT NULL DEFAULT 0
))");
// The model designed for it: the order has a status that only moves
// forward, and a refund is unique per order.
const QString kOrdersWithStatus = QStringLiteral(R"(CREATE TABLE orders (
    id      TEXT    PRIMARY KEY,
    user_id INTEGER NOT NULL,
    amount  INTEGER NOT NULL,
    status  TEXT    NOT NULL CHECK (status IN ('PAID', 'REFUNDED'))
))");
const QString kRefundPerOrder =
    QStringLiteral("CREATE UNIQUE INDEX uk_refunds_order ON refunds (order_id)");

const QString kInsertRefund = QStringLiteral(R"(INSERT INTO refunds (order_id, amount, created_at)
VALUES (?, ?, ?)
RETURNING id)");
const QString kAddRefunded = QStringLiteral(R"(UPDATE orders
SET refunded = refunded + ?
WHERE id = ?)");
const QString kMarkRefunded = QStringLiteral(R"(UPDATE orders
SET status = 'REFUNDED'
WHERE id = ?
  AND status = 'PAID')");
const QString kFindRefund = QStringLiteral("SELECT id FROM refunds WHERE order_id = ?");
const QString kForget = QStringLiteral(R"(DELETE FROM dedup
WHERE biz_type = ? AND biz_id = ?
RETURNING status)");

const QString kBizType = QStringLiteral("refund");
constexpr qint64 kFirstOrder = 80000001;

qint64 userOf(int intent) {
    return 20001 + intent;
}
qint64 amountOf(int intent) {
    return 12'900 + (intent % 5) * 100;
}

}  // namespace

QString BoltOn::orderOf(int intent) {
    return QStringLiteral("R%1").arg(kFirstOrder + intent);
}

BoltOn::BoltOn() {
    const QList<CrashPoint> points{CrashPoint::DedupStoreLost};
    info_.id = QStringLiteral("bolt-on");
    info_.group = ScenarioGroup::Misconception;
    info_.title = QStringLiteral("Idempotency bolted on as a dedup layer");
    // The dedup layer is the same in both variants; so is the refunds list.
    info_.schema = {DedupGuard::schema(), QStringLiteral(R"(CREATE TABLE refunds (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))")};
    info_.variants = {
        {.id = "dedup-layer-only",
         .crashPoints = points,
         .summary = "a dedup layer in front; refunds has no unique key, the order no status",
         .handle = [this](Attempt& a) { return serve(a, false); },
         .schema = {kLooseOrders},
         .seed =
             [](Setup& setup, int intent) {
                 setup.exec(QStringLiteral(R"(INSERT INTO orders (id, user_id, amount)
VALUES (?, ?, ?))"),
                            {orderOf(intent), userOf(intent), amountOf(intent)}, intent);
             }},
        {.id = "designed-in",
         .recommended = true,
         .crashPoints = points,
         .summary = "the same layer; UNIQUE(order_id) on refunds and the order's status "
                    "PAID -> REFUNDED as a conditional update, one transaction",
         .handle = [this](Attempt& a) { return serve(a, true); },
         .schema = {kOrdersWithStatus, kRefundPerOrder},
         .seed =
             [](Setup& setup, int intent) {
                 setup.exec(QStringLiteral(R"(INSERT INTO orders (id, user_id, amount, status)
VALUES (?, ?, ?, 'PAID'))"),
                            {orderOf(intent), userOf(intent), amountOf(intent)}, intent);
                 setup.transition(intent, orderOf(intent), "", "PAID");
             }},
    };
    info_.sources = {Source::GatewayRetry, Source::DoubleClick};
    info_.defaultTiming = Timing::Retry;
    info_.tables = {"dedup", "orders", "refunds"};
    info_.guardTable = "dedup";
    info_.lanes = {"client", "gateway", "service"};
    info_.baseline = "dedup-layer-only";
    info_.effectNames = {"refunds"};
    info_.stateMachine = {"order",
                          {{"", "", 0, 1}, {"PAID", "已支付", 2, 1}, {"REFUNDED", "已退款", 4, 1}},
                          {{"", "PAID"}, {"PAID", "REFUNDED"}},
                          {"designed-in"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT id, status FROM orders");
    info_.words = {
        .notes = {{"dedup-store-lost",
                   said(QT_TRANSLATE_NOOP("idem::BoltOn", "dedup record lost")),
                   said(QT_TRANSLATE_NOOP("idem::BoltOn",
                                          "The dedup store loses the record of %1 (evicted, or "
                                          "lost in a fail-over): the next repeat looks new.")),
                   {NoteArg::field("biz_id")}}},
        .guards = {{"order-status", said(QT_TRANSLATE_NOOP("idem::BoltOn", "order status"))}},
        .decisions = {{"already-refunded",
                       said(QT_TRANSLATE_NOOP("idem::BoltOn", "already refunded")),
                       said(QT_TRANSLATE_NOOP("idem::BoltOn",
                                              "%1 finds the refund already made (%2) and does not "
                                              "repeat it."))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::BoltOn", "order")),
    };
}

Task<Reply> BoltOn::serve(Attempt& a, bool designedIn) const {
    const QString key = orderOf(a.intent());
    const Reply reply = co_await answer(a, key, designedIn);
    // The fault between two deliveries: once this attempt is done, the store
    // no longer holds the record, whatever state it was in.
    if (a.crashesAt(CrashPoint::DedupStoreLost))
        co_await storeLosesRecord(a, key);
    co_return reply;
}

Task<Reply> BoltOn::answer(Attempt& a, const QString& key, bool designedIn) const {
    const RunConfig& c = a.config();
    const DedupGuard layer(kBizType, DedupGuard::Options{true, c.expiryMs, c.retentionMs});
    const DedupGuard::Claim claim = co_await layer.claim(a, key);
    if (claim.outcome == DedupGuard::Outcome::Done)
        co_return Reply{Response::Success, claim.result};
    if (claim.outcome == DedupGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};
    // (No co_await inside ?: — g++ 12 miscompiles it.)
    QString refund;
    if (designedIn)
        refund = co_await refundOnce(a);
    else
        refund = co_await refundAnyway(a);
    co_await layer.markSuccess(a, key, refund);
    co_return Reply{Response::Success, refund};
}

// Whatever reaches the business is carried out: the tables cannot tell.
Task<QString> BoltOn::refundAnyway(Attempt& a) const {
    const QString order = orderOf(a.intent());
    const qint64 amount = amountOf(a.intent());
    co_await a.begin();
    const SqlResult refund = co_await a.sql(kInsertRefund, order, amount, a.now());
    co_await a.sql(kAddRefunded, amount, order);
    co_await a.commit();
    co_return refund.value().toString();
}

// The order moves PAID -> REFUNDED once; only that move writes a refund, and
// the refund's unique key backs it up. A repeat the layer no longer knows
// finds the order REFUNDED and gets the first refund back.
Task<QString> BoltOn::refundOnce(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const bool first =
        co_await transition(a, order, "PAID", "REFUNDED", kMarkRefunded, bound(order));
    if (!first) {
        co_await a.rollback();
        const SqlResult existing = co_await a.sql(kFindRefund, order);
        a.guard("order-status", "already-refunded", {{"order_id", order}});
        co_return existing.value().toString();
    }
    const UniqueInsert refund =
        co_await insertUnique(a, order, kInsertRefund, bound(order, amountOf(a.intent()), a.now()),
                              kFindRefund, bound(order));
    co_await a.commit();
    co_return refund.row.value().toString();
}

Task<void> BoltOn::storeLosesRecord(Attempt& a, const QString& key) const {
    const SqlResult gone = co_await a.sql(kForget, kBizType, key);
    a.note(QStringLiteral("dedup-store-lost"), {{"biz_id", key}, {"rows", gone.rows}});
    if (!gone.empty())
        a.transition(key, gone.value().toString(), QString(), true);
}

Effects BoltOn::effects(Reader& db, int intent) const {
    return {{QStringLiteral("refunds"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM refunds WHERE order_id = ?"),
                      {orderOf(intent)})}};
}

std::vector<AnswerTruth> BoltOn::answerTruthOfAll(Reader& db, int intents) const {
    std::vector<AnswerTruth> all(static_cast<std::size_t>(intents), AnswerTruth{true, false, {}});
    const SqlResult r = db.query(QStringLiteral(R"(SELECT order_id, COUNT(*), MIN(id)
FROM refunds
GROUP BY order_id)"));
    for (const QVariantList& row : r.data) {
        const qint64 intent = row[0].toString().mid(1).toLongLong() - kFirstOrder;
        if (intent < 0 || intent >= intents)
            continue;
        AnswerTruth& t = all[std::size_t(intent)];
        t.happened = true;
        // Two refunds are already a duplicate; no single id is the right one.
        if (row[1].toLongLong() == 1)
            t.result = row[2].toString();
    }
    return all;
}

}  // namespace idem
