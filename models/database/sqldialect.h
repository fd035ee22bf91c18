// The lab's SQL is written once, in the portable subset SQLite, MariaDB and
// PostgreSQL share, with SQLite's spelling of types. On a server each
// statement is sent as that server's engineers spell it: a table's columns
// in its types, an auto-numbered key its way, the article's own MySQL
// forms on MariaDB (ALTER TABLE ... ADD UNIQUE KEY, INSERT IGNORE, ON
// DUPLICATE KEY UPDATE). What the SQL log shows is the text sent.
//
// What cannot be spelled the same (a conditional upsert on MariaDB, a
// statement that must not abort a PostgreSQL transaction) is the
// scenario's or the guard's to write per server: see Dialect in backend.h.
#pragma once

#include <QString>

namespace idem {

enum class SqlDialect : quint8 { Sqlite, MariaDb, Postgres };

// `sql` as sent to a database of `dialect`. SQLite's is `sql` itself; the
// rewriting is idempotent (a statement already in the dialect stays).
QString inDialect(SqlDialect dialect, const QString& sql);

}  // namespace idem
