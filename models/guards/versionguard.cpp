#include "versionguard.h"

#include "attempt.h"

#include <stdexcept>

namespace idem {

Task<VersionGuard::Snapshot> VersionGuard::read(Attempt& a, QString selectSql, QVariantList params,
                                                int versionColumn) const {
    Snapshot s;
    s.row = co_await a.sqlWith(std::move(selectSql), std::move(params));
    s.found = !s.row.empty();
    if (!s.found) {
        a.guard("version", "not-found", {{"entity", entity_}});
        co_return s;
    }
    s.version = s.row.value(0, versionColumn).toLongLong();
    a.guard("version", "read", {{"entity", entity_}, {"version", s.version}});
    co_return s;
}

Task<bool> VersionGuard::write(Attempt& a, qint64 expectedVersion, QString updateSql,
                               QVariantList params) const {
    const SqlResult r = co_await a.sqlWith(std::move(updateSql), std::move(params));
    // Zero rows: the version moved on since we read it, so our view of the
    // row is stale and the write must not land.
    const bool accepted = r.rows == 1;
    a.guard("version", accepted ? "accepted" : "conflict",
            {{"entity", entity_}, {"expected_version", expectedVersion}, {"rows", r.rows}});
    co_return accepted;
}

}  // namespace idem
