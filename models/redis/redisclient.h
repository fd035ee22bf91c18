// One connection to a Redis server, stepped from one thread as live mode's
// database sessions are (SPEC section 10): a command is sent without
// waiting, then its reply is read in bounded slices, so that a cancel (Esc,
// Ctrl+C) is heard within one slice. On hiredis 0.14's plain context, with
// the lab's own poll() on its socket.
#pragma once

#include "redisreply.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

struct redisContext;

namespace idem {

// Where a Redis server listens: a unix socket, or a host and port.
struct RedisPlace {
    QString socket;
    QString host;
    int port = 6379;
    QString user;      // Redis 6 ACL user; empty: the default user
    QString password;  // empty: none
    int database = 0;

    // "/dev/shm/idemlab-redis-x/redis.sock", "cache.example.org:6379": for messages.
    QString shown() const;
};

class RedisConnection {
public:
    // An open connection that has authenticated and chosen its database,
    // or null with *error in one line. Every command's key (its second
    // argument) gets `prefix` in front as it is sent: a user's server keeps
    // the run's keys apart from everything else on it.
    static std::unique_ptr<RedisConnection> open(const RedisPlace& place, const QString& prefix,
                                                 QString* error);
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    // Sends one command without waiting for its reply; false when the
    // connection is broken (then the reply is the error).
    bool send(const QStringList& arguments);
    // Reads the reply of the command in flight, waiting at most timeoutMs;
    // false while it has not come.
    bool poll(int timeoutMs, RedisReply* reply);
    // Sends and waits for the reply, in slices of 10 ms, until `cancel` is
    // set or limitMs have passed: then an error reply that says which.
    RedisReply run(const QStringList& arguments, const std::atomic<bool>* cancel,
                   int limitMs = 10'000);
    const QString& prefix() const { return prefix_; }

private:
    RedisConnection() = default;
    bool flush();
    void unprefix(RedisReply& reply) const;

    redisContext* context_ = nullptr;
    QString prefix_;
    QString broken_;  // why the connection cannot be used any more
};

}  // namespace idem
