// The SQLite backend's session, straight on libsqlite3: one prepared
// statement per SQL text, kept for the session's life; no busy timeout, so a
// locked database is reported at once and the scheduler can park the process.
#pragma once

#include "sqlconnection.h"
#include "sqlitecodes.h"

struct sqlite3;

namespace idem {

class SqliteConnection final : public SqlConnection {
public:
    SqliteConnection(const QString& path, const QString& traceId);
    ~SqliteConnection() override;

    bool isOpen() const override { return db_ != nullptr; }
    QString openError() const override { return openError_; }
    bool inTransaction() const override;
    SqlResult exec(const QString& sql, const QVariantList& params = {}) override;
    // "SELECT rowid, <every column> FROM <table> ORDER BY rowid".
    QString selectAllStatement(const QString& table, QStringList* columns) override;
    // SQLite's data_version, a few microseconds.
    bool othersCommittedSinceAsked() override;
    SqlResult findTable(const QString& table) override;
    // PRAGMA integrity_check.
    SqlResult integrityCheck() override;

private:
    struct Statements;
    QString openError_;
    sqlite3* db_ = nullptr;
    std::unique_ptr<Statements> statements_;
    qint64 dataVersion_ = -1;  // data_version when last asked; -1: never asked
};

}  // namespace idem
