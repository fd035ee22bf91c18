#include "naturalops.h"

#include "attempt.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace idem {

namespace {

// This scenario's sentences, said in English in the summary and the trace
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::NaturalOps", source, std::move(args));
}
// What an operation answers: a number in its words.
const char* const kGone = QT_TRANSLATE_NOOP("idem::NaturalOps", "order %1 is gone");
const char* const kPoints = QT_TRANSLATE_NOOP("idem::NaturalOps", "points %1");
const char* const kBalance = QT_TRANSLATE_NOOP("idem::NaturalOps", "balance %1");
const char* const kOrder = QT_TRANSLATE_NOOP("idem::NaturalOps", "order %1");
const char* const kMessage = QT_TRANSLATE_NOOP("idem::NaturalOps", "message %1");
Phrase counted(const char* source, qint64 n) {
    return said(source, {Phrase::number(n)});
}

// --- the operations, each one statement on the user's rows -----------------
const QString kQuery = QStringLiteral(R"(SELECT id, user_id, status, amount
FROM orders
WHERE id = ?)");
const QString kSetStatus = QStringLiteral(R"(UPDATE orders
SET status = 'DONE'
WHERE id = ?)");
const QString kDeleteById = QStringLiteral("DELETE FROM orders WHERE id = ?");
const QString kAddPoints = QStringLiteral(R"(UPDATE accounts
SET points = points + 10
WHERE user_id = ?
RETURNING points)");
const QString kDeduct = QStringLiteral(R"(UPDATE accounts
SET balance = balance - 100
WHERE user_id = ?
RETURNING balance)");
// MariaDB's UPDATE returns no rows: the new value is read after it, in the
// same transaction.
const QString kAddPointsMariaDb = QStringLiteral(R"(UPDATE accounts
SET points = points + 10
WHERE user_id = ?)");
const QString kDeductMariaDb = QStringLiteral(R"(UPDATE accounts
SET balance = balance - 100
WHERE user_id = ?)");
const QString kPointsOf = QStringLiteral("SELECT points FROM accounts WHERE user_id = ?");
const QString kBalanceOf = QStringLiteral("SELECT balance FROM accounts WHERE user_id = ?");
const QString kInsertOrder = QStringLiteral(R"(INSERT INTO orders (user_id, status, amount)
VALUES (?, 'CREATED', ?)
RETURNING id)");
const QString kNotify = QStringLiteral(R"(INSERT INTO notifications (user_id, body, sent_at)
VALUES (?, ?, ?)
RETURNING id)");

// --- the lab's instruments -----------------------------------------------------
// Everything stored about one user, one row per stored row, so that two
// moments can be compared row by row.
const QString kUserRowsView = QStringLiteral(R"(CREATE VIEW user_rows AS
SELECT user_id, 'orders' AS table_name, id AS row_key,
       json_object('id', id, 'user_id', user_id, 'status', status, 'amount', amount) AS row_image
FROM orders
UNION ALL
SELECT user_id, 'accounts', user_id,
       json_object('user_id', user_id, 'points', points, 'balance', balance)
FROM accounts
UNION ALL
SELECT user_id, 'notifications', id,
       json_object('id', id, 'user_id', user_id, 'body', body, 'sent_at', sent_at)
FROM notifications)");
// One statement: the copy is taken at one instant, right after the first run.
const QString kTakeSnapshot =
    QStringLiteral(R"(INSERT INTO snapshots (intent, table_name, row_key, row_image)
SELECT ?, table_name, row_key, row_image
FROM user_rows
WHERE user_id = ?)");
const QString kRowsNow = QStringLiteral(R"(SELECT table_name, row_key, row_image
FROM user_rows
WHERE user_id = ?
ORDER BY table_name, row_key)");
const QString kRowsAfterOne = QStringLiteral(R"(SELECT table_name, row_key, row_image
FROM snapshots
WHERE intent = ?
ORDER BY table_name, row_key)");

// late-repeat: somebody else changes the order between two runs, and the
// lab notes what they wrote so the judge can tell whether it survived.
const QString kCancel = QStringLiteral(R"(UPDATE orders
SET status = 'CANCELLED'
WHERE id = ?)");
const QString kNoteLaterWrite =
    QStringLiteral(R"(INSERT INTO later_writes (intent, order_id, status, written_at)
VALUES (?, ?, 'CANCELLED', ?))");
const QString kLaterWrites = QStringLiteral(R"(CREATE TABLE later_writes (
    intent     INTEGER NOT NULL,
    order_id   INTEGER NOT NULL,
    status     TEXT    NOT NULL,
    written_at INTEGER NOT NULL
))");
const QString kOverwritten = QStringLiteral(R"(SELECT w.status, w.written_at, o.status
FROM later_writes w
LEFT JOIN orders o ON o.id = w.order_id
WHERE w.intent = ?)");
const QString kLateRepeat = QStringLiteral("late-repeat");
// How long after the other runs the later write lands, and after it the
// late repeat.
constexpr qint64 kLateGapMs = 1'000;

const QString kChanged = QStringLiteral("changed_by_repeats");

bool lateRepeat(const RunConfig& c) {
    return c.variant == QLatin1String("set-status") && c.paramInt(kLateRepeat) == 1;
}

qint64 orderOf(int intent) {
    return 1001 + intent;
}
qint64 userOf(int intent) {
    return 10001 + intent;
}
qint64 amountOf(int intent) {
    return 299 + (intent % 5) * 100;
}

// "table:key" -> the row as JSON text.
QMap<QString, QString> rowsByKey(const SqlResult& r) {
    QMap<QString, QString> rows;
    for (const QVariantList& row : r.data) {
        rows.insert(row[0].toString() + QLatin1Char(':') + row[1].toString(), row[2].toString());
    }
    return rows;
}

QJsonArray rowsOfTable(const SqlResult& r, const QString& table) {
    QJsonArray rows;
    for (const QVariantList& row : r.data) {
        if (row[0].toString() != table)
            continue;
        rows.append(QJsonDocument::fromJson(row[2].toString().toUtf8()).object());
    }
    return rows;
}

// --- the operations ----------------------------------------------------------

Task<Reply> query(Attempt& a) {
    const SqlResult r = co_await a.sql(kQuery, orderOf(a.intent()));
    co_return Reply{Response::Success,
                    r.empty() ? said(QT_TRANSLATE_NOOP("idem::NaturalOps", "not found"))
                              : Phrase(r.value(0, 2).toString())};
}

Task<Reply> setStatus(Attempt& a) {
    co_await a.sql(kSetStatus, orderOf(a.intent()));
    co_return Reply{Response::Success, QStringLiteral("DONE")};
}

Task<Reply> deleteById(Attempt& a) {
    // 1 row the first time, 0 after: a different answer, the same state.
    const qint64 order = orderOf(a.intent());
    co_await a.sql(kDeleteById, order);
    co_return Reply{Response::Success, counted(kGone, order)};
}

// An UPDATE that answers the value it left: RETURNING where the database
// has it, else the UPDATE and a read of the row in one transaction.
Task<qint64> updateReturning(Attempt& a, const QString& returning, const QString& mariaDb,
                             const QString& read) {
    if (a.config().backend != QLatin1String("mariadb")) {
        const SqlResult r = co_await a.sql(returning, userOf(a.intent()));
        co_return r.value().toLongLong();
    }
    co_await a.begin();
    co_await a.sql(mariaDb, userOf(a.intent()));
    const SqlResult r = co_await a.sql(read, userOf(a.intent()));
    co_await a.commit();
    co_return r.value().toLongLong();
}

Task<Reply> increment(Attempt& a) {
    const qint64 points = co_await updateReturning(a, kAddPoints, kAddPointsMariaDb, kPointsOf);
    co_return Reply{Response::Success, counted(kPoints, points)};
}

Task<Reply> deduct(Attempt& a) {
    const qint64 balance = co_await updateReturning(a, kDeduct, kDeductMariaDb, kBalanceOf);
    co_return Reply{Response::Success, counted(kBalance, balance)};
}

Task<Reply> insertNew(Attempt& a) {
    const SqlResult r = co_await a.sql(kInsertOrder, userOf(a.intent()), amountOf(a.intent()));
    co_return Reply{Response::Success, counted(kOrder, r.value().toLongLong())};
}

Task<Reply> sendNotification(Attempt& a) {
    const QString body = QStringLiteral("Your order %1 has shipped").arg(orderOf(a.intent()));
    const SqlResult r = co_await a.sql(kNotify, userOf(a.intent()), body, a.now());
    co_return Reply{Response::Success, counted(kMessage, r.value().toLongLong())};
}

// Each operation, the table it works on (for the side-by-side view), what it
// does, and whether the business accepts its repeats (接受代价).
struct Operation {
    const char* id;
    const char* table;
    const char* summary;
    Task<Reply> (*run)(Attempt&);
    bool repeatsAccepted = false;
};
const Operation kOperations[] = {
    {"query", "orders", "SELECT the order by id", query},
    {"set-status", "orders", "UPDATE orders SET status = 'DONE' WHERE id = ?", setStatus},
    {"delete-by-id", "orders", "DELETE FROM orders WHERE id = ?", deleteById},
    {"increment", "accounts", "UPDATE accounts SET points = points + 10", increment},
    {"deduct", "accounts", "UPDATE accounts SET balance = balance - 100", deduct},
    {"insert-new", "orders", "INSERT a new order with a generated id", insertNew},
    // A second "your order has shipped" is a nuisance the business accepts
    // rather than risk sending none (the article's 可接受重复通知).
    {"send-notification", "notifications", "send the user a message (one notifications row each)",
     sendNotification, true},
};

QString tableOf(const QString& op) {
    for (const Operation& o : kOperations) {
        if (op == QLatin1String(o.id))
            return QString::fromLatin1(o.table);
    }
    return {};
}

}  // namespace

NaturalOps::NaturalOps() {
    info_.id = QStringLiteral("natural-ops");
    info_.group = ScenarioGroup::Natural;
    info_.title = QStringLiteral("Naturally idempotent operations");
    for (const Operation& o : kOperations) {
        info_.variants << VariantInfo{
            .id = QString::fromLatin1(o.id),
            .summary = QString::fromLatin1(o.summary),
            .handle = o.run,
            .toleratedEffects = o.repeatsAccepted ? QStringList{kChanged} : QStringList{}};
    }
    info_.sources = {Source::GatewayRetry,    Source::DoubleClick, Source::MqRedelivery,
                     Source::ProducerResend,  Source::TaskRerun,   Source::DownstreamTimeout,
                     Source::ProviderCallback};
    info_.defaultTiming = Timing::Retry;
    info_.params = {{kLateRepeat,
                     "0",
                     {"0", "1"},
                     0,
                     0,
                     "1: set-status's last repeat arrives after another write changed the order"}};
    info_.tables = {"orders", "accounts", "notifications", "snapshots"};
    info_.lanes = {"client", "gateway", "provider", "scheduler", "service", "broker", "observer"};
    // The observer copies the rows after one application into snapshots: the
    // lab's measuring, not part of any operation.
    info_.internalLanes = {"observer"};
    info_.internalTables = {"snapshots"};
    info_.words = {
        .actors = {{"observer", said(QT_TRANSLATE_NOOP("idem::NaturalOps", "observer"))},
                   {"writer", said(QT_TRANSLATE_NOOP("idem::NaturalOps", "writer"))}},
        .notes = {{"snapshot",
                   said(QT_TRANSLATE_NOOP("idem::NaturalOps", "snapshot")),
                   said(QT_TRANSLATE_NOOP("idem::NaturalOps",
                                          "The state after one application is recorded (%1 "
                                          "row(s)), to compare with the state after all "
                                          "repeats.")),
                   {NoteArg::field("rows")}}},
        .params = {{kLateRepeat, said(QT_TRANSLATE_NOOP("idem::NaturalOps", "Late repeat")),
                    said(QT_TRANSLATE_NOOP("idem::NaturalOps",
                                           "On: the last repeat of set-status arrives after "
                                           "another write changed the order"))}},
    };
    info_.effectTable = "orders";
    info_.effectNames = {kChanged};
    info_.schema = {
        QStringLiteral(R"(CREATE TABLE orders (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    status  TEXT    NOT NULL,
    amount  INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE accounts (
    user_id INTEGER PRIMARY KEY,
    points  INTEGER NOT NULL,
    balance INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE notifications (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    body    TEXT    NOT NULL,
    sent_at INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE snapshots (
    intent     INTEGER NOT NULL,
    table_name TEXT    NOT NULL,
    row_key    INTEGER NOT NULL,
    row_image  TEXT    NOT NULL
))"),
        kUserRowsView,
    };
}

QStringList NaturalOps::schema(const RunConfig& config) const {
    QStringList s = Scenario::schema(config);
    if (lateRepeat(config))
        s << kLaterWrites;
    return s;
}

void NaturalOps::seed(Setup& setup, int intent) const {
    setup.exec(QStringLiteral(R"(INSERT INTO orders (id, user_id, status, amount)
VALUES (?, ?, 'CREATED', ?))"),
               {orderOf(intent), userOf(intent), amountOf(intent)}, intent);
    setup.exec(QStringLiteral(R"(INSERT INTO accounts (user_id, points, balance)
VALUES (?, 100, 5000))"),
               {userOf(intent)}, intent);
}

// The original and its repeats as the timing says; right behind the first
// run to start, the lab's observer copies the user's rows. Every operation
// is one statement and statements at one instant run in the order their
// processes started, so the copy sees exactly one run, even under
// `concurrent`.
//
// With late-repeat (set-status, at least one repeat), a writer cancels the
// order after every other run, and the last repeat only arrives after that.
void NaturalOps::plan(Planner& planner, int intent) const {
    std::vector<AttemptSpec> specs = planner.defaultSpecs(intent);
    if (lateRepeat(planner.config()) && specs.size() > 1) {
        qint64 othersDone = 0;
        for (std::size_t i = 0; i + 1 < specs.size(); ++i)
            othersDone = std::max(othersDone, specs[i].at);
        AttemptSpec writer;
        writer.intent = intent;
        writer.at = othersDone + kLateGapMs;
        writer.actor = QStringLiteral("writer");
        writer.kind = QStringLiteral("later-write");
        writer.counted = false;
        planner.fire(writer);
        specs.back().at = std::max(specs.back().at, writer.at + kLateGapMs);
    }
    AttemptSpec snapshot;
    snapshot.intent = intent;
    snapshot.at = specs.front().at;
    snapshot.actor = QStringLiteral("observer");
    snapshot.kind = QStringLiteral("snapshot");
    snapshot.counted = false;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        planner.fire(specs[i]);
        if (i == 0)
            planner.fire(snapshot);
    }
}

Task<Reply> NaturalOps::handle(Attempt& a) const {
    // The lab's observer copies the rows; every other process is an operation.
    if (a.kind() == QLatin1String("snapshot"))
        return takeSnapshot(a);
    if (a.kind() == QLatin1String("later-write"))
        return writeLater(a);
    return a.variant().handle(a);
}

// Another request (the user cancels the order) changes the row; the lab
// notes what it wrote.
Task<Reply> NaturalOps::writeLater(Attempt& a) const {
    co_await a.begin();
    co_await a.sql(kCancel, orderOf(a.intent()));
    co_await a.sql(kNoteLaterWrite, a.intent(), orderOf(a.intent()), a.arrivedAt());
    co_await a.commit();
    co_return Reply{Response::Success, QStringLiteral("CANCELLED")};
}

Task<Reply> NaturalOps::takeSnapshot(Attempt& a) const {
    const SqlResult r = co_await a.sql(kTakeSnapshot, a.intent(), userOf(a.intent()));
    a.note(QStringLiteral("snapshot"), {{"taken", "after_one"}, {"rows", r.rows}});
    co_return Reply{Response::Success, {}};
}

// Rows of the user that differ between the copy after the first run and now:
// changed, added or gone.
Effects NaturalOps::effects(Reader& db, int intent) const {
    const QMap<QString, QString> afterOne = rowsByKey(db.query(kRowsAfterOne, {intent}));
    const QMap<QString, QString> afterAll = rowsByKey(db.query(kRowsNow, {userOf(intent)}));
    qint64 changed = 0;
    for (auto it = afterAll.cbegin(); it != afterAll.cend(); ++it) {
        if (afterOne.value(it.key()) != it.value())
            ++changed;
    }
    for (auto it = afterOne.cbegin(); it != afterOne.cend(); ++it) {
        if (!afterAll.contains(it.key()))
            ++changed;
    }
    return {{kChanged, changed}};
}

Effects NaturalOps::expectedEffects(const RunConfig&, int) const {
    return {{kChanged, 0}};
}

// A repeat that brings back the state of one run can still be wrong: it
// undid a write that came after the first run.
Phrase NaturalOps::inconsistency(Reader& db, int intent) const {
    if (!db.hasTable(QStringLiteral("later_writes")))
        return {};
    const SqlResult w = db.query(kOverwritten, {intent});
    if (w.empty() || w.value(0, 0) == w.value(0, 2))
        return {};
    return said(QT_TRANSLATE_NOOP("idem::NaturalOps",
                                  "order %1: the later write %2 (at %3 ms) was overwritten by a "
                                  "late repeat; the order is %4 again"),
                {Phrase::number(orderOf(intent)), w.value(0, 0).toString(),
                 Phrase::number(w.value(0, 1).toLongLong()), w.value(0, 2).toString()});
}

void NaturalOps::extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const {
    const QString table = tableOf(config.variant);
    summary.insert("table", table);
    summary.insert("after_one", rowsOfTable(db.query(kRowsAfterOne, {0}), table));
    summary.insert("after_all", rowsOfTable(db.query(kRowsNow, {userOf(0)}), table));
}

}  // namespace idem
