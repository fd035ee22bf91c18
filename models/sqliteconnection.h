// The SQLite backend's session, straight on libsqlite3: one prepared
// statement per SQL text, kept for the session's life; no busy timeout, so a
// locked database is reported at once and the scheduler can park the process.
#pragma once

#include "sqlconnection.h"

struct sqlite3;

namespace idem {

// SQLite's result codes that the SQLite backend acts on (the extended codes
// are what a connection reports; the primary code is the low byte). Numbers,
// as in sqlite3.h, so that this header stays lean.
namespace sqlite {
constexpr int Ok = 0;
constexpr int Error = 1;
constexpr int Busy = 5;
constexpr int Full = 13;
constexpr int IoErr = 10;
constexpr int Constraint = 19;
constexpr int ConstraintCheck = 275;
constexpr int ConstraintPrimaryKey = 1555;
constexpr int ConstraintUnique = 2067;
constexpr int primary(int code) {
    return code & 0xff;
}
}  // namespace sqlite

// What an SQLite result code means in the words every backend shares.
SqlOutcome sqliteOutcome(int code);

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
