// A unique constraint as a guard: insert, and when the database refuses the
// duplicate key, read the row that is already there.
#pragma once

#include "sqlconnection.h"
#include "task.h"

#include <QString>
#include <QVariantList>

namespace idem {

class Attempt;

struct UniqueInsert {
    bool inserted = false;
    SqlResult row;  // inserted: what the INSERT returned; else the row that holds the key
};

// Runs `insertSql`; on a unique violation runs `selectSql` to fetch the
// existing row. Any other error is thrown as the handler's error.
Task<UniqueInsert> insertUnique(Attempt& a, const QString& key, QString insertSql,
                                QVariantList insertParams, QString selectSql,
                                QVariantList selectParams);

}  // namespace idem
