#include "tcc.h"

#include "attempt.h"
#include "statemachine.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>

namespace idem {

namespace {

// This scenario's sentences (results, what the database shows), said in
// English in the summary and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Tcc", source, std::move(args));
}

const QString kCoordinator = QStringLiteral("coordinator");
const QString kParticipant = QStringLiteral("participant");
const QString kTry = QStringLiteral("Try");
const QString kConfirm = QStringLiteral("Confirm");
const QString kCancel = QStringLiteral("Cancel");

// The coordinator confirms a second after the Try answered.
constexpr qint64 kPhaseGapMs = 1'000;
// How long the coordinator waits for the Try's answer before it cancels
// (the downstream call's timeout).
constexpr qint64 kTryTimeoutMs = 3'000;
// The held-up Try reaches the participant this long after the last Cancel.
constexpr qint64 kLateTryMs = 1'000;
constexpr qint64 kOpeningBalance = 10'000;

const QString kLogTable = QStringLiteral(R"(CREATE TABLE tcc_log (
    tx_id      TEXT    NOT NULL UNIQUE,
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('TRYING', 'CONFIRMED', 'CANCELLED')),
    updated_at INTEGER NOT NULL
))");

const QString kOpenAccount = QStringLiteral(R"(INSERT INTO accounts (user_id, balance, frozen)
VALUES (?, ?, 0))");

// --- the participant's account ----------------------------------------------
const QString kFreeze = QStringLiteral(R"(UPDATE accounts
SET frozen = frozen + ?
WHERE user_id = ?
  AND balance - frozen >= ?)");
const QString kUnfreeze = QStringLiteral(R"(UPDATE accounts
SET frozen = frozen - ?
WHERE user_id = ?)");
const QString kDebitBalance = QStringLiteral(R"(UPDATE accounts
SET balance = balance - ?
WHERE user_id = ?)");
const QString kTakeFrozen = QStringLiteral(R"(UPDATE accounts
SET balance = balance - ?, frozen = frozen - ?
WHERE user_id = ?)");
const QString kRecordDebit =
    QStringLiteral(R"(INSERT INTO debits (tx_id, user_id, amount, debited_at)
VALUES (?, ?, ?, ?))");

// --- the transaction log ------------------------------------------------------
const QString kLogTry =
    QStringLiteral(R"(INSERT INTO tcc_log (tx_id, user_id, amount, status, updated_at)
VALUES (?, ?, ?, 'TRYING', ?))");
const QString kLogEmptyCancel =
    QStringLiteral(R"(INSERT INTO tcc_log (tx_id, user_id, amount, status, updated_at)
VALUES (?, ?, ?, 'CANCELLED', ?))");
const QString kLogConfirm = QStringLiteral(R"(UPDATE tcc_log
SET status = 'CONFIRMED', updated_at = ?
WHERE tx_id = ?
  AND status = 'TRYING')");
const QString kLogCancel = QStringLiteral(R"(UPDATE tcc_log
SET status = 'CANCELLED', updated_at = ?
WHERE tx_id = ?
  AND status = 'TRYING')");
const QString kLogStatus = QStringLiteral("SELECT status FROM tcc_log WHERE tx_id = ?");

// --- the judge ------------------------------------------------------------------
const QString kDebitsPerUser = QStringLiteral(R"(SELECT user_id, COUNT(*)
FROM debits
GROUP BY user_id)");
const QString kStillFrozen = QStringLiteral(R"(SELECT user_id, frozen
FROM accounts
WHERE frozen <> 0)");
const QString kLogPerUser = QStringLiteral("SELECT user_id, status FROM tcc_log");

bool hasLog(Reader& db) {
    return db.hasTable(QStringLiteral("tcc_log"));
}

qint64 userOf(int intent) {
    return 70001 + intent;
}
int intentOfUser(qint64 user) {
    return int(user - userOf(0));
}
qint64 amountOf(int intent) {
    return 300 + (intent % 5) * 50;
}
QString txOf(int intent) {
    return QStringLiteral("tx-%1").arg(intent + 1);
}

bool cancelsBeforeTry(const ScenarioInfo& info, const RunConfig& c) {
    return info.paramValue(c, QStringLiteral("cancel-before-try")) == QLatin1String("1");
}

// What one delivery to the participant is about.
struct Phase {
    QString op;
    QString tx;
    qint64 userId = 0;
    qint64 amount = 0;
};

Phase phaseOf(const Attempt& a) {
    return {a.payload().value(QStringLiteral("op")).toString(), txOf(a.intent()),
            userOf(a.intent()), amountOf(a.intent())};
}

AttemptSpec call(int intent, const QString& op, int number, qint64 at, const QString& kind) {
    AttemptSpec s;
    s.intent = intent;
    s.number = number;
    s.at = at;
    s.caller = kCoordinator;
    s.actor = kParticipant;
    s.kind = kind;
    s.payload = {{"op", op}, {"tx_id", txOf(intent)}};
    s.operation = op;
    return s;
}

// The second phase and its repeats, spaced as the timing says (all at one
// instant, in a seed-chosen order, under concurrent).
// The Try is attempt 1; the second phase's deliveries are 2, 3, ...
void fireSecondPhase(Planner& planner, int intent, const QString& op, qint64 at, int deliveries) {
    const qint64 spacing = planner.config().effectiveIntervalMs();
    std::vector<AttemptSpec> specs;
    for (int k = 0; k < deliveries; ++k) {
        specs.push_back(call(intent, op, 2 + k, at + k * spacing,
                             k == 0 ? QStringLiteral("original") : QStringLiteral("duplicate")));
    }
    if (spacing == 0) {
        for (std::size_t i = specs.size(); i > 1; --i) {
            std::swap(specs[i - 1], specs[planner.random(quint32(i))]);
        }
    }
    for (const AttemptSpec& s : specs) planner.fire(s);
}

}  // namespace

Tcc::Tcc() {
    using Handler = Task<Reply> (Tcc::*)(Attempt&) const;
    // One variant's code for the three phases, picked by what the call asks.
    auto phases = [this](Handler tryPhase, Handler confirm, Handler cancel) {
        return [this, tryPhase, confirm, cancel](Attempt& a) {
            const QString op = phaseOf(a).op;
            return (this->*(op == kConfirm ? confirm : op == kCancel ? cancel : tryPhase))(a);
        };
    };
    info_.id = QStringLiteral("tcc");
    info_.group = ScenarioGroup::Production;
    info_.title = QStringLiteral("TCC (Try-Confirm-Cancel)");
    info_.schema = {QStringLiteral(R"(CREATE TABLE accounts (
    user_id INTEGER PRIMARY KEY,
    balance INTEGER NOT NULL,
    frozen  INTEGER NOT NULL CHECK (frozen >= 0)
))"),
                    QStringLiteral(R"(CREATE TABLE debits (
    id         INTEGER PRIMARY KEY,
    tx_id      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    amount     INTEGER NOT NULL,
    debited_at INTEGER NOT NULL
))")};
    info_.variants = {
        {.id = "naive",
         .summary = "no transaction log: Try freezes, Confirm debits and releases, Cancel "
                    "releases; CHECK (frozen >= 0) refuses a release of nothing",
         .handle = phases(&Tcc::naiveTry, &Tcc::naiveConfirm, &Tcc::naiveCancel)},
        {.id = "tcc-log",
         .recommended = true,
         .summary = "tcc_log(tx_id UNIQUE, status): every phase a conditional transition; a "
                    "Cancel without a Try records CANCELLED; a Try that finds CANCELLED does "
                    "nothing",
         .handle = phases(&Tcc::loggedTry, &Tcc::loggedConfirm, &Tcc::loggedCancel),
         .schema = {kLogTable}},
    };
    info_.sources = {Source::DownstreamTimeout};
    info_.defaultTiming = Timing::Retry;
    info_.params = {
        {"confirm-retries",
         "0",
         {},
         0,
         10,
         "the coordinator delivers Confirm this many more times (a recovery that drives the "
         "transaction again)"},
        {"cancel-before-try",
         "0",
         {"0", "1"},
         0,
         0,
         "1: the Try is held up in the network; the coordinator times out and cancels, then the "
         "Try arrives"},
    };
    info_.tables = {"tcc_log", "accounts", "debits"};
    info_.guardTable = "tcc_log";
    info_.lanes = {"coordinator", "participant"};
    info_.baseline = "naive";
    info_.askKeys = {"op"};
    info_.effectNames = {"debits"};
    info_.stateMachine = {"tcc_log record",
                          {{"", "", 0, 1.2},
                           {"TRYING", "已冻结", 2, 0},
                           {"CONFIRMED", "已确认", 4.5, 0},
                           {"CANCELLED", "已取消", 2, 2.4}},
                          {{"", "TRYING", "Try"},
                           {"TRYING", "CONFIRMED", "Confirm"},
                           {"TRYING", "CANCELLED", "Cancel"},
                           {"", "CANCELLED", "empty rollback", "空回滚"},
                           {"CANCELLED", "CANCELLED", "late Try refused", "防悬挂"}},
                          {"tcc-log"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT tx_id, status FROM tcc_log");
    info_.words = {
        .actors = {{kCoordinator, said(QT_TRANSLATE_NOOP("idem::Tcc", "TCC coordinator"))},
                   {kParticipant, said(QT_TRANSLATE_NOOP("idem::Tcc", "TCC participant"))}},
        .notes = {{"try-held-up",
                   said(QT_TRANSLATE_NOOP("idem::Tcc", "Try held up")),
                   said(QT_TRANSLATE_NOOP(
                       "idem::Tcc", "The coordinator's Try for %1 is held up in the network.")),
                   {NoteArg::field("tx_id")}},
                  {"try-timeout",
                   said(QT_TRANSLATE_NOOP("idem::Tcc", "Try timed out: Cancel")),
                   said(QT_TRANSLATE_NOOP("idem::Tcc",
                                          "The coordinator stops waiting for the Try of %1 and "
                                          "sends Cancel instead.")),
                   {NoteArg::field("tx_id")}}},
        .guards = {{"tcc-log", said(QT_TRANSLATE_NOOP("idem::Tcc", "TCC log"))}},
        .decisions = {{"repeat", said(QT_TRANSLATE_NOOP("idem::Tcc", "a repeat")),
                       said(QT_TRANSLATE_NOOP("idem::Tcc",
                                              "The %2 recognises %1 as a repeat and "
                                              "answers as before."))},
                      {"empty-rollback", said(QT_TRANSLATE_NOOP("idem::Tcc", "empty rollback")),
                       said(QT_TRANSLATE_NOOP("idem::Tcc",
                                              "Cancel arrives before any Try: %1 records an empty "
                                              "rollback, so a late Try will be refused."))},
                      {"anti-hanging", said(QT_TRANSLATE_NOOP("idem::Tcc", "late Try refused")),
                       said(QT_TRANSLATE_NOOP("idem::Tcc",
                                              "A late Try arrives after the Cancel: %1 refuses "
                                              "it, so no reservation hangs."))}},
        .params = {{"confirm-retries", said(QT_TRANSLATE_NOOP("idem::Tcc", "Extra Confirms")),
                    said(QT_TRANSLATE_NOOP("idem::Tcc",
                                           "How many more times the coordinator delivers Confirm "
                                           "(a recovery driving the transaction again)"))},
                   {"cancel-before-try", said(QT_TRANSLATE_NOOP("idem::Tcc", "Cancel before Try")),
                    said(QT_TRANSLATE_NOOP("idem::Tcc",
                                           "On: the Try is held up in the network; the "
                                           "coordinator times out and cancels, then the Try "
                                           "arrives"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::Tcc", "tcc_log record")),
    };
}

void Tcc::seed(Setup& setup, int intent) const {
    setup.exec(kOpenAccount, {userOf(intent), kOpeningBalance}, intent);
}

void Tcc::plan(Planner& planner, int intent) const {
    const RunConfig& c = planner.config();
    const qint64 t0 = planner.intentStart(intent);
    if (!cancelsBeforeTry(info_, c)) {
        planner.fire(call(intent, kTry, 1, t0, QStringLiteral("original")));
        const int retries =
            info_.paramValue(c, QStringLiteral("confirm-retries")).toInt() + c.duplicates;
        fireSecondPhase(planner, intent, kConfirm, t0 + kPhaseGapMs, 1 + retries);
        return;
    }
    // The coordinator sends the Try and hears nothing: it times out and
    // cancels; the Try, held up on the way, arrives after the Cancels.
    AttemptSpec coordinator;
    coordinator.intent = intent;
    coordinator.at = t0;
    coordinator.caller = kCoordinator;
    coordinator.actor = kCoordinator;
    coordinator.kind = QStringLiteral("timeout");
    coordinator.counted = false;
    planner.fire(coordinator);
    const qint64 cancelAt = t0 + kTryTimeoutMs;
    fireSecondPhase(planner, intent, kCancel, cancelAt, 1 + c.duplicates);
    const qint64 lastCancel = cancelAt + c.duplicates * c.effectiveIntervalMs();
    planner.fire(call(intent, kTry, 1, lastCancel + kLateTryMs, QStringLiteral("original")));
}

Task<Reply> Tcc::handle(Attempt& a) const {
    if (a.actor() == kCoordinator)
        return coordinatorTimesOut(a);
    return a.variant().handle(a);
}

Task<Reply> Tcc::coordinatorTimesOut(Attempt& a) const {
    const QString tx = txOf(a.intent());
    a.note(QStringLiteral("try-held-up"),
           {{"sender", kCoordinator}, {"receiver", kParticipant}, {"tx_id", tx}, {"op", kTry}});
    co_await a.work(kTryTimeoutMs,
                    said(QT_TRANSLATE_NOOP("idem::Tcc", "waiting for the Try's answer")));
    a.note(QStringLiteral("try-timeout"), {{"tx_id", tx}, {"next", kCancel}});
    co_return Reply{};
}

// --- without a log: each phase trusts that it comes once and in order ---------

Task<Reply> Tcc::naiveTry(Attempt& a) const {
    const Phase p = phaseOf(a);
    const SqlResult frozen = co_await a.sql(kFreeze, p.amount, p.userId, p.amount);
    if (frozen.rows == 0)
        co_return Reply{Response::Rejected,
                        said(QT_TRANSLATE_NOOP("idem::Tcc", "insufficient funds"))};
    co_return Reply{Response::Success, said(QT_TRANSLATE_NOOP("idem::Tcc", "frozen"))};
}

Task<Reply> Tcc::naiveConfirm(Attempt& a) const {
    const Phase p = phaseOf(a);
    co_await a.begin();
    co_await a.sql(kDebitBalance, p.amount, p.userId);
    co_await a.sql(kRecordDebit, p.tx, p.userId, p.amount, a.now());
    // Release the hold. When there is none (a repeated Confirm), the CHECK
    // refuses the release, and the code shrugs: the money is debited anyway.
    const SqlResult released = co_await a.trySql(kUnfreeze, p.amount, p.userId);
    if (!released.ok && released.outcome != SqlOutcome::CheckViolation)
        throw SqlFailure(released.errorText().toStdString());
    co_await a.commit();
    co_return Reply{Response::Success, said(QT_TRANSLATE_NOOP("idem::Tcc", "debited"))};
}

Task<Reply> Tcc::naiveCancel(Attempt& a) const {
    const Phase p = phaseOf(a);
    // Nothing frozen yet (the Try has not arrived): the CHECK refuses the
    // release, nothing changes, and the Cancel is answered as done.
    const SqlResult released = co_await a.trySql(kUnfreeze, p.amount, p.userId);
    if (!released.ok && released.outcome != SqlOutcome::CheckViolation)
        throw SqlFailure(released.errorText().toStdString());
    co_return Reply{Response::Success,
                    released.ok ? said(QT_TRANSLATE_NOOP("idem::Tcc", "released"))
                                : said(QT_TRANSLATE_NOOP("idem::Tcc", "nothing frozen"))};
}

// --- with the transaction log: each phase a conditional transition ------------

Task<Reply> Tcc::loggedTry(Attempt& a) const {
    const Phase p = phaseOf(a);
    co_await a.begin();
    const SqlResult logged = co_await a.trySql(kLogTry, p.tx, p.userId, p.amount, a.now());
    if (logged.ok) {
        a.transition(p.tx, "", "TRYING", true);
        const SqlResult frozen = co_await a.sql(kFreeze, p.amount, p.userId, p.amount);
        if (frozen.rows == 0) {
            co_await a.rollback();
            co_return Reply{Response::Rejected,
                            said(QT_TRANSLATE_NOOP("idem::Tcc", "insufficient funds"))};
        }
        co_await a.commit();
        co_return Reply{Response::Success, QStringLiteral("TRYING")};
    }
    if (!logged.isUniqueViolation())
        throw SqlFailure(logged.errorText().toStdString());
    const SqlResult row = co_await a.sql(kLogStatus, p.tx);
    co_await a.rollback();
    const QString status = row.value().toString();
    if (status == QLatin1String("CANCELLED")) {
        // 防悬挂: the Cancel came first. Freezing now would hold funds that
        // no phase will ever release.
        a.guard("tcc-log", "anti-hanging", {{"tx_id", p.tx}, {"status", status}});
        a.transition(p.tx, "CANCELLED", "CANCELLED", false);
        co_return Reply{Response::Rejected, status};
    }
    a.guard("tcc-log", "repeat", {{"tx_id", p.tx}, {"status", status}});
    a.transition(p.tx, "", "TRYING", false);
    co_return Reply{Response::Success, status};
}

Task<Reply> Tcc::loggedConfirm(Attempt& a) const {
    const Phase p = phaseOf(a);
    co_await a.begin();
    const bool confirmed =
        co_await transition(a, p.tx, "TRYING", "CONFIRMED", kLogConfirm, bound(a.now(), p.tx));
    if (confirmed) {
        co_await a.sql(kTakeFrozen, p.amount, p.amount, p.userId);
        co_await a.sql(kRecordDebit, p.tx, p.userId, p.amount, a.now());
        co_await a.commit();
        co_return Reply{Response::Success, QStringLiteral("CONFIRMED")};
    }
    // Not TRYING: confirmed before (a repeat: the same answer), or cancelled.
    const SqlResult row = co_await a.sql(kLogStatus, p.tx);
    co_await a.rollback();
    const QString status = row.value().toString();
    a.guard("tcc-log", "repeat", {{"tx_id", p.tx}, {"status", status}});
    co_return Reply{status == QLatin1String("CONFIRMED") ? Response::Success : Response::Rejected,
                    status};
}

Task<Reply> Tcc::loggedCancel(Attempt& a) const {
    const Phase p = phaseOf(a);
    co_await a.begin();
    const bool cancelled =
        co_await transition(a, p.tx, "TRYING", "CANCELLED", kLogCancel, bound(a.now(), p.tx));
    if (cancelled) {
        co_await a.sql(kUnfreeze, p.amount, p.userId);
        co_await a.commit();
        co_return Reply{Response::Success, QStringLiteral("CANCELLED")};
    }
    // 空回滚: no Try has been logged. Record the Cancel, so that a Try
    // arriving later finds it and stays out.
    const SqlResult logged = co_await a.trySql(kLogEmptyCancel, p.tx, p.userId, p.amount, a.now());
    if (logged.ok) {
        a.guard("tcc-log", "empty-rollback", {{"tx_id", p.tx}});
        a.transition(p.tx, "", "CANCELLED", true);
        co_await a.commit();
        co_return Reply{Response::Success, QStringLiteral("CANCELLED")};
    }
    if (!logged.isUniqueViolation())
        throw SqlFailure(logged.errorText().toStdString());
    const SqlResult row = co_await a.sql(kLogStatus, p.tx);
    co_await a.rollback();
    const QString status = row.value().toString();
    a.guard("tcc-log", "repeat", {{"tx_id", p.tx}, {"status", status}});
    co_return Reply{status == QLatin1String("CANCELLED") ? Response::Success : Response::Rejected,
                    status};
}

// --- the judge ------------------------------------------------------------------

Effects Tcc::effects(Reader& db, int intent) const {
    return {{QStringLiteral("debits"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM debits WHERE user_id = ?"),
                      {userOf(intent)})}};
}

std::vector<Effects> Tcc::effectsOfAll(Reader& db, int intents) const {
    std::vector<Effects> all(static_cast<std::size_t>(intents),
                             Effects{{QStringLiteral("debits"), 0}});
    for (const QVariantList& row : db.query(kDebitsPerUser).data) {
        const int intent = intentOfUser(row[0].toLongLong());
        if (intent >= 0 && intent < intents)
            all[std::size_t(intent)][QStringLiteral("debits")] = row[1].toLongLong();
    }
    return all;
}

Effects Tcc::expectedEffects(const RunConfig& config, int) const {
    return {{QStringLiteral("debits"), cancelsBeforeTry(info_, config) ? 0 : 1}};
}

Phrase Tcc::inconsistency(Reader& db, int intent) const {
    return inconsistenciesOfAll(db, intent + 1)[std::size_t(intent)];
}

std::vector<Phrase> Tcc::inconsistenciesOfAll(Reader& db, int intents) const {
    std::vector<Phrase> all(static_cast<std::size_t>(intents));
    for (const QVariantList& row : db.query(kStillFrozen).data) {
        const int intent = intentOfUser(row[0].toLongLong());
        if (intent >= 0 && intent < intents) {
            all[std::size_t(intent)] =
                said(QT_TRANSLATE_NOOP("idem::Tcc",
                                       "%1 still frozen in account %2 after %3 ended: no phase "
                                       "will release it"),
                     {Phrase::number(row[1].toLongLong()), Phrase::number(row[0].toLongLong()),
                      txOf(intent)});
        }
    }
    return all;
}

std::vector<AnswerTruth> Tcc::answerTruthOfAll(Reader& db, int intents) const {
    struct State {
        qint64 debits = 0;
        qint64 frozen = 0;
        QString log;  // empty: no record (or no log at all)
    };
    std::vector<State> states(static_cast<std::size_t>(intents));
    auto stateOf = [&](const QVariant& user) -> State* {
        const int intent = intentOfUser(user.toLongLong());
        return intent >= 0 && intent < intents ? &states[std::size_t(intent)] : nullptr;
    };
    for (const QVariantList& row : db.query(kDebitsPerUser).data) {
        if (State* s = stateOf(row[0]))
            s->debits = row[1].toLongLong();
    }
    for (const QVariantList& row : db.query(kStillFrozen).data) {
        if (State* s = stateOf(row[0]))
            s->frozen = row[1].toLongLong();
    }
    const bool logged = hasLog(db);
    if (logged) {
        for (const QVariantList& row : db.query(kLogPerUser).data) {
            if (State* s = stateOf(row[0]))
                s->log = row[1].toString();
        }
    }
    std::vector<AnswerTruth> all(static_cast<std::size_t>(intents));
    for (int i = 0; i < intents; ++i) {
        const State& s = states[std::size_t(i)];
        const QString tx = txOf(i);
        // What the database holds for the transaction, in one phrase.
        Phrase shows;
        if (s.debits == 1)
            shows = said(QT_TRANSLATE_NOOP("idem::Tcc", "%1 was debited"), {tx});
        else if (s.debits > 1)
            shows = said(QT_TRANSLATE_NOOP("idem::Tcc", "%1 was debited %2 times"),
                         {tx, Phrase::number(s.debits)});
        else if (s.frozen > 0)
            shows = said(QT_TRANSLATE_NOOP("idem::Tcc", "%1 still frozen for %2"),
                         {Phrase::number(s.frozen), tx});
        else
            shows = said(QT_TRANSLATE_NOOP("idem::Tcc", "nothing frozen or debited for %1"), {tx});
        if (!s.log.isEmpty())
            shows = said(QT_TRANSLATE_NOOP("idem::Tcc", "%1; tcc_log says %2"), {shows, s.log});
        AnswerTruth& t = all[std::size_t(i)];
        // The Try reserves the funds: they are still held, or the Confirm
        // took them.
        t.operations.insert(kTry, AnswerTruth{true, s.debits > 0 || s.frozen > 0, {}, shows, {}});
        // The Confirm takes them; with a log, its success names the record's
        // status.
        t.operations.insert(
            kConfirm, AnswerTruth{true,
                                  s.debits > 0,
                                  logged && s.log == QLatin1String("CONFIRMED") ? s.log : Phrase(),
                                  shows,
                                  {}});
        // The Cancel ends the transaction with nothing held and nothing
        // taken; with a log, the record says CANCELLED.
        const bool released =
            s.debits == 0 && s.frozen == 0 && (!logged || s.log == QLatin1String("CANCELLED"));
        t.operations.insert(kCancel,
                            AnswerTruth{true, released, released ? s.log : Phrase(), shows, {}});
    }
    return all;
}

void Tcc::extendSummary(Reader& db, const RunConfig&, QJsonObject& summary) const {
    const SqlResult frozen =
        db.query(QStringLiteral("SELECT COALESCE(SUM(frozen), 0) FROM accounts"));
    summary.insert("accounts", QJsonObject{{"frozen", frozen.value().toLongLong()}});
    if (!hasLog(db))
        return;
    const SqlResult log = db.query(QStringLiteral(R"(SELECT status, COUNT(*)
FROM tcc_log
GROUP BY status
ORDER BY status)"));
    QJsonObject statuses;
    for (const QVariantList& row : log.data)
        statuses.insert(row[0].toString(), row[1].toLongLong());
    summary.insert("tcc_log", statuses);
}

}  // namespace idem
