// A redis-server of the lab's own (SPEC section 10, "Server"): Debian's
// redis-server on a unix socket in a private folder, no TCP port
// (--port 0), nothing written to disk (--save '' --appendonly no). Live
// mode's keeper (live/keeper.h) starts it and stops it when the lab ends,
// SIGKILL included; under root it runs as the package's user, redis.
#pragma once

#include "redisclient.h"

#include <QString>

#include <memory>

namespace idem {

namespace live {
class Keeper;
}

class PrivateRedis {
public:
    // A server that answers PING, or null with *error in one line (which
    // package to install, as whom to run the lab). *badInput: the machine
    // lacks the package, which the user can fix (exit 2).
    static std::unique_ptr<PrivateRedis> start(QString* error, bool* badInput);
    // The Debian package whose redis-server this machine lacks; empty when
    // it is installed.
    static QString missingPackage();
    // Stops the server and removes its folder, unless kept.
    ~PrivateRedis();
    PrivateRedis(const PrivateRedis&) = delete;
    PrivateRedis& operator=(const PrivateRedis&) = delete;

    RedisPlace place() const;
    QString folder() const { return folder_; }
    QString version() const { return version_; }
    QString account() const { return account_; }
    qint64 serverPid() const;
    // How long the start took, from the keeper's fork to the first PONG.
    qint64 startMs() const { return startMs_; }
    // Leaves the server running after the lab: the command that reaches it
    // ("redis-cli -s /dev/shm/idemlab-redis-x/redis.sock").
    QString keep();

private:
    PrivateRedis() = default;

    QString folder_;
    QString version_;
    QString account_;
    qint64 startMs_ = 0;
    std::unique_ptr<live::Keeper> keeper_;
};

}  // namespace idem
