#include "serverurl.h"

#include <QUrl>
#include <QUrlQuery>

#include <pwd.h>
#include <unistd.h>

namespace idem::live {

namespace {

std::optional<ServerKind> kindOfScheme(const QString& scheme) {
    if (scheme == QLatin1String("postgres") || scheme == QLatin1String("postgresql"))
        return ServerKind::Postgres;
    if (scheme == QLatin1String("mariadb") || scheme == QLatin1String("mysql"))
        return ServerKind::MariaDb;
    return std::nullopt;
}

// Who runs the lab: the user both client libraries assume when none is given.
QString loginName() {
    if (const passwd* pw = getpwuid(geteuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return qEnvironmentVariable("USER");
}

// A value for a shell command line, quoted only when it must be.
QString shellWord(const QString& word) {
    static const QString plain =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@=,+");
    bool safe = !word.isEmpty();
    for (QChar c : word) safe = safe && plain.contains(c);
    if (safe)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

}  // namespace

QString serverUrlBackend(const QString& url) {
    const std::optional<ServerKind> kind = kindOfScheme(url.section(QStringLiteral("://"), 0, 0));
    if (!kind || !url.contains(QStringLiteral("://")))
        return {};
    return *kind == ServerKind::Postgres ? QStringLiteral("postgres") : QStringLiteral("mariadb");
}

std::optional<ServerUrl> parseServerUrl(const QString& text, QString* error) {
    const QString forms = QStringLiteral(
        "postgres://USER[:PASSWORD]@HOST[:PORT]/[DATABASE], postgres://USER@/[DATABASE]?host="
        "/SOCKET/FOLDER, mariadb://USER[:PASSWORD]@HOST[:PORT]/ or "
        "mariadb://USER@localhost/?socket=/PATH/mysqld.sock");
    const QUrl url(text, QUrl::StrictMode);
    const std::optional<ServerKind> kind = kindOfScheme(url.scheme());
    // The URL itself is never repeated: it may hold a password.
    if (url.isValid() && !kind && text.contains(QStringLiteral("://"))) {
        *error = QStringLiteral(
                     "--connect: a %1:// server is none the lab runs on (postgres:// "
                     "or mariadb://)")
                     .arg(url.scheme());
        return std::nullopt;
    }
    if (!url.isValid() || !kind || !text.contains(QStringLiteral("://"))) {
        *error = QStringLiteral("--connect takes a server's URL: %1").arg(forms);
        return std::nullopt;
    }
    const QString shown = url.toDisplayString(QUrl::RemovePassword);
    ServerUrl s;
    Endpoint& e = s.endpoint;
    e.kind = *kind;
    e.user = url.userName(QUrl::FullyDecoded);
    if (e.user.isEmpty())
        e.user = loginName();
    e.password = url.password(QUrl::FullyDecoded);
    s.passwordInUrl = !e.password.isEmpty();
    if (!s.passwordInUrl) {
        e.password =
            qEnvironmentVariable(*kind == ServerKind::Postgres ? "PGPASSWORD" : "MYSQL_PWD");
    }
    e.host = url.host(QUrl::FullyDecoded);
    e.port = url.port(0);
    QString path = url.path(QUrl::FullyDecoded);
    if (path.startsWith(QLatin1Char('/')))
        path.remove(0, 1);
    if (path.contains(QLatin1Char('/'))) {
        *error = QStringLiteral("--connect %1: the path names one database at most").arg(shown);
        return std::nullopt;
    }
    const QUrlQuery query(url);
    for (const auto& [key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (*kind == ServerKind::Postgres && key == QLatin1String("host")) {
            e.host = value;
        } else if (*kind == ServerKind::Postgres && key == QLatin1String("port")) {
            bool ok = false;
            e.port = value.toInt(&ok);
            if (!ok)
                e.port = -1;
        } else if (*kind == ServerKind::MariaDb && key == QLatin1String("socket")) {
            e.socket = value;
        } else {
            *error = QStringLiteral("--connect %1: unknown setting \"%2\" (allowed: %3)")
                         .arg(shown, key,
                              *kind == ServerKind::Postgres ? QStringLiteral("host, port")
                                                            : QStringLiteral("socket"));
            return std::nullopt;
        }
    }
    // The client libraries take C strings: a NUL (%00) would silently cut
    // the user, password, host or database short there.
    for (const QString* part : {&e.user, &e.password, &e.host, &e.socket, &path}) {
        if (part->contains(QChar(0))) {
            *error = QStringLiteral(
                         "--connect %1: a NUL character (%2) cannot be part of a "
                         "user, password, host, socket or database")
                         .arg(shown, QStringLiteral("%00"));
            return std::nullopt;
        }
    }
    if (e.port < 0 || e.port > 65535) {
        *error =
            QStringLiteral("--connect %1: the port is not a number from 1 to 65535").arg(shown);
        return std::nullopt;
    }
    // PostgreSQL: a host that is a folder is where its socket is.
    if (*kind == ServerKind::Postgres && e.host.startsWith(QLatin1Char('/'))) {
        e.socket = e.host;
        e.host.clear();
    }
    if (*kind == ServerKind::MariaDb && e.socket.isEmpty() && e.host.isEmpty())
        e.host = QStringLiteral("localhost");
    // The database the lab connects to beside its own: PostgreSQL needs one
    // to create the run's in; MariaDB needs none.
    if (*kind == ServerKind::Postgres)
        e.database = path.isEmpty() ? QStringLiteral("postgres") : path;
    return s;
}

QString serverPlace(const Endpoint& e, const QString& version) {
    QString where;
    if (!e.socket.isEmpty()) {
        where = e.socket;
    } else if (!e.host.isEmpty()) {
        where = e.port > 0 ? QStringLiteral("%1:%2").arg(e.host).arg(e.port) : e.host;
    } else {
        where = e.port > 0 ? QStringLiteral("the default socket, port %1").arg(e.port)
                           : QStringLiteral("the default socket");
    }
    const QString server =
        version.isEmpty() ? serverName(e.kind) : serverName(e.kind) + QLatin1Char(' ') + version;
    return QStringLiteral("%1 at %2 as %3").arg(server, where, e.user);
}

QString clientOptions(const Endpoint& e, bool askPassword) {
    QStringList options;
    if (e.kind == ServerKind::Postgres) {
        const QString host = e.socket.isEmpty() ? e.host : e.socket;
        if (!host.isEmpty())
            options << QStringLiteral("-h") << shellWord(host);
        if (e.port > 0)
            options << QStringLiteral("-p") << QString::number(e.port);
        options << QStringLiteral("-U") << shellWord(e.user);
    } else {
        if (!e.socket.isEmpty())
            options << QStringLiteral("--socket=%1").arg(shellWord(e.socket));
        else if (!e.host.isEmpty())
            options << QStringLiteral("-h") << shellWord(e.host);
        if (e.socket.isEmpty() && e.port > 0)
            options << QStringLiteral("-P") << QString::number(e.port);
        options << QStringLiteral("-u") << shellWord(e.user);
        if (askPassword)
            options << QStringLiteral("-p");
    }
    return options.join(QLatin1Char(' '));
}

}  // namespace idem::live
