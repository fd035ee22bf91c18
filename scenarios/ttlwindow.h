// 误区三 — guarding only against quick duplicates: a dedup key that expires
// after a minute (like Redis SET NX EX) against a dedup table kept for days,
// with duplicates arriving seconds, minutes or a day later.
#pragma once

#include "scenario.h"

namespace idem {

class TtlWindow : public Scenario {
public:
    TtlWindow();
    const ScenarioInfo& info() const override { return info_; }
    Effects effects(Reader& db, int intent) const override;

    // The TTL and the retention of this run: --param ttl-s / retention-s
    // when given, else --ttl-ms / --retention-ms.
    static qint64 ttlMs(const RunConfig& config);
    static qint64 retentionMs(const RunConfig& config);

private:
    Task<Reply> withTtlKey(Attempt& a) const;
    Task<Reply> withDedupTable(Attempt& a) const;
    Task<QString> creditPoints(Attempt& a) const;

    ScenarioInfo info_;
};

}  // namespace idem
