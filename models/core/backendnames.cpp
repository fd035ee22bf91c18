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

QString installCommand(const QString& package) {
    if (package == QLatin1String("postgresql-15"))
        return QStringLiteral(
            "sudo apt install postgresql-15 && sudo pg_dropcluster --stop 15 main");
    if (package == QLatin1String("redis-server"))
        return QStringLiteral(
            "sudo apt install redis-server && sudo systemctl disable --now redis-server");
    // mariadb-install-db runs my_print_defaults, of the client's core package.
    if (package == QLatin1String("mariadb-server-core"))
        return QStringLiteral("sudo apt install mariadb-server-core mariadb-client-core");
    return QStringLiteral("sudo apt install %1").arg(package);
}

}  // namespace idem
