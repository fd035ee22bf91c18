#include "backendnames.h"

namespace idem {

QStringList backendIds() {
    return {QStringLiteral("sqlite"), QStringLiteral("mariadb"), QStringLiteral("postgres")};
}

QStringList isolationIds(const QString& backend) {
    if (backend == QLatin1String("postgres"))
        return {QStringLiteral("read-committed"), QStringLiteral("repeatable-read"),
                QStringLiteral("serializable")};
    if (backend == QLatin1String("mariadb"))
        return {QStringLiteral("repeatable-read"), QStringLiteral("read-committed"),
                QStringLiteral("serializable")};
    return {QStringLiteral("serializable")};
}

QString serverPackage(const QString& backend) {
    if (backend == QLatin1String("postgres"))
        return QStringLiteral("postgresql-15");
    if (backend == QLatin1String("mariadb"))
        return QStringLiteral("mariadb-server-core");
    return {};
}

}  // namespace idem
