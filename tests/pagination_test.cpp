// Every cell of SPEC section 3's pagination table for seeds 1-5 and two page
// sizes, and the page-by-page accounting checked against the database.
#include "configcheck.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <memory>

using namespace idem;
using idem::test::Cell;

namespace {

const QStringList kInserts{"inserts-per-page=3"};
const QStringList kDeletes{"inserts-per-page=0", "deletes-per-page=3"};
const QStringList kTies{"inserts-per-page=0", "ties=1"};

RunConfig pagingConfig(const QString& variant, QStringList params, int pageSize, int seed) {
    params << QStringLiteral("page-size=%1").arg(pageSize);
    return test::cellConfig("pagination", Cell{variant, "", "", params, 0, 0, ""}, 0,
                            quint32(seed));
}

// A finished run whose database is still there to be checked.
std::unique_ptr<Run> runToEnd(const RunConfig& config) {
    auto run = std::make_unique<Run>(config, *findScenario("pagination"));
    QString error;
    if (!run->start(&error))
        qFatal("%s", qPrintable(error));
    run->runToEnd();
    test::finish(*run);
    return run;
}

QSet<qint64> idSet(const QJsonArray& ids) {
    QSet<qint64> s;
    for (const QJsonValue& v : ids) s.insert(v.toInteger());
    return s;
}

QSet<qint64> column(SqlConnection& db, const QString& sql, const QVariantList& params = {}) {
    QSet<qint64> s;
    for (const QVariantList& row : db.exec(sql, params).data) s.insert(row[0].toLongLong());
    return s;
}

QSet<qint64> unionOf(const QJsonArray& pages, const char* field) {
    QSet<qint64> s;
    for (const QJsonValue& p : pages) s.unite(idSet(p.toObject().value(field).toArray()));
    return s;
}

}  // namespace

class PaginationTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable();
    void cursorSkipsExactlyTheRowsSharingABoundaryTimestamp_data();
    void cursorSkipsExactlyTheRowsSharingABoundaryTimestamp();
    void pagesAccountForEveryRowOfTheStartFeed_data() { truthTable_data(); }
    void pagesAccountForEveryRowOfTheStartFeed();
    void offsetRepeatsTheInsertedCountOnEveryPage();
    void writerUsesItsOwnConnection();
    void writerNotesWhatItChanged();
    void queryPlanSeeksTheIndexForCursorAndKeyset();
    void badParamsAreRefused();
};

void PaginationTest::truthTable_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<int>("pageSize");
    QTest::addColumn<int>("seed");
    QTest::addColumn<QString>("expected");
    struct Row {
        const char* variant;
        const char* inserts;
        const char* deletes;
        const char* ties;
    };
    const Row rows[] = {
        {"offset", "duplicated", "lost", "exactly-once"},
        {"cursor", "exactly-once", "exactly-once", "lost"},
        {"keyset", "exactly-once", "exactly-once", "exactly-once"},
    };
    for (const Row& r : rows) {
        const QList<std::pair<const char*, const char*>> columns{
            {"inserts", r.inserts}, {"deletes", r.deletes}, {"ties", r.ties}};
        for (const auto& [name, expected] : columns) {
            const QStringList params = QLatin1String(name) == QLatin1String("inserts")   ? kInserts
                                       : QLatin1String(name) == QLatin1String("deletes") ? kDeletes
                                                                                         : kTies;
            for (int pageSize : {20, 7}) {
                for (int seed = 1; seed <= test::seedCount(5); ++seed) {
                    QTest::addRow("%s %s page-size=%d seed=%d", r.variant, name, pageSize, seed)
                        << QString(r.variant) << params << pageSize << seed << QString(expected);
                }
            }
        }
    }
}

void PaginationTest::truthTable() {
    QFETCH(QString, variant);
    QFETCH(QStringList, params);
    QFETCH(int, pageSize);
    QFETCH(int, seed);
    QFETCH(QString, expected);
    const Summary s = test::runToSummary(pagingConfig(variant, params, pageSize, seed));
    const QByteArray dump = QJsonDocument(s.toJson()).toJson(QJsonDocument::Compact);
    QVERIFY2(s.verdictId() == expected, dump.constData());
    QVERIFY2(s.integrity == QLatin1String("ok"), dump.constData());
    QCOMPARE(s.attempts, 1);
    QCOMPARE(s.responseCount(Response::Success), 1);
    const qint64 twice = s.effects.value("shown_twice");
    const qint64 missed = s.effects.value("missed");
    if (expected == QLatin1String("duplicated"))
        QVERIFY2(twice > 0, dump.constData());
    if (expected == QLatin1String("lost"))
        QVERIFY2(twice == 0 && missed > 0, dump.constData());
    if (expected == QLatin1String("exactly-once")) {
        QVERIFY2(twice == 0 && missed == 0, dump.constData());
    }
}

void PaginationTest::cursorSkipsExactlyTheRowsSharingABoundaryTimestamp_data() {
    QTest::addColumn<int>("pageSize");
    QTest::addColumn<int>("seed");
    for (int pageSize : {20, 7, 1}) {
        for (int seed = 1; seed <= 3; ++seed) {
            QTest::addRow("page-size=%d seed=%d", pageSize, seed) << pageSize << seed;
        }
    }
}

void PaginationTest::cursorSkipsExactlyTheRowsSharingABoundaryTimestamp() {
    QFETCH(int, pageSize);
    QFETCH(int, seed);
    const auto run = runToEnd(pagingConfig("cursor", kTies, pageSize, seed));
    const Summary s = run->summary();
    const QJsonArray pages = s.extras.value("pages").toArray();
    QVERIFY(!pages.isEmpty());
    auto db = run->openReader();

    // From the database alone: rows of the start feed that were never shown
    // although their created_at is the created_at of some page's last row.
    const QSet<qint64> sharing = column(*db, QStringLiteral(R"(SELECT s.row_id
FROM feed_at_start s
WHERE s.row_id NOT IN (SELECT row_id FROM page_reads)
  AND s.created_at IN (SELECT b.created_at
                       FROM page_reads b
                       WHERE b.position = (SELECT MAX(position)
                                           FROM page_reads
                                           WHERE page = b.page)))"));
    const QSet<qint64> skipped = unionOf(pages, "skipped");
    QVERIFY(!skipped.isEmpty());
    QCOMPARE(skipped, sharing);
    QCOMPARE(unionOf(pages, "lost"), sharing);
    QCOMPARE(s.effects.value("missed"), qint64(sharing.size()));

    // Each page names the rows that share its own boundary timestamp.
    for (const QJsonValue& v : pages) {
        const QJsonObject page = v.toObject();
        const qint64 boundary = page.value("boundary").toObject().value("created_at").toInteger();
        for (const QJsonValue& id : page.value("skipped").toArray()) {
            const qint64 createdAt =
                db->exec(QStringLiteral("SELECT created_at FROM orders WHERE id = ?"),
                         {id.toInteger()})
                    .value()
                    .toLongLong();
            QCOMPARE(createdAt, boundary);
        }
    }
}

void PaginationTest::pagesAccountForEveryRowOfTheStartFeed() {
    QFETCH(QString, variant);
    QFETCH(QStringList, params);
    QFETCH(int, pageSize);
    QFETCH(int, seed);
    const auto run = runToEnd(pagingConfig(variant, params, pageSize, seed));
    const Summary s = run->summary();
    const QJsonArray pages = s.extras.value("pages").toArray();
    auto db = run->openReader();

    const QSet<qint64> start = column(*db, QStringLiteral("SELECT row_id FROM feed_at_start"));
    const QSet<qint64> deleted = column(*db, QStringLiteral(R"(SELECT row_id
FROM feed_at_start
WHERE row_id NOT IN (SELECT id FROM orders))"));
    const QSet<qint64> shown = unionOf(pages, "rows");
    const QSet<qint64> lost = unionOf(pages, "lost");
    QCOMPARE(qint64(start.size()),
             s.extras.value("feed").toObject().value("start_rows").toInteger());
    QCOMPARE(qint64(deleted.size()),
             s.extras.value("feed").toObject().value("deleted").toInteger());

    // Every row of the start feed is shown, deleted, or listed lost; a lost
    // row is neither shown nor deleted.
    QVERIFY((start - shown - deleted - lost).isEmpty());
    QVERIFY(!lost.intersects(shown));
    QVERIFY(!lost.intersects(deleted));
    QCOMPARE(qint64(lost.size()), s.effects.value("missed"));

    // A page's duplicates are exactly its rows that an earlier page showed.
    QSet<qint64> seen, twice;
    for (const QJsonValue& v : pages) {
        const QJsonObject page = v.toObject();
        QSet<qint64> expectedDuplicates;
        for (const QJsonValue& id : page.value("rows").toArray()) {
            if (seen.contains(id.toInteger()))
                expectedDuplicates.insert(id.toInteger());
        }
        QCOMPARE(idSet(page.value("duplicates").toArray()), expectedDuplicates);
        twice.unite(expectedDuplicates);
        seen.unite(idSet(page.value("rows").toArray()));
    }
    QCOMPARE(qint64(twice.size()), s.effects.value("shown_twice"));
    QCOMPARE(column(*db, QStringLiteral("SELECT DISTINCT row_id FROM page_reads")), seen);
}

void PaginationTest::offsetRepeatsTheInsertedCountOnEveryPage() {
    const Summary s = test::runToSummary(pagingConfig("offset", kInserts, 20, 1));
    const QJsonArray pages = s.extras.value("pages").toArray();
    QVERIFY(pages.size() > 2);
    QCOMPARE(pages.first().toObject().value("duplicates").toArray().size(), 0);
    for (qsizetype i = 1; i < pages.size(); ++i) {
        // The rows inserted on top push the last 3 rows of a page onto the next.
        const QJsonObject page = pages[i].toObject();
        QCOMPARE(page.value("duplicates").toArray().size(), 3);
        const QJsonArray before = pages[i - 1].toObject().value("rows").toArray();
        QCOMPARE(page.value("rows").toArray().first(), before[before.size() - 3]);
    }
}

void PaginationTest::writerUsesItsOwnConnection() {
    const auto run = runToEnd(pagingConfig("keyset", {"deletes-per-page=2"}, 20, 4));
    QSet<QString> readerConnections, writerConnections;
    int inserts = 0, deletes = 0;
    for (const TraceEvent& e : run->trace().events()) {
        if (!e.is(EventKind::Sql) || e.attempt < 0)
            continue;
        if (e.actorName() == QLatin1String("writer")) {
            writerConnections.insert(e.connectionName());
            inserts += e.sql.startsWith(QLatin1String("INSERT INTO orders"));
            deletes += e.sql.startsWith(QLatin1String("DELETE FROM orders")) ? int(e.rows) : 0;
        } else if (e.actorName() == QLatin1String("service")) {
            readerConnections.insert(e.connectionName());
        }
    }
    QCOMPARE(readerConnections.size(), 1);
    QVERIFY(!writerConnections.isEmpty());
    QVERIFY(!writerConnections.intersects(readerConnections));
    const QJsonObject feed = run->summary().extras.value("feed").toObject();
    QCOMPARE(feed.value("inserted").toInteger(), qint64(inserts));
    QCOMPARE(feed.value("deleted").toInteger(), qint64(deletes));
    QVERIFY(deletes > 0);
    QCOMPARE(run->summary().verdictId(), QStringLiteral("exactly-once"));
}

void PaginationTest::writerNotesWhatItChanged() {
    // The writer's notes (what the pagination view shows between pages) add
    // up to what the database says changed, each after the page it follows.
    for (const char* variant : {"offset", "cursor", "keyset"}) {
        const auto run = runToEnd(pagingConfig(variant, {"deletes-per-page=2"}, 20, 4));
        qint64 inserted = 0, deleted = 0;
        int notes = 0, lastPage = 0;
        for (const TraceEvent& e : run->trace().events()) {
            if (e.kindId() == QLatin1String("page"))
                lastPage = int(e.fields.number("page"));
            if (e.kindId() != QLatin1String("feed-changed"))
                continue;
            ++notes;
            QCOMPARE(e.actorName(), QStringLiteral("writer"));
            QCOMPARE(e.fields.number("reader"), 1);
            QCOMPARE(e.fields.number("after_page"), qint64(lastPage));
            QCOMPARE(e.fields.number("inserted"), 3);
            inserted += e.fields.number("inserted");
            deleted += e.fields.number("deleted");
        }
        // After every page but the last.
        QCOMPARE(notes, lastPage - 1);
        const QJsonObject feed = run->summary().extras.value("feed").toObject();
        QCOMPARE(inserted, feed.value("inserted").toInteger());
        QCOMPARE(deleted, feed.value("deleted").toInteger());
        QVERIFY(deleted > 0);
    }
}

void PaginationTest::queryPlanSeeksTheIndexForCursorAndKeyset() {
    for (const char* variant : {"offset", "cursor", "keyset"}) {
        const Summary s = test::runToSummary(pagingConfig(variant, kInserts, 20, 1));
        const QJsonArray plan = s.extras.value("query_plan").toArray();
        QVERIFY2(!plan.isEmpty(), variant);
        const QString detail = plan.first().toObject().value("detail").toString();
        QVERIFY2(detail.contains(QLatin1String("idx_orders_created_at_id")), qPrintable(detail));
        const bool seeks = detail.startsWith(QLatin1String("SEARCH"));
        QVERIFY2(seeks == (QLatin1String(variant) != QLatin1String("offset")), qPrintable(detail));
    }
}

void PaginationTest::badParamsAreRefused() {
    const ScenarioInfo& info = findScenario("pagination")->info();
    for (const char* bad :
         {"page-size=0", "rows=10001", "ties=2", "inserts-per-page=101", "deletes-per-page=-1"}) {
        const RunConfig c =
            test::cellConfig("pagination", Cell{"keyset", "", "", {bad}, 0, 0, ""}, 0, 1);
        const QString error = checkConfig(c, info);
        QVERIFY2(error.contains(QString(bad).section('=', 0, 0)), bad);
    }
    QVERIFY(checkConfig(pagingConfig("cursor", kTies, 500, 1), info).isEmpty());
}

QTEST_GUILESS_MAIN(PaginationTest)
#include "pagination_test.moc"
