// Every cell of SPEC section 3's tcc table (seeds 1-5, duplicates 1-3, every
// timing), and what the log and the accounts must show: the empty rollback
// recorded as CANCELLED, the late Try refused, nothing left frozen.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

using test::finishedRun;

RunConfig config(const QString& variant, const QStringList& params, int duplicates, quint32 seed) {
    Cell cell{variant, "retry", "", params, duplicates, duplicates, {}};
    return test::cellConfig(QStringLiteral("tcc"), cell, duplicates, seed);
}

QStringList guardDecisions(const Run& run) {
    QStringList out;
    for (const TraceEvent& e : run.trace().events()) {
        if (e.is(EventKind::Guard))
            out << QString::number(e.attempt) + QLatin1Char(':') + e.fields.text("decision");
    }
    return out;
}

}  // namespace

class TccTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void emptyRollbackThenAntiHanging();
    void naiveLateTryFreezesForGood();
    void repeatedConfirmAnswersTheSameResult();
    void cancelBeforeTryArrivesInThatOrder();
};

void TccTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* confirmRepeated;
        const char* cancelBeforeTry;
    };
    const Row rows[] = {
        {"naive", "duplicated", "inconsistent"},
        {"tcc-log", "exactly-once", "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        for (const char* t : {"concurrent", "retry", "compensation", "cross-day"}) {
            // Confirm repeated: resent after timeouts (duplicates), or driven
            // again by the coordinator (confirm-retries), or both.
            cells << Cell{r.variant, t, "", {}, 1, 3, r.confirmRepeated};
            cells << Cell{r.variant, t, "", {"confirm-retries=2"}, 0, 3, r.confirmRepeated};
            cells << Cell{r.variant, t, "", {"cancel-before-try=1"}, 1, 3, r.cancelBeforeTry};
        }
        // One Try, one Confirm: nothing to get wrong.
        cells << Cell{r.variant, "retry", "", {}, 0, 0, "exactly-once"};
    }
    // A Cancel that comes alone is still an empty rollback for naive.
    cells << Cell{"naive", "retry", "", {"cancel-before-try=1"}, 0, 0, "inconsistent"};
    cells << Cell{"tcc-log", "retry", "", {"cancel-before-try=1"}, 0, 0, "exactly-once"};
    test::addCellRows("tcc", cells);
}

void TccTest::emptyRollbackThenAntiHanging() {
    for (quint32 seed = 1; seed <= 5; ++seed) {
        for (int d = 0; d <= 3; ++d) {
            auto run = finishedRun(config("tcc-log", {"cancel-before-try=1"}, d, seed));
            QVERIFY(run);
            const QStringList guards = guardDecisions(*run);
            QCOMPARE(guards.count(QStringLiteral("2:empty-rollback")), 1);
            QCOMPARE(guards.count(QStringLiteral("1:anti-hanging")), 1);
            auto db = run->openReader();
            Reader reader(*db);
            QCOMPARE(reader.query(QStringLiteral("SELECT status FROM tcc_log")).value().toString(),
                     QStringLiteral("CANCELLED"));
            QCOMPARE(reader.count(QStringLiteral("SELECT frozen FROM accounts")), 0);
            QCOMPARE(reader.count(QStringLiteral("SELECT COUNT(*) FROM debits")), 0);
            // Every Cancel was answered success; the late Try was refused.
            QCOMPARE(run->summary().responseCount(Response::Success), d + 1);
            QCOMPARE(run->summary().responseCount(Response::Rejected), 1);
            QCOMPARE(run->summary().extras.value("tcc_log").toObject().value("CANCELLED").toInt(),
                     1);
        }
    }
}

void TccTest::naiveLateTryFreezesForGood() {
    auto run = finishedRun(config("naive", {"cancel-before-try=1"}, 2, 1));
    QVERIFY(run);
    int refusedByCheck = 0;
    for (const TraceEvent& e : run->trace().events()) {
        if (e.is(EventKind::Sql) && e.failed() && e.code == sqlite::ConstraintCheck)
            ++refusedByCheck;
    }
    QCOMPARE(refusedByCheck, 3);  // every Cancel found nothing to release
    QCOMPARE(run->summary().extras.value("accounts").toObject().value("frozen").toInt(), 300);
    QVERIFY(!run->summary().extras.contains("tcc_log"));
}

void TccTest::repeatedConfirmAnswersTheSameResult() {
    for (const char* timing : {"concurrent", "retry"}) {
        Cell cell{"tcc-log", timing, "", {"confirm-retries=1"}, 2, 2, {}};
        auto run = finishedRun(test::cellConfig("tcc", cell, 2, 4));
        QVERIFY(run);
        QCOMPARE(run->summary().responseCount(Response::Success), 1 + 4);
        QCOMPARE(guardDecisions(*run).size(), 3);  // the three repeats
        auto db = run->openReader();
        Reader reader(*db);
        QCOMPARE(reader.count(QStringLiteral("SELECT balance FROM accounts")), 10'000 - 300);
        QCOMPARE(reader.count(QStringLiteral("SELECT frozen FROM accounts")), 0);
    }
}

void TccTest::cancelBeforeTryArrivesInThatOrder() {
    auto run = finishedRun(config("tcc-log", {"cancel-before-try=1"}, 1, 1));
    QVERIFY(run);
    QStringList arrivals;
    for (const TraceEvent& e : run->trace().events()) {
        if (e.is(EventKind::Fire) && e.fields.text("receiver") == QLatin1String("participant"))
            arrivals << e.fields.value("payload").toMap().value("op").toString();
    }
    QCOMPARE(arrivals, (QStringList{"Cancel", "Cancel", "Try"}));
}

QTEST_GUILESS_MAIN(TccTest)
#include "tcc_test.moc"
