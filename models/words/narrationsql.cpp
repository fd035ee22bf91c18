// The captions of a run's statements: what a statement did to its table and
// its transaction (a row inserted, a commit that makes a repeat real, a
// rollback that takes it away), how it failed, and whose lock it waits for.
#include "narration.h"

#include "narrationtext.h"
#include "sqlstatement.h"
#include "traceevent.h"

#include <QMap>

namespace idem {

using namespace narration;

namespace {

// SQLite's extended codes for a violated UNIQUE or PRIMARY KEY constraint.
constexpr int kUniqueViolation = 2067;
constexpr int kPrimaryKeyViolation = 1555;

// A failed statement in the reader's words with the database's code beside
// them; its own message stays in the SQL log (a caption in Chinese is no
// place for the server's English).
QString failureWords(const TraceEvent& e) {
    switch (e.outcome()) {
        case SqlOutcome::UniqueViolation:
            return SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                         "a row with the same unique key is already there "
                                         "(error %1)"))
                .arg(e.code);
        case SqlOutcome::CheckViolation:
            return SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                         "a CHECK constraint refuses the row (error %1)"))
                .arg(e.code);
        case SqlOutcome::LockBusy:
            return SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                         "another transaction holds the database's lock "
                                         "(error %1)"))
                .arg(e.code);
        case SqlOutcome::StorageFailure:
            return SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                         "the disk refused the write (error %1)"))
                .arg(e.code);
        default:
            return e.errorText();
    }
}

}  // namespace

Narrator::Said Narrator::sayLockWait(const TraceEvent& e) {
    const QString lock = e.fields.text("lock");
    // The server names every transaction the request is blocked by: those
    // that hold the lock, and those whose own request for it waits ahead
    // in the queue (InnoDB grants in order). The latter hold nothing yet.
    QStringList holders, queued;
    const QList<AttemptRef> blockers = sessions_.holders(e);
    const QStringList blockerSessions =
        e.fields.text("holder").split(QStringLiteral(", "), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < blockers.size(); ++i) {
        const bool waits = waitingSessions_.contains(blockerSessions.value(i));
        (waits ? queued : holders) << who(blockers[i]);
    }
    waitingSessions_.insert(e.fields.text("connection"));
    // Another client of the server holds it: nothing the run does frees
    // it, and the lab does not end the wait either.
    const QString outside = e.fields.text("outside");
    if (!outside.isEmpty())
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 waits for %2, held by a connection outside the run "
                                      "(%3). No step of the run can free it: the statement "
                                      "goes on when that connection lets go, or the run is "
                                      "stopped (Esc, Ctrl+C)."))
                    .arg(who(e), lockLabel(lock), outside),
                3};
    if (holders.isEmpty() && !queued.isEmpty()) {
        const QString ahead = queued.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")));
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 waits on %2 (%3): %2 asked for the same lock first "
                                      "and waits for it too, so %1 queues behind."))
                    .arg(who(e), ahead, lockName(lock)),
                3};
    }
    if (holders.isEmpty())
        holders << SAY(QT_TRANSLATE_NOOP("idem::Narration", "another transaction"));
    const QString held = holders.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")));
    if (!queued.isEmpty()) {
        const QString ahead = queued.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")));
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 waits for the lock on %3: %2 holds it, and %4, which "
                                      "asked first and waits too, is ahead in the queue."))
                    .arg(who(e), held, lockName(lock), ahead),
                3};
    }
    const QString name = lockName(lock);
    const bool onIndex = lock.contains(QLatin1String(" index "));
    // The verb agrees with the holders: "#1 holds", "#2, #3 hold".
    const bool one = holders.size() == 1;
    // A gap lock at the end of the primary key: no index let the locking
    // read find its key, so it scanned the table and locked all of it, the
    // place after its last row included.
    if (onIndex && isGapLock(lock) && name == QLatin1String("PRIMARY"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 waits for the lock %2 took on the end of the table's "
                                      "primary key: with no index on the column it searched, "
                                      "that locking read scanned the whole table and locked "
                                      "every row and the place after the last one."))
                    .arg(who(e), held),
                3};
    // PostgreSQL names a lock by its kind ("transactionid ShareLock"): the
    // caption says what it guards instead (lockLabel).
    if (!onIndex)
        return {SAY(one ? QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 waits for %2: %3 holds it, and its statement "
                                            "goes on when that transaction ends.")
                        : QT_TRANSLATE_NOOP("idem::Narration",
                                            "%1 waits for %2: %3 hold it, and its statement "
                                            "goes on when their transactions end."))
                    .arg(who(e), lockLabel(lock), held),
                3};
    const char* sentence =
        isGapLock(lock)
            ? (one ? QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1 waits for the gap lock %2 holds on %3: a locking read "
                                       "of a key that is not there locks the place where it "
                                       "would go.")
                   : QT_TRANSLATE_NOOP("idem::Narration",
                                       "%1 waits for the gap lock %2 hold on %3: a locking read "
                                       "of a key that is not there locks the place where it "
                                       "would go."))
        : one ? QT_TRANSLATE_NOOP("idem::Narration", "%1 waits for the lock %2 holds on %3.")
              : QT_TRANSLATE_NOOP("idem::Narration", "%1 waits for the lock %2 hold on %3.");
    return {SAY(sentence).arg(who(e), held, name), 3};
}

Narrator::Said Narrator::saySql(const TraceEvent& e) {
    const QString w = who(e);
    const QString statement = mainStatement(e.sql);
    const QString verb = statementVerb(statement);
    const QString table = statementTable(statement);
    const qint64 key = attemptKey(e);
    const qint16 connection = e.connection;
    // What the transaction holds is read before this statement ends it.
    const QString written = writtenIn(connection);
    const TxChange change = transactions_.follow(e);
    const bool inTransaction = transactions_.isOpen(connection);
    lastStatement_.insert(key,
                          verb == QLatin1String("SELECT") ? verb : verb + QLatin1Char(' ') + table);
    // Rows are counted for every statement, set-up included: the count a
    // caption says is the table's.
    const QString slot = QStringLiteral("%1/%2").arg(e.intent).arg(table);
    const qint64 committedBefore = rows_.value(slot);
    const qint64 before = committedBefore + pendingRows_.value(connection).value(slot);
    const bool upsert = e.sql.contains(QLatin1String("ON CONFLICT"), Qt::CaseInsensitive) &&
                        e.sql.contains(QLatin1String("DO UPDATE"), Qt::CaseInsensitive);
    const qint32 inserter = inserters_.value(slot, 0);
    const bool ownRows = inserter == e.attempt;
    qint64 delta = 0;
    if (!e.failed() && !table.isEmpty() && e.rows > 0) {
        if (verb == QLatin1String("INSERT") && upsert)
            uncounted_.insert(table);
        else if (verb == QLatin1String("INSERT"))
            delta = e.rows;
        if (verb == QLatin1String("INSERT"))
            inserters_.insert(slot, inserter == 0 || ownRows ? e.attempt : -1);
        else if (verb == QLatin1String("DELETE"))
            delta = -e.rows;
    }
    if (delta != 0) {
        if (inTransaction)
            pendingRows_[connection][slot] += delta;
        else
            rows_[slot] += delta;
    }
    // The rows a commit makes repeats of (a request's second `ledger` row):
    // the moment a duplicate becomes real, for everyone.
    QStringList repeats;
    if (change == TxChange::Committed && !guarded_.contains(e.intent)) {
        QMap<QString, qint64> total;
        const QHash<QString, qint64> held = pendingRows_.value(connection);
        for (auto it = held.cbegin(); it != held.cend(); ++it) {
            const qint64 now = rows_.value(it.key()) + it.value();
            if (it.value() > 0 && now > 1 && !it.key().startsWith(QLatin1String("-1/")))
                total[it.key().section(QLatin1Char('/'), 1)] += now;
        }
        for (auto it = total.cbegin(); it != total.cend(); ++it)
            repeats << SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 %2 rows"))
                           .arg(it.value())
                           .arg(quoted(it.key()));
    }
    if (change == TxChange::Committed || change == TxChange::RolledBack)
        settle(connection, change == TxChange::Committed);

    if (e.isSetup())
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "Set-up: %1.")).arg(verb), 0};
    if (e.fields.text("cause") == QLatin1String("crash")) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "The database rolls back the open transaction of the "
                                          "process that died: nothing it wrote there survives.")),
                    3};
        return {
            SAY(QT_TRANSLATE_NOOP("idem::Narration", "Nothing of its open transaction stays: %1."))
                .arg(written),
            3};
    }
    if (e.failed()) {
        const SqlOutcome outcome = e.outcome();
        if (e.attempt != 0 &&
            (outcome == SqlOutcome::Deadlock || outcome == SqlOutcome::SerializationFailure ||
             outcome == SqlOutcome::LockTimeout))
            serverRefusals_.insert(
                attemptKey(e), {outcome, e.errorText(), e.code, !e.fields.text("cause").isEmpty()});
        if (outcome == SqlOutcome::Deadlock) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            const QString deadlock =
                SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "Deadlock: the server rolled back %1's transaction. "
                                      "%1 is the victim the server chose to break the cycle "
                                      "of transactions waiting for each other; the others "
                                      "go on."))
                    .arg(w);
            // InnoDB's victim is rolled back at once: say what went with it.
            if (change == TxChange::RolledBack && !written.isEmpty())
                return {joinSentences(
                            deadlock,
                            SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                  "Nothing of its open transaction stays: %1."))
                                .arg(written)),
                        3};
            return {deadlock, 3};
        }
        if (outcome == SqlOutcome::SerializationFailure) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "Serialization failure: the server refuses %1's %2, "
                                          "which no one-at-a-time order of the transactions "
                                          "running beside it could give, and rolls %1's "
                                          "transaction back."))
                        .arg(w, verb),
                    3};
        }
        if (outcome == SqlOutcome::LockTimeout) {
            if (e.attempt > 0)
                failedUnhandled_.insert(attemptKey(e));
            const QString cause = e.fields.text("cause");
            if (cause == QLatin1String("lab-cancel"))
                return {SAY(QT_TRANSLATE_NOOP(
                                "idem::Narration",
                                "Every statement still running waits for another of the run, "
                                "and nothing is left to send: the server has not broken this "
                                "cycle and never will. The lab, not the server, cancels %1's "
                                "%2, as a lock wait timeout would end it (MariaDB 1205, "
                                "PostgreSQL 55P03)."))
                            .arg(w, verb),
                        3};
            if (cause == QLatin1String("lock-timeout"))
                return {SAY(QT_TRANSLATE_NOOP(
                                "idem::Narration",
                                "%1 gives up waiting for the lock: the lab cancels its %2 at "
                                "the lock timeout you set, as the server's own timeout would "
                                "(MariaDB 1205, PostgreSQL 55P03)."))
                            .arg(w, verb),
                        3};
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 gives up waiting for the lock (lock timeout): its "
                                          "%2 did not run."))
                        .arg(w, verb),
                    3};
        }
        if (outcome == SqlOutcome::UniqueViolation)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "The database refuses %1's insert into %2: %3. The "
                                          "unique key stops the repeat, whatever the code "
                                          "above it did."))
                        .arg(w, quoted(table), failureWords(e)),
                    3};
        if (e.attempt > 0)
            failedUnhandled_.insert(attemptKey(e));
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1's statement fails: %2."))
                    .arg(w, failureWords(e)),
                3};
    }
    // A statement after a failure (not the end of the transaction) is the
    // code handling it.
    if (verb != QLatin1String("COMMIT") && verb != QLatin1String("END") &&
        verb != QLatin1String("ROLLBACK"))
        failedUnhandled_.remove(attemptKey(e));
    if (verb == QLatin1String("BEGIN"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 opens a transaction.")).arg(w), 1};
    if (change == TxChange::Committed) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 commits: what it wrote is now visible to "
                                          "everyone."))
                        .arg(w),
                    1};
        if (!repeats.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 commits: the database now holds %2 for this "
                                          "request."))
                        .arg(w, repeats.join(SAY(QT_TRANSLATE_NOOP("idem::Narration", ", ")))),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 commits: %2 — now in the database for everyone."))
                    .arg(w, written),
                2};
    }
    if (change == TxChange::RolledBack) {
        if (written.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 rolls its transaction back: nothing of it "
                                          "stays."))
                        .arg(w),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                      "%1 rolls its transaction back: %2 — none of it stays."))
                    .arg(w, written),
                3};
    }
    if (verb == QLatin1String("INSERT")) {
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1's insert into %2 adds nothing: the row is already "
                                          "there."))
                        .arg(w, quoted(table)),
                    2};
        if (upsert)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1 writes its row of %2: a new one, or the one "
                                          "there updated."))
                        .arg(w, quoted(table)),
                    1};
        if (e.rows > 1)
            return {(inTransaction
                         ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                 "%1 inserts %2 rows into %3, not "
                                                 "yet committed."))
                         : SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 inserts %2 rows into %3.")))
                        .arg(w)
                        .arg(e.rows)
                        .arg(quoted(table)),
                    1};
        if (before == 0 || e.attempt <= 0 || ownRows)
            return {(inTransaction
                         ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                 "%1 inserts a row into %2, not yet "
                                                 "committed."))
                         : SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 inserts a row into %2.")))
                        .arg(w, quoted(table)),
                    1};
        const bool unguarded = !guarded_.contains(e.intent);
        if (inTransaction)
            return {(unguarded ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                       "%1 inserts another %2 row for the same "
                                                       "request, not yet committed: if it "
                                                       "commits there will be %3 of them, and "
                                                       "nothing checks for a repeat."))
                               : SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                       "%1 inserts another %2 row for the same "
                                                       "request, not yet committed: if it "
                                                       "commits there will be %3 of them.")))
                        .arg(w, quoted(table))
                        .arg(before + e.rows),
                    unguarded ? 3 : 2};
        return {(unguarded ? SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                   "%1 inserts another %2 row for the same "
                                                   "request, now %3 of them: nothing checks for "
                                                   "a repeat."))
                           : SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                                   "%1 inserts another %2 row for the same "
                                                   "request, now %3 of them.")))
                    .arg(w, quoted(table))
                    .arg(before + e.rows),
                unguarded ? 3 : 2};
    }
    if (verb == QLatin1String("UPDATE")) {
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration",
                                          "%1's UPDATE of %2 changes no row: its WHERE "
                                          "condition no longer holds."))
                        .arg(w, quoted(table)),
                    2};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 updates %2 row(s) of %3."))
                    .arg(w)
                    .arg(e.rows)
                    .arg(quoted(table)),
                1};
    }
    if (verb == QLatin1String("DELETE"))
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 deletes %2 row(s) from %3."))
                    .arg(w)
                    .arg(e.rows)
                    .arg(quoted(table)),
                e.rows > 0 ? 2 : 1};
    if (verb == QLatin1String("SELECT") || verb == QLatin1String("WITH")) {
        if (table.isEmpty())
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads from the database.")).arg(w),
                    1};
        if (e.rows == 0)
            return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads %2: no matching row."))
                        .arg(w, quoted(table)),
                    1};
        return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 reads %2: %3 row(s)."))
                    .arg(w, quoted(table))
                    .arg(e.rows),
                1};
    }
    return {SAY(QT_TRANSLATE_NOOP("idem::Narration", "%1 runs %2.")).arg(w, verb), 1};
}

}  // namespace idem
