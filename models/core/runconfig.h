// Everything that determines a run. Same RunConfig = same trace, byte for byte.
#pragma once

#include "vocabulary.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <memory>

namespace idem {

struct Recording;
struct RedisRecording;

struct RunConfig {
    QString scenario;
    QString variant;
    int duplicates = 2;
    Timing timing = Timing::Retry;
    Source source = Source::DoubleClick;
    CrashPoint crash = CrashPoint::None;
    int crashAttempt = 1;
    qint64 intervalMs = -1;  // -1: the timing's default
    int maxRetries = 3;
    QMap<QString, QString> params;
    int intents = 1;
    quint32 seed = 1;

    qint64 expiryMs = 5'000;                    // in-progress expiry (处理超时)
    qint64 retentionMs = 7LL * 24 * 3'600'000;  // dedup retention
    qint64 ttlMs = 60'000;                      // TTL cache
    qint64 leaseMs = 30'000;                    // lock lease
    qint64 visibilityMs = 10'000;               // broker visibility timeout
    // Live mode (SPEC section 8): the database the run works on (sqlite,
    // mariadb, postgres) and its isolation level (empty: the database's own).
    QString backend = QStringLiteral("sqlite");
    QString isolation;
    // A server's lock wait longer than this many virtual ms is cancelled by
    // the scheduler (a lock timeout); 0: a wait lasts until the lock is free.
    qint64 lockTimeoutMs = 0;
    // Set: the run's server is the user's own at this URL (--connect), not a
    // private one. Not part of the configuration's JSON: a trace replays on
    // any server of its backend, and the URL may hold a password.
    QString connect;
    // Set: the server's answers come from this recording of the run instead
    // (recordedbackend.h), where the server is not installed. Not part of
    // the configuration's JSON: the run and its trace are the recorded ones.
    std::shared_ptr<const Recording> recording;
    // A workbench run (SPEC section 9): the student's handler source, its
    // digest, the challenge and the schedule the attack chose; empty for
    // every scenario of the lab's own.
    QJsonObject workbench;
    // SPEC section 10: the run's Redis, "off" (the simulation), "private"
    // (a redis-server of the lab's) or a user's server's URL. The JSON
    // says "private" or "url" (a URL may hold a password).
    QString redis = QStringLiteral("off");
    // Set: Redis's replies come from this recording of the run (a replay,
    // where Redis is not needed). Not part of the JSON.
    std::shared_ptr<const RedisRecording> redisRecording;

    qint64 effectiveIntervalMs() const {
        if (intervalMs >= 0)
            return intervalMs;
        // A long pause only teaches something when the next node fires after
        // the sleeper's lease ran out and before it wakes up (SPEC 3,
        // scheduled-task): 1.5 x the lease, whatever the timing.
        if (crash == CrashPoint::LongPause)
            return leaseMs * 3 / 2;
        return defaultIntervalMs(timing);
    }
    QString param(const QString& key) const { return params.value(key); }
    qint64 paramInt(const QString& key) const { return params.value(key).toLongLong(); }

    QJsonObject toJson() const;
    // Reads a configuration written by toJson; returns false with a message
    // naming the bad field.
    static bool fromJson(const QJsonObject& json, RunConfig* out, QString* error);
};

}  // namespace idem
