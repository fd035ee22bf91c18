// The database a run works in, behind the seam: where it lives, how its
// sessions are opened, and what the scheduler must know of its locking. The
// embedded default is SQLite (sqlitebackend.h); a server is another backend.
#pragma once

#include "lockrow.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVariantList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace idem {

class SqlConnection;
struct SqlResult;
struct TraceEvent;

class Backend {
public:
    virtual ~Backend();

    // "sqlite", as the trace and the summary name it.
    virtual QString id() const = 0;
    // Makes the run's database ready. target: where to keep it when the run
    // ends (empty: nowhere). False with a message; *badInput tells a refused
    // target from a failure of the machine.
    virtual bool prepare(const QString& target, bool replace, QString* error, bool* badInput) = 0;
    // A stop the run may be asked for: a server's start (in prepare) ends
    // as soon as it is set.
    virtual void stopWhen(const std::atomic<bool>* cancel) { (void)cancel; }
    // Every session is closed: keep the database at its target, stamped with
    // the run's configuration.
    virtual bool publish(const QJsonObject& config, QString* error, bool* badInput) = 0;
    // Where the database is, for messages and for the user.
    virtual QString location() const = 0;
    // A new session of the run's database, named as the trace names it
    // (c0, c1 ..., reader). Check isOpen().
    virtual std::unique_ptr<SqlConnection> connect(const QString& id) const = 0;
    // Settings the run's setup session applies before the schema, each run
    // through `exec` (which traces it); an empty text when all is well, else
    // why the run cannot use this database.
    using Exec = std::function<SqlResult(const QString&)>;
    virtual QString configure(const Exec& exec) const = 0;
    // The statement that opens an attempt's transaction (SQLite: BEGIN
    // IMMEDIATE, which takes the write lock at once). The same object every
    // time, so that statements are found by their text's address.
    virtual const QString& beginStatement() const = 0;
    // One writer at a time for the whole database (SQLite): a session that
    // opens a transaction holds the write lock until it ends, and a statement
    // of another that is refused as busy waits for that end. A server locks
    // rows itself and tells whom a statement waits for.
    virtual bool singleWriter() const = 0;

    // --- a server's sessions are stepped ------------------------------------
    // The server and its version ("15.18"); empty for SQLite.
    virtual QString serverVersion() const { return {}; }
    // What every session of the run is told before its first statement,
    // as sent (isolation, timeouts, sql_mode, search_path); empty for SQLite.
    virtual QStringList sessionSettings() const { return {}; }
    // Leaves the server running after the lab, with the run's database:
    // the lines that say how to connect to it and how to stop it. Empty
    // where there is no server (SQLite's file stays with --db).
    virtual QString keep() { return {}; }
    // The isolation level the run's transactions have, as --isolation names it.
    virtual QString isolation() const { return QStringLiteral("serializable"); }
    // Whether statements are sent and then settled (settle()) instead of
    // run at once: a server, where one session waits for another's lock.
    virtual bool stepped() const { return false; }
    // Whether any failed statement aborts the whole transaction
    // (PostgreSQL's): a statement that may fail is then sent behind a
    // savepoint, so that the transaction goes on as it does elsewhere.
    virtual bool abortsTransactionOnError() const { return false; }
    // Sends a statement on a stepped session without waiting for it.
    virtual void send(SqlConnection& session, const QString& sql, const QVariantList& params);
    // Waits until the statement in flight on `session` has finished (then
    // its result) or certainly waits for a lock of another of `others`
    // (then whom it waits for and on what, in `waitsOn` and `lock`).
    virtual bool settle(SqlConnection& session, const std::vector<SqlConnection*>& others,
                        SqlResult* result, QStringList* waitsOn, QString* lock);
    // Whether the statement in flight on a parked session has finished
    // meanwhile (the server chose it as a deadlock's victim, say).
    virtual bool finished(SqlConnection& session);
    // Of the parked sessions `waiting`, those that certainly still wait for
    // another session of `all` after a lock was let go (one look at the
    // server for them all): only the others need settling. None by
    // default: each is settled.
    virtual std::vector<bool> stillBlocked(const std::vector<SqlConnection*>& waiting,
                                           const std::vector<SqlConnection*>& all);
    // Whether some of the parked sessions `waiting` wait for a connection
    // outside the run (another client of the server): if so, waits, as long
    // as that lasts, until one of them has finished or none waits outside any
    // more (Waited), or until `stop` (Stopped). None when none does.
    enum class OutsideWait : quint8 { None, Waited, Stopped };
    virtual OutsideWait awaitOutside(const std::vector<SqlConnection*>& waiting,
                                     const std::vector<SqlConnection*>& all,
                                     const std::atomic<bool>* stop);
    // A crashed process's session: the server rolls back what it held.
    virtual void drop(SqlConnection& session);
    // Cancels the statement a parked session waits with (the scheduler's
    // lock timeout, at a virtual instant): settle() then gives its result,
    // a lock timeout.
    virtual void cancel(SqlConnection& session);
    // The locks the server holds and awaits for the run's sessions, when
    // they changed since the last call (a step sent nothing: unchanged).
    virtual bool locksChanged(LockRows* rows, bool* truncated);
    // The committed rows of the tables whose rows changed since the last
    // call, each a map of table, columns, types and rows (tablesnapshot.h);
    // the first call after the set-up gives every table. Asked only of a
    // run that keeps a trace, after the locks. openRows: also each table's
    // rows as the open transactions have them (trace version 6 on).
    virtual bool tablesChanged(QVariantList* tables, bool openRows);

    // --- a recording played instead of a server (recordedbackend.h) ---------
    // Whether the database's answers come from a server run's trace.
    virtual bool playsRecording() const { return false; }
    // Told each event the run records, in order (a recording follows them).
    virtual void eventRecorded(const TraceEvent&) {}
    // Why the backend cannot go on (the run does not match its recording);
    // empty while it can. The run stops with this message.
    virtual QString failure() const { return {}; }
    // Why the run's server cannot serve it any more (it stopped, or it
    // dropped a session's connection), in its own last words; empty while
    // it serves. The run stops with this message and is not judged.
    // refused: asked because a new connection was refused.
    virtual QString lostServer(bool refused = false) {
        (void)refused;
        return {};
    }
};

}  // namespace idem
