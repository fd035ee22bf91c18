// The stable ids of SPEC section 2: sources, timings, crash points, responses
// and verdicts. The CLI, traces, tests and the window all speak these ids.
#pragma once

#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>

namespace idem {

// The trace format version this program writes (see Trace); a summary
// is written in it too.
// Version 7: an sql event on MariaDB says the text the server received, the
// values inlined ("sent").
constexpr int kTraceVersion = 7;

enum class Source {
    DoubleClick,
    GatewayRetry,
    MqRedelivery,
    ProducerResend,
    TaskRerun,
    DownstreamTimeout,
    ProviderCallback,
};

enum class Timing { Concurrent, Retry, Compensation, CrossDay };

enum class CrashPoint {
    None,
    BeforeCommit,
    AfterGuard,
    AfterBusiness,
    BeforeResponse,
    AfterAck,
    BeforeAck,
    DownstreamLost,
    LongPause,
    AfterPublish,    // an outbox relay published and died before marking the row sent
    DedupStoreLost,  // not a crash: the dedup store forgets a record (evicted, failed over)
};

enum class Response { Success, InProgress, Rejected, Error, None };
constexpr std::size_t kResponseCount = 5;

// Ordered by severity: when intents disagree, the larger one wins.
// Misanswered: a caller was told something the database contradicts.
enum class Verdict { ExactlyOnce, Stuck, Lost, Misanswered, Inconsistent, Duplicated };
constexpr std::size_t kVerdictCount = 6;

QString toId(Source s);
QString toId(Timing t);
QString toId(CrashPoint c);
QString toId(Response r);
QString toId(Verdict v);

std::optional<Source> sourceFromId(const QString& id);
std::optional<Timing> timingFromId(const QString& id);
std::optional<CrashPoint> crashPointFromId(const QString& id);
std::optional<Verdict> verdictFromId(const QString& id);
std::optional<Response> responseFromId(const QString& id);

QStringList sourceIds();
QStringList timingIds();
QStringList crashPointIds();  // without "none"
QStringList responseIds();
QStringList verdictIds();

// The actor (sequence-diagram lane) that sends attempts of this source.
QString callerActor(Source s);

// How long the source waits before it retries an attempt that got no definite
// answer: the user clicks again, the gateway times out, the broker's
// visibility timeout runs out, the scheduler's next tick comes.
// How long a source waits before its `retry`-th retry (1: the first).
qint64 retryIntervalMs(Source s, qint64 visibilityTimeoutMs, int retry = 1);
// Whether the source sends again after a definite "no" as well: a payment
// provider treats every answer but a clear success as a failed delivery.
bool resendsRefusal(Source s);

// The default spacing between duplicates for each timing.
qint64 defaultIntervalMs(Timing t);

}  // namespace idem
