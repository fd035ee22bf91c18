#include "stagehints.h"

#include "scenario.h"
#include "summary.h"

#include <QHash>

namespace idem::stagehints {

QString effectTable(const ScenarioInfo& info, const Summary& finalSummary) {
    // A scenario whose effect moves between tables names it in its summary.
    const QString named = finalSummary.extras.value(QStringLiteral("table")).toString();
    if (!named.isEmpty() && info.tables.contains(named))
        return named;
    static const QHash<QString, QString> tables{
        {"order-create", "orders"},      {"payment-callback", "ledger"},
        {"mq-consume", "coupons"},       {"stock-deduct", "stock"},
        {"scheduled-task", "payouts"},   {"natural-ops", "orders"},
        {"pagination", "orders"},        {"downstream", "coupon_grants"},
        {"ttl-window", "points_ledger"}, {"duplicate-alert", "payments"},
    };
    const QString table = tables.value(info.id);
    return info.tables.contains(table) ? table : QString();
}

bool isInternalLane(const QString& actor) {
    return actor == QLatin1String("observer");
}

bool isInternalTable(const QString& table) {
    return table == QLatin1String("snapshots") || table == QLatin1String("feed_at_start") ||
           table == QLatin1String("scroll_ends");
}

}  // namespace idem::stagehints
