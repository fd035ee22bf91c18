// The backends' names and what each offers, as plain data: a run's
// configuration is checked against them before any backend exists.
#pragma once

#include <QString>
#include <QStringList>

namespace idem {

// "sqlite", "mariadb", "postgres".
QStringList backendIds();
// Isolation levels a backend has, as --isolation names them; the first is
// its default.
QStringList isolationIds(const QString& backend);
// The Debian package a backend's server comes from ("" for sqlite).
QString serverPackage(const QString& backend);
// The command that installs a server's Debian package (postgresql-15,
// mariadb-server-core, mariadb-client-core, redis-server) as the lab wants
// it: with what MariaDB's set-up also needs, and without the system server
// Debian starts on install (the lab only ever starts servers of its own).
// One line that works as given.
QString installCommand(const QString& package);

}  // namespace idem
