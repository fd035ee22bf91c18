#include "serverinstall.h"

#include "privateserver.h"

namespace idem {

QString missingServerPackage(const QString& backend) {
    if (backend == QLatin1String("postgres"))
        return live::PrivateServer::missingPackage(live::ServerKind::Postgres);
    if (backend == QLatin1String("mariadb"))
        return live::PrivateServer::missingPackage(live::ServerKind::MariaDb);
    return {};
}

QString backendName(const QString& backend) {
    if (backend == QLatin1String("postgres"))
        return live::serverName(live::ServerKind::Postgres);
    if (backend == QLatin1String("mariadb"))
        return live::serverName(live::ServerKind::MariaDb);
    if (backend == QLatin1String("sqlite"))
        return QStringLiteral("SQLite");
    if (backend == QLatin1String("redis"))
        return QStringLiteral("Redis");
    return backend;
}

}  // namespace idem
