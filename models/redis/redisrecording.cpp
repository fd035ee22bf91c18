#include "redisrecording.h"

#include "trace.h"
#include "traceevent.h"

namespace idem {

bool redisExchangeOf(const TraceEvent& e, RedisExchange* out) {
    if (!e.is(EventKind::Note) || e.kindId() != QLatin1String("redis"))
        return false;
    RedisExchange x;
    x.connection = e.fields.text("connection");
    x.command = e.fields.text("command");
    if (!RedisReply::fromTrace(e.fields.text("reply_type"), e.fields.value("reply"), &x.reply))
        return false;
    *out = x;
    return true;
}

std::shared_ptr<const RedisRecording> loadRedisRecording(const QString& path, QString* error) {
    TraceReader reader(path);
    TraceReader::Header header;
    if (!reader.readHeader(&header, error))
        return nullptr;
    auto recording = std::make_shared<RedisRecording>();
    bool digestMatches = true;
    const bool read = reader.readEvents(
        [&](TraceEvent&& e, const QJsonObject&) {
            if (!e.is(EventKind::Note) || e.kindId() != QLatin1String("redis"))
                return true;
            RedisExchange x;
            if (!redisExchangeOf(e, &x)) {
                *error = QStringLiteral("event %1 is a redis event without a reply Redis gives")
                             .arg(e.seq);
                return false;
            }
            recording->exchanges << x;
            return true;
        },
        &digestMatches, error);
    if (!read)
        return nullptr;
    return recording;
}

}  // namespace idem
