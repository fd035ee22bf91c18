#include "sqlconnection.h"

namespace idem {

SqlConnection::~SqlConnection() = default;

namespace {
constexpr const char* kOutcomeIds[] = {
    "ok",
    "lock-busy",
    "lock-timeout",
    "deadlock",
    "serialization-failure",
    "unique-violation",
    "check-violation",
    "storage-failure",
    "other-error",
};
}  // namespace

const char* outcomeId(SqlOutcome outcome) {
    return kOutcomeIds[std::size_t(outcome)];
}

std::optional<SqlOutcome> outcomeFromId(QStringView id) {
    for (std::size_t i = 0; i < std::size(kOutcomeIds); ++i) {
        if (id == QLatin1String(kOutcomeIds[i]))
            return SqlOutcome(i);
    }
    return std::nullopt;
}

QString SqlResult::errorText() const {
    if (ok)
        return {};
    return QStringLiteral("%1 (%2)").arg(message).arg(code);
}

}  // namespace idem
