#include "stockdeduct.h"

#include "attempt.h"
#include "statemachine.h"
#include "uniquekey.h"
#include "versionguard.h"

#include <QCoreApplication>

#include <stdexcept>

namespace idem {

namespace {

// This scenario's sentences, said in English in the summary and the trace
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::StockDeduct", source, std::move(args));
}

const QString kDeduct = QStringLiteral(R"(UPDATE stock
SET qty = qty - ?, version = version + 1
WHERE sku = ?)");
const QString kReadStock = QStringLiteral(R"(SELECT qty, version
FROM stock
WHERE sku = ?)");
const QString kDeductIfVersion = QStringLiteral(R"(UPDATE stock
SET qty = qty - ?, version = version + 1
WHERE sku = ?
  AND version = ?)");
const QString kMarkDeducted = QStringLiteral(R"(UPDATE orders
SET status = 'DEDUCTED'
WHERE id = ?
  AND status = 'CREATED')");
const QString kLogDeduction =
    QStringLiteral(R"(INSERT INTO deductions (order_id, sku, qty, created_at)
VALUES (?, ?, ?, ?))");
const QString kFindDeduction = QStringLiteral("SELECT id FROM deductions WHERE order_id = ?");
const QString kOwnDeduction = QStringLiteral(R"(SELECT qty, created_at
FROM deductions
WHERE order_id = ?)");

// Every order asks for one unit; the request names the order, its sku and qty.
constexpr qint64 kUnitsPerOrder = 1;

QString requestedOrder(const Attempt& a) {
    return a.payload().value(QStringLiteral("order_id")).toString();
}
QString requestedSku(const Attempt& a) {
    return a.payload().value(QStringLiteral("sku")).toString();
}
qint64 requestedUnits(const Attempt& a) {
    return a.payload().value(QStringLiteral("qty")).toLongLong();
}
// The version of the stock row the page showed when the user confirmed.
qint64 versionOnThePage(const Attempt& a) {
    return a.payload().value(QStringLiteral("version")).toLongLong();
}

const Reply kOutOfStock{Response::Rejected, QStringLiteral("OUT_OF_STOCK")};

const QString kOtherOrder = QStringLiteral("other-order");

}  // namespace

QString StockDeduct::skuOf(int intent) {
    return QStringLiteral("SKU-%1").arg(1001 + intent);
}
QString StockDeduct::orderOf(int intent) {
    return QStringLiteral("SO%1").arg(30000001 + intent);
}
QString StockDeduct::otherOrderOf(int intent) {
    return QStringLiteral("SO%1").arg(31000001 + intent);
}

StockDeduct::StockDeduct() {
    const QList<CrashPoint> points{CrashPoint::BeforeResponse};
    info_.id = QStringLiteral("stock-deduct");
    info_.group = ScenarioGroup::Recommended;
    info_.title = QStringLiteral("Stock deduction");
    info_.schema = {QStringLiteral(R"(CREATE TABLE stock (
    sku     TEXT    PRIMARY KEY,
    qty     INTEGER NOT NULL CHECK (qty >= 0),
    version INTEGER NOT NULL
))"),
                    QStringLiteral(R"(CREATE TABLE orders (
    id     TEXT    PRIMARY KEY,
    sku    TEXT    NOT NULL,
    qty    INTEGER NOT NULL,
    status TEXT    NOT NULL CHECK (status IN ('CREATED', 'DEDUCTED'))
))"),
                    QStringLiteral(R"(CREATE TABLE deductions (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT    NOT NULL UNIQUE,
    sku        TEXT    NOT NULL,
    qty        INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))")};
    info_.variants = {
        {.id = "none",
         .crashPoints = points,
         .summary = "UPDATE stock SET qty = qty - 1 for every request",
         .handle =
             [this](Attempt& a) {
                 return plainDeduct(a);
             }},
        {.id = "version",
         .crashPoints = points,
         .summary = "read the version, UPDATE ... WHERE version = ?; a conflict is rejected",
         .handle =
             [this](Attempt& a) {
                 return versionChecked(a);
             }},
        {.id = "version-from-request",
         .crashPoints = points,
         .summary = "UPDATE ... WHERE sku = ? AND version = ? with the version the page read; "
                    "a conflict looks up the order's own deduction record",
         .handle =
             [this](Attempt& a) {
                 return versionFromRequest(a);
             }},
        {.id = "status-guard",
         .recommended = true,
         .crashPoints = points,
         .summary = "UPDATE orders SET status = 'DEDUCTED' WHERE status = 'CREATED', then "
                    "stock, one transaction",
         .handle =
             [this](Attempt& a) {
                 return statusGuarded(a);
             }},
        {.id = "deduction-log",
         .crashPoints = points,
         .summary = "INSERT a deductions row (UNIQUE order_id), then stock, one transaction",
         .handle =
             [this](Attempt& a) {
                 return deductionLog(a);
             }},
    };
    info_.sources = {Source::GatewayRetry, Source::DoubleClick};
    info_.defaultTiming = Timing::Retry;
    info_.params = {
        {kOtherOrder,
         "0",
         {"0", "1"},
         0,
         0,
         "1: another customer's order for the same sku is deducted after this order's page "
         "was shown, before its request arrives (the stock row's version moves on)"},
    };
    info_.tables = {"orders", "stock", "deductions"};
    info_.guardTable = "orders";
    info_.lanes = {"client", "gateway", "service"};
    info_.baseline = "none";
    info_.effectTable = "stock";
    info_.effectNames = {"units"};
    info_.stateMachine = {
        "order",
        {{"", "", 0, 1}, {"CREATED", "已创建", 2, 1}, {"DEDUCTED", "已扣减", 4, 1}},
        {{"", "CREATED"}, {"CREATED", "DEDUCTED"}},
        {"status-guard"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT id, status FROM orders");
    info_.words = {
        .guards = {{"stock-check", said(QT_TRANSLATE_NOOP("idem::StockDeduct", "stock check"))},
                   {"deduction-record",
                    said(QT_TRANSLATE_NOOP("idem::StockDeduct", "deduction record"))}},
        .decisions = {{"out-of-stock", said(QT_TRANSLATE_NOOP("idem::StockDeduct", "out of stock")),
                       said(QT_TRANSLATE_NOOP("idem::StockDeduct",
                                              "%1 finds too little stock left (%2)."))},
                      // Only version-from-request looks for its own record, after a
                      // version conflict.
                      {"not-found", said(QT_TRANSLATE_NOOP("idem::StockDeduct", "none of its own")),
                       said(QT_TRANSLATE_NOOP("idem::StockDeduct",
                                              "%1 finds no deduction of its own (%2): the version "
                                              "moved because another write changed the stock "
                                              "since the page was shown, so the request is "
                                              "refused as a stale page."))}},
        .params = {{kOtherOrder,
                    said(QT_TRANSLATE_NOOP("idem::StockDeduct", "Another order first")),
                    said(QT_TRANSLATE_NOOP("idem::StockDeduct",
                                           "On: after this order's page was shown, another "
                                           "customer's order takes a unit of the same sku, so "
                                           "the version on the page is no longer the row's"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::StockDeduct", "order")),
    };
}

void StockDeduct::seed(Setup& setup, int intent) const {
    setup.exec(QStringLiteral("INSERT INTO stock (sku, qty, version) VALUES (?, ?, ?)"),
               {skuOf(intent), kInitialStock, kInitialVersion}, intent);
    setup.exec(
        QStringLiteral("INSERT INTO orders (id, sku, qty, status) VALUES (?, ?, ?, 'CREATED')"),
        {orderOf(intent), skuOf(intent), kUnitsPerOrder}, intent);
    setup.transition(intent, orderOf(intent), "", "CREATED");
    if (setup.config().param(kOtherOrder) != QLatin1String("1"))
        return;
    // Another customer bought the same sku after this order's page was
    // shown, through the recommended path (status, stock and deduction log
    // in one transaction): the row is one unit lighter and one version on.
    const QString other = otherOrderOf(intent);
    setup.exec(
        QStringLiteral("INSERT INTO orders (id, sku, qty, status) VALUES (?, ?, ?, 'DEDUCTED')"),
        {other, skuOf(intent), kUnitsPerOrder}, intent);
    setup.exec(kDeduct, {kUnitsPerOrder, skuOf(intent)}, intent);
    setup.exec(kLogDeduction, {other, skuOf(intent), kUnitsPerOrder, 0}, intent);
    setup.transition(intent, other, "", "CREATED");
    setup.transition(intent, other, "CREATED", "DEDUCTED");
}

void StockDeduct::plan(Planner& planner, int intent) const {
    QVariantMap request{
        {"order_id", orderOf(intent)}, {"sku", skuOf(intent)}, {"qty", kUnitsPerOrder}};
    // The page showed the stock row with its version; every click and every
    // retry of this order sends what the page showed. Only the variant that
    // reads it gets it (the other variants' traces stay as they were).
    if (planner.config().variant == QLatin1String("version-from-request"))
        request.insert(QStringLiteral("version"), kInitialVersion);
    planner.fireDefault(intent, request);
}

// The CHECK (qty >= 0) is the last line against overselling: when it
// refuses, the request is answered "out of stock" and nothing is taken.
Task<bool> StockDeduct::takeStock(Attempt& a) const {
    const SqlResult r = co_await a.trySql(kDeduct, requestedUnits(a), requestedSku(a));
    if (r.ok) {
        co_return true;
    }
    if (!r.isConstraint()) {
        throw SqlFailure(r.errorText().toStdString());
    }
    a.guard("stock-check", "out-of-stock", {{"sku", requestedSku(a)}, {"conflict", r.errorText()}});
    co_return false;
}

// After the deduction the service books the shipment at the warehouse; under
// gateway-retry the first attempt's call is slower than the gateway timeout,
// which is why the gateway sends the request again.
Task<Reply> StockDeduct::deducted(Attempt& a) const {
    const bool slow = a.config().source == Source::GatewayRetry && a.number() == 1;
    co_await a.work(
        slow ? retryIntervalMs(Source::GatewayRetry, 0) + 1'000 : 0,
        said(QT_TRANSLATE_NOOP("idem::StockDeduct", "book the shipment at the warehouse")));
    co_return Reply{Response::Success, QStringLiteral("DEDUCTED")};
}

Task<Reply> StockDeduct::plainDeduct(Attempt& a) const {
    const bool taken = co_await takeStock(a);
    if (!taken) {
        co_return kOutOfStock;
    }
    co_return co_await deducted(a);
}

Task<Reply> StockDeduct::versionChecked(Attempt& a) const {
    const VersionGuard stockRow(requestedSku(a));
    const VersionGuard::Snapshot seen =
        co_await stockRow.read(a, kReadStock, bound(requestedSku(a)), 1);
    if (!seen.found || seen.row.value(0, 0).toLongLong() < requestedUnits(a)) {
        co_return kOutOfStock;
    }
    // The version proves that nobody wrote the row since we read it; it
    // says nothing about whether this order was deducted before.
    const bool written = co_await stockRow.write(
        a, seen.version, kDeductIfVersion, bound(requestedUnits(a), requestedSku(a), seen.version));
    if (!written) {
        co_return Reply{Response::Rejected, QStringLiteral("VERSION_CONFLICT")};
    }
    co_return co_await deducted(a);
}

// The request names the version of the row the user saw: the deduction lands
// only on that row, once. Whether a refused write was this order's own
// repeat or a page gone stale, the service's own deduction record tells.
Task<Reply> StockDeduct::versionFromRequest(Attempt& a) const {
    const QString order = requestedOrder(a);
    const QString sku = requestedSku(a);
    const qint64 units = requestedUnits(a);
    const qint64 seen = versionOnThePage(a);
    const VersionGuard stockRow(sku);
    co_await a.begin();
    const bool written =
        co_await stockRow.write(a, seen, kDeductIfVersion, bound(units, sku, seen));
    if (written) {
        co_await a.sql(kLogDeduction, order, sku, units, a.now());
        co_await a.commit();
        co_return co_await deducted(a);
    }
    co_await a.rollback();
    const SqlResult own = co_await a.sql(kOwnDeduction, order);
    if (own.empty()) {
        // Somebody else changed the stock since the page was shown: the
        // user must look at the new figures before confirming again.
        a.guard("deduction-record", "not-found", {{"order_id", order}});
        co_return Reply{Response::Rejected, QStringLiteral("VERSION_CONFLICT")};
    }
    // This order's deduction is already there: the repeat gets its result.
    a.guard("deduction-record", "found", {{"order_id", order}, {"qty", own.value(0, 0)}});
    co_return Reply{Response::Success, QStringLiteral("DEDUCTED")};
}

Task<Reply> StockDeduct::statusGuarded(Attempt& a) const {
    const QString order = requestedOrder(a);
    co_await a.begin();
    const bool first =
        co_await transition(a, order, "CREATED", "DEDUCTED", kMarkDeducted, bound(order));
    if (!first) {
        // The order left CREATED before: its stock was taken in that same
        // transaction, so this is a duplicate and gets the same answer.
        co_await a.rollback();
        co_return Reply{Response::Success, QStringLiteral("DEDUCTED")};
    }
    const bool taken = co_await takeStock(a);
    if (!taken) {
        co_await a.rollback();  // the order goes back to CREATED with it
        co_return kOutOfStock;
    }
    co_await a.commit();
    co_return co_await deducted(a);
}

Task<Reply> StockDeduct::deductionLog(Attempt& a) const {
    const QString order = requestedOrder(a);
    co_await a.begin();
    const UniqueInsert log = co_await insertUnique(
        a, order, kLogDeduction, bound(order, requestedSku(a), requestedUnits(a), a.now()),
        kFindDeduction, bound(order));
    if (!log.inserted) {
        co_await a.rollback();
        co_return Reply{Response::Success, QStringLiteral("DEDUCTED")};
    }
    const bool taken = co_await takeStock(a);
    if (!taken) {
        co_await a.rollback();
        co_return kOutOfStock;
    }
    co_await a.commit();
    co_return co_await deducted(a);
}

qint64 StockDeduct::unitsTaken(Reader& db, int intent) const {
    // The stock row is the truth: what it lost since the start is what was
    // taken, the other order's logged unit apart.
    return db.count(QStringLiteral(R"(SELECT ? - qty - (SELECT COALESCE(SUM(qty), 0)
                     FROM deductions
                     WHERE order_id = ?)
FROM stock
WHERE sku = ?)"),
                    {kInitialStock, otherOrderOf(intent), skuOf(intent)});
}

Effects StockDeduct::effects(Reader& db, int intent) const {
    return {{QStringLiteral("units"), unitsTaken(db, intent)}};
}

std::vector<AnswerTruth> StockDeduct::answerTruthOfAll(Reader& db, int intents) const {
    std::vector<AnswerTruth> all(static_cast<std::size_t>(intents));
    for (int i = 0; i < intents; ++i) {
        const qint64 taken = effects(db, i).value(QStringLiteral("units"));
        all[std::size_t(i)] = AnswerTruth{true, taken > 0, QStringLiteral("DEDUCTED")};
    }
    return all;
}

Effects StockDeduct::expectedEffects(const RunConfig&, int) const {
    return {{QStringLiteral("units"), kUnitsPerOrder}};
}

Phrase StockDeduct::inconsistency(Reader& db, int intent) const {
    const QString sku = skuOf(intent);
    const QString order = orderOf(intent);
    const SqlResult stock =
        db.query(QStringLiteral("SELECT qty, version FROM stock WHERE sku = ?"), {sku});
    const qint64 qty = stock.value(0, 0).toLongLong();
    const qint64 units = kInitialStock - qty;  // this order's and the other's
    // Every write of the row bumps its version and takes one order's units.
    const qint64 writes = stock.value(0, 1).toLongLong() - kInitialVersion;
    const qint64 taken = unitsTaken(db, intent);
    if (qty < 0) {
        return said(QT_TRANSLATE_NOOP("idem::StockDeduct", "%1: oversold, qty is %2"),
                    {sku, Phrase::number(qty)});
    }
    if (units != writes * kUnitsPerOrder) {
        return said(QT_TRANSLATE_NOOP("idem::StockDeduct",
                                      "%1: stock lost an update: %2 writes, but %3 units gone"),
                    {sku, Phrase::number(writes), Phrase::number(units)});
    }
    const QString status =
        db.query(QStringLiteral("SELECT status FROM orders WHERE id = ?"), {order})
            .value()
            .toString();
    if (status == QLatin1String("DEDUCTED") && taken == 0) {
        return said(QT_TRANSLATE_NOOP("idem::StockDeduct", "%1 is DEDUCTED but no stock was taken"),
                    {order});
    }
    const SqlResult log = db.query(
        QStringLiteral("SELECT COUNT(*), COALESCE(SUM(qty), 0) FROM deductions WHERE order_id = ?"),
        {order});
    if (log.value(0, 0).toLongLong() > 0 && log.value(0, 1).toLongLong() != taken) {
        return said(QT_TRANSLATE_NOOP("idem::StockDeduct",
                                      "%1: the deduction log says %2 units, the stock lost %3"),
                    {order, Phrase::number(log.value(0, 1).toLongLong()), Phrase::number(taken)});
    }
    return {};
}

}  // namespace idem
