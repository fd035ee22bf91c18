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

}  // namespace idem
