// Every cell of SPEC section 3's tcc table (seeds 1-20, duplicates 1-3, every
// timing), and what the log and the accounts must show: the empty rollback
// recorded as CANCELLED, the late Try refused, nothing left frozen; and each
// phase's answer held against them.
#include "authoring.h"
#include "registry.h"
#include "run.h"
#include "sqliteconnection.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
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
    void naiveCancelIsToldDoneWhileTheLateTryHolds();
    void everyPhaseIsAnsweredTruly();
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
    test::addCellRows("tcc", cells, 20);
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

void TccTest::naiveCancelIsToldDoneWhileTheLateTryHolds() {
    // The naive Cancel finds nothing frozen and answers success; the late
    // Try then freezes the funds. The coordinator believes the transaction
    // rolled back while the account holds the money: every Cancel's answer
    // is wrong. The intent is inconsistent, which outranks misanswered.
    for (quint32 seed = 1; seed <= 20; ++seed) {
        for (int d = 0; d <= 3; ++d) {
            auto run = finishedRun(config("naive", {"cancel-before-try=1"}, d, seed));
            QVERIFY(run);
            const Summary& s = run->summary();
            QCOMPARE(s.verdictId(), QStringLiteral("inconsistent"));
            QCOMPARE(s.wrongAnswers.size(), d + 1);
            QList<int> attempts;
            for (const WrongAnswer& w : s.wrongAnswers) {
                QCOMPARE(w.told, Response::Success);
                QCOMPARE(w.result.english(), QStringLiteral("nothing frozen"));
                QCOMPARE(w.database.english(), QStringLiteral("300 still frozen for tx-1"));
                attempts << w.attempt;
            }
            std::sort(attempts.begin(), attempts.end());
            for (int k = 0; k <= d; ++k) QCOMPARE(attempts[k], 2 + k);  // the Cancels, not the Try
            // With the log, the same arrivals are all answered truly.
            auto logged = finishedRun(config("tcc-log", {"cancel-before-try=1"}, d, seed));
            QVERIFY(logged);
            QVERIFY(logged->summary().wrongAnswers.isEmpty());
        }
    }
}

void TccTest::everyPhaseIsAnsweredTruly() {
    // Each phase's truth, read back from a finished run: what the Try, the
    // Confirm and the Cancel may be told, and in the log's words.
    const Scenario* tcc = findScenario(QStringLiteral("tcc"));
    {
        auto run = finishedRun(config("tcc-log", {"confirm-retries=1"}, 1, 1));
        QVERIFY(run);
        auto db = run->openReader();
        Reader reader(*db);
        const AnswerTruth t = tcc->answerTruthOfAll(reader, 1)[0];
        QVERIFY(t.operations.value("Try").checked && t.operations.value("Try").happened);
        QVERIFY(t.operations.value("Confirm").happened);
        QCOMPARE(t.operations.value("Confirm").result.english(), QStringLiteral("CONFIRMED"));
        QVERIFY(!t.operations.value("Cancel").happened);
        QCOMPARE(t.operations.value("Cancel").shows.english(),
                 QStringLiteral("tx-1 was debited; tcc_log says CONFIRMED"));
        QVERIFY(run->summary().wrongAnswers.isEmpty());
    }
    {
        auto run = finishedRun(config("tcc-log", {"cancel-before-try=1"}, 1, 1));
        QVERIFY(run);
        auto db = run->openReader();
        Reader reader(*db);
        const AnswerTruth t = tcc->answerTruthOfAll(reader, 1)[0];
        QVERIFY(!t.operations.value("Try").happened);  // the late Try's refusal is true
        QVERIFY(!t.operations.value("Confirm").happened);
        QVERIFY(t.operations.value("Cancel").happened);
        QCOMPARE(t.operations.value("Cancel").result.english(), QStringLiteral("CANCELLED"));
    }
    // Repeated naive Confirms debit again each time, and each is told so
    // truly: the harm is the duplicate debit, not a false answer.
    for (quint32 seed = 1; seed <= 20; ++seed) {
        for (int d = 0; d <= 3; ++d) {
            for (const char* variant : {"naive", "tcc-log"}) {
                auto run = finishedRun(config(variant, {"confirm-retries=1"}, d, seed));
                QVERIFY(run);
                QVERIFY(run->summary().wrongAnswers.isEmpty());
            }
        }
    }
}

QTEST_GUILESS_MAIN(TccTest)
#include "tcc_test.moc"
