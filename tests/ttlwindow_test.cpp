// Every cell of the TTL-window misconception (误区三) for seeds 1-5 and
// duplicates 1-3, and the TTL key's Redis semantics: a live key stops a
// duplicate, an expired one counts as absent.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

class TtlWindowTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void expiredKeyCountsAsAbsent();
    void liveKeyAnswersWithTheFirstResult();
    void retentionComesFromTheParamOrTheFlag();

private:
    std::unique_ptr<Run> run(const Cell& cell, int duplicates, quint32 seed);
};

std::unique_ptr<Run> TtlWindowTest::run(const Cell& cell, int duplicates, quint32 seed) {
    return test::finishedRun("ttl-window", cell, duplicates, seed);
}

void TtlWindowTest::truthTable_data() {
    QList<Cell> cells;
    struct Row {
        const char* variant;
        QStringList params;
        const char* concurrent;
        const char* retry;
        const char* compensation;
        const char* crossDay;
    };
    const Row rows[] = {
        {"ttl-cache", {}, "exactly-once", "exactly-once", "duplicated", "duplicated"},
        {"dedup-table", {}, "exactly-once", "exactly-once", "exactly-once", "exactly-once"},
        // Retention shorter than the interval: the record is gone in time.
        {"dedup-table",
         {"retention-s=60"},
         "exactly-once",
         "exactly-once",
         "duplicated",
         "duplicated"},
        // A TTL longer than the window (30 min of compensations) holds there.
        {"ttl-cache", {"ttl-s=3600"}, "exactly-once", "exactly-once", "exactly-once", "duplicated"},
    };
    for (const char* source : {"mq-redelivery", "gateway-retry"}) {
        for (const Row& r : rows) {
            cells << Cell{r.variant, "concurrent", "", r.params, 1, 3, r.concurrent, source};
            cells << Cell{r.variant, "retry", "", r.params, 1, 3, r.retry, source};
            cells << Cell{r.variant, "compensation", "", r.params, 1, 3, r.compensation, source};
            cells << Cell{r.variant, "cross-day", "", r.params, 1, 3, r.crossDay, source};
        }
    }
    test::addCellRows("ttl-window", cells);
}

void TtlWindowTest::expiredKeyCountsAsAbsent() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto r = run(Cell{"ttl-cache", "compensation", "", {}, 2, 2, ""}, 2, seed);
        // Every delivery, 10 minutes apart, finds the 60 s key expired and sets it anew.
        QList<qint64> setAt, expiresAt;
        for (const TraceEvent& e : r->trace().events()) {
            if (!e.is(EventKind::Guard) || e.fields.value("guard") != QLatin1String("ttl-key")) {
                continue;
            }
            if (e.fields.value("decision") == QLatin1String("set")) {
                setAt << e.tMs;
                expiresAt << e.fields.value("expires_at").toLongLong();
                QCOMPARE(e.fields.value("ttl_ms").toLongLong(), 60'000);
            }
        }
        QCOMPARE(setAt.size(), 3);
        for (int i = 1; i < setAt.size(); ++i) QVERIFY(setAt[i] >= expiresAt[i - 1]);
        auto db = r->openReader();
        Reader reader(*db);
        // One key, overwritten in place; three credits.
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM ttl_keys")), 1);
        QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM points_ledger")), 3);
    }
}

void TtlWindowTest::liveKeyAnswersWithTheFirstResult() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        auto r = run(Cell{"ttl-cache", "retry", "", {}, 3, 3, ""}, 3, seed);
        QStringList results;
        int duplicates = 0;
        for (const TraceEvent& e : r->trace().events()) {
            if (e.is(EventKind::Response))
                results << e.fields.value("result").toString();
            if (e.is(EventKind::Guard) &&
                e.fields.value("decision") == QLatin1String("duplicate")) {
                ++duplicates;
                QVERIFY(e.fields.value("left_ms").toLongLong() > 0);
            }
        }
        QCOMPARE(duplicates, 3);
        QCOMPARE(results.size(), 4);
        for (const QString& result : results) QCOMPARE(result, results.first());
    }
}

void TtlWindowTest::retentionComesFromTheParamOrTheFlag() {
    // --retention-ms alone shortens the window as well as --param retention-s.
    Cell cell{"dedup-table", "compensation", "", {}, 2, 2, "duplicated"};
    RunConfig c = test::cellConfig("ttl-window", cell, 2, 1);
    c.retentionMs = 60'000;
    QCOMPARE(test::runToSummary(c).verdictId(), QStringLiteral("duplicated"));
    // The param wins over the flag.
    c.params.insert("retention-s", "86400");
    QCOMPARE(test::runToSummary(c).verdictId(), QStringLiteral("exactly-once"));
    // And the same for the TTL.
    Cell ttl{"ttl-cache", "compensation", "", {}, 2, 2, "exactly-once"};
    RunConfig t = test::cellConfig("ttl-window", ttl, 2, 1);
    t.ttlMs = 3'600'000;
    QCOMPARE(test::runToSummary(t).verdictId(), QStringLiteral("exactly-once"));
}

QTEST_GUILESS_MAIN(TtlWindowTest)
#include "ttlwindow_test.moc"
