#include "rediskeys.h"

#include "redisreply.h"
#include "traceevent.h"

namespace idem {

namespace {

bool isRedis(const TraceEvent& e) {
    return e.is(EventKind::Note) && e.kindId() == QLatin1String("redis");
}

// The command's words as redis-cli took them: quoted ones ("a b") whole.
QStringList wordsOf(const QString& command) {
    QStringList words;
    QString word;
    bool quoted = false;
    bool inWord = false;
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QChar c = command.at(i);
        if (quoted) {
            if (c == QLatin1Char('\\') && i + 1 < command.size())
                word += command.at(++i);
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                word += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
            inWord = true;
        } else if (c == QLatin1Char(' ')) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

// A `redis` event's reply and its command's words; false for any other
// event, or one whose reply does not read.
bool readRedis(const TraceEvent& e, RedisReply* reply, QStringList* words) {
    if (!isRedis(e) ||
        !RedisReply::fromTrace(e.fields.text("reply_type"), e.fields.value("reply"), reply))
        return false;
    *words = wordsOf(e.fields.text("command"));
    return true;
}

qsizetype find(const QList<RedisKey>& keys, const QString& key) {
    for (qsizetype i = 0; i < keys.size(); ++i)
        if (keys[i].key == key)
            return i;
    return -1;
}

}  // namespace

QList<RedisKey> redisKeysAt(const QList<TraceEvent>& events, qsizetype end) {
    QList<RedisKey> keys;
    advanceRedisKeys(keys, events, 0, end);
    return keys;
}

void advanceRedisKeys(QList<RedisKey>& keys, const QList<TraceEvent>& events, qsizetype from,
                      qsizetype end) {
    end = std::min(end, events.size());
    for (qsizetype i = std::max<qsizetype>(from, 0); i < end; ++i) {
        const TraceEvent& e = events.at(i);
        RedisReply reply;
        QStringList words;
        if (!readRedis(e, &reply, &words))
            continue;
        const QString name = words.value(0).toUpper();
        const QList<qsizetype> positions = keyPositions(words);
        const QString key = positions.isEmpty() ? QString() : words.value(positions.first());
        const qsizetype at = find(keys, key);
        const QString by = QStringLiteral("#%1").arg(e.attempt);
        if (name == QLatin1String("SET") && reply.isOk()) {
            RedisKey k = at >= 0 ? keys[at] : RedisKey{key, {}, -1, {}, 0};
            k.value = words.value(2);
            k.setBy = by;
            k.setAt = e.tMs;
            if (e.fields.contains("expires_at"))
                k.expiresAt = e.fields.number("expires_at");
            else if (!words.contains(QLatin1String("KEEPTTL"), Qt::CaseInsensitive))
                k.expiresAt = -1;
            if (at >= 0)
                keys[at] = k;
            else
                keys << k;
        } else if (name == QLatin1String("INCR") && reply.type == RedisReply::Type::Integer) {
            RedisKey k = at >= 0 ? keys[at] : RedisKey{key, {}, -1, {}, 0};
            k.value = QString::number(reply.integer);
            k.setBy = by;
            k.setAt = e.tMs;
            if (at >= 0)
                keys[at] = k;
            else
                keys << k;
        } else if (at >= 0 && ((name == QLatin1String("PTTL") && reply.integer == -2 &&
                                reply.type == RedisReply::Type::Integer) ||
                               e.fields.flag("freed") ||
                               (name == QLatin1String("DEL") && reply.integer > 0))) {
            keys.removeAt(at);
        }
    }
}

QList<StreamEntry> streamEntriesAt(const QList<TraceEvent>& events, qsizetype end) {
    QList<StreamEntry> entries;
    advanceStreamEntries(entries, events, 0, end);
    return entries;
}

void advanceStreamEntries(QList<StreamEntry>& entries, const QList<TraceEvent>& events,
                          qsizetype from, qsizetype end) {
    const auto entry = [&entries](const QString& stream, const QString& id) -> StreamEntry* {
        for (StreamEntry& e : entries)
            if (e.stream == stream && e.id == id)
                return &e;
        return nullptr;
    };
    end = std::min(end, events.size());
    for (qsizetype i = std::max<qsizetype>(from, 0); i < end; ++i) {
        const TraceEvent& e = events.at(i);
        RedisReply reply;
        QStringList words;
        if (!readRedis(e, &reply, &words) || reply.isError())
            continue;
        const QString name = words.value(0).toUpper();
        // A delivery of each entry in `handed` ([id, [field, value ...]]) to `consumer`.
        const auto handedOver = [&](const QString& stream, const QList<RedisReply>& handed,
                                    const QString& consumer) {
            for (const RedisReply& h : handed) {
                if (StreamEntry* s = entry(stream, h.elements.value(0).text)) {
                    s->owner = consumer;
                    s->deliveries += 1;
                    s->deliveredAt = e.tMs;
                }
            }
        };
        if (name == QLatin1String("XADD") && reply.type == RedisReply::Type::String) {
            QStringList body;
            for (qsizetype w = 3; w + 1 < words.size(); w += 2)
                body << words[w] + u'=' + words[w + 1];
            entries << StreamEntry{words.value(1), reply.text, body.join(u' '), e.tMs, {}, 0, -1,
                                   false};
        } else if (name == QLatin1String("XREADGROUP")) {
            // XREADGROUP GROUP group consumer ...: [[stream, [entries]] ...]
            for (const RedisReply& stream : reply.elements)
                handedOver(stream.elements.value(0).text, stream.elements.value(1).elements,
                           words.value(3));
        } else if (name == QLatin1String("XAUTOCLAIM")) {
            // XAUTOCLAIM stream group consumer ...: [next, [entries], [deleted]]
            handedOver(words.value(1), reply.elements.value(1).elements, words.value(3));
        } else if (name == QLatin1String("XPENDING")) {
            // [[id, consumer, idle, deliveries] ...]: Redis's own count.
            for (const RedisReply& p : reply.elements) {
                if (StreamEntry* s = entry(words.value(1), p.elements.value(0).text)) {
                    s->owner = p.elements.value(1).text;
                    s->deliveries = p.elements.value(3).integer;
                }
            }
        } else if (name == QLatin1String("XACK") && reply.integer > 0) {
            for (const QString& id : words.mid(3))
                if (StreamEntry* s = entry(words.value(1), id))
                    s->acked = true;
        }
    }
}

bool usedRedis(const QList<TraceEvent>& events, qsizetype from, qsizetype end) {
    end = std::min(end, events.size());
    for (qsizetype i = std::max<qsizetype>(from, 0); i < end; ++i)
        if (isRedis(events.at(i)))
            return true;
    return false;
}

}  // namespace idem
