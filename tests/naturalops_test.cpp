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
};

void NaturalOpsTest::truthTable_data() {
    QList<Cell> cells;
    for (const char* t : kTimings) {
        for (const char* op : kIdempotent) cells << Cell{op, t, "", {}, 1, 3, "exactly-once"};
        for (const char* op : kPilingUp) cells << Cell{op, t, "", {}, 1, 3, "duplicated"};
    }
    test::addCellRows("natural-ops", cells);
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

QTEST_GUILESS_MAIN(NaturalOpsTest)
#include "naturalops_test.moc"
