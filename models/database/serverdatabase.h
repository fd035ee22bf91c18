// The run's own database on a server, made before the run and dropped after
// it (unless kept): a schema in the lab's database on a private PostgreSQL, a
// database on a private MariaDB (models/database/live/privateserver.h, one
// server of each kind per process), or a database on the user's server
// (--connect), where nothing else is touched. ServerBackend steps the
// sessions on it; this class only provisions.
#pragma once

#include "serverurl.h"
#include "session.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace idem {

namespace live {
class DropGuard;
class PrivateServer;
}  // namespace live

class ServerDatabase {
public:
    // progress: a private server's start ("initialising", "copying",
    // "starting", "ready").
    ServerDatabase(live::ServerKind kind, QString connectUrl,
                   std::function<void(const QString&)> progress);
    ~ServerDatabase();
    ServerDatabase(const ServerDatabase&) = delete;
    ServerDatabase& operator=(const ServerDatabase&) = delete;

    // Starts (or shares) the private server, or checks the user's, and
    // makes the run's database. *badInput: the user's to fix (a missing
    // package, a refused account, a wrong URL or right).
    // cancel set: a private server's start stops at once (false).
    bool create(QString* error, bool* badInput, const std::atomic<bool>* cancel = nullptr);
    // Where the run's sessions connect: the run's database (MariaDB), or
    // the lab's database whose schema is the run's (PostgreSQL).
    const live::Endpoint& endpoint() const { return endpoint_; }
    // The run's database (MariaDB, --connect) or schema (private PostgreSQL).
    const QString& name() const { return database_; }
    QString version() const;
    // The server and the run's database stay after the lab: how to connect
    // to them, and how to get rid of them.
    QString keep();
    QString location() const;
    // Drops the run's database unless kept; the server stays for the next
    // run. Idempotent.
    void drop();
    // Why the run cannot go on with its server: the private server ended,
    // or a session's connection was dropped by the server (connectionError,
    // empty when none was), said with the server's own last words. Empty
    // while the server serves. refused: a new connection was refused, which
    // says something only if the server has ended.
    QString lost(const QString& connectionError, bool refused = false);

private:
    bool prepareConnected(QString* error, const std::atomic<bool>* cancel);
    void dropConnectedDatabase();

    live::ServerKind kind_;
    std::function<void(const QString&)> progress_;
    std::shared_ptr<live::PrivateServer> server_;
    // Or the user's server (--connect), where the run made its database.
    QString connectUrl_;
    std::optional<live::ServerUrl> connectTo_;
    bool created_ = false;
    // Drops that database should the lab end without dropping it.
    std::unique_ptr<live::DropGuard> dropGuard_;
    QString connectedVersion_;
    bool kept_ = false;  // the server and the run's database stay after the lab
    bool dropped_ = false;
    live::Endpoint endpoint_;
    QString database_;
};

}  // namespace idem
