// One real connection of a run on a server, as the engine sees it (an
// SqlConnection): statements in the server's spelling, its results in the
// engine's words, whether a transaction is open; and the run's attempts'
// sessions, whose locks and committed rows the run records.
#pragma once

#include "session.h"
#include "sqlconnection.h"

#include <QHash>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace idem {

class ServerConnection;

// The sessions of the run's attempts, whose locks the Locks view shows, and
// whether any of them sent a statement or went since the locks were read.
struct AttemptSessions {
    std::mutex mutex;
    std::vector<ServerConnection*> list;
    std::atomic<bool> changed{false};
    // ... and whether one of them may have changed the committed rows (a
    // statement ended outside a transaction, a session went) since they were
    // read: true at first, for the set-up's.
    std::atomic<bool> committed{true};
};

// The run's stop (Esc, Ctrl+C) as the backend last heard of it, shared with
// its connections: their own waits (the set-up, the judge's reads) hear it.
using StopFlag = std::atomic<const std::atomic<bool>*>;

// PostgreSQL's transaction ids, each named by whose transaction it is
// ("#2", kSetUpVersion), as the run learns them (ServerBackend): what a
// row's xmin and xmax read as in the tables, here and in the trace.
struct RowVersionNames {
    mutable std::mutex mutex;
    QHash<QString, QString> byXid;
    // The name of `xid`; empty when not known.
    QString nameOf(const QString& xid) const {
        const std::lock_guard lock(mutex);
        return byXid.value(xid);
    }
};

// One real connection of the run.
class ServerConnection final : public SqlConnection {
public:
    ServerConnection(std::unique_ptr<live::Session> session, const QString& id,
                     std::shared_ptr<const StopFlag> stop = {});
    ~ServerConnection() override;
    // One of the attempts' sessions: what it sends may change the locks.
    void joinAttempts(std::shared_ptr<AttemptSessions> attempts);
    // Where the names of the run's transactions are (rowVersionName).
    void nameRowVersionsBy(std::shared_ptr<const RowVersionNames> names) {
        versionNames_ = std::move(names);
    }

    bool isOpen() const override { return session_ && session_->isOpen(); }
    QString openError() const override { return session_ ? session_->openError() : QString(); }
    bool inTransaction() const override { return inTransaction_; }

    SqlResult exec(const QString& sql, const QVariantList& params = {}) override;

    QString textSent(const QString& sql) const override;
    QString received() const override;

    void send(const QString& sql, const QVariantList& params);

    // The finished statement's result, in the engine's words; the session's
    // transaction as the server leaves it.
    SqlResult take();

    // As a crashed process: the connection goes, the server rolls back.
    void drop();

    live::Session& session() { return *session_; }

    // A table's columns and their types (information_schema's DATA_TYPE
    // names), in their order; false when it has none or cannot be read.
    bool describeTable(const QString& table, QStringList* columns, QStringList* types);
    // The types of the last statement's columns, where the server describes
    // them with the rows (MariaDB); empty otherwise.
    QStringList columnTypes() const;
    QString selectAllStatement(const QString& table, QStringList* columns) override;
    QString selectAllWithRowVersions(const QString& table, QStringList* columns) override;
    // "#2 · 745": whose transaction, then its id; the id alone when the
    // run has not learnt whose it is (yet).
    QVariant rowVersionName(const QVariant& version) const override;
    bool othersCommittedSinceAsked() override { return true; }
    // MariaDB: a read at READ UNCOMMITTED; PostgreSQL: the table's pages
    // (uncommittedrows.cpp). Asked of the lab's reader, never an attempt's.
    bool readUncommitted(const QString& table, const QStringList& columns,
                         QList<QVariantList>* rows) override;
    SqlResult findTable(const QString& table) override;
    // Every table read whole (PostgreSQL checks each page it reads) and, on
    // MariaDB, CHECK TABLE: one text, "ok" or what was found.
    SqlResult integrityCheck() override;
    // PostgreSQL: amcheck over the run's B-tree indexes, and its CHECK
    // constraints over their rows; what is wrong, one text each.
    QStringList checkIndexesAndConstraints();

private:
    std::unique_ptr<live::Session> session_;
    std::shared_ptr<const StopFlag> stop_;
    QString sent_;
    bool inTransaction_ = false;
    std::shared_ptr<AttemptSessions> attempts_;
    std::shared_ptr<const RowVersionNames> versionNames_;
    // PostgreSQL would not give pageinspect (a --connect user who is not a
    // superuser): not asked again at every step.
    bool noPageinspect_ = false;
};

// The connection behind an SqlConnection a server's backend made.
inline ServerConnection& asServer(SqlConnection& c) {
    return static_cast<ServerConnection&>(c);
}

}  // namespace idem
