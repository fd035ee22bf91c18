// Whether this machine has what a live backend (SPEC section 8) needs, asked
// before a server is started, so that the window can say at once which
// package to install while SQLite keeps working.
#pragma once

#include <QString>

namespace idem {

// The Debian package that a backend's server ("mariadb", "postgres") lacks
// here; empty when it is installed, and for "sqlite", which needs none.
QString missingServerPackage(const QString& backend);
// "MariaDB", "PostgreSQL", "SQLite": the product's own name.
QString backendName(const QString& backend);

}  // namespace idem
