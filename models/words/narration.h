// Captions: for every step of a run, a sentence or two in the application's
// language saying what happened and why it matters ("#2 inserts another
// pay_flow row for the same payment: nothing checks for a repeat"). Made from
// the step's trace events and what the run did before them, never scripted:
// the window shows them under the diagrams, `run --narrate` prints them, the
// exports carry them.
#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include "lockwaits.h"
#include "opentransactions.h"
#include "sqloutcome.h"

#include <utility>

namespace idem {

struct ScenarioWords;
struct TraceEvent;

class Narrator {
    Q_DECLARE_TR_FUNCTIONS(idem::Narration)
public:
    // intents: how many intents the run has (with more than one, attempts are
    // named with their intent); words: the run's scenario's (its actors, its
    // notes' captions, its guards' decisions), null for the engine's alone.
    explicit Narrator(int intents = 1, const ScenarioWords* words = nullptr);

    // The caption of one step: events [from, to) of a run whose earlier
    // events were all fed before, in order. Feeding is what a caption
    // remembers (states, rows inserted, who was told what); start over with
    // reset() when the run is rewound.
    QString narrate(const QList<TraceEvent>& events, qsizetype from, qsizetype to);
    void reset();

    // One event's caption, after the events before it were fed; feeds it.
    // Empty only for a kind no caption knows (a test checks there is none).
    QString caption(const TraceEvent& e);
    // The end of a step fed one caption at a time (a jump, a worker's
    // catch-up): a server's rollback of a process that crashed in it is
    // settled here, not told with the next step.
    void endStep() { sayDropped(nullptr); }

    // Caption templates that had no translation in the installed language
    // since the last call (for the test that every caption is translated).
    static QStringList untranslated();

    // The rows of `table` the captions have counted as committed, over all
    // intents (a test compares them with the database at every step);
    // -1 when the table is not counted.
    qint64 committedRows(const QString& table) const;
    QStringList countedTables() const;

private:
    struct Said {
        QString text;
        int weight = 0;  // 0 set-up, 1 routine statement, 2 notable, 3 the point of the step
    };
    Said say(const TraceEvent& e);
    // What a server's rollback of a crashed process's transaction took away,
    // said before `next` (null: at the end of the step); empty when none.
    Said sayDropped(const TraceEvent* next);
    Said sayPlain(const TraceEvent& e);
    Said saySql(const TraceEvent& e);
    Said sayGuard(const TraceEvent& e);
    Said sayTransition(const TraceEvent& e);
    Said sayResponse(const TraceEvent& e);
    Said sayNote(const TraceEvent& e);
    Said sayLockWait(const TraceEvent& e);
    QString who(const TraceEvent& e) const;
    QString who(const AttemptRef& attempt) const;
    QString setupCaption(qsizetype statements) const;
    // What an open transaction wrote, in a few words ("1 `ledger` row, the
    // move of P1 to PAID"); empty when it wrote nothing this narrator counts.
    QString writtenIn(qint16 connection) const;
    // Ends a connection's transaction: what it held becomes the database's
    // (committed) or is gone (rolled back).
    void settle(qint16 connection, bool committed);
    // The state `entity` is in as seen from `connection` (its own open
    // transaction's moves included).
    QString stateSeenBy(qint16 connection, const QString& entity) const;

    int intents_;
    const ScenarioWords* words_;
    QHash<qint64, QString> attemptKinds_;  // (intent, attempt) → original, duplicate, retry
    // Rows counted per "intent/table": committed, and inside each open
    // transaction (by connection), so that a caption never counts a row a
    // rollback took away. A table written by upserts is not counted.
    QHash<QString, qint64> rows_;
    QHash<qint16, QHash<QString, qint64>> pendingRows_;
    QSet<QString> uncounted_;
    QHash<QString, QString> states_;                        // entity → its committed state
    QHash<qint16, QHash<QString, QString>> pendingStates_;  // ... inside an open transaction
    OpenTransactions transactions_;
    QSet<int> guarded_;                     // intents some guard has looked at
    QHash<qint64, QString> lastStatement_;  // (intent, attempt) → its latest statement's head
    QHash<qint64, std::pair<qint64, qint64>> retries_;  // a retry's depth and the most allowed
    // Why each retry is sent: the answer before it ("none", "in-progress",
    // "error", "rejected"; empty in traces before version 4).
    QHash<qint64, QString> retryAfter_;
    // Intents whose failure the guard keeps as the final answer
    // (dedup-cache-error): every later answer of theirs is that error.
    QSet<qint32> storedErrors_;
    // Per "intent/table", the attempt that inserted its rows so far (-1:
    // several): more rows from the same attempt are not a repeat of the
    // request (a reader logging each page it shows).
    QHash<QString, qint32> inserters_;
    // Attempts whose last statement failed with nothing handling it: an
    // answer of success from them ignored the failure.
    QSet<qint64> failedUnhandled_;
    // A server's refusal of an attempt's statement (deadlock, serialization
    // failure, lock timeout) and its words: an error answer that passes the
    // words on is said with what they mean first.
    // A statement the server refused, or whose wait the lab cancelled.
    struct Refusal {
        SqlOutcome outcome = SqlOutcome::OtherError;
        QString words;                // the error as the trace has it
        int code = 0;                 // the database's own code (1213, 40001 ...)
        bool cancelledByLab = false;  // the lab's cancel, not the server's own timeout
    };
    QHash<qint64, Refusal> serverRefusals_;
    QString answeredError(const TraceEvent& response, const QString& result) const;
    // Which attempt each server session serves: a lock wait names sessions.
    SessionAttempts sessions_;
    // The sessions whose statement waits for a lock now (a lock-wait seen,
    // its statement not yet ended): a "holder" among them is a request
    // queued ahead, not a holder.
    QSet<QString> waitingSessions_;
};

}  // namespace idem
