// What a run's Redis holds at a step (SPEC section 10): its keys, each
// with its value and until when it counts, and its streams' entries with
// their consumer group's pending list, read from the trace's `redis`
// events alone, so that a replay without Redis shows the same. A SET that
// answered OK stores its value; PTTL answered -2 (Redis reports the key
// gone), DEL and a compare-and-delete that answered 1 remove it; INCR
// counts. The keys' lives are the run's virtual time: a key past its end
// that Redis was not asked about yet is shown as expired.
#pragma once

#include <QList>
#include <QString>

namespace idem {

struct TraceEvent;

struct RedisKey {
    QString key;
    QString value;
    qint64 expiresAt = -1;  // virtual ms; -1: no expiry known
    QString setBy;          // the attempt that last wrote it: "#2"
    qint64 setAt = 0;       // when (virtual ms)
};

// The keys after the events [0, end), in the order they were first set.
QList<RedisKey> redisKeysAt(const QList<TraceEvent>& events, qsizetype end);
// `keys`, as they stood after events [0, from), taken on to `end`: a step
// forward reads only its own events.
void advanceRedisKeys(QList<RedisKey>& keys, const QList<TraceEvent>& events, qsizetype from,
                      qsizetype end);

// An entry of a stream and where it stands in its consumer group: added
// (XADD), handed to a consumer (XREADGROUP, XAUTOCLAIM, whose count
// XPENDING confirms), acked (XACK).
struct StreamEntry {
    QString stream;
    QString id;               // "1500-0"
    QString body;             // "msg_id=msg-1-1 user_id=50001 campaign=spring-2025"
    qint64 addedAt = 0;       // virtual ms
    QString owner;            // the consumer it was last handed to; empty: none yet
    qint64 deliveries = 0;    // how often it was handed over
    qint64 deliveredAt = -1;  // the last time (virtual ms)
    bool acked = false;
};

// The streams' entries after events [0, end), in the order they were added.
QList<StreamEntry> streamEntriesAt(const QList<TraceEvent>& events, qsizetype end);
// `entries` as they stood after events [0, from), taken on to `end`.
void advanceStreamEntries(QList<StreamEntry>& entries, const QList<TraceEvent>& events,
                          qsizetype from, qsizetype end);
// Whether the run sent Redis anything in events [from, end).
bool usedRedis(const QList<TraceEvent>& events, qsizetype from, qsizetype end);

}  // namespace idem
