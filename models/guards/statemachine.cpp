#include "statemachine.h"

#include "attempt.h"

#include <stdexcept>

namespace idem {

Task<bool> transition(Attempt& a, const QString& entity, const QString& from, const QString& to,
                      QString updateSql, QVariantList params) {
    const SqlResult r = co_await a.sqlWith(std::move(updateSql), std::move(params));
    const bool accepted = r.rows > 0;
    a.transition(entity, from, to, accepted);
    co_return accepted;
}

}  // namespace idem
