#include "uniquekey.h"

#include "attempt.h"

#include <stdexcept>

namespace idem {

Task<UniqueInsert> insertUnique(Attempt& a, const QString& key, QString insertSql,
                                QVariantList insertParams, QString selectSql,
                                QVariantList selectParams) {
    UniqueInsert out;
    const SqlResult r = co_await a.trySqlWith(std::move(insertSql), std::move(insertParams));
    if (r.ok) {
        a.guard("unique-key", "inserted", {{"key", key}});
        out.inserted = true;
        out.row = r;
        co_return out;
    }
    if (!r.isUniqueViolation())
        throw SqlFailure(r.errorText().toStdString());
    a.guard("unique-key", "duplicate", {{"key", key}, {"conflict", r.errorText()}});
    if (!selectSql.isEmpty())
        out.row = co_await a.sqlWith(std::move(selectSql), std::move(selectParams));
    co_return out;
}

}  // namespace idem
