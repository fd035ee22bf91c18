// What the lab tells each session of a run on a server before its first
// statement: where the run's tables are, the isolation level, and on MariaDB
// that no timer of the server's ends a wait and that || joins text.
#pragma once

#include "session.h"

#include <QString>
#include <QStringList>

namespace idem {

// The statements, in the order they are sent. `schema`: PostgreSQL's run
// schema (its search_path); `isolation`: an isolation id ("read-committed").
QStringList sessionSettings(live::ServerKind kind, const QString& isolation, const QString& schema);

}  // namespace idem
