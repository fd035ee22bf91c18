#include "vocabulary.h"

#include <algorithm>
#include <iterator>

#include <array>

namespace idem {

namespace {

constexpr std::array kSources{"double-click",     "gateway-retry", "mq-redelivery",
                              "producer-resend",  "task-rerun",    "downstream-timeout",
                              "provider-callback"};
constexpr std::array kTimings{"concurrent", "retry", "compensation", "cross-day"};
constexpr std::array kCrashPoints{"none",           "before-commit",   "after-guard",
                                  "after-business", "before-response", "after-ack",
                                  "before-ack",     "downstream-lost", "long-pause",
                                  "after-publish",  "dedup-store-lost"};
constexpr std::array kResponses{"success", "in-progress", "rejected", "error", "none"};
constexpr std::array kVerdicts{"exactly-once", "stuck",        "lost",
                               "misanswered",  "inconsistent", "duplicated"};

template <typename Enum, std::size_t N>
std::optional<Enum> fromId(const std::array<const char*, N>& ids, const QString& id) {
    for (std::size_t i = 0; i < N; ++i) {
        if (id == QLatin1String(ids[i]))
            return static_cast<Enum>(i);
    }
    return std::nullopt;
}

template <std::size_t N>
QStringList allIds(const std::array<const char*, N>& ids, std::size_t from = 0) {
    QStringList out;
    for (std::size_t i = from; i < N; ++i) out << QString::fromLatin1(ids[i]);
    return out;
}

}  // namespace

QString toId(Source s) {
    return QString::fromLatin1(kSources[static_cast<int>(s)]);
}
QString toId(Timing t) {
    return QString::fromLatin1(kTimings[static_cast<int>(t)]);
}
QString toId(CrashPoint c) {
    return QString::fromLatin1(kCrashPoints[static_cast<int>(c)]);
}
QString toId(Response r) {
    return QString::fromLatin1(kResponses[static_cast<int>(r)]);
}
QString toId(Verdict v) {
    return QString::fromLatin1(kVerdicts[static_cast<int>(v)]);
}

std::optional<Source> sourceFromId(const QString& id) {
    return fromId<Source>(kSources, id);
}
std::optional<Timing> timingFromId(const QString& id) {
    return fromId<Timing>(kTimings, id);
}
std::optional<CrashPoint> crashPointFromId(const QString& id) {
    return fromId<CrashPoint>(kCrashPoints, id);
}
std::optional<Verdict> verdictFromId(const QString& id) {
    return fromId<Verdict>(kVerdicts, id);
}
std::optional<Response> responseFromId(const QString& id) {
    return fromId<Response>(kResponses, id);
}

QStringList sourceIds() {
    return allIds(kSources);
}
QStringList timingIds() {
    return allIds(kTimings);
}
QStringList crashPointIds() {
    return allIds(kCrashPoints, 1);
}
QStringList responseIds() {
    return allIds(kResponses);
}
QStringList verdictIds() {
    return allIds(kVerdicts);
}

QString callerActor(Source s) {
    switch (s) {
        case Source::DoubleClick:
            return QStringLiteral("client");
        case Source::GatewayRetry:
            return QStringLiteral("gateway");
        case Source::MqRedelivery:
        case Source::ProducerResend:
            return QStringLiteral("broker");
        case Source::TaskRerun:
            return QStringLiteral("scheduler");
        case Source::DownstreamTimeout:
            return QStringLiteral("gateway");
        case Source::ProviderCallback:
            return QStringLiteral("provider");
    }
    return QStringLiteral("client");
}

qint64 retryIntervalMs(Source s, qint64 visibilityTimeoutMs, int retry) {
    switch (s) {
        case Source::DoubleClick:
            return 5'000;
        case Source::GatewayRetry:
        case Source::DownstreamTimeout:
            return 3'000;
        case Source::MqRedelivery:
        case Source::ProducerResend:
            return visibilityTimeoutMs;
        case Source::TaskRerun:
            return 60'000;
        case Source::ProviderCallback: {
            // The payment providers' notification schedule (WeChat Pay: 15 s,
            // 15 s, 30 s, 3 min, 10 min, 20 min, 30 min …; Alipay's is
            // similar), at two thirds of its pace: the first resend comes
            // after 10 s, as the lab's provider always resent.
            constexpr qint64 kSchedule[] = {10'000,  10'000,  20'000,    120'000,
                                            400'000, 800'000, 1'200'000, 1'200'000};
            const int at = std::clamp(retry, 1, int(std::size(kSchedule))) - 1;
            return kSchedule[at];
        }
    }
    return 5'000;
}

bool resendsRefusal(Source s) {
    return s == Source::ProviderCallback;
}

qint64 defaultIntervalMs(Timing t) {
    switch (t) {
        case Timing::Concurrent:
            return 0;
        case Timing::Retry:
            return 3'000;
        case Timing::Compensation:
            return 10 * 60'000;
        case Timing::CrossDay:
            return 26 * 3'600'000LL;
    }
    return 0;
}

}  // namespace idem
