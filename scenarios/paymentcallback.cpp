#include "paymentcallback.h"

#include "attempt.h"
#include "statemachine.h"
#include "uniquekey.h"

#include <QCoreApplication>

namespace idem {

Phrase PaymentCallback::said(const char* source, std::vector<Phrase> args) {
    return Phrase("idem::PaymentCallback", source, std::move(args));
}

QString PaymentCallback::orderOf(int intent) {
    return QStringLiteral("P%1").arg(20250001 + intent);
}

namespace {

const QString kInsertFlow = QStringLiteral(R"(INSERT INTO pay_flow (out_trade_no, order_id, amount)
VALUES (?, ?, ?))");
const QString kFindFlow = QStringLiteral("SELECT id FROM pay_flow WHERE out_trade_no = ?");
const QString kPaidIfPaying = QStringLiteral(R"(UPDATE orders
SET status = 'PAID', pay_time = ?
WHERE order_id = ?
  AND status = 'PAYING')");
const QString kPaidAlways = QStringLiteral(R"(UPDATE orders
SET status = 'PAID', pay_time = ?
WHERE order_id = ?)");
// A FAILED notice moves only the payment it names: the order's current one.
const QString kFailedIfPaying = QStringLiteral(R"(UPDATE orders
SET status = 'FAILED'
WHERE order_id = ?
  AND status = 'PAYING'
  AND trade_no = ?)");
const QString kFailedAlways = QStringLiteral(R"(UPDATE orders
SET status = 'FAILED'
WHERE order_id = ?)");
const QString kPayingAgain = QStringLiteral(R"(UPDATE orders
SET status = 'PAYING', trade_no = ?
WHERE order_id = ?
  AND status = 'FAILED')");
const QString kOrderStatus = QStringLiteral("SELECT status FROM orders WHERE order_id = ?");
const QString kOrderPayment =
    QStringLiteral("SELECT status, trade_no FROM orders WHERE order_id = ?");
// A notice the service acknowledged without applying it (stale, or applied
// before): kept for the people who look into payments.
const QString kStaleNotices = QStringLiteral(R"(CREATE TABLE stale_notices (
    id           INTEGER PRIMARY KEY,
    out_trade_no TEXT    NOT NULL,
    trade_status TEXT    NOT NULL,
    order_status TEXT    NOT NULL,
    received_at  INTEGER NOT NULL
))");
const QString kRecordStale = QStringLiteral(R"(INSERT INTO stale_notices
    (out_trade_no, trade_status, order_status, received_at)
VALUES (?, ?, ?, ?))");
// The provider's own record of a payment (主动查询): how it really ended.
const QString kProviderStatus = QStringLiteral(R"(SELECT status
FROM provider_payments
WHERE out_trade_no = ?)");
const QString kProviderPayment = QStringLiteral(
    R"(INSERT INTO provider_payments (out_trade_no, order_id, amount, status)
VALUES (?, ?, ?, ?))");
const QString kProvider = QStringLiteral("provider");
const QString kCredit = QStringLiteral(R"(INSERT INTO ledger (order_id, amount, created_at)
VALUES (?, ?, ?))");

// The trade number of the intent's first payment; with failed-then-retry the
// user pays a second time under a new one.
QString tradeNoOf(int intent, int payment = 1) {
    const QString first = QStringLiteral("T%1").arg(88000001 + intent);
    return payment == 1 ? first : QStringLiteral("%1-%2").arg(first).arg(payment);
}
// The trade number this callback is about.
QString tradeNoOf(const Attempt& a) {
    return a.payload().value(QStringLiteral("out_trade_no")).toString();
}
qint64 amountOf(int intent) {
    return 5'000 + (intent % 9) * 100;
}
bool isFailure(const Attempt& a) {
    return a.payload().value(QStringLiteral("trade_status")) == QLatin1String("FAILED");
}

bool failedThenRetry(const RunConfig& c) {
    return c.param(QStringLiteral("failed-then-retry")) == QLatin1String("1");
}

// What the provider knows of the intent's payments, set up before the run:
// the first one succeeded, or (failed-then-retry) failed and the second one
// succeeded. The service learns it only by asking.
void seedProviderRecords(Setup& setup, int intent) {
    const bool retried = failedThenRetry(setup.config());
    setup.exec(kProviderPayment,
               {tradeNoOf(intent), PaymentCallback::orderOf(intent), amountOf(intent),
                retried ? QStringLiteral("FAILED") : QStringLiteral("SUCCESS")},
               intent);
    if (retried) {
        setup.exec(kProviderPayment,
                   {tradeNoOf(intent, 2), PaymentCallback::orderOf(intent), amountOf(intent),
                    QStringLiteral("SUCCESS")},
                   intent);
    }
}

}  // namespace

QStringList PaymentCallback::states() {
    return {"PENDING", "PAYING", "PAID", "FAILED"};
}

PaymentCallback::PaymentCallback() {
    const QList<CrashPoint> oneTx{CrashPoint::BeforeCommit, CrashPoint::BeforeResponse};
    const QString uniqueTradeNo =
        QStringLiteral("CREATE UNIQUE INDEX uk_out_trade_no ON pay_flow (out_trade_no)");
    // A FAILED callback writes no flow row: it only moves the status, with the
    // variant's condition or none.
    // The production-minded variants acknowledge a notice they do not apply.
    auto serve = [this](bool conditional, Task<Reply> (PaymentCallback::*success)(Attempt&) const,
                        bool acknowledge = false) {
        return [this, conditional, success, acknowledge](Attempt& a) {
            return isFailure(a) ? failedCallback(a, conditional, acknowledge) : (this->*success)(a);
        };
    };
    info_.id = QStringLiteral("payment-callback");
    info_.group = ScenarioGroup::Recommended;
    info_.title = QStringLiteral("Payment callback");
    info_.schema = {
        QStringLiteral(R"(CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,
    status   TEXT NOT NULL CHECK (status IN ('PENDING', 'PAYING', 'PAID', 'FAILED')),
    amount   INTEGER NOT NULL,
    pay_time INTEGER,
    trade_no TEXT  -- the payment in progress: the one a FAILED notice may fail
))"),
        QStringLiteral(R"(CREATE TABLE pay_flow (
    id           INTEGER PRIMARY KEY,
    out_trade_no TEXT    NOT NULL,
    order_id     TEXT    NOT NULL,
    amount       INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE ledger (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"),
        QStringLiteral("CREATE INDEX idx_pay_flow_order_id ON pay_flow (order_id)"),
        QStringLiteral("CREATE INDEX idx_ledger_order_id ON ledger (order_id)"),
    };
    info_.variants = {
        {.id = "none",
         .crashPoints = oneTx,
         .summary = "insert the flow, set PAID, credit the merchant; no guard",
         .handle = serve(false, &PaymentCallback::withoutGuard)},
        {.id = "unique-key",
         .crashPoints = oneTx,
         .summary = "UNIQUE(out_trade_no); status set without condition",
         .handle = serve(false, &PaymentCallback::uniqueKeyOnly),
         .schema = {uniqueTradeNo}},
        {.id = "state-machine",
         .crashPoints = oneTx,
         .summary = "UPDATE ... WHERE status = 'PAYING'; credit only if one row changed",
         .handle = serve(true, &PaymentCallback::stateMachineOnly)},
        {.id = "unique-and-state",
         .recommended = true,
         .crashPoints = oneTx,
         .summary = "unique trade number and state machine, one transaction",
         .handle = serve(true, &PaymentCallback::uniqueAndState, true),
         .schema = {uniqueTradeNo, kStaleNotices}},
        {.id = "unique-separate-tx",
         .crashPoints = {CrashPoint::BeforeCommit, CrashPoint::AfterGuard,
                         CrashPoint::BeforeResponse},
         .summary =
             "flow row committed alone, then state change and credit; a conflict answers success",
         .handle = serve(true, &PaymentCallback::uniqueSeparateTransactions),
         .schema = {uniqueTradeNo}},
        {.id = "unique-state-query",
         .crashPoints = oneTx,
         .summary = "unique-and-state; a refused transition or a FAILED callback asks the "
                    "provider for the payment's real status and applies it",
         .handle =
             [this](Attempt& a) {
                 return isFailure(a) ? failedCallbackWithQuery(a) : uniqueStateQuery(a);
             },
         .schema = {uniqueTradeNo, kStaleNotices, QStringLiteral(R"(CREATE TABLE provider_payments (
    out_trade_no TEXT    PRIMARY KEY,
    order_id     TEXT    NOT NULL,
    amount       INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('SUCCESS', 'FAILED'))
))")},
         .seed = seedProviderRecords},
    };
    info_.sources = {Source::ProviderCallback};
    info_.defaultTiming = Timing::Retry;
    info_.params = {{"late-failure",
                     "0",
                     {"0", "1"},
                     0,
                     0,
                     "1: a stale FAILED callback arrives after the SUCCESS ones (with "
                     "failed-then-retry: the first payment's FAILED again, while the second "
                     "payment is under way)"},
                    {"failed-then-retry",
                     "0",
                     {"0", "1"},
                     0,
                     0,
                     "1: the first payment fails (a FAILED callback); the user pays again under "
                     "a new trade number and that payment succeeds"}};
    info_.tables = {"orders", "pay_flow", "ledger", "provider_payments", "stale_notices"};
    info_.guardTable = "pay_flow";
    info_.lanes = {"client", "provider", "service"};
    info_.baseline = "none";
    info_.askKeys = {"trade_status"};
    info_.effectTable = "ledger";
    info_.effectNames = {"credits"};
    info_.stateMachine = {"order",
                          {{"", "", 0, 1},
                           {"PENDING", "待支付", 1.5, 1},
                           {"PAYING", "支付中", 3.5, 1},
                           {"PAID", "支付成功", 5.5, 0},
                           {"FAILED", "支付失败", 5.5, 2}},
                          {{"", "PENDING"},
                           {"PENDING", "PAYING"},
                           {"PAYING", "PAID"},
                           {"PAYING", "FAILED"},
                           {"FAILED", "PAYING", "retry", "重试"}},
                          {}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT order_id, status FROM orders");
    info_.words = {
        .notes = {{"pay-again",
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "pays again")),
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                          "The user pays again (trade %1): the order goes back "
                                          "to paying.")),
                   {NoteArg::field("out_trade_no")}},
                  {"provider-query",
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "query the payment")),
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                          "%1 asks the payment provider for the real status of "
                                          "trade %2 instead of guessing.")),
                   {NoteArg::who(), NoteArg::field("out_trade_no")}},
                  {"provider-answer",
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "payment status")),
                   said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                          "The provider answers: trade %1 is %2.")),
                   {NoteArg::field("out_trade_no"), NoteArg::field("trade_status")}}},
        .params = {{"late-failure",
                    said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "Late failure callback")),
                    said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                           "On: a stale FAILED callback arrives after the SUCCESS "
                                           "ones (with First payment fails: the first payment's "
                                           "FAILED again, while the second one is under way)"))},
                   {"failed-then-retry",
                    said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "First payment fails")),
                    said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                           "On: the first payment fails; the user pays again "
                                           "under a new trade number and that one succeeds"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::PaymentCallback", "order")),
    };
}

void PaymentCallback::seed(Setup& setup, int intent) const {
    // The values appended, not listed as {a, b}: such a list writes through
    // a null block when its allocation fails, where an append throws (a
    // replay's seed runs after the trace is opened: tests/faults_test.py).
    setup.exec(
        QStringLiteral("INSERT INTO orders (order_id, status, amount) VALUES (?, 'PENDING', ?)"),
        QVariantList() << orderOf(intent) << amountOf(intent), intent);
    setup.transition(intent, orderOf(intent), "", "PENDING");
    // The user confirms the payment page: the order waits for the provider.
    setup.exec(QStringLiteral(R"(UPDATE orders
SET status = 'PAYING', trade_no = ?
WHERE order_id = ?
  AND status = 'PENDING')"),
               QVariantList() << tradeNoOf(intent) << orderOf(intent), intent);
    setup.transition(intent, orderOf(intent), "PENDING", "PAYING");
}

void PaymentCallback::plan(Planner& planner, int intent) const {
    const RunConfig& c = planner.config();
    const qint64 t0 = planner.intentStart(intent);
    // The payment that succeeds, when its callbacks begin, and the number of
    // the first of them.
    QString paid = tradeNoOf(intent);
    qint64 successAt = t0;
    int firstNumber = 1;
    if (failedThenRetry(c)) {
        // The first payment fails; the user sees it and pays again two
        // seconds later, and the provider reports the new payment after four.
        AttemptSpec failed;
        failed.intent = intent;
        failed.at = t0;
        failed.kind = QStringLiteral("original");
        failed.payload = {{"trade_status", "FAILED"}, {"out_trade_no", tradeNoOf(intent)}};
        planner.fire(failed);
        paid = tradeNoOf(intent, 2);
        AttemptSpec again;
        again.intent = intent;
        again.at = t0 + 2'000;
        again.caller = QStringLiteral("client");
        again.kind = QStringLiteral("pay-again");
        again.counted = false;
        again.payload = {{"action", "pay-again"}, {"out_trade_no", paid}};
        planner.fire(again);
        successAt = t0 + 4'000;
        firstNumber = 2;
    }
    for (AttemptSpec s :
         planner.defaultSpecs(intent, {{"trade_status", "SUCCESS"}, {"out_trade_no", paid}})) {
        s.number += firstNumber - 1;
        s.at += successAt - t0;
        planner.fire(s);
    }
    if (info_.paramValue(c, QStringLiteral("late-failure")) != QLatin1String("1"))
        return;
    AttemptSpec late;
    late.intent = intent;
    late.kind = QStringLiteral("duplicate");
    if (failedThenRetry(c)) {
        // The first payment's FAILED notice once more, while the user's
        // second payment is under way: it names the first trade number.
        late.at = t0 + 3'000;
        late.payload = {{"trade_status", "FAILED"}, {"out_trade_no", tradeNoOf(intent)}};
    } else {
        late.at = successAt + (c.duplicates + 1) * c.effectiveIntervalMs() + 1'000;
        late.payload = {{"trade_status", "FAILED"}, {"out_trade_no", paid}};
    }
    planner.fire(late);
}

Task<Reply> PaymentCallback::handle(Attempt& a) const {
    // The user's second payment is a request of its own, not a callback.
    if (a.payload().value(QStringLiteral("action")) == QLatin1String("pay-again"))
        return payAgain(a);
    return a.variant().handle(a);
}

// The user pays again after a failure: the order goes back to PAYING (the
// state machine's retry edge) while the provider takes the new payment.
Task<Reply> PaymentCallback::payAgain(Attempt& a) const {
    const QString order = orderOf(a.intent());
    a.note(QStringLiteral("pay-again"),
           {{"sender", a.caller()}, {"receiver", a.actor()}, {"out_trade_no", tradeNoOf(a)}});
    co_await transition(a, order, "FAILED", "PAYING", kPayingAgain, bound(tradeNoOf(a), order));
    co_return Reply{};
}

Task<Reply> PaymentCallback::failedCallback(Attempt& a, bool conditional, bool acknowledge) const {
    const QString order = orderOf(a.intent());
    // One co_await per statement: g++ 12 miscompiles co_await inside ?: .
    bool moved = false;
    if (conditional) {
        moved = co_await transition(a, order, "PAYING", "FAILED", kFailedIfPaying,
                                    bound(order, tradeNoOf(a)));
    } else {
        moved = co_await transition(a, order, "*", "FAILED", kFailedAlways, bound(order));
    }
    if (moved)
        co_return Reply{Response::Success, "FAILED"};
    if (acknowledge)
        co_return co_await acknowledgeNotice(a);
    // Refused: the provider takes it for a failed delivery and sends it again.
    co_return Reply{Response::Rejected, ""};
}

// As the providers ask: a notice the service will not apply is still
// answered with success, or it comes again for a day. One applied before is
// acknowledged again; a stale one (the order is PAID, or paying under a newer
// trade number) is recorded and raises an alert, for someone to look into.
Task<Reply> PaymentCallback::acknowledgeNotice(Attempt& a) const {
    const QString order = orderOf(a.intent());
    const SqlResult now = co_await a.sql(kOrderPayment, order);
    const QString status = now.value(0, 0).toString();
    const QString current = now.value(0, 1).toString();
    const bool repeat = status == QLatin1String("FAILED") && current == tradeNoOf(a);
    if (!repeat) {
        co_await a.sql(kRecordStale, tradeNoOf(a),
                       a.payload().value(QStringLiteral("trade_status")).toString(), status,
                       a.now());
        a.alert(order, 1,
                said(QT_TRANSLATE_NOOP("idem::PaymentCallback",
                                       "stale %1 notice for %2 (order %3 is %4): acknowledged, "
                                       "not applied"),
                     {a.payload().value(QStringLiteral("trade_status")).toString(), tradeNoOf(a),
                      order, status}));
    }
    co_return Reply{Response::Success, status};
}

Task<Reply> PaymentCallback::withoutGuard(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    co_await a.sql(kInsertFlow, tradeNoOf(a), order, amountOf(a.intent()));
    co_await transition(a, order, "*", "PAID", kPaidAlways, bound(a.now(), order));
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, "PAID"};
}

Task<Reply> PaymentCallback::uniqueKeyOnly(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const UniqueInsert flow = co_await recordFlow(a);
    if (!flow.inserted) {
        co_await a.commit();
        co_return Reply{Response::Success, "PAID"};  // already processed
    }
    co_await transition(a, order, "*", "PAID", kPaidAlways, bound(a.now(), order));
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, "PAID"};
}

Task<UniqueInsert> PaymentCallback::recordFlow(Attempt& a) const {
    const QString tradeNo = tradeNoOf(a);
    co_return co_await insertUnique(a, tradeNo, kInsertFlow,
                                    bound(tradeNo, orderOf(a.intent()), amountOf(a.intent())),
                                    kFindFlow, bound(tradeNo));
}

Task<Reply> PaymentCallback::answerFromOrder(Attempt& a) const {
    const SqlResult status = co_await a.sql(kOrderStatus, orderOf(a.intent()));
    // Already PAID: the callback was handled before, answer success again.
    if (status.value().toString() == QLatin1String("PAID"))
        co_return Reply{Response::Success, "PAID"};
    co_return Reply{Response::Rejected, status.value().toString()};
}

Task<Reply> PaymentCallback::stateMachineOnly(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const bool paid =
        co_await transition(a, order, "PAYING", "PAID", kPaidIfPaying, bound(a.now(), order));
    if (!paid) {
        co_await a.rollback();
        co_return co_await answerFromOrder(a);
    }
    co_await a.sql(kInsertFlow, tradeNoOf(a), order, amountOf(a.intent()));
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, "PAID"};
}

Task<Reply> PaymentCallback::uniqueAndState(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const UniqueInsert flow = co_await recordFlow(a);
    if (!flow.inserted) {
        co_await a.rollback();
        co_return co_await answerFromOrder(a);
    }
    const bool paid =
        co_await transition(a, order, "PAYING", "PAID", kPaidIfPaying, bound(a.now(), order));
    if (!paid) {
        co_await a.rollback();
        co_return co_await answerFromOrder(a);
    }
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, "PAID"};
}

Task<Reply> PaymentCallback::uniqueSeparateTransactions(Attempt& a) const {
    const QString order = orderOf(a.intent());
    // The flow row commits on its own ...
    const UniqueInsert flow = co_await recordFlow(a);
    // ... so a conflict only proves that some attempt got this far.
    if (!flow.inserted)
        co_return Reply{Response::Success, "PAID"};
    co_await a.crashPoint(CrashPoint::AfterGuard);
    co_await a.begin();
    const bool paid =
        co_await transition(a, order, "PAYING", "PAID", kPaidIfPaying, bound(a.now(), order));
    if (paid)
        co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{paid ? Response::Success : Response::Rejected, "PAID"};
}

Task<Reply> PaymentCallback::uniqueStateQuery(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const UniqueInsert flow = co_await recordFlow(a);
    if (!flow.inserted) {
        // This payment was applied before, with its credit: answer as then.
        co_await a.rollback();
        co_return co_await answerFromOrder(a);
    }
    const bool paid =
        co_await transition(a, order, "PAYING", "PAID", kPaidIfPaying, bound(a.now(), order));
    if (!paid) {
        // The order is not where a success expects it (a stale failure
        // moved it): ask the provider how the payment really ended.
        co_await a.rollback();
        const QString status = co_await reconcile(a);
        co_return Reply{status == QLatin1String("PAID") ? Response::Success : Response::Rejected,
                        status};
    }
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
    co_return Reply{Response::Success, "PAID"};
}

Task<Reply> PaymentCallback::failedCallbackWithQuery(Attempt& a) const {
    const QString order = orderOf(a.intent());
    // A failure may be real, or an old notice that overtook nothing: the
    // order records it as the state machine allows, and the provider says
    // whether it stands.
    co_await transition(a, order, "PAYING", "FAILED", kFailedIfPaying, bound(order, tradeNoOf(a)));
    const QString status = co_await reconcile(a);
    if (status == QLatin1String("FAILED"))
        co_return Reply{Response::Success, status};
    co_return co_await acknowledgeNotice(a);
}

// 主动查询: the service asks the provider for the payment's real status and
// brings the order there through the state machine. Returns the order's
// status afterwards.
Task<QString> PaymentCallback::reconcile(Attempt& a) const {
    const QString order = orderOf(a.intent());
    const QString tradeNo = tradeNoOf(a);
    const QString service = a.actor();
    a.note(QStringLiteral("provider-query"),
           {{"sender", service}, {"receiver", kProvider}, {"out_trade_no", tradeNo}});
    // The provider answers from its own records, in its own lane.
    a.setActor(kProvider);
    const SqlResult truth = co_await a.sql(kProviderStatus, tradeNo);
    const QString real = truth.value().toString();
    a.note(QStringLiteral("provider-answer"), {{"sender", kProvider},
                                               {"receiver", service},
                                               {"out_trade_no", tradeNo},
                                               {"trade_status", real}});
    a.setActor(service);

    if (real == QLatin1String("SUCCESS")) {
        co_await applySuccess(a);
    } else if (real == QLatin1String("FAILED")) {
        const SqlResult now = co_await a.sql(kOrderStatus, order);
        if (now.value().toString() == QLatin1String("PAYING"))
            co_await transition(a, order, "PAYING", "FAILED", kFailedIfPaying,
                                bound(order, tradeNo));
    }
    const SqlResult after = co_await a.sql(kOrderStatus, order);
    co_return after.value().toString();
}

// The provider says the payment succeeded: record it, move the order to PAID
// (back through PAYING if a stale failure left it FAILED) and credit the
// merchant, all in one transaction.
Task<void> PaymentCallback::applySuccess(Attempt& a) const {
    const QString order = orderOf(a.intent());
    co_await a.begin();
    const SqlResult now = co_await a.sql(kOrderStatus, order);
    const QString status = now.value().toString();
    if (status == QLatin1String("PAID")) {
        co_await a.rollback();  // already paid: nothing to apply
        co_return;
    }
    if (status == QLatin1String("FAILED"))
        co_await transition(a, order, "FAILED", "PAYING", kPayingAgain, bound(tradeNoOf(a), order));
    const UniqueInsert flow = co_await recordFlow(a);
    bool paid = false;
    if (flow.inserted) {
        paid =
            co_await transition(a, order, "PAYING", "PAID", kPaidIfPaying, bound(a.now(), order));
    }
    if (!paid) {
        // Someone else applied it meanwhile.
        co_await a.rollback();
        co_return;
    }
    co_await a.sql(kCredit, order, amountOf(a.intent()), a.now());
    co_await a.crashPoint(CrashPoint::BeforeCommit);
    co_await a.commit();
}

}  // namespace idem
