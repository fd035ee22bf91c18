#include "duplicatealert.h"

#include "alertrule.h"
#include "attempt.h"
#include "uniquekey.h"

#include <QCoreApplication>

namespace idem {

namespace {

// This scenario's words, said in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::DuplicateAlert", source, std::move(args));
}

const QString kCharge =
    QStringLiteral(R"(INSERT INTO payments (payment_no, order_id, amount, created_at)
VALUES (?, ?, ?, ?)
RETURNING id)");
const QString kFindPayment = QStringLiteral("SELECT id FROM payments WHERE payment_no = ?");

const QString kPay = QStringLiteral("pay");
const QString kQuery = QStringLiteral("query");
constexpr qint64 kWindowMs = 60'000;
// Queries come in while the user watches the payment page, one every 100 ms.
constexpr qint64 kFirstQueryMs = 1'000;
constexpr qint64 kQuerySpacingMs = 100;

QString paymentNoOf(int intent) {
    return QStringLiteral("PAY%1").arg(90000001 + intent);
}
QString orderOf(int intent) {
    return QStringLiteral("D%1").arg(60000001 + intent);
}
qint64 amountOf(int intent) {
    return 8'800 + (intent % 4) * 100;
}
bool isQuery(const Attempt& a) {
    return a.payload().value(QStringLiteral("operation")) == QLatin1String("query");
}

}  // namespace

DuplicateAlert::DuplicateAlert() {
    info_.id = QStringLiteral("duplicate-alert");
    info_.group = ScenarioGroup::Misconception;
    info_.title = QStringLiteral("Every duplicate answered success");
    info_.schema = {QStringLiteral(R"(CREATE TABLE payments (
    id         INTEGER PRIMARY KEY,
    payment_no TEXT    NOT NULL,
    order_id   TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"),
                    QStringLiteral("CREATE UNIQUE INDEX uk_payments_no ON payments (payment_no)")};
    // Status queries of the same payment are served by the same variant.
    auto serve = [this](bool alerting) {
        return [this, alerting](Attempt& a) {
            return isQuery(a) ? query(a, alerting) : pay(a, alerting);
        };
    };
    info_.variants = {
        {.id = "silent",
         .summary = "UNIQUE(payment_no); every duplicate answered success, nothing else",
         .handle = serve(false)},
        {.id = "alerting",
         .recommended = true,
         .summary =
             "the same, plus duplicates logged per key and minute; above the threshold one alert",
         .handle = serve(true),
         .schema = AlertRule::schema()},
    };
    info_.sources = {Source::DoubleClick, Source::GatewayRetry};
    info_.defaultTiming = Timing::Concurrent;
    info_.defaultDuplicates = 100;
    info_.params = {
        {"threshold",
         "5",
         {},
         0,
         100'000,
         "more than this many duplicates of one key per minute raise an alert"},
        {"queries",
         "0",
         {},
         0,
         500,
         "status queries for the same payment within the minute (never alert)"},
    };
    info_.tables = {"payments", "duplicate_log", "alerts"};
    info_.guardTable = "payments";
    info_.lanes = {"client", "gateway", "service"};
    info_.baseline = "silent";
    info_.askKeys = {"operation"};
    info_.effectTable = "payments";
    info_.effectNames = {"charges"};
    info_.words = {
        .params = {{"threshold", said(QT_TRANSLATE_NOOP("idem::DuplicateAlert", "Alert threshold")),
                    said(QT_TRANSLATE_NOOP("idem::DuplicateAlert",
                                           "More repeats of one key within a minute than this "
                                           "raise an alert"))},
                   {"queries", said(QT_TRANSLATE_NOOP("idem::DuplicateAlert", "Queries")),
                    said(QT_TRANSLATE_NOOP("idem::DuplicateAlert",
                                           "Status queries for the same payment within the minute "
                                           "(they never alert)"))}},
    };
}

void DuplicateAlert::plan(Planner& planner, int intent) const {
    planner.fireDefault(intent, {{"operation", kPay}, {"payment_no", paymentNoOf(intent)}});
    const qint64 queries =
        info_.paramValue(planner.config(), QStringLiteral("queries")).toLongLong();
    for (qint64 k = 0; k < queries; ++k) {
        AttemptSpec q;
        q.intent = intent;
        q.at = planner.intentStart(intent) + kFirstQueryMs + k * kQuerySpacingMs;
        q.kind = QStringLiteral("duplicate");
        q.payload = {{"operation", kQuery}, {"payment_no", paymentNoOf(intent)}};
        planner.fire(q);
    }
}

Task<Reply> DuplicateAlert::pay(Attempt& a, bool alerting) const {
    const int intent = a.intent();
    const QString paymentNo = paymentNoOf(intent);

    // The unique payment number charges once; a duplicate gets the original
    // payment's id back and is answered success.
    const UniqueInsert charge = co_await insertUnique(
        a, paymentNo, kCharge, bound(paymentNo, orderOf(intent), amountOf(intent), a.now()),
        kFindPayment, bound(paymentNo));
    const QString paymentId = charge.row.value().toString();
    if (charge.inserted || !alerting)
        co_return Reply{Response::Success, paymentId};

    // Success, but not silently: count the duplicate, and a burst of them on
    // one payment raises an alert.
    const qint64 threshold = info_.paramValue(a.config(), QStringLiteral("threshold")).toLongLong();
    const AlertRule rule(kPay, AlertRule::Options{threshold, kWindowMs});
    co_await rule.recordDuplicate(a, paymentNo);
    co_return Reply{Response::Success, paymentId};
}

Task<Reply> DuplicateAlert::query(Attempt& a, bool alerting) const {
    const QString paymentNo = paymentNoOf(a.intent());
    const SqlResult found = co_await a.sql(kFindPayment, paymentNo);
    // Reading the same payment again and again is normal: logged apart from
    // the payment's duplicates, never alerting.
    if (alerting)
        co_await AlertRule::recordRepeat(a, paymentNo, kQuery, kWindowMs);
    co_return Reply{Response::Success, found.empty() ? QString() : found.value().toString()};
}

Effects DuplicateAlert::effects(Reader& db, int intent) const {
    return {{QStringLiteral("charges"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM payments WHERE order_id = ?"),
                      {orderOf(intent)})}};
}

void DuplicateAlert::completeAlerts(Reader& db, QList<AlertRecord>& alerts) const {
    if (!alerts.isEmpty())
        AlertRule::completeAlerts(db, alerts, kWindowMs);
}

void DuplicateAlert::extendSummary(Reader& db, const RunConfig&, QJsonObject& summary) const {
    // Only the alerting variant keeps a log of duplicates.
    if (!db.hasTable(QStringLiteral("duplicate_log")))
        return;
    const SqlResult rows = db.query(QStringLiteral(R"(SELECT operation, COUNT(*)
FROM duplicate_log
GROUP BY operation
ORDER BY operation)"));
    QJsonObject logged{{kPay, 0}, {kQuery, 0}};
    for (const QVariantList& row : rows.data)
        logged.insert(row.value(0).toString(), row.value(1).toLongLong());
    summary.insert(QStringLiteral("duplicate_log"), logged);
}

}  // namespace idem
