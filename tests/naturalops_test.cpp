// SPEC section 3's natural-ops row: reads, fixed-value updates and deletes by
// id leave the state of one run; the others pile up. For seeds 1-5 and 1-3
// repeats under every timing, and the rows after one run and after all runs
// as the summary shows them.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>

using namespace idem;
using idem::test::Cell;

namespace {

const char* const kIdempotent[] = {"query", "set-status", "delete-by-id"};
const char* const kPilingUp[] = {"increment", "deduct", "insert-new", "send-notification"};
const char* const kTimings[] = {"concurrent", "retry", "compensation", "cross-day"};

}  // namespace

class NaturalOpsTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void afterOneAndAfterAll_data();
    void afterOneAndAfterAll();
    void notificationRepeatsAreAnAcceptedCost_data();
    void notificationRepeatsAreAnAcceptedCost();
    void lateRepeat_data();
    void lateRepeat() { test::checkCellRow(); }
    void lateRepeatOverwritesTheLaterWrite();
};

void NaturalOpsTest::truthTable_data() {
    QList<Cell> cells;
    for (const char* t : kTimings) {
        for (const char* op : kIdempotent) cells << Cell{op, t, "", {}, 1, 3, "exactly-once"};
        for (const char* op : kPilingUp) cells << Cell{op, t, "", {}, 1, 3, "duplicated"};
    }
    test::addCellRows("natural-ops", cells);
}

// SPEC 3 natural-ops: a late repeat of set-status after another write.
void NaturalOpsTest::lateRepeat_data() {
    QList<Cell> cells;
    for (const char* t : kTimings) {
        cells << Cell{"set-status", t, "", {"late-repeat=1"}, 1, 3, "inconsistent"};
        // Without a repeat there is nothing to arrive late.
        cells << Cell{"set-status", t, "", {"late-repeat=1"}, 0, 0, "exactly-once"};
        // Without the param, set-status stays as safe as ever.
        cells << Cell{"set-status", t, "", {"late-repeat=0"}, 1, 3, "exactly-once"};
    }
    test::addCellRows("natural-ops", cells);
}

void NaturalOpsTest::lateRepeatOverwritesTheLaterWrite() {
    for (const char* t : kTimings) {
        for (int d = 1; d <= 3; ++d) {
            for (quint32 seed = 1; seed <= 5; ++seed) {
                const Cell cell{"set-status", t, "", {"late-repeat=1"}, d, d, ""};
                auto run = test::finishedRun("natural-ops", cell, d, seed);
                // The writer lands after every run but the last, the last after it.
                qint64 writerAt = -1;
                QList<qint64> runs;
                for (const TraceEvent& e : run->trace().events()) {
                    if (e.is(EventKind::Sql) && e.actorName() == QLatin1String("writer") &&
                        writerAt < 0)
                        writerAt = e.tMs;
                    else if (e.is(EventKind::Fire))
                        runs << e.tMs;
                }
                QVERIFY(writerAt >= 0);
                QCOMPARE(runs.size(), d + 1);
                std::sort(runs.begin(), runs.end());
                QVERIFY(runs[d - 1] < writerAt && writerAt < runs[d]);
                const Summary& s = run->summary();
                QCOMPARE(s.inconsistencies.size(), 1);
                QVERIFY2(s.inconsistencies.first().english().contains("CANCELLED"),
                         qPrintable(s.inconsistencies.first().english()));
                // The state equals the state after one run: no effect piled up.
                QCOMPARE(s.effects.value("changed_by_repeats"), 0);
            }
        }
    }
}

void NaturalOpsTest::afterOneAndAfterAll_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("timing");
    QTest::addColumn<int>("duplicates");
    QTest::addColumn<int>("seed");
    QStringList ops;
    for (const char* op : kIdempotent) ops << op;
    for (const char* op : kPilingUp) ops << op;
    for (const QString& op : ops) {
        for (const char* t : {"concurrent", "retry"}) {
            for (int d = 1; d <= 3; ++d) {
                for (int seed = 1; seed <= 5; ++seed) {
                    QTest::addRow("%s %s d=%d seed=%d", qPrintable(op), t, d, seed)
                        << op << QString::fromLatin1(t) << d << seed;
                }
            }
        }
    }
}

void NaturalOpsTest::afterOneAndAfterAll() {
    QFETCH(QString, op);
    QFETCH(QString, timing);
    QFETCH(int, duplicates);
    QFETCH(int, seed);
    const Cell cell{op, timing, "", {}, duplicates, duplicates, ""};
    const Summary s =
        test::runToSummary(test::cellConfig("natural-ops", cell, duplicates, quint32(seed)));
    const QByteArray dump = QJsonDocument(s.toJson()).toJson(QJsonDocument::Compact);
    const QJsonArray one = s.extras.value("after_one").toArray();
    const QJsonArray all = s.extras.value("after_all").toArray();
    const int runs = duplicates + 1;
    QCOMPARE(s.attempts, runs);
    QCOMPARE(s.responseCount(Response::Success), runs);

    if (op == QLatin1String("query")) {
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].toObject().value("status").toString(), QStringLiteral("CREATED"));
    } else if (op == QLatin1String("set-status")) {
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].toObject().value("status").toString(), QStringLiteral("DONE"));
    } else if (op == QLatin1String("delete-by-id")) {
        QVERIFY2(one.isEmpty(), dump.constData());
    } else if (op == QLatin1String("increment")) {
        QCOMPARE(one[0].toObject().value("points").toInt(), 110);
        QCOMPARE(all[0].toObject().value("points").toInt(), 100 + 10 * runs);
    } else if (op == QLatin1String("deduct")) {
        QCOMPARE(one[0].toObject().value("balance").toInt(), 4'900);
        QCOMPARE(all[0].toObject().value("balance").toInt(), 5'000 - 100 * runs);
    } else if (op == QLatin1String("insert-new")) {
        QCOMPARE(one.size(), 2);  // the seeded order and one new one
        QCOMPARE(all.size(), 1 + runs);
    } else {
        QCOMPARE(one.size(), 1);  // one message sent
        QCOMPARE(all.size(), runs);
    }
    const bool idempotent = std::find_if(std::begin(kIdempotent), std::end(kIdempotent),
                                         [&op](const char* i) { return op == QLatin1String(i); }) !=
                            std::end(kIdempotent);
    QVERIFY2((one == all) == idempotent, dump.constData());
}

void NaturalOpsTest::notificationRepeatsAreAnAcceptedCost_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<bool>("tolerated");
    QTest::addRow("send-notification") << "send-notification" << true;
    // Duplicated, and the business does not accept it.
    for (const char* op : {"increment", "deduct", "insert-new"})
        QTest::addRow("%s", op) << op << false;
    // Nothing repeated: nothing to accept.
    for (const char* op : kIdempotent) QTest::addRow("%s", op) << op << false;
}

void NaturalOpsTest::notificationRepeatsAreAnAcceptedCost() {
    QFETCH(QString, op);
    QFETCH(bool, tolerated);
    for (const char* t : kTimings) {
        for (int d = 1; d <= 3; ++d) {
            for (quint32 seed = 1; seed <= 5; ++seed) {
                const Cell cell{op, t, "", {}, d, d, ""};
                const Summary s =
                    test::runToSummary(test::cellConfig("natural-ops", cell, d, seed));
                const QJsonObject json = s.toJson();
                const QByteArray dump = QJsonDocument(json).toJson(QJsonDocument::Compact);
                // Written when true; absent means false.
                QVERIFY2(json.contains("tolerated") == tolerated, dump.constData());
                QVERIFY2(json.value("tolerated").toBool() == tolerated, dump.constData());
                if (tolerated)
                    QCOMPARE(s.verdict, Verdict::Duplicated);
                // The summary reads back the same.
                Summary back;
                QString error;
                QVERIFY2(Summary::fromJson(json, &back, &error), qPrintable(error));
                QCOMPARE(back.tolerated, tolerated);
            }
        }
    }
    // Without repeats the one notification is simply exactly once.
    const Cell once{op, "retry", "", {}, 0, 0, ""};
    const Summary s = test::runToSummary(test::cellConfig("natural-ops", once, 0, 1));
    QCOMPARE(s.verdict, Verdict::ExactlyOnce);
    QVERIFY(!s.tolerated);
}

QTEST_GUILESS_MAIN(NaturalOpsTest)
#include "naturalops_test.moc"
