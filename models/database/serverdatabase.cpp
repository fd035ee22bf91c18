#include "serverdatabase.h"

#include "dropguard.h"
#include "leftovers.h"
#include "privateserver.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QThread>

#include <map>
#include <mutex>
#include <utility>

namespace idem {

using live::ServerKind;

namespace {

// A MariaDB database of the run's own in utf8mb4, with that character set's
// default collation (utf8mb4_general_ci, as Debian's packaged server sets
// it): the private server alone would make latin1_swedish_ci, where
// Chinese text is refused (1366). Case and trailing spaces still compare
// equal there, as on the servers users run: a lesson in itself.
QString createMariaDatabase() {
    return QStringLiteral("CREATE DATABASE %1 CHARACTER SET utf8mb4");
}

const QString kLabDatabase = QStringLiteral("idemlab");

// One private server of each kind per process: the first run starts it,
// the runs after it (a class firing again, a test's hundreds of runs) each
// get a database of their own on it. The server stops when the lab exits
// (its keeper sees to that should the lab be killed).
std::shared_ptr<live::PrivateServer> sharedServer(ServerKind kind,
                                                  const live::PrivateServer::Progress& progress,
                                                  QString* error, bool* usersToFix,
                                                  const std::atomic<bool>* cancel) {
    static std::mutex mutex;
    static std::map<ServerKind, std::shared_ptr<live::PrivateServer>> running;
    const std::lock_guard lock(mutex);
    std::shared_ptr<live::PrivateServer>& server = running[kind];
    // A server that ended meanwhile (killed, crashed) is started again: the
    // runs still holding the old one fail on their own, the next run works.
    if (QString how; server && server->ended(&how)) {
        qWarning("idemlab: the private %s server ended (%s); starting a new one",
                 qPrintable(live::serverName(kind)), qPrintable(how));
        server.reset();
    }
    if (!server) {
        server = live::PrivateServer::start(kind, progress, error, usersToFix, cancel);
        // PostgreSQL: the runs' schemas live in a database of the lab's
        // (a schema is made and dropped in a few milliseconds; a database
        // is a copy of template1).
        if (server && kind == ServerKind::Postgres) {
            const auto admin = live::openSession(server->endpoint(), QStringLiteral("setup"));
            const live::StatementResult& r =
                admin->exec(QStringLiteral("CREATE DATABASE %1").arg(kLabDatabase));
            if (!r.ok()) {
                *error = QStringLiteral("cannot create the lab's database: %1").arg(r.errorText());
                server.reset();
            }
        }
    } else if (progress) {
        progress(live::PrivateServer::Stage::Ready);
    }
    return server;
}

}  // namespace

ServerDatabase::ServerDatabase(ServerKind kind, QString connectUrl,
                               std::function<void(const QString&)> progress)
    : kind_(kind), progress_(std::move(progress)), connectUrl_(std::move(connectUrl)) {}

ServerDatabase::~ServerDatabase() {
    drop();
}

QString ServerDatabase::version() const {
    return server_ ? server_->version() : connectedVersion_;
}

bool ServerDatabase::create(QString* error, bool* badInput, const std::atomic<bool>* cancel) {
    *badInput = false;
    if (!connectUrl_.isEmpty()) {
        // Read here, not earlier: the password may come from the
        // environment, and it is kept no longer than the run.
        connectTo_ = live::parseServerUrl(connectUrl_, error);
        if (connectTo_ && connectTo_->endpoint.kind != kind_) {
            *error = QStringLiteral("--connect names a %1 server, and the run is on %2")
                         .arg(live::serverName(connectTo_->endpoint.kind), live::serverName(kind_));
            connectTo_.reset();
        }
        if (!connectTo_ || !prepareConnected(error, cancel)) {
            // The user's server, URL or rights: theirs to fix, and the run
            // has changed nothing there.
            *badInput = true;
            return false;
        }
        return true;
    }
    bool usersToFix = false;
    server_ = sharedServer(
        kind_,
        [this](live::PrivateServer::Stage stage) {
            if (!progress_)
                return;
            switch (stage) {
                case live::PrivateServer::Stage::InitialisingTemplate:
                    progress_(QStringLiteral("initialising"));
                    break;
                case live::PrivateServer::Stage::Copying:
                    progress_(QStringLiteral("copying"));
                    break;
                case live::PrivateServer::Stage::Starting:
                    progress_(QStringLiteral("starting"));
                    break;
                case live::PrivateServer::Stage::Ready:
                    progress_(QStringLiteral("ready"));
                    break;
            }
        },
        error, &usersToFix, cancel);
    if (!server_) {
        // A missing package or a refused account is the user's to fix
        // (exit 2); a server that stopped while starting is the machine's.
        *badInput = usersToFix;
        return false;
    }
    endpoint_ = server_->endpoint();
    // The run's own tables: a database of its own on MariaDB (where a
    // database is a schema), a schema in the lab's database on PostgreSQL.
    database_ =
        QStringLiteral("idemlab_%1")
            .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
    const bool pg = kind_ == ServerKind::Postgres;
    if (pg)
        endpoint_.database = kLabDatabase;
    {
        const auto admin = live::openSession(endpoint_, QStringLiteral("setup"));
        if (!admin->isOpen()) {
            *error = admin->openError();
            return false;
        }
        const live::StatementResult& r = admin->exec(
            (pg ? QStringLiteral("CREATE SCHEMA %1") : createMariaDatabase()).arg(database_), {},
            cancel);
        if (!r.ok()) {
            *error =
                QStringLiteral("cannot create the run's %1: %2")
                    .arg(pg ? QStringLiteral("schema") : QStringLiteral("database"), r.errorText());
            return false;
        }
    }
    if (!pg)
        endpoint_.database = database_;
    return true;
}

QString ServerDatabase::keep() {
    if (connectTo_ && created_) {
        kept_ = true;
        if (dropGuard_)
            dropGuard_->release();
        const live::Endpoint& e = connectTo_->endpoint;
        // Marked kept: --clean leaves it.
        if (const auto session = live::openSession(e, QStringLiteral("setup")); session->isOpen())
            session->exec(live::commentStatement(
                kind_, database_, live::keptComment(QDateTime::currentDateTimeUtc())));
        const QString options = live::clientOptions(e, connectTo_->passwordInUrl);
        const QString connect =
            kind_ == ServerKind::Postgres
                ? QStringLiteral("PGOPTIONS='-c search_path=%1' psql %2 %1").arg(database_, options)
                : QStringLiteral("mariadb %1 %2").arg(options, database_);
        const QString drop =
            kind_ == ServerKind::Postgres
                ? QStringLiteral("psql %1 %2 -c 'DROP DATABASE %3'")
                      .arg(options, e.database, database_)
                : QStringLiteral("mariadb %1 -e 'DROP DATABASE %2'").arg(options, database_);
        return QStringLiteral("kept %1\n  connect: %2\n  drop:    %3")
            .arg(location(), connect, drop);
    }
    if (!server_)
        return {};
    kept_ = true;
    server_->keep();
    const QString connect =
        kind_ == ServerKind::Postgres
            ? QStringLiteral("PGOPTIONS='-c search_path=%1' psql -h %2 -U %3 %4")
                  .arg(database_, endpoint_.socket, endpoint_.user, kLabDatabase)
            : QStringLiteral("mariadb --socket=%1 -u %2 %3")
                  .arg(endpoint_.socket, endpoint_.user, database_);
    return QStringLiteral("kept %1\n  connect: %2\n  stop:    kill %3 (then remove %4)")
        .arg(location(), connect)
        .arg(server_->serverPid())
        .arg(server_->folder());
}

QString ServerDatabase::location() const {
    if (connectTo_) {
        return QStringLiteral("database %1 on %2")
            .arg(database_, live::serverPlace(connectTo_->endpoint, connectedVersion_));
    }
    const QString where =
        kind_ == ServerKind::Postgres
            ? QStringLiteral("schema %1 of database %2").arg(database_, kLabDatabase)
            : QStringLiteral("database %1").arg(database_);
    return QStringLiteral("%1 %2, %3 in %4")
        .arg(live::serverName(kind_), version(), where, server_ ? server_->folder() : QString());
}

// A database of the run's own on the user's server (--connect): made
// here, dropped when the run goes; nothing else there is touched.
bool ServerDatabase::prepareConnected(QString* error, const std::atomic<bool>* cancel) {
    const live::Endpoint& admin = connectTo_->endpoint;
    const QString place = live::serverPlace(admin);
    const auto session = live::openSession(admin, QStringLiteral("setup"));
    if (!session->isOpen()) {
        *error = QStringLiteral("cannot connect to %1: %2").arg(place, session->openError());
        return false;
    }
    const bool pg = kind_ == ServerKind::Postgres;
    const live::StatementResult& version = session->exec(pg ? QStringLiteral("SHOW server_version")
                                                            : QStringLiteral("SELECT VERSION()"));
    if (!version.ok()) {
        *error = QStringLiteral("%1 does not say its version: %2").arg(place, version.errorText());
        return false;
    }
    // "15.18 (Debian 15.18-0+deb12u1)", "10.11.14-MariaDB-0+deb12u2": the number.
    connectedVersion_ =
        version.value().toString().section(QLatin1Char(' '), 0, 0).section(QLatin1Char('-'), 0, 0);
    if (!pg) {
        // The lock waits the lab shows come from InnoDB's own tables,
        // which only a user with the PROCESS privilege may read.
        const live::StatementResult& status =
            session->exec(QStringLiteral("SHOW ENGINE INNODB STATUS"));
        if (!status.ok()) {
            *error = QStringLiteral(
                         "%1 may not see lock waits (%2): the lab needs GRANT "
                         "PROCESS ON *.* TO the user")
                         .arg(place, status.errorText());
            return false;
        }
    }
    database_ = QStringLiteral("idemlab_%1")
                    .arg(QRandomGenerator::global()->generate64() & 0xffffffffffffULL, 12, 16,
                         QLatin1Char('0'));
    const live::StatementResult& created = session->exec(
        (pg ? QStringLiteral("CREATE DATABASE %1") : createMariaDatabase()).arg(database_), {},
        cancel);
    if (!created.ok()) {
        *error =
            QStringLiteral("cannot create a database on %1: %2").arg(place, created.errorText());
        database_.clear();
        return false;
    }
    created_ = true;
    // What it is, for a later run that looks for databases left behind
    // (leftovers.h); a server that refuses the comment only makes it look
    // like an older version's.
    session->exec(live::commentStatement(kind_, database_,
                                         live::madeComment(QDateTime::currentDateTimeUtc())));
    QString noGuard;
    dropGuard_ = live::DropGuard::spawn(admin, database_, &noGuard);
    if (!dropGuard_)
        qWarning("idemlab: %s", qPrintable(noGuard));
    endpoint_ = admin;
    endpoint_.database = database_;
    if (pg) {
        // The same schema as on the private server, in the run's database.
        const auto owner = live::openSession(endpoint_, QStringLiteral("setup"));
        const live::StatementResult& schema =
            owner->isOpen()
                ? owner->exec(QStringLiteral("CREATE SCHEMA %1").arg(database_), {}, cancel)
                : live::StatementResult{};
        if (!owner->isOpen() || !schema.ok()) {
            *error = QStringLiteral("cannot create a schema in database %1 on %2: %3")
                         .arg(database_, place,
                              owner->isOpen() ? schema.errorText() : owner->openError());
            return false;
        }
    }
    return true;
}

void ServerDatabase::dropConnectedDatabase() {
    const live::Endpoint& admin = connectTo_->endpoint;
    const auto session = live::openSession(admin, QStringLiteral("setup"));
    const bool pg = kind_ == ServerKind::Postgres;
    QString problem;
    if (!session->isOpen()) {
        problem = session->openError();
    } else {
        // A session of the run's left behind would hold the drop.
        session->exec(pg ? QStringLiteral("SET lock_timeout = '5s'")
                         : QStringLiteral("SET SESSION lock_wait_timeout = 5"));
        const live::StatementResult& r =
            session->exec((pg ? QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)")
                              : QStringLiteral("DROP DATABASE IF EXISTS %1"))
                              .arg(database_));
        if (!r.ok())
            problem = r.errorText();
    }
    if (!problem.isEmpty()) {
        qWarning("idemlab: could not drop database %s on %s: %s%s", qPrintable(database_),
                 qPrintable(live::serverPlace(admin)), qPrintable(problem),
                 dropGuard_ ? "; trying again" : "");
        // The guard tries again, and says how it went.
        dropGuard_.reset();
    } else if (dropGuard_) {
        dropGuard_->release();
    }
}

QString ServerDatabase::lost(const QString& connectionError, bool refused) {
    const QString name = live::serverName(kind_);
    QString how;
    bool ended = server_ && server_->ended(&how);
    if (!ended && connectionError.isEmpty() && !refused)
        return {};
    // A connection dropped as the server died: its keeper hears of the
    // death a moment later.
    for (int i = 0; server_ && !ended && i < 10; ++i) {
        QThread::msleep(20);
        ended = server_->ended(&how);
    }
    if (!ended && connectionError.isEmpty())
        return {};
    QString said = ended ? QStringLiteral("%1 stopped during the run (%2)").arg(name, how)
                         : QStringLiteral("%1 dropped a connection of the run during it: %2")
                               .arg(name, connectionError);
    if (const QString words = server_ ? server_->lastWords() : QString(); !words.isEmpty())
        said += QStringLiteral("; its log's last words: %1").arg(words);
    return said + QStringLiteral(". Nothing is judged from a database that went away");
}

// The run's database goes with the run; the server stays for the next.
void ServerDatabase::drop() {
    if (std::exchange(dropped_, true))
        return;
    if (connectTo_ && created_ && !kept_) {
        dropConnectedDatabase();
        return;
    }
    if (!server_ || database_.isEmpty() || kept_)
        return;
    live::Endpoint admin = endpoint_;
    if (kind_ == ServerKind::MariaDb)
        admin.database.clear();
    const auto session = live::openSession(admin, QStringLiteral("setup"));
    if (!session->isOpen())
        return;
    if (kind_ == ServerKind::Postgres) {
        // A session still in a transaction there would hold the drop.
        session->exec(QStringLiteral("SET lock_timeout = '5s'"));
        session->exec(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(database_));
    } else {
        // A session still in a transaction there would hold the drop.
        session->exec(QStringLiteral("SET SESSION lock_wait_timeout = 5"));
        session->exec(QStringLiteral("DROP DATABASE IF EXISTS %1").arg(database_));
    }
}

}  // namespace idem
