#include "ttlwindow.h"

#include "attempt.h"
#include "dedupguard.h"
#include "ttlguard.h"

#include <QCoreApplication>

namespace idem {

namespace {

// This scenario's words, said in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::TtlWindow", source, std::move(args));
}

const QString kCredit =
    QStringLiteral(R"(INSERT INTO points_ledger (order_id, user_id, points, created_at)
VALUES (?, ?, ?, ?)
RETURNING id)");

QString orderOf(int intent) {
    return QStringLiteral("O%1").arg(70000001 + intent);
}
qint64 userOf(int intent) {
    return 40001 + intent;
}
qint64 pointsOf(int intent) {
    return 100 + (intent % 5) * 20;
}
// The message names the business event, so the key is the order, not the
// delivery: a redelivery and a compensation both carry it.
QString keyOf(int intent) {
    return QStringLiteral("points:%1").arg(orderOf(intent));
}

qint64 secondsParam(const RunConfig& c, const char* key, qint64 fallbackMs) {
    const QString k = QLatin1String(key);
    return c.params.contains(k) ? c.params.value(k).toLongLong() * 1'000 : fallbackMs;
}

}  // namespace

qint64 TtlWindow::ttlMs(const RunConfig& config) {
    return secondsParam(config, "ttl-s", config.ttlMs);
}

qint64 TtlWindow::retentionMs(const RunConfig& config) {
    return secondsParam(config, "retention-s", config.retentionMs);
}

TtlWindow::TtlWindow() {
    info_.id = QStringLiteral("ttl-window");
    info_.group = ScenarioGroup::Misconception;
    info_.title = QStringLiteral("Short TTL dedup against late duplicates");
    // The guard's table first, then the ledger, as a reader meets them.
    const QString ledger = QStringLiteral(R"(CREATE TABLE points_ledger (
    id         INTEGER PRIMARY KEY,
    order_id   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))");
    info_.variants = {
        {.id = "ttl-cache",
         .summary = "a key with expiry (SET key NX EX ttl), 60 s by default",
         .handle = [this](Attempt& a) { return withTtlKey(a); },
         .schema = {TtlGuard::schema(), ledger},
         .redis = true},
        {.id = "dedup-table",
         .recommended = true,
         .summary = "a dedup table whose rows are kept 7 days by default",
         .handle = [this](Attempt& a) { return withDedupTable(a); },
         .schema = {DedupGuard::schema(), ledger}},
    };
    info_.sources = {Source::MqRedelivery, Source::GatewayRetry};
    info_.defaultTiming = Timing::Compensation;
    info_.params = {
        {"ttl-s",
         "60",
         {},
         1,
         30LL * 24 * 3'600,
         "TTL of the cache key in seconds (ttl-cache)",
         "ttl-ms"},
        {"retention-s",
         "604800",
         {},
         1,
         300LL * 24 * 3'600,
         "how long dedup rows are kept, in seconds (dedup-table)",
         "retention-ms"},
    };
    info_.tables = {"ttl_keys", "dedup", "points_ledger"};
    info_.guardTable = "ttl_keys";
    info_.lanes = {"gateway", "service", "broker"};
    info_.baseline = "ttl-cache";
    info_.effectTable = "points_ledger";
    info_.effectNames = {"points"};
    info_.stateMachine = {
        "dedup record",
        {{"", "", 0, 1}, {"PROCESSING", "处理中", 2, 1}, {"SUCCESS", "成功", 4, 1}},
        {{"", "PROCESSING"}, {"PROCESSING", "PROCESSING"}, {"PROCESSING", "SUCCESS"}},
        {"dedup-table"}};
    info_.stateMachine.stateQuery = QStringLiteral("SELECT biz_id, status FROM dedup");
    info_.words = {
        // --redis: the late duplicate waits until Redis itself has let the key go.
        .notes = {{"redis",
                   said(QT_TRANSLATE_NOOP("idem::TtlWindow", "Redis")),
                   said(QT_TRANSLATE_NOOP("idem::TtlWindow",
                                          "%1 asks Redis until it reports the key gone (%2 "
                                          "answers %3): the TTL has run out, and nothing "
                                          "remembers the first request any more.")),
                   {NoteArg::who(), NoteArg::field("command"), NoteArg::field("reply")},
                   "cause"}},
        .params = {{"ttl-s", said(QT_TRANSLATE_NOOP("idem::TtlWindow", "TTL (s)")),
                    said(QT_TRANSLATE_NOOP("idem::TtlWindow",
                                           "How long the cache key lives, in seconds (TTL "
                                           "cache)"))},
                   {"retention-s", said(QT_TRANSLATE_NOOP("idem::TtlWindow", "Retention (s)")),
                    said(QT_TRANSLATE_NOOP("idem::TtlWindow",
                                           "How long dedup rows are kept, in seconds (dedup "
                                           "table)"))}},
        .entity = said(QT_TRANSLATE_NOOP("idem::TtlWindow", "dedup record")),
    };
}

Task<QString> TtlWindow::creditPoints(Attempt& a) const {
    const int intent = a.intent();
    const SqlResult r =
        co_await a.sql(kCredit, orderOf(intent), userOf(intent), pointsOf(intent), a.now());
    co_return r.value().toString();
}

Task<Reply> TtlWindow::withTtlKey(Attempt& a) const {
    const TtlGuard ttl(ttlMs(a.config()));
    const QString key = keyOf(a.intent());

    // SET key NX EX ttl: a live key means this event was seen recently.
    const TtlGuard::Claim claim = co_await ttl.setIfAbsent(a, key);
    if (claim.outcome == TtlGuard::Outcome::Done)
        co_return Reply{Response::Success, claim.result};
    if (claim.outcome == TtlGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};

    // Once the key has expired, nothing remembers the first credit.
    const QString ledgerId = co_await creditPoints(a);
    co_await ttl.storeResult(a, key, ledgerId);
    co_return Reply{Response::Success, ledgerId};
}

Task<Reply> TtlWindow::withDedupTable(Attempt& a) const {
    const RunConfig& c = a.config();
    const DedupGuard dedup(QStringLiteral("points"),
                           DedupGuard::Options{true, c.expiryMs, retentionMs(c)});
    const QString key = orderOf(a.intent());

    const DedupGuard::Claim claim = co_await dedup.claim(a, key);
    if (claim.outcome == DedupGuard::Outcome::Done)
        co_return Reply{Response::Success, claim.result};
    if (claim.outcome == DedupGuard::Outcome::InProgress)
        co_return Reply{Response::InProgress, {}};

    // Claimed (or taken over, which needs a holder older than the in-progress
    // expiry: no process here dies or stalls that long).
    const QString ledgerId = co_await creditPoints(a);
    co_await dedup.markSuccess(a, key, ledgerId);
    co_return Reply{Response::Success, ledgerId};
}

Effects TtlWindow::effects(Reader& db, int intent) const {
    return {{QStringLiteral("points"),
             db.count(QStringLiteral("SELECT COUNT(*) FROM points_ledger WHERE order_id = ?"),
                      {orderOf(intent)})}};
}

}  // namespace idem
