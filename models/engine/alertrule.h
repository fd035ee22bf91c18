// An alert rule for duplicates: every duplicate of a business key is logged in
// the database, counted per one-minute window, and when one key passes the
// threshold in a window, exactly one alert is raised for it. Idempotency
// answers the duplicate; this rule makes sure somebody hears about the burst.
#pragma once

#include "task.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace idem {

class Attempt;
class Reader;
struct AlertRecord;

class AlertRule {
public:
    struct Options {
        qint64 threshold = 5;  // more than this many in one window raises the alert
        qint64 windowMs = 60'000;
    };
    struct Count {
        qint64 inWindow = 0;  // this key's logged repeats in the current window
        bool raised = false;  // this call raised the window's alert
    };

    static QStringList schema();  // CREATE TABLE duplicate_log, alerts

    // `operation` names what is repeated ("pay"): only its rows count.
    AlertRule(QString operation, Options options)
        : operation_(std::move(operation)), options_(options) {}

    // Logs one duplicate of `key`, counts the window, and raises the alert
    // when the count passes the threshold and no one has raised it yet.
    Task<Count> recordDuplicate(Attempt& a, const QString& key) const;
    // Logs a repeat that is normal, such as a query: it is counted under its
    // own operation and never alerts.
    static Task<qint64> recordRepeat(Attempt& a, const QString& key, const QString& operation,
                                     qint64 windowMs);
    // Fills each alert's final count: the repeats its key's window held at
    // the end of the run.
    static void completeAlerts(Reader& db, QList<AlertRecord>& alerts, qint64 windowMs);

private:
    static Task<qint64> logAndCount(Attempt& a, const QString& key, const QString& operation,
                                    qint64 windowStart, qint64 windowMs);

    QString operation_;
    Options options_;
};

}  // namespace idem
