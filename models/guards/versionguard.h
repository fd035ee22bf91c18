// Optimistic locking with a version column: read the row and its version,
// then write with "... WHERE <key> = ? AND version = ?" so that the write
// only lands if nobody changed the row in between; one row changed = accepted.
#pragma once

#include "sqlconnection.h"
#include "task.h"

#include <QString>
#include <QVariantList>

namespace idem {

class Attempt;

class VersionGuard {
public:
    struct Snapshot {
        bool found = false;
        qint64 version = 0;
        SqlResult row;  // the row as read, for the values the write needs
    };

    // `entity` names the row in the trace (a sku, an account id ...).
    explicit VersionGuard(QString entity) : entity_(std::move(entity)) {}

    // Runs `selectSql`; column `versionColumn` of its first row is the version.
    Task<Snapshot> read(Attempt& a, QString selectSql, QVariantList params,
                        int versionColumn) const;
    // Runs `updateSql`, whose WHERE must require the version that was read
    // and whose SET must bump it. False: someone wrote the row first (a
    // version conflict); any database error is thrown as the handler's error.
    Task<bool> write(Attempt& a, qint64 expectedVersion, QString updateSql,
                     QVariantList params) const;

private:
    QString entity_;
};

}  // namespace idem
