// Every cell of the duplicate-alert misconception (误区四) for seeds 1-5 and
// duplicates 1-3 plus the burst of 100, and the alert rule itself: one alert
// naming the key and the count, none when silent, none below the threshold,
// none for repeated queries.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

class DuplicateAlertTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void hundredConcurrentDuplicatesRaiseOneAlert();
    void silentNeverAlerts();
    void onlyMoreThanTheThresholdAlerts();
    void queriesNeverAlert();
    void thresholdParamRaisesTheBar();

private:
    std::unique_ptr<Run> run(const QString& variant, int duplicates, quint32 seed,
                             const QStringList& params = {});
    static int alertEvents(const Run& r);
};

std::unique_ptr<Run> DuplicateAlertTest::run(const QString& variant, int duplicates, quint32 seed,
                                             const QStringList& params) {
    Cell cell{variant, "concurrent", "", params, duplicates, duplicates, ""};
    auto r = std::make_unique<Run>(test::cellConfig("duplicate-alert", cell, duplicates, seed),
                                   *findScenario("duplicate-alert"));
    QString error;
    if (!r->start(&error))
        qFatal("%s", qPrintable(error));
    r->runToEnd();
    test::finish(*r);
    return r;
}

int DuplicateAlertTest::alertEvents(const Run& r) {
    int n = 0;
    for (const TraceEvent& e : r.trace().events()) n += e.is(EventKind::Alert);
    return n;
}

void DuplicateAlertTest::truthTable_data() {
    QList<Cell> cells;
    for (const char* source : {"double-click", "gateway-retry"}) {
        for (const char* variant : {"silent", "alerting"}) {
            for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
                cells << Cell{variant, t, "", {}, 1, 3, "exactly-once", source};
            }
            cells << Cell{variant, "concurrent", "", {}, 100, 100, "exactly-once", source};
            cells << Cell{variant, "concurrent",   "",    {"queries=50"}, 100,
                          100,     "exactly-once", source};
        }
    }
    test::addCellRows("duplicate-alert", cells);
}

void DuplicateAlertTest::hundredConcurrentDuplicatesRaiseOneAlert() {
    const QString key = QStringLiteral("PAY90000001");  // the first intent's payment number
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto r = run("alerting", 100, seed);
        const Summary summary = r->summary();
        const QByteArray dump = QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact);
        QCOMPARE(summary.verdictId(), QStringLiteral("exactly-once"));
        QCOMPARE(summary.responseCount(Response::Success), 101);
        const QList<AlertRecord> alerts = summary.alerts;
        QVERIFY2(alerts.size() == 1, dump.constData());
        const AlertRecord& alert = alerts.first();
        QCOMPARE(alert.key, key);
        const qint64 count = alert.count;
        QVERIFY2(count > 5 && count <= 100, dump.constData());
        // All 100 are logged before the first check counts, so the rule
        // fires well past the threshold; the final count is all of them.
        QVERIFY2(alert.finalCount == 100 && count <= alert.finalCount, dump.constData());
        QCOMPARE(summary.toJson()
                     .value("alerts")
                     .toArray()
                     .first()
                     .toObject()
                     .value("final_count")
                     .toInteger(),
                 100);
        const QString message = alert.message.english();
        QVERIFY2(message.contains(key) && message.contains(QString::number(count)),
                 qPrintable(message));
        QCOMPARE(alertEvents(*r), 1);
        // The database holds the one alert, its count brought up to date.
        auto db = r->openReader();
        Reader reader(*db);
        const SqlResult rows = reader.query(QStringLiteral("SELECT biz_key, count FROM alerts"));
        QCOMPARE(rows.data.size(), 1);
        QCOMPARE(rows.value(0, 0).toString(), key);
        QCOMPARE(rows.value(0, 1).toLongLong(), 100);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM payments")), 1);
    }
}

void DuplicateAlertTest::silentNeverAlerts() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto r = run("silent", 100, seed);
        QCOMPARE(r->summary().verdictId(), QStringLiteral("exactly-once"));
        QCOMPARE(r->summary().responseCount(Response::Success), 101);
        QVERIFY(r->summary().alerts.isEmpty());
        QCOMPARE(alertEvents(*r), 0);
    }
}

void DuplicateAlertTest::onlyMoreThanTheThresholdAlerts() {
    // threshold 5: five duplicates stay quiet, the sixth alerts.
    for (quint32 seed = 1; seed <= 5; ++seed) {
        for (int d = 1; d <= 5; ++d) {
            auto r = run("alerting", d, seed);
            QVERIFY(r->summary().alerts.isEmpty());
        }
        auto r = run("alerting", 6, seed);
        const QList<AlertRecord> alerts = r->summary().alerts;
        QCOMPARE(alerts.size(), 1);
        QCOMPARE(alerts.first().count, 6);
        QCOMPARE(alerts.first().finalCount, 6);
    }
}

void DuplicateAlertTest::queriesNeverAlert() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        // 200 queries of one payment within the minute, two duplicate payments.
        auto quiet = run("alerting", 2, seed, {"queries=200"});
        QVERIFY(quiet->summary().alerts.isEmpty());
        const QJsonObject logged = quiet->summary().extras.value("duplicate_log").toObject();
        QCOMPARE(logged.value("query").toInteger(), 200);
        QCOMPARE(logged.value("pay").toInteger(), 2);
        QCOMPARE(quiet->summary().responseCount(Response::Success), 203);

        // A burst of payments still alerts once, and the queries are not in its count.
        auto burst = run("alerting", 100, seed, {"queries=50"});
        const QList<AlertRecord> alerts = burst->summary().alerts;
        QCOMPARE(alerts.size(), 1);
        QVERIFY(alerts.first().count <= 100);
        auto db = burst->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT count FROM alerts")), 100);
        QCOMPARE(
            reader.count(QStringLiteral("SELECT COUNT(*) FROM alerts WHERE operation = 'query'")),
            0);
    }
}

void DuplicateAlertTest::thresholdParamRaisesTheBar() {
    auto r = run("alerting", 100, 1, {"threshold=200"});
    QVERIFY(r->summary().alerts.isEmpty());
    auto low = run("alerting", 2, 1, {"threshold=1"});
    QCOMPARE(low->summary().alerts.size(), 1);
}

QTEST_GUILESS_MAIN(DuplicateAlertTest)
#include "duplicatealert_test.moc"
