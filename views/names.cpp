#include "names.h"

#include <QCoreApplication>

namespace idem {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("idem::Names", text); }
}  // namespace

QString sourceName(Source s) {
    switch (s) {
        case Source::DoubleClick: return tr("double click (front end)");
        case Source::GatewayRetry: return tr("gateway retry");
        case Source::MqRedelivery: return tr("MQ redelivery");
        case Source::ProducerResend: return tr("producer resends the event");
        case Source::TaskRerun: return tr("task re-run / drift");
        case Source::DownstreamTimeout: return tr("downstream timed out but succeeded");
        case Source::ProviderCallback: return tr("payment provider callback retry");
    }
    return {};
}

QString timingName(Timing t) {
    switch (t) {
        case Timing::Concurrent: return tr("concurrent (same instant)");
        case Timing::Retry: return tr("retry (seconds)");
        case Timing::Compensation: return tr("compensation (minutes)");
        case Timing::CrossDay: return tr("cross-day (26 h)");
    }
    return {};
}

QString crashPointName(CrashPoint c) {
    switch (c) {
        case CrashPoint::None: return tr("no crash");
        case CrashPoint::BeforeCommit: return tr("before commit");
        case CrashPoint::AfterGuard: return tr("after the guard record");
        case CrashPoint::AfterBusiness: return tr("after the business commit");
        case CrashPoint::BeforeResponse: return tr("before the response");
        case CrashPoint::AfterAck: return tr("after the ack");
        case CrashPoint::BeforeAck: return tr("before the ack");
        case CrashPoint::DownstreamLost: return tr("downstream answer lost");
        case CrashPoint::LongPause: return tr("long pause past the lease");
    }
    return {};
}

QString responseName(const QString& id) {
    if (id == QLatin1String("success")) return tr("success");
    if (id == QLatin1String("in-progress")) return tr("in progress");
    if (id == QLatin1String("rejected")) return tr("rejected");
    if (id == QLatin1String("error")) return tr("error");
    if (id == QLatin1String("none")) return tr("no answer (timeout)");
    return id;
}

QString verdictName(const QString& id) {
    if (id == QLatin1String("exactly-once")) return tr("EXACTLY ONCE");
    if (id == QLatin1String("duplicated")) return tr("DUPLICATED");
    if (id == QLatin1String("inconsistent")) return tr("INCONSISTENT");
    if (id == QLatin1String("lost")) return tr("LOST");
    if (id == QLatin1String("stuck")) return tr("STUCK");
    return id;
}

QString actorName(const QString& actor) {
    if (actor == QLatin1String("client")) return tr("client");
    if (actor == QLatin1String("gateway")) return tr("gateway");
    if (actor == QLatin1String("service")) return tr("service");
    if (actor == QLatin1String("database")) return tr("database");
    if (actor == QLatin1String("broker")) return tr("broker");
    if (actor == QLatin1String("scheduler")) return tr("scheduler");
    if (actor == QLatin1String("downstream")) return tr("downstream");
    if (actor == QLatin1String("provider")) return tr("payment provider");
    return actor;
}

}  // namespace idem
