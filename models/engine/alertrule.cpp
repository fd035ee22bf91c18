#include "alertrule.h"

#include "attempt.h"
#include "authoring.h"
#include "summary.h"

#include <QCoreApplication>

#include <stdexcept>

namespace idem {

QStringList AlertRule::schema() {
    return {
        QStringLiteral(R"(CREATE TABLE duplicate_log (
    id        INTEGER PRIMARY KEY,
    biz_key   TEXT    NOT NULL,
    operation TEXT    NOT NULL,
    seen_at   INTEGER NOT NULL
))"),
        QStringLiteral(
            "CREATE INDEX ix_duplicate_log_window ON duplicate_log (biz_key, operation, seen_at)"),
        QStringLiteral(R"(CREATE TABLE alerts (
    biz_key      TEXT    NOT NULL,
    operation    TEXT    NOT NULL,
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL,
    message      TEXT    NOT NULL,
    raised_at    INTEGER NOT NULL,
    UNIQUE (biz_key, operation, window_start)
))")};
}

namespace {
const QString kLog = QStringLiteral(R"(INSERT INTO duplicate_log (biz_key, operation, seen_at)
VALUES (?, ?, ?))");
const QString kCountWindow = QStringLiteral(R"(SELECT COUNT(*)
FROM duplicate_log
WHERE biz_key = ? AND operation = ?
  AND seen_at >= ? AND seen_at < ?)");
// One alert per key and window: the unique key makes the second raise fail,
// however many duplicates race past the threshold together.
const QString kRaise = QStringLiteral(
    R"(INSERT INTO alerts (biz_key, operation, window_start, count, message, raised_at)
VALUES (?, ?, ?, ?, ?, ?))");
const QString kUpdateCount = QStringLiteral(R"(UPDATE alerts
SET count = ?
WHERE biz_key = ? AND operation = ? AND window_start = ?
  AND count < ?)");
// The repeats logged in the window of this key's latest alert raised up to
// the given instant.
const QString kFinalCount = QStringLiteral(R"(SELECT COUNT(*)
FROM (SELECT biz_key, operation, window_start
      FROM alerts
      WHERE biz_key = ? AND raised_at <= ?
      ORDER BY raised_at DESC
      LIMIT 1) a
JOIN duplicate_log d
  ON d.biz_key = a.biz_key AND d.operation = a.operation
 AND d.seen_at >= a.window_start AND d.seen_at < a.window_start + ?)");
}  // namespace

void AlertRule::completeAlerts(Reader& db, QList<AlertRecord>& alerts, qint64 windowMs) {
    for (AlertRecord& alert : alerts)
        alert.finalCount = db.count(kFinalCount, {alert.key, alert.tMs, windowMs});
}

Task<qint64> AlertRule::logAndCount(Attempt& a, const QString& key, const QString& operation,
                                    qint64 windowStart, qint64 windowMs) {
    const SqlResult logged = co_await a.sql(kLog, key, operation, a.now());
    const SqlResult counted =
        co_await a.sql(kCountWindow, key, operation, windowStart, windowStart + windowMs);
    co_return counted.value().toLongLong();
}

Task<AlertRule::Count> AlertRule::recordDuplicate(Attempt& a, const QString& key) const {
    // Fixed one-minute windows, like a counter keyed by key and minute.
    const qint64 windowStart = a.now() - a.now() % options_.windowMs;
    Count c;
    c.inWindow = co_await logAndCount(a, key, operation_, windowStart, options_.windowMs);
    if (c.inWindow <= options_.threshold) {
        a.guard("alert-rule", "below-threshold",
                {{"key", key}, {"count", c.inWindow}, {"threshold", options_.threshold}});
        co_return c;
    }
    // Stored in English, as an alert log is; shown in the reader's language.
    const Phrase message(
        "idem::AlertRule",
        QT_TRANSLATE_NOOP("idem::AlertRule",
                          "%1: %2 duplicate %3 requests within one minute (threshold %4)"),
        {key, Phrase::number(c.inWindow), operation_, Phrase::number(options_.threshold)});
    const SqlResult raised = co_await a.trySql(kRaise, key, operation_, windowStart, c.inWindow,
                                               message.english(), a.now());
    if (raised.ok) {
        c.raised = true;
        a.guard("alert-rule", "raised", {{"key", key}, {"count", c.inWindow}});
        a.alert(key, c.inWindow, message);
        co_return c;
    }
    if (!raised.isUniqueViolation())
        throw SqlFailure(raised.errorText().toStdString());
    // Already raised in this window: keep its count current, stay quiet.
    co_await a.sql(kUpdateCount, c.inWindow, key, operation_, windowStart, c.inWindow);
    a.guard("alert-rule", "already-raised", {{"key", key}, {"count", c.inWindow}});
    co_return c;
}

Task<qint64> AlertRule::recordRepeat(Attempt& a, const QString& key, const QString& operation,
                                     qint64 windowMs) {
    const qint64 windowStart = a.now() - a.now() % windowMs;
    const qint64 n = co_await logAndCount(a, key, operation, windowStart, windowMs);
    a.guard("alert-rule", "normal-repeat", {{"key", key}, {"operation", operation}, {"count", n}});
    co_return n;
}

}  // namespace idem
