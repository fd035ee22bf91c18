#include "serverbackend.h"

#include "locksnapshot.h"
#include "names.h"
#include "observer.h"
#include "recordedbackend.h"
#include "runconfig.h"
#include "serverconnection.h"
#include "serverdatabase.h"
#include "serverurl.h"
#include "sessionsettings.h"
#include "sqlconnection.h"
#include "sqlitebackend.h"
#include "tablesnapshot.h"
#include "traceevent.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <map>
#include <mutex>

namespace idem {

namespace {

using live::ServerKind;

// A crashed attempt's connection is gone from the server's list within
// this (a loaded machine's server, a disconnect it sees at once).
constexpr int kGoneWithinMs = 10000;
// How long a cancelled statement may take to answer before its connection is
// closed instead.
constexpr int kCancelAnsweredWithinMs = 10000;

QString serverId(ServerKind kind) {
    return kind == ServerKind::Postgres ? QStringLiteral("postgres") : QStringLiteral("mariadb");
}

class ServerBackend final : public Backend {
public:
    ServerBackend(ServerKind kind, QString isolation, std::function<void(const QString&)> progress,
                  QString connectUrl = {}, bool manyIntents = false)
        : kind_(kind),
          isolation_(std::move(isolation)),
          progress_(std::move(progress)),
          manyIntents_(manyIntents),
          db_(kind, std::move(connectUrl), progress_) {
        if (isolation_.isEmpty())
            isolation_ = isolationIds(serverId(kind)).value(0);
    }
    ~ServerBackend() override {
        // The run's sessions first: one left in a transaction would hold the drop.
        observer_.reset();
        recorder_.reset();
        db_.drop();
    }

    QString id() const override { return serverId(kind_); }
    QString serverVersion() const override { return db_.version(); }
    QStringList sessionSettings() const override { return told_; }
    QString isolation() const override { return isolation_; }
    bool stepped() const override { return true; }
    bool abortsTransactionOnError() const override { return kind_ == ServerKind::Postgres; }
    bool singleWriter() const override { return false; }

    bool prepare(const QString& target, bool, QString* error, bool* badInput) override {
        *badInput = false;
        if (!target.isEmpty()) {
            *badInput = true;
            *error = QStringLiteral(
                         "--db keeps an SQLite file; a run on %1 keeps its database with --keep")
                         .arg(live::serverName(kind_));
            return false;
        }
        if (!db_.create(error, badInput, cancel_))
            return false;
        endpoint_ = db_.endpoint();
        return openObserver(error);
    }

    bool publish(const QJsonObject&, QString*, bool*) override { return true; }
    void stopWhen(const std::atomic<bool>* cancel) override { stop_->store(cancel_ = cancel); }

    QString keep() override { return db_.keep(); }
    QString location() const override { return db_.location(); }

    std::unique_ptr<SqlConnection> connect(const QString& id) const override {
        auto c = std::make_unique<ServerConnection>(live::openSession(endpoint_, id), id, stop_);
        // c1, c2 ...: the attempts' (c0 sets up, the reader reads).
        if (c->isOpen() && id.startsWith(QLatin1Char('c')) && id != QLatin1String("c0"))
            c->joinAttempts(attempts_);
        if (c->isOpen()) {
            const QStringList settings = idem::sessionSettings(
                kind_, isolation_, kind_ == ServerKind::Postgres ? db_.name() : QString());
            for (const QString& sql : settings) c->exec(sql);
            // The same for every session of the run; said once, in the summary.
            if (told_.isEmpty())
                told_ = c->session().toldOnOpen() + settings;
            if (kind_ == ServerKind::Postgres)
                c->nameRowVersionsBy(versionNames_);
        }
        return c;
    }

    QString configure(const Exec&) const override { return {}; }

    const QString& beginStatement() const override {
        static const QString begin = QStringLiteral("BEGIN");
        static const QString start = QStringLiteral("START TRANSACTION");
        return kind_ == ServerKind::Postgres ? begin : start;
    }

    void send(SqlConnection& session, const QString& sql, const QVariantList& params) override {
        asServer(session).send(sql, params);
    }

    bool settle(SqlConnection& session, const std::vector<SqlConnection*>& others,
                SqlResult* result, QStringList* waitsOn, QString* lock) override {
        QList<live::Session*> run;
        for (SqlConnection* c : others) {
            if (c != &session)
                run << &asServer(*c).session();
        }
        const live::StepWait step =
            live::waitUntilDoneOrBlocked(asServer(session).session(), *observer_, run, cancel_);
        if (step.state == live::StepWait::State::Blocked ||
            step.state == live::StepWait::State::Outside) {
            *waitsOn = step.lock.on;
            // The run's database is the only one it has: the lock is named
            // by its table alone, the same in every run.
            *lock = step.lock.describe()
                        .remove(QStringLiteral("`%1`.").arg(db_.name()))
                        .remove(QStringLiteral("%1.").arg(db_.name()));
            return false;
        }
        if (step.state == live::StepWait::State::GaveUp) {
            // Stopped (Esc, Ctrl+C) or a server that does not answer: the
            // statement is cancelled; a server deaf to the cancel too loses
            // the connection, so that the lab never waits for it unbounded.
            live::Session& s = asServer(session).session();
            if (!s.cancel() || !s.poll(kCancelAnsweredWithinMs)) {
                asServer(session).drop();
                result->ok = false;
                result->outcome = SqlOutcome::OtherError;
                result->message = QStringLiteral(
                    "the server answered neither the statement nor its cancel; the lab closed "
                    "the connection");
                dropped_ = result->message;
                return true;
            }
        }
        *result = asServer(session).take();
        // Not the lab's close (a crash point closes a session it no longer
        // steps): the server ended the connection.
        if (!asServer(session).session().isOpen() && dropped_.isEmpty())
            dropped_ = result->message.isEmpty() ? QStringLiteral("the connection is closed")
                                                 : result->message;
        return true;
    }

    // Asked after every step: only a dropped or refused connection sends
    // the question on to the server's keeper.
    QString lostServer(bool refused) override {
        if (!dropped_.isEmpty())
            return db_.lost(dropped_);
        // A refusal alone (too many clients) is the caller's to say; only a
        // server that stopped says more.
        return refused ? db_.lost({}, true) : QString();
    }

    // The parked sessions `waiting`, and the run's: `all` and those parked.
    static void sessionsOf(const std::vector<SqlConnection*>& waiting,
                           const std::vector<SqlConnection*>& all, QList<live::Session*>* parked,
                           QList<live::Session*>* run) {
        for (SqlConnection* c : all) *run << &asServer(*c).session();
        for (SqlConnection* c : waiting) {
            *parked << &asServer(*c).session();
            if (!run->contains(parked->last()))
                *run << parked->last();
        }
    }

    std::vector<bool> stillBlocked(const std::vector<SqlConnection*>& waiting,
                                   const std::vector<SqlConnection*>& all) override {
        if (!observer_)
            return std::vector<bool>(waiting.size(), false);
        QList<live::Session*> parked, run;
        sessionsOf(waiting, all, &parked, &run);
        const QSet<const live::Session*> blocked = live::stillBlocked(parked, *observer_, run);
        std::vector<bool> result;
        result.reserve(waiting.size());
        for (live::Session* s : parked) result.push_back(blocked.contains(s));
        return result;
    }

    OutsideWait awaitOutside(const std::vector<SqlConnection*>& waiting,
                             const std::vector<SqlConnection*>& all,
                             const std::atomic<bool>* stop) override {
        if (!observer_)
            return OutsideWait::None;
        QList<live::Session*> parked, run;
        sessionsOf(waiting, all, &parked, &run);
        switch (live::awaitOutside(parked, *observer_, run, stop)) {
            case live::OutsideEnd::NoneOutside:
                return OutsideWait::None;
            case live::OutsideEnd::Moved:
                return OutsideWait::Waited;
            case live::OutsideEnd::Stopped:
                break;
        }
        return OutsideWait::Stopped;
    }

    bool finished(SqlConnection& session) override {
        live::Session& s = asServer(session).session();
        s.poll(0);
        return !s.busy();
    }

    void drop(SqlConnection& session) override {
        const qint64 id = asServer(session).session().serverId();
        asServer(session).drop();
        // The server rolls back what it had not committed, after the
        // connection has closed: until it has, a read of the tables (the
        // window's, the trace's) would still see the rows open.
        if (observer_) {
            QElapsedTimer clock;
            clock.start();
            while (observer_->lists(id) && !clock.hasExpired(kGoneWithinMs)) QThread::msleep(2);
        }
        openEnded();
    }

    void cancel(SqlConnection& session) override {
        // Until the statement has ended (a server deaf to the cancel loses the
        // connection, as in settle), so that the next settle gives its result.
        if (live::Session& s = asServer(session).session();
            s.cancel() && !s.poll(kCancelAnsweredWithinMs))
            asServer(session).drop();
    }

    bool locksChanged(LockRows* rows, bool* truncated) override {
        if (!observer_ || !attempts_->changed.exchange(false))
            return false;
        QList<live::Session*> sessions;
        bool mayHold = false;
        {
            const std::lock_guard lock(attempts_->mutex);
            for (ServerConnection* c : attempts_->list) {
                if (!c->isOpen())
                    continue;
                sessions << &c->session();
                mayHold = mayHold || c->inTransaction() || c->session().busy();
            }
        }
        // A statement outside a transaction lets go of its locks as it
        // ends: with none open and none in flight, nothing is held.
        LockRows now;
        bool cut = false;
        if (mayHold && !readSettledLocks(sessions, &now, &cut))
            return false;
        learnTransactions(now);
        if (!recorded_.changed(now, cut))
            return false;
        *rows = std::move(now);
        *truncated = cut;
        // A lock on a row is in its xmax on PostgreSQL: the rows are read
        // again (tablesChanged).
        locksMoved_ = true;
        return true;
    }

    // Who sent the run's statements: each session's attempt, as its name.
    void eventRecorded(const TraceEvent& e) override {
        if (!e.is(EventKind::Sql) || e.attempt == 0)
            return;
        noteWrites(e);
        QString name = processTag(e.attempt, e.actorName());
        if (manyIntents_ && e.attempt > 0)
            name.prepend(QStringLiteral("i%1").arg(e.intent + 1));
        attemptOn_.insert(e.connectionName(), name);
        lastSender_ = name;
    }

    // Read after the locks (locksChanged), which waited for every statement
    // in flight to finish or wait: what a released statement outside a
    // transaction committed is in, the same in every run.
    bool tablesChanged(QVariantList* tables, bool openRows) override {
        const bool pg = kind_ == ServerKind::Postgres;
        const bool locked = std::exchange(locksMoved_, false);
        const bool committed = attempts_->committed.exchange(false) || (pg && locked);
        const QSet<QString> open = std::exchange(openMoved_, {});
        if (!committed && (!openRows || open.isEmpty()))
            return false;
        if (!recorder_) {
            recorder_ = connect(QStringLiteral("recorder"));
            // Reads that take no lock and no snapshot the run's could
            // conflict with (PostgreSQL's serializable reads would).
            if (recorder_->isOpen())
                recorder_->exec(kind_ == ServerKind::Postgres
                                    ? QStringLiteral("SET SESSION CHARACTERISTICS AS TRANSACTION "
                                                     "ISOLATION LEVEL READ COMMITTED")
                                    : QStringLiteral("SET SESSION TRANSACTION ISOLATION LEVEL "
                                                     "READ COMMITTED"));
            if (!recorder_->isOpen() || !listTables())
                return false;
        }
        for (TableRows& t : tables_) {
            // From version 6 on, a table recorded cut short is not recorded
            // again: the trace can no longer be played, and each repeat
            // would be a thousand rows more.
            if (openRows && t.truncated)
                continue;
            const bool reopen = openRows && open.contains(t.table);
            if (!committed && !reopen && tablesRecorded_)
                continue;
            QStringList select, order;
            for (qsizetype i = 0; i < t.columns.size(); ++i) {
                select << quotedName(t.columns[i]);
                order << QString::number(i + 1);
            }
            // PostgreSQL: each row's version too, its transactions named.
            if (pg)
                select << QStringLiteral("xmin::text") << QStringLiteral("xmax::text");
            // One more row than is kept: whether there were more.
            SqlResult r =
                recorder_->exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY %3 LIMIT %4")
                                    .arg(select.join(QStringLiteral(", ")), quotedName(t.table),
                                         order.join(QStringLiteral(", ")))
                                    .arg(kMaxRecordedRows + 1));
            if (!r.ok)
                continue;
            const QList<QStringList> versions = pg ? takeVersions(r.data) : QList<QStringList>{};
            const bool rowsMoved = r.data != t.rows || versions != t.versions;
            t.rows = r.data;
            t.versions = versions;
            t.versioned = pg;
            const bool openMoved = reopen && readOpen(t);
            if (tablesRecorded_ && !rowsMoved && !openMoved)
                continue;
            TableRows changed = t;
            if (changed.rows.size() > kMaxRecordedRows) {
                changed.rows.resize(kMaxRecordedRows);
                changed.versions.resize(std::min(changed.versions.size(), kMaxRecordedRows));
                changed.truncated = true;
            }
            if (changed.open.size() > kMaxRecordedRows) {
                changed.open.resize(kMaxRecordedRows);
                changed.openVersions.resize(
                    std::min(changed.openVersions.size(), kMaxRecordedRows));
                changed.truncated = true;
            }
            t.truncated = changed.truncated;
            *tables << tableRowsToValue(changed);
        }
        tablesRecorded_ = true;
        return !tables->isEmpty();
    }

private:
    // The tables an attempt's statement may have written in, or whose rows
    // it may have let go of (a commit, a rollback, a failure): their rows
    // as the open transactions have them are read again at the step's end.
    void noteWrites(const TraceEvent& e) {
        const QString sql = e.sql.trimmed();
        if (!e.failed() && sql.startsWith(QLatin1String("SELECT"), Qt::CaseInsensitive))
            return;
        if (e.failed() || sql.startsWith(QLatin1String("COMMIT"), Qt::CaseInsensitive) ||
            sql.startsWith(QLatin1String("ROLLBACK"), Qt::CaseInsensitive) ||
            sql.startsWith(QLatin1String("END"), Qt::CaseInsensitive))
            openEnded();
        for (const TableRows& t : tables_) {
            if (namesTable(sql, t.table))
                openMoved_.insert(t.table);
        }
    }
    // What every open transaction held may be gone.
    void openEnded() {
        for (const TableRows& t : tables_) {
            if (t.hasOpen)
                openMoved_.insert(t.table);
        }
    }
    static bool namesTable(const QString& sql, const QString& table) {
        const auto word = [](QChar c) {
            return c.isLetterOrNumber() || c == QLatin1Char('_');
        };
        for (qsizetype at = sql.indexOf(table, 0, Qt::CaseInsensitive); at >= 0;
             at = sql.indexOf(table, at + 1, Qt::CaseInsensitive)) {
            const qsizetype end = at + table.size();
            if ((at == 0 || !word(sql[at - 1])) && (end >= sql.size() || !word(sql[end])))
                return true;
        }
        return false;
    }
    // The last two columns of each row (xmin, xmax), taken off the rows and
    // named by whose transactions they are.
    QList<QStringList> takeVersions(QList<QVariantList>& rows) {
        QList<QStringList> versions;
        versions.reserve(rows.size());
        for (QVariantList& row : rows) {
            versions << QStringList{versionName(row.value(row.size() - 2).toString()),
                                    versionName(row.value(row.size() - 1).toString())};
            row.resize(row.size() - 2);
        }
        return versions;
    }
    // t's rows as the open transactions have them (the lab's reader's way,
    // uncommittedrows.cpp, on the recorder's session), kept where they
    // differ from its committed rows; whether that changed what t keeps.
    bool readOpen(TableRows& t) {
        const bool pg = kind_ == ServerKind::Postgres;
        QStringList columns = t.columns;
        if (pg)
            columns << QStringLiteral("xmin") << QStringLiteral("xmax");
        QList<QVariantList> rows;
        QList<QStringList> versions;
        // A table past what a trace keeps cannot be played anyway: its pages
        // are not read at every step.
        bool has = t.rows.size() <= kMaxRecordedRows &&
                   recorder_->readUncommitted(t.table, columns, &rows);
        if (has && pg)
            versions = takeVersions(rows);
        if (has) {
            // The same rows as committed (in whatever order, whichever
            // type each reader gave a value): nothing open.
            const auto texts = [](const QList<QVariantList>& list) {
                QStringList out;
                for (const QVariantList& row : list) {
                    QString line;
                    for (const QVariant& v : row)
                        line += (v.isNull() ? QStringLiteral("\x01") : v.toString()) + u'\x1f';
                    out << line;
                }
                out.sort();
                return out;
            };
            has = texts(rows) != texts(t.rows);
        }
        if (!has) {
            rows.clear();
            versions.clear();
        }
        const bool moved = has != t.hasOpen || rows != t.open || versions != t.openVersions;
        t.hasOpen = has;
        t.open = std::move(rows);
        t.openVersions = std::move(versions);
        return moved;
    }

    QString quotedName(QString name) const {
        const QChar quote = kind_ == ServerKind::Postgres ? QLatin1Char('"') : QLatin1Char('`');
        return quote + name.replace(quote, QString(2, quote)) + quote;
    }
    // The run's tables and their columns, once the set-up made them.
    bool listTables() {
        const bool pg = kind_ == ServerKind::Postgres;
        const QString schema =
            pg ? QStringLiteral("current_schema()") : QStringLiteral("DATABASE()");
        const SqlResult names = recorder_->exec(
            QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema "
                           "= %1 ORDER BY table_name")
                .arg(schema));
        if (!names.ok)
            return false;
        for (const QVariantList& row : names.data) {
            TableRows t;
            t.table = row.value(0).toString();
            // This backend's connect() makes every connection it lends.
            if (!static_cast<ServerConnection*>(recorder_.get())
                     ->describeTable(t.table, &t.columns, &t.types))
                continue;
            tables_.push_back(std::move(t));
        }
        return true;
    }

    // PostgreSQL's transaction ids, named: an open transaction by the
    // attempt on the session that holds its id (in the locks read at each
    // step); one first seen only once it has ended, by the attempt whose
    // statement this step sent (it began and ended in the step: a statement
    // outside a transaction, or a COMMIT); before any attempt, the set-up.
    void learnTransactions(const LockRows& locks) {
        if (kind_ != ServerKind::Postgres)
            return;
        for (const LockRow& l : locks) {
            if (l.kind != QLatin1String(lockkind::kTransaction) || !l.granted || l.xid == 0 ||
                l.of != l.session || !attemptOn_.contains(l.session))
                continue;
            const QString xid = QString::number(l.xid);
            const std::lock_guard lock(versionNames_->mutex);
            if (!versionNames_->byXid.contains(xid))
                versionNames_->byXid.insert(xid, attemptOn_.value(l.session));
        }
    }
    QString versionName(const QString& xid) {
        if (xid.isEmpty() || xid == QLatin1String("0"))
            return QStringLiteral("0");
        const std::lock_guard lock(versionNames_->mutex);
        auto known = versionNames_->byXid.constFind(xid);
        if (known == versionNames_->byXid.constEnd()) {
            known = versionNames_->byXid.insert(
                xid, lastSender_.isEmpty() ? QString::fromLatin1(kSetUpVersion) : lastSender_);
        }
        return *known;
    }

    // The locks once every statement in flight either waits for a lock or
    // has finished: one the step's COMMIT just let go of runs on for a
    // moment, and its locks are not yet those it will hold.
    bool readSettledLocks(const QList<live::Session*>& sessions, LockRows* now, bool* cut) {
        const QList<const live::Session*> asked(sessions.cbegin(), sessions.cend());
        QElapsedTimer clock;
        clock.start();
        for (;;) {
            QString error;
            if (!observer_->locks(asked, now, cut, &error))
                return false;
            bool settled = true;
            for (live::Session* s : sessions) {
                if (!s->busy())
                    continue;
                const bool waits = std::any_of(now->cbegin(), now->cend(), [s](const LockRow& r) {
                    return r.session == s->id() && !r.granted;
                });
                if (!waits) {
                    settled = false;
                    s->poll(2);
                }
            }
            // A server that does not answer is the stepping's to report.
            if (settled || clock.hasExpired(kSettleMs))
                return true;
        }
    }
    static constexpr int kSettleMs = 5000;

    ServerKind kind_;
    QString isolation_;
    mutable QStringList told_;  // what the first session was told as it opened, as sent
    std::function<void(const QString&)> progress_;
    bool manyIntents_;  // attempts named with their intent ("i2#1")
    // The observer, on the run's database: it looks only at the run's sessions.
    bool openObserver(QString* error) {
        observer_ = live::openObserver(endpoint_);
        if (!observer_->isOpen()) {
            *error = observer_->openError();
            return false;
        }
        return true;
    }

    std::unique_ptr<live::Observer> observer_;
    const std::atomic<bool>* cancel_ = nullptr;  // a stop asked for (the server's start)
    std::shared_ptr<StopFlag> stop_ = std::make_shared<StopFlag>(nullptr);  // ... for connections
    ServerDatabase db_;
    QString dropped_;          // the first connection the server ended, in its words
    live::Endpoint endpoint_;  // the run's database, as the sessions connect to it
    std::shared_ptr<AttemptSessions> attempts_ = std::make_shared<AttemptSessions>();
    LockChanges recorded_;  // what locksChanged last reported
    // The session that reads the committed rows for the trace, and each
    // table's rows as last recorded.
    std::unique_ptr<SqlConnection> recorder_;
    std::vector<TableRows> tables_;
    bool tablesRecorded_ = false;  // every table once, empty ones too
    bool locksMoved_ = false;      // since the tables were read
    QSet<QString> openMoved_;      // tables whose uncommitted rows may have moved
    // Whose the run's transactions are (learnTransactions): each session's
    // attempt, and the attempt whose statement was sent last.
    std::shared_ptr<RowVersionNames> versionNames_ = std::make_shared<RowVersionNames>();
    QHash<QString, QString> attemptOn_;
    QString lastSender_;
};

}  // namespace

QString connectBackend(const QString& url, QString* error) {
    if (!live::parseServerUrl(url, error))
        return {};
    return live::serverUrlBackend(url);
}

std::unique_ptr<Backend> makeBackend(const RunConfig& config,
                                     std::function<void(const QString&)> progress) {
    if (config.recording)
        return makeRecordedBackend(config.recording);
    const bool manyIntents = config.intents > 1;
    if (config.backend == QLatin1String("postgres"))
        return std::make_unique<ServerBackend>(ServerKind::Postgres, config.isolation,
                                               std::move(progress), config.connect, manyIntents);
    if (config.backend == QLatin1String("mariadb"))
        return std::make_unique<ServerBackend>(ServerKind::MariaDb, config.isolation,
                                               std::move(progress), config.connect, manyIntents);
    return std::make_unique<SqliteBackend>();
}

}  // namespace idem
