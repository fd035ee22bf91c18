#include "names.h"

#include <QCoreApplication>
#include <QHash>

namespace idem {

// The translation context of these names.
class Names {
    Q_DECLARE_TR_FUNCTIONS(idem::Names)
};

QString sourceName(Source s) {
    switch (s) {
        case Source::DoubleClick:
            return Names::tr("double click (front end)");
        case Source::GatewayRetry:
            return Names::tr("gateway retry");
        case Source::MqRedelivery:
            return Names::tr("MQ redelivery");
        case Source::ProducerResend:
            return Names::tr("producer resends the event");
        case Source::TaskRerun:
            return Names::tr("task re-run / drift");
        case Source::DownstreamTimeout:
            return Names::tr("downstream timed out but succeeded");
        case Source::ProviderCallback:
            return Names::tr("payment provider callback retry");
    }
    return {};
}

QString timingName(Timing t) {
    switch (t) {
        case Timing::Concurrent:
            return Names::tr("concurrent (same instant)");
        case Timing::Retry:
            return Names::tr("retry (seconds)");
        case Timing::Compensation:
            return Names::tr("compensation (minutes)");
        case Timing::CrossDay:
            return Names::tr("cross-day (26 h)");
    }
    return {};
}

QString crashPointName(CrashPoint c) {
    switch (c) {
        case CrashPoint::None:
            return Names::tr("no crash");
        case CrashPoint::BeforeCommit:
            return Names::tr("before commit");
        case CrashPoint::AfterGuard:
            return Names::tr("after the guard record");
        case CrashPoint::AfterBusiness:
            return Names::tr("after the business commit");
        case CrashPoint::BeforeResponse:
            return Names::tr("before the response");
        case CrashPoint::AfterAck:
            return Names::tr("after the ack");
        case CrashPoint::BeforeAck:
            return Names::tr("before the ack");
        case CrashPoint::DownstreamLost:
            return Names::tr("downstream answer lost");
        case CrashPoint::LongPause:
            return Names::tr("long pause past the lease");
        case CrashPoint::AfterPublish:
            return Names::tr("after the relay published");
        case CrashPoint::DedupStoreLost:
            return Names::tr("dedup store loses the record");
    }
    return {};
}

QString responseName(const QString& id) {
    if (id == QLatin1String("success"))
        return Names::tr("success");
    if (id == QLatin1String("in-progress"))
        return Names::tr("in progress");
    if (id == QLatin1String("rejected"))
        return Names::tr("rejected");
    if (id == QLatin1String("error"))
        return Names::tr("error");
    if (id == QLatin1String("none"))
        return Names::tr("no answer (timeout)");
    return id;
}

QString verdictName(const QString& id) {
    if (id == QLatin1String("exactly-once"))
        return Names::tr("EXACTLY ONCE");
    if (id == QLatin1String("duplicated"))
        return Names::tr("DUPLICATED");
    if (id == QLatin1String("inconsistent"))
        return Names::tr("INCONSISTENT");
    if (id == QLatin1String("lost"))
        return Names::tr("LOST");
    if (id == QLatin1String("misanswered"))
        return Names::tr("MISANSWERED");
    if (id == QLatin1String("stuck"))
        return Names::tr("STUCK");
    return id;
}

QString effectName(const QString& id) {
    static const QHash<QString, const char*> names{
        {QStringLiteral("orders"), QT_TRANSLATE_NOOP("idem::Names", "orders created")},
        {QStringLiteral("points"), QT_TRANSLATE_NOOP("idem::Names", "points granted")},
        {QStringLiteral("coupons"), QT_TRANSLATE_NOOP("idem::Names", "coupons issued")},
        {QStringLiteral("charges"), QT_TRANSLATE_NOOP("idem::Names", "charges made")},
        {QStringLiteral("credits"), QT_TRANSLATE_NOOP("idem::Names", "merchant credited")},
        {QStringLiteral("debits"), QT_TRANSLATE_NOOP("idem::Names", "accounts debited")},
        {QStringLiteral("payouts"), QT_TRANSLATE_NOOP("idem::Names", "payouts made")},
        {QStringLiteral("refunds"), QT_TRANSLATE_NOOP("idem::Names", "refunds made")},
        {QStringLiteral("units"), QT_TRANSLATE_NOOP("idem::Names", "stock units taken")},
        {QStringLiteral("shown_twice"), QT_TRANSLATE_NOOP("idem::Names", "rows shown twice")},
        {QStringLiteral("missed"), QT_TRANSLATE_NOOP("idem::Names", "rows never shown")},
        {QStringLiteral("changed_by_repeats"),
         QT_TRANSLATE_NOOP("idem::Names", "changes made by the repeats")},
    };
    const char* name = names.value(id);
    return name ? QCoreApplication::translate("idem::Names", name) : id;
}

// The actors of the engine (who sends each source's attempts, the service,
// the database); a scenario names its own (ScenarioWords).
QString actorName(const QString& actor) {
    if (actor == QLatin1String("client"))
        return Names::tr("client");
    if (actor == QLatin1String("gateway"))
        return Names::tr("gateway");
    if (actor == QLatin1String("service"))
        return Names::tr("service");
    if (actor == QLatin1String("database"))
        return Names::tr("database");
    if (actor == QLatin1String("broker"))
        return Names::tr("broker");
    if (actor == QLatin1String("scheduler"))
        return Names::tr("scheduler");
    if (actor == QLatin1String("provider"))
        return Names::tr("payment provider");
    return actor;
}

QString crashedHelperTag(CrashPoint c, int crashAttempt) {
    return c == CrashPoint::AfterPublish ? processTag(-crashAttempt, QStringLiteral("relay"))
                                         : QString();
}

QString processTag(int attempt, const QString& actor) {
    if (attempt > 0)
        return QStringLiteral("#%1").arg(attempt);
    if (attempt < 0 && !actor.isEmpty())
        return actor.front().toUpper() + QString::number(-qint64(attempt));
    return {};
}

}  // namespace idem
