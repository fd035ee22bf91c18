// The payment callback's judge: what the books say after a run. The credits
// per order are the effect counted exactly once; an order's status must agree
// with its credits and its recorded payment flows.
#include "paymentcallback.h"

#include "authoring.h"

namespace idem {

namespace {

// An order's status and what its books say: credits and payment flows.
const QString kOrderBooks = QStringLiteral(R"(SELECT o.order_id,
       o.status,
       (SELECT COUNT(*) FROM ledger l WHERE l.order_id = o.order_id),
       (SELECT COUNT(*) FROM pay_flow f WHERE f.order_id = o.order_id)
FROM orders o
WHERE o.order_id = ?)");
const QString kAllOrderBooks = QStringLiteral(R"(SELECT o.order_id,
       o.status,
       (SELECT COUNT(*) FROM ledger l WHERE l.order_id = o.order_id),
       (SELECT COUNT(*) FROM pay_flow f WHERE f.order_id = o.order_id)
FROM orders o)");
const QString kCreditsPerOrder = QStringLiteral(R"(SELECT order_id, COUNT(*)
FROM ledger
GROUP BY order_id)");

int intentOf(const QString& order) {
    bool ok = false;
    const qint64 n = order.mid(1).toLongLong(&ok);
    return ok ? int(n - 20250001) : -1;
}

// Money and state must agree: a credit only for a PAID order, a PAID order
// credited, a recorded flow credited.
Phrase inconsistencyOf(const QString& order, const QString& status, qint64 credits, qint64 flows) {
    if (credits > 0 && status != QLatin1String("PAID"))
        return PaymentCallback::said(
            QT_TRANSLATE_NOOP("idem::PaymentCallback", "%1: merchant credited but the order is %2"),
            {order, status});
    if (status == QLatin1String("PAID") && credits == 0)
        return PaymentCallback::said(
            QT_TRANSLATE_NOOP("idem::PaymentCallback",
                              "%1: order PAID but the merchant was never credited"),
            {order});
    if (flows > 0 && credits == 0) {
        return PaymentCallback::said(
            QT_TRANSLATE_NOOP("idem::PaymentCallback",
                              "%1: payment flow recorded but the order is %2 and nothing "
                              "was credited"),
            {order, status});
    }
    return {};
}

}  // namespace

Effects PaymentCallback::effects(Reader& db, int intent) const {
    return {{QStringLiteral("credits"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM ledger WHERE order_id = ?"),
                      {orderOf(intent)})}};
}

Phrase PaymentCallback::inconsistency(Reader& db, int intent) const {
    const QString order = orderOf(intent);
    const SqlResult r = db.query(kOrderBooks, {order});
    return r.empty() ? Phrase()
                     : inconsistencyOf(order, r.value(0, 1).toString(), r.value(0, 2).toLongLong(),
                                       r.value(0, 3).toLongLong());
}

std::vector<Effects> PaymentCallback::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all(std::size_t(intents), Effects{{QStringLiteral("credits"), 0}});
    for (const QVariantList& row : db.query(kCreditsPerOrder).data) {
        const int intent = intentOf(row[0].toString());
        if (intent >= 0 && intent < intents)
            all[std::size_t(intent)][QStringLiteral("credits")] = row[1].toLongLong();
    }
    return all;
}

std::vector<Phrase> PaymentCallback::inconsistenciesOfAll(Reader& db, int intents) const {
    std::vector<Phrase> all(static_cast<std::size_t>(intents));
    for (const QVariantList& row : db.query(kAllOrderBooks).data) {
        const QString order = row[0].toString();
        const int intent = intentOf(order);
        if (intent >= 0 && intent < intents) {
            all[std::size_t(intent)] =
                inconsistencyOf(order, row[1].toString(), row[2].toLongLong(), row[3].toLongLong());
        }
    }
    return all;
}

}  // namespace idem
