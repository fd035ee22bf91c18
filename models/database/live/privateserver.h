// A database server of the lab's own (SPEC section 8, "Servers"):
// PostgreSQL 15 or MariaDB 10.11 from the Debian packages, on a unix socket
// in a private folder (in /dev/shm or /tmp), with durability off. Its data directory
// is made once into a template under the user's cache folder
// ($XDG_CACHE_HOME/idemlab/templates/<kind>-<version>) and copied for each
// start, which then takes a fraction of a second. It stops when this object
// goes, and also when the lab is killed (keeper.h); under root it runs as
// the package's own user.
#pragma once

#include "session.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

namespace idem::live {

class Keeper;

class PrivateServer {
public:
    enum class Stage : quint8 {
        InitialisingTemplate,  // the first start for this server version: seconds
        Copying,               // the template into the private folder
        Starting,              // the server runs; waiting until it answers
        Ready,
    };
    using Progress = std::function<void(Stage)>;

    // A running server, or null with *error in one line that says what to
    // do (which package to install, as whom to run the lab). *usersToFix:
    // whether that is the user's to fix (a missing package, no account to
    // run the server as) rather than the machine's (a server that stopped or
    // did not answer while starting, a full disk).
    // cancel set: start stops within a fraction of a second, nothing of
    // the server left, null.
    static std::unique_ptr<PrivateServer> start(ServerKind kind, const Progress& progress,
                                                QString* error, bool* usersToFix = nullptr,
                                                const std::atomic<bool>* cancel = nullptr);
    // The Debian package whose server programs this machine lacks for
    // `kind`; empty when they are installed. start() refuses with it.
    static QString missingPackage(ServerKind kind);
    // Stops the server (PostgreSQL's fast shutdown, MariaDB's normal one)
    // and removes its folder, unless kept.
    ~PrivateServer();
    PrivateServer(const PrivateServer&) = delete;
    PrivateServer& operator=(const PrivateServer&) = delete;

    ServerKind kind() const { return kind_; }
    // Connects as the server's administrator.
    Endpoint endpoint() const { return endpoint_; }
    QString folder() const { return folder_; }  // data, socket and log
    QString version() const { return version_; }
    QString account() const { return account_; }  // the user it runs as
    qint64 serverPid() const;
    // Whether the server has ended since it started (killed, crashed, the
    // machine's OOM killer); *how says how ("signal 9").
    bool ended(QString* how);
    // The last error its log holds (or its last line): what a server that
    // died or dropped its connections said about it.
    QString lastWords() const;

    // Leaves the server running, and its folder, after the lab: returns the
    // command that connects to it ("psql -h /dev/shm/idemlab-postgres-...
    // -U idemlab postgres").
    QString keep();

private:
    explicit PrivateServer(ServerKind kind);

    ServerKind kind_;
    Endpoint endpoint_;
    QString folder_;
    QString version_;
    QString account_;
    std::unique_ptr<Keeper> keeper_;
    std::mutex endedMutex_;
};

}  // namespace idem::live
