#include "recordedbackend.h"

#include "locksnapshot.h"
#include "opentransactions.h"
#include "serverbackend.h"
#include "serverinstall.h"
#include "sqlconnection.h"
#include "sqldialect.h"
#include "sqlitebackend.h"
#include "tablesnapshot.h"
#include "trace.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>

#include <mutex>

namespace idem {

namespace {

const char* const kContext = "idem::Recording";

QString say(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

QString shortened(const QString& sql) {
    QString text = sql.simplified();
    return text.size() > 100 ? text.left(99) + QChar(0x2026) : text;
}

// Where the run stands in its recording, shared by the backend and its
// sessions (Backend::connect is const).
struct Play {
    std::shared_ptr<const Recording> recording;
    qsizetype next = 0;           // the next event the run records
    QHash<int, qsizetype> asked;  // per connection: statements answered so far
    QString failure;

    const TraceEvent* at(qsizetype i) const {
        return i >= 0 && i < recording->events.size() ? &recording->events[i] : nullptr;
    }
    // The first difference stops the run; later ones follow from it.
    void mismatch(const QString& what) {
        if (failure.isEmpty())
            failure = say(QT_TRANSLATE_NOOP("idem::Recording",
                                            "The recording does not match this version of "
                                            "the lab: %1"))
                          .arg(what);
    }
};

// One session of the run, answered from the recording.
class RecordedSession final : public SqlConnection {
public:
    RecordedSession(std::shared_ptr<Play> play, const QString& id)
        : SqlConnection(id), play_(std::move(play)), number_(id.mid(1).toInt()) {}

    bool isOpen() const override { return true; }
    QString openError() const override { return {}; }
    bool inTransaction() const override { return inTransaction_; }

    QString textSent(const QString& sql) const override { return inDialect(dialect(), sql); }
    QString received() const override { return received_; }

    SqlResult exec(const QString& sql, const QVariantList& params = {}) override {
        const qsizetype i = check(textSent(sql), params);
        return i < 0 ? refused() : take(i);
    }

    // A statement sent: checked now, answered when it settles.
    void send(const QString& sql, const QVariantList& params) {
        pending_ = check(textSent(sql), params);
        waiting_ = false;
    }
    bool hasPending() const { return pending_ >= 0; }
    qsizetype pending() const { return pending_; }
    bool waiting() const { return waiting_; }
    void startWaiting() { waiting_ = true; }
    SqlResult settle() {
        const qsizetype i = pending_;
        pending_ = -1;
        waiting_ = false;
        return take(i);
    }
    SqlResult refused() const {
        SqlResult r;
        r.ok = false;
        r.outcome = SqlOutcome::OtherError;
        r.code = 1;
        r.message = play_->failure;
        return r;
    }
    void drop() {
        pending_ = -1;
        inTransaction_ = false;
    }

    // Only the reader reads tables (an SQLite database of the recorded rows).
    QString selectAllStatement(const QString&, QStringList*) override { return {}; }
    bool othersCommittedSinceAsked() override { return true; }
    SqlResult findTable(const QString&) override { return refused(); }
    SqlResult integrityCheck() override { return refused(); }

private:
    SqlDialect dialect() const {
        return play_->recording->config.backend == QLatin1String("postgres") ? SqlDialect::Postgres
                                                                             : SqlDialect::MariaDb;
    }

    // The index of this session's next recorded statement when it is `text`
    // with `params`; else -1, and the run does not match its recording.
    qsizetype check(const QString& text, const QVariantList& params) {
        if (!play_->failure.isEmpty())
            return -1;
        const QList<qsizetype> mine = play_->recording->statements.value(number_);
        const qsizetype n = play_->asked.value(number_);
        if (n >= mine.size()) {
            play_->mismatch(say(QT_TRANSLATE_NOOP("idem::Recording",
                                                  "this version sends \"%1\" on %2, where the "
                                                  "recording has no more statements."))
                                .arg(shortened(text), id()));
            return -1;
        }
        const qsizetype i = mine[n];
        const TraceEvent& e = play_->recording->events[i];
        if (e.sql != text ||
            QJsonArray::fromVariantList(e.params) != QJsonArray::fromVariantList(params)) {
            play_->mismatch(say(QT_TRANSLATE_NOOP("idem::Recording",
                                                  "at event %1 it sent \"%2\" on %3, this "
                                                  "version sends \"%4\"."))
                                .arg(e.seq)
                                .arg(shortened(e.sql), id(), shortened(text)));
            return -1;
        }
        QList<QVariantList> values;
        if (!returnedValues(e, &values)) {
            play_->mismatch(
                say(QT_TRANSLATE_NOOP("idem::Recording",
                                      "at event %1 a statement returned more rows than a trace "
                                      "keeps (%2): this recording cannot be played."))
                    .arg(e.seq)
                    .arg(kMaxRecordedRows));
            return -1;
        }
        return i;
    }

    // The recorded answer; the session's transaction as the server left it.
    SqlResult take(qsizetype i) {
        ++play_->asked[number_];
        const TraceEvent& e = play_->recording->events[i];
        SqlResult r;
        r.ok = e.code == 0;
        r.outcome = r.ok ? SqlOutcome::Ok : e.outcome();
        r.rows = e.rows;
        r.counts = e.counts;
        r.code = e.code;
        r.message = e.error;
        r.state = e.fields.text("state");
        received_ = e.fields.text("sent");
        returnedValues(e, &r.data);
        const TxChange control = transactionChange(e.sql);
        if (control == TxChange::Began && r.ok)
            inTransaction_ = true;
        else if (control == TxChange::Committed || control == TxChange::RolledBack)
            inTransaction_ = false;
        // InnoDB rolls back the whole transaction of a deadlock's victim.
        else if (r.outcome == SqlOutcome::Deadlock && dialect() == SqlDialect::MariaDb)
            inTransaction_ = false;
        return r;
    }

    std::shared_ptr<Play> play_;
    int number_;
    bool inTransaction_ = false;
    QString received_;        // the last statement's text as the server got it
    qsizetype pending_ = -1;  // the statement in flight: its recorded event
    bool waiting_ = false;    // ... which waits for a lock
};

RecordedSession& recorded(SqlConnection& c) {
    return static_cast<RecordedSession&>(c);
}

QString quotedName(QString name) {
    return QLatin1Char('"') + name.replace(QLatin1Char('"'), QLatin1String("\"\"")) +
           QLatin1Char('"');
}

// Each table's rows as the open transactions had them at the recording's
// latest tables event, where they differed from the committed ones. Written
// as the run steps, read by the tables' views.
struct OpenRows {
    std::mutex mutex;
    QHash<QString, TableRows> byTable;
};

// The reader of a PostgreSQL recording: its SQLite tables keep each row's
// version (xmin, xmax, as the recording named them) in two more columns,
// which it shows only beside the rows (selectAllWithRowVersions). No table
// on PostgreSQL has columns of these names: they are its system columns'.
class RecordedReader final : public SqlConnection {
public:
    RecordedReader(std::unique_ptr<SqlConnection> tables, std::shared_ptr<OpenRows> open)
        : SqlConnection(tables->id()), tables_(std::move(tables)), open_(std::move(open)) {}

    bool isOpen() const override { return tables_->isOpen(); }
    QString openError() const override { return tables_->openError(); }
    bool inTransaction() const override { return tables_->inTransaction(); }
    SqlResult exec(const QString& sql, const QVariantList& params = {}) override {
        return tables_->exec(sql, params);
    }
    QString selectAllStatement(const QString& table, QStringList* columns) override {
        QString select = tables_->selectAllStatement(table, columns);
        const QStringList versions{QStringLiteral("xmin"), QStringLiteral("xmax")};
        if (columns->size() > 2 && columns->sliced(columns->size() - 2) == versions) {
            columns->resize(columns->size() - 2);
            select.replace(QLatin1String(", \"xmin\", \"xmax\" FROM"), QLatin1String(" FROM"));
        }
        return select;
    }
    QString selectAllWithRowVersions(const QString& table, QStringList* columns) override {
        return tables_->selectAllStatement(table, columns);
    }
    bool othersCommittedSinceAsked() override { return tables_->othersCommittedSinceAsked(); }
    SqlResult findTable(const QString& table) override { return tables_->findTable(table); }
    SqlResult integrityCheck() override { return tables_->integrityCheck(); }
    // The rows as the open transactions had them, where the recording kept
    // them (trace version 6): the columns asked for, versions by name.
    bool readUncommitted(const QString& table, const QStringList& columns,
                         QList<QVariantList>* rows) override {
        const std::lock_guard lock(open_->mutex);
        const auto t = open_->byTable.constFind(table);
        if (t == open_->byTable.constEnd())
            return false;
        rows->clear();
        for (qsizetype i = 0; i < t->open.size(); ++i) {
            QVariantList row;
            for (const QString& column : columns) {
                const qsizetype at = t->columns.indexOf(column);
                if (at >= 0)
                    row << t->open[i].value(at);
                else if (column == QLatin1String("xmin"))
                    row << t->openVersions.value(i).value(0);
                else if (column == QLatin1String("xmax"))
                    row << t->openVersions.value(i).value(1);
                else
                    return false;
            }
            *rows << row;
        }
        return true;
    }

private:
    std::unique_ptr<SqlConnection> tables_;
    std::shared_ptr<OpenRows> open_;
};

class RecordedBackend final : public Backend {
public:
    explicit RecordedBackend(std::shared_ptr<const Recording> recording)
        : play_(std::make_shared<Play>()) {
        play_->recording = std::move(recording);
    }
    ~RecordedBackend() override { loader_.reset(); }

    QString id() const override { return rec().config.backend; }
    QString serverVersion() const override { return rec().serverVersion; }
    QStringList sessionSettings() const override { return rec().sessionSettings; }
    QString isolation() const override { return rec().config.isolation; }
    bool stepped() const override { return true; }
    bool abortsTransactionOnError() const override { return id() == QLatin1String("postgres"); }
    bool singleWriter() const override { return false; }
    bool playsRecording() const override { return true; }

    bool prepare(const QString& target, bool, QString* error, bool* badInput) override {
        *badInput = false;
        if (!target.isEmpty()) {
            *badInput = true;
            *error = QStringLiteral(
                "--db keeps an SQLite file; a run played from a recording "
                "keeps no database");
            return false;
        }
        // The reader's database: the recorded committed rows.
        if (!reader_.prepare(QString(), false, error, badInput))
            return false;
        loader_ = reader_.connect(QStringLiteral("loader"));
        if (!loader_->isOpen()) {
            *error = loader_->openError();
            return false;
        }
        const QString refused =
            reader_.configure([this](const QString& sql) { return loader_->exec(sql); });
        if (!refused.isEmpty()) {
            *error = refused;
            return false;
        }
        return true;
    }
    bool publish(const QJsonObject&, QString*, bool*) override { return true; }
    QString location() const override {
        return QStringLiteral("a recording of %1 %2 (%3)")
            .arg(backendName(id()), serverVersion(), QFileInfo(rec().path).fileName());
    }

    std::unique_ptr<SqlConnection> connect(const QString& id) const override {
        if (id.startsWith(QLatin1Char('c')))
            return std::make_unique<RecordedSession>(play_, id);
        if (id == QLatin1String("reader"))
            return std::make_unique<RecordedReader>(reader_.connect(id), open_);
        return reader_.connect(id);
    }
    QString configure(const Exec&) const override { return {}; }
    const QString& beginStatement() const override {
        static const QString begin = QStringLiteral("BEGIN");
        static const QString start = QStringLiteral("START TRANSACTION");
        return id() == QLatin1String("postgres") ? begin : start;
    }

    void send(SqlConnection& session, const QString& sql, const QVariantList& params) override {
        recorded(session).send(sql, params);
    }

    // Finished when its sql event is the recording's next; else it waits,
    // as the recording's lock-wait says (the first time).
    bool settle(SqlConnection& session, const std::vector<SqlConnection*>&, SqlResult* result,
                QStringList* waitsOn, QString* lock) override {
        RecordedSession& s = recorded(session);
        if (!s.hasPending()) {
            *result = s.refused();
            return true;
        }
        if (s.pending() == play_->next) {
            *result = s.settle();
            return true;
        }
        if (s.waiting())
            return false;
        const TraceEvent* e = play_->at(play_->next);
        if (e && e->is(EventKind::LockWait) && e->fields.text("connection") == session.id()) {
            s.startWaiting();
            const QString holder = e->fields.text("holder");
            *waitsOn = holder.isEmpty() ? QStringList() : holder.split(QStringLiteral(", "));
            *lock = e->fields.text("lock");
            return false;
        }
        play_->mismatch(say(QT_TRANSLATE_NOOP("idem::Recording",
                                              "at event %1 its statement on %2 had finished or "
                                              "waited, and this run is elsewhere."))
                            .arg(e ? e->seq : play_->next + 1)
                            .arg(session.id()));
        *result = s.refused();
        return true;
    }

    bool finished(SqlConnection& session) override {
        const RecordedSession& s = recorded(session);
        return s.hasPending() && s.pending() == play_->next;
    }

    void drop(SqlConnection& session) override { recorded(session).drop(); }

    bool locksChanged(LockRows* rows, bool* truncated) override {
        const TraceEvent* e = play_->at(play_->next);
        if (!e || !e->is(EventKind::Locks))
            return false;
        *rows = lockRowsFromValue(e->fields.value("locks"));
        *truncated = e->fields.flag("truncated");
        return true;
    }

    bool tablesChanged(QVariantList* tables, bool) override {
        const TraceEvent* e = play_->at(play_->next);
        if (!e || !e->is(EventKind::Tables))
            return false;
        *tables = e->fields.value("tables").toList();
        load(*tables);
        return true;
    }

    void eventRecorded(const TraceEvent& event) override {
        const TraceEvent* e = play_->at(play_->next);
        if (!e) {
            play_->mismatch(say(QT_TRANSLATE_NOOP("idem::Recording",
                                                  "the recording ends at event %1, this run "
                                                  "goes on."))
                                .arg(play_->next));
        } else if (e->kind != event.kind || e->note != event.note || e->attempt != event.attempt ||
                   e->intent != event.intent) {
            play_->mismatch(
                say(QT_TRANSLATE_NOOP("idem::Recording",
                                      "event %1 is \"%2\" of %3 in the recording, "
                                      "\"%4\" of %5 in this run."))
                    .arg(e->seq)
                    .arg(e->kindId(), e->actorName(), event.kindId(), event.actorName()));
        }
        ++play_->next;
    }

    QString failure() const override { return play_->failure; }

private:
    const Recording& rec() const { return *play_->recording; }

    // The reader's tables as the recording committed them.
    void load(const QVariantList& tables) {
        if (!loader_)
            return;
        loader_->exec(QStringLiteral("BEGIN"));
        for (const QVariant& value : tables) {
            const TableRows t = tableRowsFromValue(value);
            {
                const std::lock_guard lock(open_->mutex);
                if (t.hasOpen)
                    open_->byTable.insert(t.table, t);
                else
                    open_->byTable.remove(t.table);
            }
            if (t.truncated) {
                play_->mismatch(
                    say(QT_TRANSLATE_NOOP("idem::Recording",
                                          "the table %1 held more rows than a trace keeps (%2): "
                                          "this recording cannot be played."))
                        .arg(t.table)
                        .arg(kMaxRecordedRows));
                continue;
            }
            // A recording made before row versions were kept has none.
            const bool versioned = t.versioned || versioned_.contains(t.table);
            if (!created_.contains(t.table)) {
                created_ << t.table;
                QStringList columns;
                static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9 ]"));
                for (qsizetype i = 0; i < t.columns.size(); ++i) {
                    // The server's type names give SQLite's column affinity
                    // ("bigint": integer, "varchar": text).
                    columns << quotedName(t.columns[i]) + QLatin1Char(' ') +
                                   QString(t.types.value(i)).remove(unsafe);
                }
                if (versioned && !t.columns.isEmpty()) {
                    versioned_ << t.table;
                    columns << QStringLiteral("\"xmin\" text") << QStringLiteral("\"xmax\" text");
                }
                loader_->exec(QStringLiteral("CREATE TABLE %1 (%2)")
                                  .arg(quotedName(t.table), columns.join(QStringLiteral(", "))));
            }
            loader_->exec(QStringLiteral("DELETE FROM %1").arg(quotedName(t.table)));
            if (t.columns.isEmpty())
                continue;
            const bool withVersions = versioned_.contains(t.table);
            const QString insert =
                QStringLiteral("INSERT INTO %1 VALUES (%2)")
                    .arg(quotedName(t.table),
                         QStringList(t.columns.size() + (withVersions ? 2 : 0), QStringLiteral("?"))
                             .join(u','));
            for (qsizetype i = 0; i < t.rows.size(); ++i) {
                QVariantList row = t.rows[i];
                if (withVersions) {
                    const QStringList v = t.versions.value(i);
                    row << v.value(0) << v.value(1);
                }
                loader_->exec(insert, row);
            }
        }
        loader_->exec(QStringLiteral("COMMIT"));
    }

    std::shared_ptr<Play> play_;
    std::shared_ptr<OpenRows> open_ = std::make_shared<OpenRows>();
    SqliteBackend reader_;
    std::unique_ptr<SqlConnection> loader_;
    QStringList created_;
    QStringList versioned_;  // tables with their rows' versions
};

}  // namespace

std::shared_ptr<const Recording> loadRecording(const QString& path, QString* error) {
    Trace::Loaded loaded;
    if (!Trace::load(path, &loaded, error))
        return nullptr;
    auto recording = std::make_shared<Recording>();
    recording->path = path;
    if (!RunConfig::fromJson(loaded.config, &recording->config, error))
        return nullptr;
    const QString backend = recording->config.backend;
    if (backend != QLatin1String("mariadb") && backend != QLatin1String("postgres")) {
        *error = say(QT_TRANSLATE_NOOP("idem::Recording",
                                       "%1 is a run on %2, which the lab runs itself: there is "
                                       "no recording to play."))
                     .arg(QFileInfo(path).fileName(), backendName(backend));
        return nullptr;
    }
    bool tables = false;
    for (qsizetype i = 0; i < loaded.events.size(); ++i) {
        const TraceEvent& e = loaded.events[i];
        if (e.is(EventKind::Sql) && e.connection >= 0)
            recording->statements[e.connection] << i;
        tables = tables || e.is(EventKind::Tables);
    }
    if (!tables) {
        *error = say(QT_TRANSLATE_NOOP("idem::Recording",
                                       "%1 was written by a version of the lab that did not keep "
                                       "the server's committed rows: it can be replayed only "
                                       "where %2 is installed."))
                     .arg(QFileInfo(path).fileName(), backendName(backend));
        return nullptr;
    }
    recording->serverVersion = loaded.summary.value(QLatin1String("server_version")).toString();
    for (const QJsonValue& v : loaded.summary.value(QLatin1String("session_settings")).toArray())
        recording->sessionSettings << v.toString();
    recording->events = std::move(loaded.events);
    return recording;
}

std::optional<RunConfig> recordedConfig(const RunConfig& frame, const QString& tracePath,
                                        QString* error) {
    const std::shared_ptr<const Recording> recording = loadRecording(tracePath, error);
    if (!recording)
        return std::nullopt;
    RunConfig asked = frame;
    asked.recording.reset();
    if (asked.isolation.isEmpty())
        asked.isolation = recording->config.isolation;
    if (asked.toJson() != recording->config.toJson()) {
        *error = say(QT_TRANSLATE_NOOP("idem::Recording",
                                       "%1 is a recording of another run than this one."))
                     .arg(QFileInfo(tracePath).fileName());
        return std::nullopt;
    }
    RunConfig played = recording->config;
    played.recording = recording;
    return played;
}

std::unique_ptr<Backend> makeRecordedBackend(std::shared_ptr<const Recording> recording) {
    return std::make_unique<RecordedBackend>(std::move(recording));
}

}  // namespace idem
