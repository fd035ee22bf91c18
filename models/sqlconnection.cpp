#include "sqlconnection.h"

namespace idem {

SqlConnection::~SqlConnection() = default;

QString SqlResult::errorText() const {
    if (ok)
        return {};
    return QStringLiteral("%1 (%2)").arg(message).arg(code);
}

}  // namespace idem
