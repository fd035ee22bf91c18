#include "sqlitebackend.h"

#include "sqlconnection.h"
#include "sqliteconnection.h"

namespace idem {

Backend::~Backend() = default;

// SQLite runs each statement at once (exec): nothing is ever in flight.
void Backend::send(SqlConnection&, const QString&, const QVariantList&) {}

bool Backend::settle(SqlConnection&, const std::vector<SqlConnection*>&, SqlResult*, QStringList*,
                     QString*) {
    return true;
}

bool Backend::finished(SqlConnection&) {
    return true;
}

Backend::OutsideWait Backend::awaitOutside(const std::vector<SqlConnection*>&,
                                           const std::vector<SqlConnection*>&,
                                           const std::atomic<bool>*) {
    return OutsideWait::None;
}

void Backend::drop(SqlConnection&) {}

void Backend::cancel(SqlConnection&) {}

std::vector<bool> Backend::stillBlocked(const std::vector<SqlConnection*>& waiting,
                                        const std::vector<SqlConnection*>&) {
    return std::vector<bool>(waiting.size(), false);
}

// SQLite's one lock is the lab's own lock table's (Run::openWriter): the
// trace needs no record of it.
bool Backend::locksChanged(LockRows*, bool*) {
    return false;
}

// ... and its rows are read from the file itself (a replay runs it again).
bool Backend::tablesChanged(QVariantList*, bool) {
    return false;
}

bool SqliteBackend::prepare(const QString& target, bool replace, QString* error, bool* badInput) {
    return file_.prepare(target, replace, error, badInput);
}

bool SqliteBackend::publish(const QJsonObject& config, QString* error, bool* badInput) {
    return file_.publish(config, error, badInput);
}

std::unique_ptr<SqlConnection> SqliteBackend::connect(const QString& id) const {
    return std::make_unique<SqliteConnection>(file_.workPath(), id);
}

QString SqliteBackend::configure(const Exec& exec) const {
    // Readers (the judge mid-run, the window's tables) see the last commit
    // while a writer's transaction is open.
    const SqlResult wal = exec(QStringLiteral("PRAGMA journal_mode = WAL"));
    if (wal.value().toString() != QLatin1String("wal")) {
        return QStringLiteral(
                   "SQLite refused write-ahead logging (journal mode is %1); the run needs it "
                   "for its connections")
            .arg(wal.value().toString());
    }
    return {};
}

const QString& SqliteBackend::beginStatement() const {
    static const QString begin = QStringLiteral("BEGIN IMMEDIATE");
    return begin;
}

}  // namespace idem
