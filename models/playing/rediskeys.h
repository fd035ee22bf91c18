// What a run's Redis holds at a step (SPEC section 10): its keys, each
// with its value and until when it counts, read from the trace's `redis`
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
// Whether the run sent Redis anything in events [from, end).
bool usedRedis(const QList<TraceEvent>& events, qsizetype from, qsizetype end);

}  // namespace idem
