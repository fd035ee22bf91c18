// Checks a configuration against its scenario before a run: one clear line
// naming the bad value and what is allowed, or an empty string.
#pragma once

#include <QString>

namespace idem {

struct RunConfig;
struct ScenarioInfo;

inline constexpr int kMaxDuplicates = 1000;
inline constexpr int kMaxRetries = 20;
inline constexpr int kMaxIntents = 100'000;
inline constexpr qint64 kMaxIntervalMs = 30LL * 24 * 3'600'000;

QString checkConfig(const RunConfig& config, const ScenarioInfo& info);

}  // namespace idem
