#include "numberfields.h"

#include "runconfig.h"

#include <QLocale>

#include <algorithm>
#include <limits>

namespace idem {

QString optionName(NumberField field) {
    switch (field) {
        case NumberField::Duplicates:
            return QStringLiteral("duplicates");
        case NumberField::MaxRetries:
            return QStringLiteral("max-retries");
        case NumberField::CrashAttempt:
            return QStringLiteral("crash-attempt");
        case NumberField::Intents:
            return QStringLiteral("intents");
        case NumberField::Seed:
            return QStringLiteral("seed");
        case NumberField::IntervalMs:
            return QStringLiteral("interval-ms");
        case NumberField::ExpiryMs:
            return QStringLiteral("expiry-ms");
        case NumberField::RetentionMs:
            return QStringLiteral("retention-ms");
        case NumberField::TtlMs:
            return QStringLiteral("ttl-ms");
        case NumberField::LeaseMs:
            return QStringLiteral("lease-ms");
        case NumberField::VisibilityMs:
            return QStringLiteral("visibility-ms");
    }
    return {};
}

QString jsonKey(NumberField field) {
    return optionName(field).replace(QLatin1Char('-'), QLatin1Char('_'));
}

NumberRange allowedRange(NumberField field, const RunConfig& c) {
    switch (field) {
        case NumberField::Duplicates:
            return {0, kMaxDuplicates};
        case NumberField::MaxRetries:
            return {0, kMaxRetries};
        case NumberField::CrashAttempt:
            // The original, its duplicates and the retries of one of them.
            return {1, qint64(c.duplicates) + 1 + qint64(c.maxRetries)};
        case NumberField::Intents:
            return {1, kMaxIntents};
        case NumberField::Seed:
            return {0, kMaxSeed};
        case NumberField::IntervalMs:
            return {0, kMaxIntervalMs};
        case NumberField::RetentionMs:
            return {1, 10 * kMaxIntervalMs};
        case NumberField::LeaseMs:
            return {1, kMaxLeaseMs};
        case NumberField::ExpiryMs:
        case NumberField::TtlMs:
        case NumberField::VisibilityMs:
            return {1, kMaxIntervalMs};
    }
    return {};
}

qint64 numberOf(const RunConfig& c, NumberField field) {
    switch (field) {
        case NumberField::Duplicates:
            return c.duplicates;
        case NumberField::MaxRetries:
            return c.maxRetries;
        case NumberField::CrashAttempt:
            return c.crashAttempt;
        case NumberField::Intents:
            return c.intents;
        case NumberField::Seed:
            return c.seed;
        case NumberField::IntervalMs:
            return c.intervalMs;
        case NumberField::ExpiryMs:
            return c.expiryMs;
        case NumberField::RetentionMs:
            return c.retentionMs;
        case NumberField::TtlMs:
            return c.ttlMs;
        case NumberField::LeaseMs:
            return c.leaseMs;
        case NumberField::VisibilityMs:
            return c.visibilityMs;
    }
    return 0;
}

void setNumber(RunConfig* c, NumberField field, qint64 value) {
    Q_ASSERT(allowedRange(field, *c).contains(value));
    switch (field) {
        case NumberField::Duplicates:
            c->duplicates = int(value);
            break;
        case NumberField::MaxRetries:
            c->maxRetries = int(value);
            break;
        case NumberField::CrashAttempt:
            c->crashAttempt = int(value);
            break;
        case NumberField::Intents:
            c->intents = int(value);
            break;
        case NumberField::Seed:
            c->seed = quint32(value);
            break;
        case NumberField::IntervalMs:
            c->intervalMs = value;
            break;
        case NumberField::ExpiryMs:
            c->expiryMs = value;
            break;
        case NumberField::RetentionMs:
            c->retentionMs = value;
            break;
        case NumberField::TtlMs:
            c->ttlMs = value;
            break;
        case NumberField::LeaseMs:
            c->leaseMs = value;
            break;
        case NumberField::VisibilityMs:
            c->visibilityMs = value;
            break;
    }
}

std::optional<qint64> parseWholeNumber(const QString& text, bool* tooLarge) {
    if (tooLarge)
        *tooLarge = false;
    const bool negative = text.startsWith(QLatin1Char('-'));
    const qsizetype first = negative ? 1 : 0;
    if (text.size() == first)
        return std::nullopt;
    // Accumulate towards the negative side: its range is one larger.
    qint64 value = 0;
    bool overflow = false;
    for (qsizetype i = first; i < text.size(); ++i) {
        const QChar ch = text[i];
        if (ch < QLatin1Char('0') || ch > QLatin1Char('9'))
            return std::nullopt;
        const int digit = ch.unicode() - '0';
        if (value < (std::numeric_limits<qint64>::min() + digit) / 10)
            overflow = true;
        if (!overflow)
            value = value * 10 - digit;
    }
    if (!overflow && !negative && value == std::numeric_limits<qint64>::min())
        overflow = true;
    if (overflow) {
        if (tooLarge)
            *tooLarge = true;
        return std::nullopt;
    }
    return negative ? value : -value;
}

std::optional<NumberProblem> readNumber(NumberField field, const QString& text, RunConfig* c) {
    const NumberRange allowed = allowedRange(field, *c);
    bool tooLarge = false;
    const std::optional<qint64> n = parseWholeNumber(text, &tooLarge);
    if (!n || !allowed.contains(*n)) {
        const bool whole = n || tooLarge;
        return NumberProblem{
            whole ? NumberProblem::Kind::OutOfRange : NumberProblem::Kind::NotWholeNumber,
            optionName(field), false, text, allowed};
    }
    setNumber(c, field, *n);
    return std::nullopt;
}

}  // namespace idem
