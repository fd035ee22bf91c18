// A run's Redis commands and replies, read back from its trace (the `redis`
// events), so that the run replays where Redis is not running: the
// replay's commands are answered from it, in order (runredis.h).
#pragma once

#include "runredis.h"

#include <QString>

#include <memory>

namespace idem {

struct TraceEvent;

// The exchange a `redis` event records; false when the event is not one.
bool redisExchangeOf(const TraceEvent& e, RedisExchange* out);
// Every `redis` event of the trace at `path`; null with a message when the
// file cannot be read or an event's reply is not one Redis gives.
std::shared_ptr<const RedisRecording> loadRedisRecording(const QString& path, QString* error);

}  // namespace idem
