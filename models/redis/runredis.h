// The Redis a run works with (SPEC section 10): a private redis-server of
// the lab's, a user's server (--redis URL) with the run's keys under a
// prefix of its own, or a run's recording played where Redis is missing.
// One connection per attempt; each command one step of the scheduler.
#pragma once

#include "privateredis.h"
#include "redisclient.h"
#include "redisreply.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

namespace idem {

// One command and its reply as a run's trace keeps them.
struct RedisExchange {
    QString connection;  // r1, r2 ...: the attempt's connection
    QString command;     // commandText() of what was sent
    RedisReply reply;
};

// A run's commands and replies, read from its trace to be played.
struct RedisRecording {
    QList<RedisExchange> exchanges;
};

// --redis URL: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or
// unix://[[USER]:PASSWORD@]/PATH/redis.sock[?db=N]. Nothing, with *error in
// one line that never repeats the password, when it is neither.
std::optional<RedisPlace> parseRedisUrl(const QString& url, QString* error);
// Whether --redis names a URL (redis://, unix://), as opposed to private or off.
bool isRedisUrl(const QString& value);

class RedisSession;

class RunRedis {
public:
    // --redis private: a server of the lab's own. *badInput: redis-server
    // is not installed (the message names the package).
    static std::unique_ptr<RunRedis> startPrivate(QString* error, bool* badInput);
    // A run's commands and replies, read from its trace to be played.
    struct RedisRecording {
        QList<RedisExchange> exchanges;
    };

    // --redis URL: a user's server; the run's keys under `idemlab:<random>:`.
    static std::unique_ptr<RunRedis> connectTo(const QString& url, QString* error);
    // A recording's replies, in the order the run sent their commands.
    static std::unique_ptr<RunRedis> play(QList<RedisExchange> recorded);
    // Deletes the run's keys on a user's server (unless kept); stops a
    // private server (unless kept).
    ~RunRedis();
    RunRedis(const RunRedis&) = delete;
    RunRedis& operator=(const RunRedis&) = delete;

    // "7.0.15" where known (a private server's; a recording's: empty).
    QString version() const;
    // A private server's socket as a unix:// URL, for runs that share it
    // (RunOptions::sharedRedis); empty for any other.
    QString socketUrl() const {
        return server_ ? QStringLiteral("unix://") + place_.socket : QString();
    }
    bool playsRecording() const { return playing_; }
    // A new connection, named as the trace names it; null with *error.
    std::unique_ptr<RedisSession> connect(const QString& id, QString* error);
    // Leaves the server and the run's keys after the lab: the lines that
    // say how to reach them with redis-cli.
    QString keep();
    // Why the run cannot go on (a recording that does not match); empty
    // while it can.
    QString failure() const { return failure_; }

private:
    friend class RedisSession;
    RunRedis() = default;
    void deleteKeys();

    std::unique_ptr<PrivateRedis> server_;
    RedisPlace place_;
    QString prefix_;
    bool kept_ = false;
    bool playing_ = false;
    QList<RedisExchange> recorded_;
    qsizetype next_ = 0;
    QString failure_;
};

class RedisSession {
public:
    ~RedisSession();
    RedisSession(const RedisSession&) = delete;
    RedisSession& operator=(const RedisSession&) = delete;

    const QString& id() const { return id_; }
    // Sends the command and waits for its reply (bounded, cancellable).
    RedisReply run(const QStringList& arguments, const std::atomic<bool>* cancel);
    // Asks PTTL until Redis itself says the key is gone (-2), a few ms
    // apart, at most limitMs; the last reply. Played: the recorded reply.
    RedisReply waitUntilGone(const QString& key, const std::atomic<bool>* cancel,
                             int limitMs = 30'000);
    // Before XAUTOCLAIM key group consumer minIdle start: asks XPENDING,
    // unrecorded, until every entry pending in `group` from `start` on has
    // been idle minIdleMs by Redis's own clock, so that what the claim takes
    // never depends on the machine's speed. Empty, or why it gave up.
    // Played: nothing to wait for.
    QString waitUntilIdle(const QString& key, const QString& group, const QString& start,
                          qint64 minIdleMs, const std::atomic<bool>* cancel, int limitMs = 30'000);

private:
    friend class RunRedis;
    RedisSession(RunRedis& redis, const QString& id) : redis_(redis), id_(id) {}

    RunRedis& redis_;
    QString id_;
    std::unique_ptr<RedisConnection> connection_;  // null when playing
};

}  // namespace idem
