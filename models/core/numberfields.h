// A run's numbers: their limits, option and JSON names, ranges, and how a
// text becomes one. Plain data on RunConfig, below the scenarios, so that a
// configuration read back from a trace is checked the same way as one typed.
#pragma once

#include <QString>

#include <optional>

namespace idem {

struct RunConfig;

inline constexpr int kMaxDuplicates = 1000;
// ... on a server, whose sessions are real connections (at most 300).
inline constexpr int kMaxServerDuplicates = 250;
inline constexpr int kMaxRetries = 20;
inline constexpr int kMaxIntents = 100'000;
inline constexpr qint64 kMaxSeed = 0xFFFF'FFFFLL;
inline constexpr qint64 kMaxIntervalMs = 30LL * 24 * 3'600'000;
// A long pause spaces the nodes by 1.5 x the lease (RunConfig::effectiveIntervalMs),
// and a trace stores that spacing: the lease stays below 2/3 of the interval limit
// so that every configuration the program accepts reads back from its trace.
inline constexpr qint64 kMaxLeaseMs = kMaxIntervalMs * 2 / 3;

// The whole-number fields of a RunConfig, in the order they are checked:
// --crash-attempt's range depends on --duplicates and --max-retries before it.
enum class NumberField {
    Duplicates,
    MaxRetries,
    CrashAttempt,
    Intents,
    Seed,
    IntervalMs,
    ExpiryMs,
    RetentionMs,
    TtlMs,
    LeaseMs,
    VisibilityMs,
};
inline constexpr NumberField kNumberFields[] = {
    NumberField::Duplicates, NumberField::MaxRetries,   NumberField::CrashAttempt,
    NumberField::Intents,    NumberField::Seed,         NumberField::IntervalMs,
    NumberField::ExpiryMs,   NumberField::RetentionMs,  NumberField::TtlMs,
    NumberField::LeaseMs,    NumberField::VisibilityMs,
};

// The field's command-line option without its dashes ("max-retries"); in a
// trace's config the key is the same with underscores ("max_retries").
QString optionName(NumberField field);
QString jsonKey(NumberField field);

struct NumberRange {
    qint64 min = 0;
    qint64 max = 0;
    bool contains(qint64 v) const { return v >= min && v <= max; }
};
// The values a field allows; --crash-attempt's depends on `config`.
NumberRange allowedRange(NumberField field, const RunConfig& config);
qint64 numberOf(const RunConfig& config, NumberField field);
// Stores a value that allowedRange accepts (so the narrowing is exact).
void setNumber(RunConfig* config, NumberField field, qint64 value);

// A number a field does not allow: which field, the value exactly as it was
// given, and the allowed range. Each caller phrases it in its own words: the
// command line names the option, a trace its key, the window a label.
struct NumberProblem {
    enum class Kind { NotWholeNumber, OutOfRange };
    Kind kind = Kind::OutOfRange;
    QString field;  // optionName(), or a scenario parameter's key when `param`
    bool param = false;
    QString value;
    NumberRange allowed;
};

// A whole number in decimal: an optional minus sign, then digits, nothing
// else (no spaces, no "+", no "0x", no point). nullopt when the text is not
// one; *tooLarge tells a whole number that does not fit in 64 bits.
std::optional<qint64> parseWholeNumber(const QString& text, bool* tooLarge = nullptr);

// Parses `text` as `field`, checks its range and stores it in `config`.
std::optional<NumberProblem> readNumber(NumberField field, const QString& text, RunConfig* config);

}  // namespace idem
