// A server the user already runs, as --connect names it (SPEC section 8,
// "Servers"): the URL's scheme says which server, the rest where it listens
// and as whom the lab connects, in the forms libpq and the MariaDB client
// write:
//   postgres://user[:password]@host[:port]/[database]
//   postgres://user@/database?host=/run/postgresql   (a unix socket's folder)
//   mariadb://user[:password]@host[:port]/
//   mariadb://user@localhost/?socket=/run/mysqld/mysqld.sock
// Without a password in the URL, PGPASSWORD or MYSQL_PWD gives it.
#pragma once

#include "session.h"

#include <QString>

#include <optional>

namespace idem::live {

struct ServerUrl {
    // Where the lab connects to create and drop the run's database:
    // PostgreSQL's database from the URL (default "postgres"); none on MariaDB.
    Endpoint endpoint;
    bool passwordInUrl = false;  // else from the environment, or none
};

// The URL read, or nothing with *error in one line that never repeats the
// password.
std::optional<ServerUrl> parseServerUrl(const QString& url, QString* error);
// "postgres" or "mariadb" for a URL's scheme; empty when it names neither.
QString serverUrlBackend(const QString& url);
// "PostgreSQL at /run/postgresql as alice", "MariaDB at db.example.org:3306
// as alice", with its version when given ("PostgreSQL 15.18 at ..."): for
// messages (never the password).
QString serverPlace(const Endpoint& endpoint, const QString& version = {});
// The options of psql / mariadb that reach the same server as the same user
// ("-h db.example.org -p 5433 -U alice").
QString clientOptions(const Endpoint& endpoint, bool askPassword);

}  // namespace idem::live
