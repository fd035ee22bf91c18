// What leaves the program as a file or the clipboard: CSV that a spreadsheet
// opens without running formulas (numbers still numbers), counts named for
// what they count, ShiViz lines that stay lines, and files that are complete
// or untouched, a full disk included.
#include "tracewriters.h"
#include "csv.h"
#include "exporttext.h"
#include "lockstory.h"
#include "outputfile.h"
#include "run.h"
#include "sqlconnection.h"
#include "sqliteconnection.h"
#include "sqllogmodel.h"
#include "tablemodel.h"
#include "testsupport.h"
#include "trace.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace idem;

namespace {

TraceEvent sqlEvent(const QString& sql, const QVariantList& params, qint64 rows,
                    const QString& error, RowCount counts = RowCount::Returned) {
    TraceEvent e;
    e.seq = 1;
    e.intent = -1;
    e.attempt = 1;
    e.actor = nameId(u"service");
    e.kind = EventKind::Sql;
    e.connection = 1;
    e.sql = sql;
    e.params = params;
    e.rows = rows;
    e.counts = counts;
    e.error = error;
    e.code = error.isEmpty() ? 0 : 1;
    return e;
}

// One ShiViz event: its text, host and clock as written, and the vector
// clock ShiViz's drawing gives it (every event before it, by host).
struct ShiVizEvent {
    QString text;
    QString host;
    QMap<QString, qint64> clock;
    QMap<QString, qint64> full;
};

// The events of a ShiViz log as ShiViz's upload reads it: the parser on the
// first line, the delimiter (or nothing) on the second, then the log.
QList<ShiVizEvent> shivizEvents(const QByteArray& log) {
    QList<QByteArray> lines = log.split('\n');
    if (lines.size() < 3 || lines[0] != kShiVizParser || !lines[1].isEmpty())
        return {};
    lines = lines.mid(2);
    if (lines.last().isEmpty())
        lines.removeLast();
    QList<ShiVizEvent> events;
    for (qsizetype i = 0; i + 1 < lines.size(); i += 2) {
        const QByteArray& hostLine = lines[i + 1];
        const qsizetype space = hostLine.indexOf(' ');
        ShiVizEvent e{QString::fromUtf8(lines[i]), QString::fromUtf8(hostLine.left(space)), {}, {}};
        const QJsonObject clock = QJsonDocument::fromJson(hostLine.mid(space + 1)).object();
        for (auto it = clock.begin(); it != clock.end(); ++it)
            e.clock.insert(it.key(), it.value().toInteger());
        events << e;
    }
    return events;
}

QString clockText(const QMap<QString, qint64>& clock) {
    QStringList entries;
    for (auto it = clock.cbegin(); it != clock.cend(); ++it)
        entries << QStringLiteral("%1:%2").arg(it.key()).arg(it.value());
    return QLatin1Char('{') + entries.join(QLatin1Char(',')) + QLatin1Char('}');
}

// a happened before (or is) b: every entry of a is at most b's.
bool atMost(const QMap<QString, qint64>& a, const QMap<QString, qint64>& b) {
    for (auto it = a.cbegin(); it != a.cend(); ++it) {
        if (it.value() > b.value(it.key()))
            return false;
    }
    return true;
}

// The log as ShiViz reads it (its modelGraph.js): each host's own entry
// goes up by one per event; an entry for another host that grew since the
// host's previous event names a parent, that host's event of that number,
// which must come earlier, unless another parent already knew it. The clock
// ShiViz computes from the parents and the host's previous event, entry by
// entry the largest, must be the one written (the written one is each
// event's full clock then). A problem when the log breaks the rules.
// tests/shiviz_check.py judges the command line's logs the same way.
QString clockProblem(QList<ShiVizEvent>& events) {
    QHash<QString, qint64> own;
    QHash<QString, QMap<QString, qint64>> seen;  // host → what it heard of the others
    QHash<QString, qsizetype> at;                // "host#n" → event index
    const auto key = [](const QString& host, qint64 n) {
        return QStringLiteral("%1#%2").arg(host).arg(n);
    };
    for (qsizetype i = 0; i < events.size(); ++i) {
        ShiVizEvent& e = events[i];
        const qint64 expected = own.value(e.host) + 1;
        if (e.clock.value(e.host) != expected)
            return QStringLiteral("event %1 (%2): own entry %3, expected %4")
                .arg(i)
                .arg(e.host)
                .arg(e.clock.value(e.host))
                .arg(expected);
        own[e.host] = expected;
        QList<qsizetype> parents;
        for (auto it = e.clock.cbegin(); it != e.clock.cend(); ++it) {
            if (it.key() == e.host || it.value() <= seen[e.host].value(it.key()))
                continue;
            seen[e.host][it.key()] = it.value();
            const qsizetype from = at.value(key(it.key(), it.value()), -1);
            if (from < 0)
                return QStringLiteral("event %1 (%2): no earlier event %3 of %4")
                    .arg(i)
                    .arg(e.host)
                    .arg(it.value())
                    .arg(it.key());
            parents << from;
        }
        QMap<QString, qint64> clock = at.contains(key(e.host, expected - 1))
                                          ? events[at.value(key(e.host, expected - 1))].full
                                          : QMap<QString, qint64>();
        clock[e.host] = expected;
        for (const qsizetype p : std::as_const(parents)) {
            const qint64 n = events[p].clock.value(events[p].host);
            const bool known = std::any_of(parents.cbegin(), parents.cend(), [&](qsizetype q) {
                return q != p && events[q].clock.value(events[p].host) == n;
            });
            if (known)
                continue;
            for (auto f = events[p].full.cbegin(); f != events[p].full.cend(); ++f)
                clock[f.key()] = std::max(clock.value(f.key()), f.value());
        }
        if (clock != e.clock)
            return QStringLiteral("event %1 (%2): clock %3, ShiViz computes %4")
                .arg(i)
                .arg(e.host, clockText(e.clock), clockText(clock));
        e.full = clock;
        at.insert(key(e.host, expected), i);
    }
    return {};
}

// A real server's trace from tests/locktraces (recorded with `idemlab run
// --backend mariadb|postgres --trace`), read without a server.
Trace::Loaded lockTrace(const char* name) {
    Trace::Loaded loaded;
    QString error;
    if (!Trace::load(QStringLiteral(IDEM_LOCK_TRACES "/%1").arg(QLatin1String(name)), &loaded,
                     &error))
        qFatal("%s", qPrintable(error));
    return loaded;
}

QByteArray exportTrace(const Trace::Loaded& trace, TraceExport& format) {
    ExportRun run;
    run.config = trace.config;
    run.summary = trace.summary;
    return exportEvents(trace.events, format, run);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
}

}  // namespace

class TraceWritersTest : public QObject {
    Q_OBJECT
private slots:
    void textCellsAreNeutralised_data();
    void textCellsAreNeutralised();
    void numbersStayNumbers();
    void traceCsvNeutralisesText();
    void tableCopyKeepsNumbersAndNeutralisesText();
    void sqlLogCopyNeutralisesText();
    void countsAreNamedForWhatTheyCount();
    void aWaitOnAnotherClientNamesIt();
    void shivizKeepsEveryEventOnItsLines();
    void shivizShowsTheRaceAsConcurrency();
    void shivizRunsAreExecutions();
    void lockStoryTellsTheDeadlock();
    void shivizReleaseHappensBeforeTheWaiterGoesOn();
    void sqlLogNamesTheAttemptsAWaitIsFor();
    void chromeAndHistoryTellTheLocks();
    void fullDiskLeavesTheOldFile();
    void outputTakesNoPathThatChangedHands();
    void unwritableFolderSaysWhy();
};

void TraceWritersTest::textCellsAreNeutralised_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("cell");
    QTest::newRow("hyperlink") << "=HYPERLINK(\"http://x\")"
                               << "\"'=HYPERLINK(\"\"http://x\"\")\"";
    QTest::newRow("plus") << "+1+2"
                          << "'+1+2";
    QTest::newRow("minus") << "-2+3"
                           << "'-2+3";
    QTest::newRow("at") << "@SUM(A1)"
                        << "'@SUM(A1)";
    QTest::newRow("tab") << "\t=1"
                         << "'\t=1";
    QTest::newRow("carriage return") << "\r=1"
                                     << "\"'\r=1\"";
    QTest::newRow("comma") << "a,b"
                           << "\"a,b\"";
    QTest::newRow("newline") << "a\nb"
                             << "\"a\nb\"";
    QTest::newRow("plain") << "SELECT 1"
                           << "SELECT 1";
    QTest::newRow("equals inside") << "a=b"
                                   << "a=b";
    QTest::newRow("empty") << ""
                           << "";
}

void TraceWritersTest::textCellsAreNeutralised() {
    QFETCH(QString, text);
    QFETCH(QString, cell);
    QCOMPARE(csvText(text), cell);
    QCOMPARE(csvValue(QVariant(text)), cell);
}

void TraceWritersTest::numbersStayNumbers() {
    QCOMPARE(csvValue(QVariant(qint64(-1))), QStringLiteral("-1"));
    QCOMPARE(csvValue(QVariant(-3)), QStringLiteral("-3"));
    QCOMPARE(csvValue(QVariant(-2.5)), QStringLiteral("-2.5"));
    QCOMPARE(csvValue(QVariant(0.1)), QStringLiteral("0.1"));
    QCOMPARE(csvValue(QVariant()), QString());
    // The same characters as text are text.
    QCOMPARE(csvValue(QVariant(QStringLiteral("-3"))), QStringLiteral("'-3"));
}

void TraceWritersTest::traceCsvNeutralisesText() {
    TraceEvent fire;
    fire.seq = 1;
    fire.actor = nameId(u"=HYPERLINK(\"http://x\")");
    fire.kind = EventKind::Note;
    fire.note = nameId(u"+fire");
    const TraceEvent sql =
        sqlEvent(QStringLiteral("UPDATE stock SET qty = qty - 1"), {-3, QStringLiteral("=1+1")}, -1,
                 QStringLiteral("@error"), RowCount::Changed);
    const QList<QByteArray> lines = traceToCsv({fire, sql}).split('\n');
    QCOMPARE(lines.size(), 4);  // header, two events, the empty rest after the last CRLF
    QVERIFY2(lines[1].contains("\"'=HYPERLINK(\"\"http://x\"\")\",'+fire,"), lines[1]);
    // The params cell is text ("-3, =1+1"); rows_changed -1 and intent -1 stay numbers.
    QVERIFY2(lines[2].startsWith("1,0,-1,1,service,sql,c1,UPDATE stock SET qty = qty - 1,"),
             lines[2]);
    QVERIFY2(lines[2].contains("\"'-3, =1+1\",,-1,'@error (1),"), lines[2]);
}

void TraceWritersTest::tableCopyKeepsNumbersAndNeutralisesText() {
    QTemporaryDir dir;
    SqliteConnection db(dir.filePath("t.sqlite"), QStringLiteral("c0"));
    db.exec(QStringLiteral("CREATE TABLE stock(sku TEXT, qty INTEGER, price REAL, note TEXT)"));
    db.exec(QStringLiteral("INSERT INTO stock VALUES (?, ?, ?, ?)"),
            {QStringLiteral("=HYPERLINK(\"http://x\")"), -3, -1.5, QStringLiteral("-1")});
    db.exec(QStringLiteral("INSERT INTO stock VALUES (?, ?, ?, ?)"),
            {QStringLiteral("A"), 5, 2.0, QVariant()});
    TableModel model;
    model.setTable(QStringLiteral("stock"));
    QVERIFY(model.refresh(db));
    QCOMPARE(model.toCsv(), QStringLiteral("sku,qty,price,note\r\n"
                                           "\"'=HYPERLINK(\"\"http://x\"\")\",-3,-1.5,'-1\r\n"
                                           "A,5,2,\r\n"));
}

void TraceWritersTest::sqlLogCopyNeutralisesText() {
    Trace trace;
    trace.append(sqlEvent(QStringLiteral("-- comment\nSELECT 1"), {QStringLiteral("@x")}, -1,
                          QStringLiteral("=cmd")));
    SqlLogModel model;
    model.rebuild(trace);
    const QString csv = model.toCsv();
    QVERIFY2(csv.contains(QStringLiteral("\"'-- comment\nSELECT 1\",'@x',-1,,'=cmd (1)\r\n")),
             qPrintable(csv));
}

// A wait on a connection outside the run: the SQL log's row names it as the
// server does, its tooltip the whole lock and the connection.
void TraceWritersTest::aWaitOnAnotherClientNamesIt() {
    TraceEvent wait;
    wait.kind = EventKind::LockWait;
    wait.attempt = 1;
    wait.actor = nameId(u"service");
    wait.fields.set("connection", QStringLiteral("c1"));
    wait.fields.set("holder", QString());
    wait.fields.set("lock", QStringLiteral("waits for a connection outside the run: relation "
                                           "RowExclusiveLock on orders"));
    const QString client = QStringLiteral(
        "pid 4242, user ana, application psql, idle in transaction: LOCK TABLE orders");
    wait.fields.set("outside", client);
    Trace trace;
    trace.append(wait);
    SqlLogModel log;
    log.rebuild(trace);
    const QString row = log.index(0, SqlLogModel::Statement).data().toString();
    QVERIFY2(row.startsWith(QStringLiteral("waits for a connection outside the run (") + client),
             qPrintable(row));
    QVERIFY(log.index(0, SqlLogModel::Statement).data(Qt::ToolTipRole).toString().contains(client));
}

// A statement's count goes where its name says what it counts: a read's rows
// returned, a write's rows changed, and nothing for BEGIN or COMMIT (whose
// count, SQLite's change count as it stood, is the previous statement's).
static QList<TraceEvent> countedEvents() {
    QList<TraceEvent> events{
        sqlEvent(QStringLiteral("BEGIN IMMEDIATE"), {}, 4, {}, RowCount::None),
        sqlEvent(QStringLiteral("SELECT id FROM orders"), {}, 2, {}, RowCount::Returned),
        sqlEvent(QStringLiteral("UPDATE orders SET status = 'PAID'"), {}, 3, {}, RowCount::Changed),
        sqlEvent(QStringLiteral("COMMIT"), {}, 3, {}, RowCount::None)};
    for (qsizetype i = 0; i < events.size(); ++i) events[i].seq = i + 1;
    return events;
}

void TraceWritersTest::countsAreNamedForWhatTheyCount() {
    const QList<TraceEvent> events = countedEvents();
    const QList<QByteArray> csv = traceToCsv(events).split('\n');
    QVERIFY2(csv[0].startsWith("seq,t_ms,intent,attempt,actor,kind,connection,sql,params,"
                               "rows_returned,rows_changed,error,"),
             csv[0]);
    QVERIFY2(csv[1].startsWith("1,0,-1,1,service,sql,c1,BEGIN IMMEDIATE,,,,,"), csv[1]);
    QVERIFY2(csv[2].startsWith("2,0,-1,1,service,sql,c1,SELECT id FROM orders,,2,,,"), csv[2]);
    QVERIFY2(csv[3].startsWith("3,0,-1,1,service,sql,c1,UPDATE orders SET status = 'PAID',,,3,,"),
             csv[3]);
    QVERIFY2(csv[4].startsWith("4,0,-1,1,service,sql,c1,COMMIT,,,,,"), csv[4]);

    Trace trace;
    for (const TraceEvent& e : events) trace.append(e);
    SqlLogModel log;
    log.rebuild(trace);
    QCOMPARE(log.toCsv(), QStringLiteral("t_ms,attempt,connection,sql,params,rows_returned,"
                                         "rows_changed,error\r\n"
                                         "0,1,c1,BEGIN IMMEDIATE,,,,\r\n"
                                         "0,1,c1,SELECT id FROM orders,,2,,\r\n"
                                         "0,1,c1,UPDATE orders SET status = 'PAID',,,3,\r\n"
                                         "0,1,c1,COMMIT,,,,\r\n"));
    QVERIFY(!log.index(0, SqlLogModel::Rows).data().isValid());
    QCOMPARE(log.index(1, SqlLogModel::Rows).data().toString(), QStringLiteral("2 returned"));
    QCOMPARE(log.index(2, SqlLogModel::Rows).data().toString(), QStringLiteral("3 changed"));
    QVERIFY(!log.index(3, SqlLogModel::Rows).data().isValid());

    QCOMPARE(describeEvent(events[0]), QStringLiteral("BEGIN IMMEDIATE"));
    QCOMPARE(describeEvent(events[1]), QStringLiteral("SELECT id FROM orders → 2 rows returned"));
    QCOMPARE(describeEvent(events[2]),
             QStringLiteral("UPDATE orders SET status = 'PAID' → 3 rows changed"));

    Trace::Loaded loaded;
    loaded.events = events;
    const QJsonArray chrome =
        QJsonDocument::fromJson(traceToChromeTrace(loaded)).object().value("traceEvents").toArray();
    QMap<QString, QJsonObject> args;  // statement → its args
    for (const QJsonValue& v : chrome) {
        const QJsonObject a = v.toObject().value("args").toObject();
        if (a.contains("sql"))
            args.insert(a.value("sql").toString(), a);
    }
    QCOMPARE(args.size(), 4);
    for (const QJsonObject& a : std::as_const(args)) QVERIFY(!a.contains("rows"));
    QVERIFY(!args["BEGIN IMMEDIATE"].contains("rows_returned"));
    QVERIFY(!args["BEGIN IMMEDIATE"].contains("rows_changed"));
    QCOMPARE(args["SELECT id FROM orders"].value("rows_returned").toInt(), 2);
    QVERIFY(!args["SELECT id FROM orders"].contains("rows_changed"));
    QCOMPARE(args["UPDATE orders SET status = 'PAID'"].value("rows_changed").toInt(), 3);
    QVERIFY(!args["COMMIT"].contains("rows_changed"));

    const QByteArray shiviz = traceToShiViz(events);
    QVERIFY2(shiviz.contains("gets 2 rows returned"), shiviz.constData());
    QVERIFY2(shiviz.contains("gets 3 rows changed"), shiviz.constData());
    QVERIFY2(shiviz.contains("COMMIT → ok"), shiviz.constData());
    QVERIFY(!shiviz.contains("4 rows"));
}

void TraceWritersTest::shivizKeepsEveryEventOnItsLines() {
    TraceEvent e;
    e.seq = 1;
    e.actor = nameId(u"serv ice\nx");
    e.kind = EventKind::Note;
    e.note = nameId(u"alert\nfake-host {\"fake-host\":1}");
    e.fields.set("message", QStringLiteral("a\u2028b"));
    const TraceEvent sql = sqlEvent(QStringLiteral("SELECT ?"), {QStringLiteral("two\nlines")}, 1,
                                    QStringLiteral("line\r\nbreak"));
    QList<QByteArray> lines = traceToShiViz({e, sql}).split('\n');
    // The parser and an empty delimiter line, then an event line and a host
    // line per event (the statement: sent, run by the database, result).
    QCOMPARE(lines.size(), 2 + 2 * 4 + 1);
    QCOMPARE(lines[0], QByteArray(kShiVizParser));
    QCOMPARE(lines[1], QByteArray());
    lines = lines.mid(2);
    QVERIFY2(lines[0].startsWith("t=0 alert\\nfake-host"), lines[0]);
    QVERIFY2(lines[0].contains("a\\u2028b"), lines[0]);
    QVERIFY2(lines[1].startsWith("serv_ice_x {"), lines[1]);
    QVERIFY2(lines[2].contains("two\\nlines"), lines[2]);
    QVERIFY2(lines[4].contains("line\\r\\nbreak"), lines[4]);
    QVERIFY(lines[5].startsWith("database {"));
}

void TraceWritersTest::shivizShowsTheRaceAsConcurrency() {
    // Check-then-insert with three attempts at once: every SELECT finds
    // nothing before any INSERT.
    test::Cell cell;
    cell.variant = QStringLiteral("check-then-insert");
    cell.timing = QStringLiteral("concurrent");
    const std::unique_ptr<Run> run = test::finishedRun(QStringLiteral("order-create"), cell, 2, 7);
    QList<ShiVizEvent> events = shivizEvents(traceToShiViz(run->trace().events()));
    QVERIFY(!events.isEmpty());
    const QString problem = clockProblem(events);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QList<ShiVizEvent> selects;
    for (const ShiVizEvent& e : events) {
        if (e.text.contains(QLatin1String("sends on")) && e.text.contains(QLatin1String("SELECT")))
            selects << e;
    }
    QVERIFY2(selects.size() >= 2, qPrintable(QString::number(selects.size())));
    QVERIFY2(selects[0].host != selects[1].host, qPrintable(selects[0].host));
    QVERIFY(selects[0].host.startsWith(QLatin1String("service#")));
    QVERIFY(selects[1].host.startsWith(QLatin1String("service#")));
    // Concurrent: neither happened before the other.
    QVERIFY(!atMost(selects[0].full, selects[1].full));
    QVERIFY(!atMost(selects[1].full, selects[0].full));
    // The database answers both, and the judge reads the database.
    QSet<QString> hosts;
    for (const ShiVizEvent& e : events) hosts.insert(e.host);
    QVERIFY(hosts.contains(QStringLiteral("database")) && hosts.contains(QStringLiteral("judge")));
    QVERIFY(events.last().host == QLatin1String("judge") &&
            events.last().full.contains(QStringLiteral("database")));
    const auto judged = std::find_if(events.cbegin(), events.cend(), [](const ShiVizEvent& e) {
        return e.host == QLatin1String("judge");
    });
    QVERIFY(judged->clock.contains(QStringLiteral("database")));  // the message from it
    // The judge comes after everything the database did: every attempt.
    QVERIFY(atMost(selects[0].full, events.last().full));
    // Every line's clock is the full one: what its host has heard of.
    for (const ShiVizEvent& e : std::as_const(events)) QCOMPARE(e.clock, e.full);
}

void TraceWritersTest::shivizRunsAreExecutions() {
    test::Cell cell;
    cell.variant = QStringLiteral("dedup-no-recheck");
    cell.timing = QStringLiteral("retry");
    cell.crash = QStringLiteral("after-business");
    const std::unique_ptr<Run> run = test::finishedRun(QStringLiteral("order-create"), cell, 2, 7);
    const QList<TraceEvent>& events = run->trace().events();
    const QList<QByteArray> lines =
        runsToShiViz({{QStringLiteral("a"), events}, {QStringLiteral("b"), events}}).split('\n');
    QCOMPARE(lines[1], QByteArray(kShiVizDelimiter));
    QCOMPARE(lines[2], QByteArray("=== a ==="));
    QCOMPARE(lines.count("=== b ==="), 1);
    // The crash's lost answer is a message to the host "lost".
    const QByteArray one = traceToShiViz(events);
    QVERIFY(one.contains("\nlost {"));
    QVERIFY(one.contains("never arrived at client"));
    QList<ShiVizEvent> parsed = shivizEvents(one);
    const QString problem = clockProblem(parsed);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TraceWritersTest::lockStoryTellsTheDeadlock() {
    // MariaDB, check-for-update, three attempts at once: each takes a gap
    // lock on the absent key; #1's INSERT waits for #2 and #3, whose INSERTs
    // close the cycle and are rolled back; #1 goes on when #2's is.
    const Trace::Loaded trace = lockTrace("mariadb-check-for-update-deadlock.json");
    LockStory story;
    story.setBackend(QStringLiteral("mariadb"));
    for (const TraceEvent& e : trace.events) story.follow(e);
    QCOMPARE(story.waits(), trace.summary.value("lock_waits").toInteger());
    QCOMPARE(story.deadlocks(), trace.summary.value("deadlocks").toInteger());
    QCOMPARE(story.waits(), 2);
    QCOMPARE(story.deadlocks(), 2);
    const LockEpisode& wait = story.episodes().first();
    QVERIFY(wait.isWait() && wait.letGo());
    QCOMPARE(story.waitText(wait),
             QStringLiteral("#1 waits for #2, #3: gap lock on uk_orders_request_id"));
    QCOMPARE(story.releaseText(wait), QStringLiteral("#1 goes on: #2's transaction ended"));
    QCOMPARE(wait.tMs, 3);
    QCOMPARE(wait.endMs, 4);
    // The lock table while it waits: #1's insert intention waits for both.
    const auto waiting = std::find_if(wait.locks.cbegin(), wait.locks.cend(),
                                      [](const LockRow& r) { return !r.granted; });
    QVERIFY(waiting != wait.locks.cend());
    QCOMPARE(waiting->kind, QStringLiteral("insert-intention"));
    QCOMPARE(wait.lockAttempts.at(waiting - wait.locks.cbegin()), QStringLiteral("#1"));
    const LockEpisode& deadlock = story.episodes().at(1);
    QCOMPARE(deadlock.kind, LockEpisode::Kind::Deadlock);
    QCOMPARE(story.refusalText(deadlock),
             QStringLiteral("Deadlock: InnoDB rolled back #3's transaction (1213)"));
    const QString html = story.storyHtml(QStringLiteral("now"));
    QCOMPARE(html.count(QLatin1String("<li class='wait'>")), 2);
    QCOMPARE(html.count(QLatin1String("<li class='refused'>")), 2);
    QVERIFY(html.contains(QLatin1String("<tr class='waiting'><td>#1</td><td>insert intention")));
    // At the end nothing is held.
    QVERIFY(story.locks().isEmpty());
    QVERIFY(html.contains(QLatin1String("The server holds no lock")));

    // A SQLite run tells nothing here: its single writer is another story.
    test::Cell cell;
    cell.variant = QStringLiteral("check-in-tx");
    cell.timing = QStringLiteral("concurrent");
    const std::unique_ptr<Run> run = test::finishedRun(QStringLiteral("order-create"), cell, 2, 1);
    LockStory sqlite;
    for (const TraceEvent& e : run->trace().events()) sqlite.follow(e);
    QVERIFY(!sqlite.told());
    QVERIFY(sqlite.storyHtml(QStringLiteral("now")).isEmpty());
}

void TraceWritersTest::shivizReleaseHappensBeforeTheWaiterGoesOn() {
    const Trace::Loaded trace = lockTrace("mariadb-check-for-update-deadlock.json");
    ShiVizExport format;
    QList<ShiVizEvent> events = shivizEvents(exportTrace(trace, format));
    QVERIFY(!events.isEmpty());
    const QString problem = clockProblem(events);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto find = [&events](const QString& host, const QString& words, qsizetype from = 0) {
        for (qsizetype i = from; i < events.size(); ++i) {
            if (events[i].host == host && events[i].text.contains(words))
                return i;
        }
        return qsizetype(-1);
    };
    // The wait is #1's event, on #1's host, and says whom it waits for.
    const qsizetype wait = find(QStringLiteral("service#1"), QStringLiteral("and waits: #1 waits "
                                                                            "for #2, #3"));
    QVERIFY(wait >= 0);
    // #2's deadlock is #2's own event.
    const qsizetype victim =
        find(QStringLiteral("service#2"), QStringLiteral("Deadlock: InnoDB rolled back #2's"));
    QVERIFY(victim > wait);
    // #1 goes on after a message from #2: the release happened before, and
    // #1's statement returns after that.
    const qsizetype goesOn =
        find(QStringLiteral("service#1"), QStringLiteral("#1 goes on: #2's transaction ended"));
    QVERIFY(goesOn > victim);
    QVERIFY(events[goesOn].clock.contains(QStringLiteral("service#2")));
    QVERIFY(atMost(events[victim].full, events[goesOn].full));
    const qsizetype result =
        find(QStringLiteral("service#1"), QStringLiteral("gets 1 row"), goesOn);
    QVERIFY(result > goesOn);
    QVERIFY(atMost(events[victim].full, events[result].full));
    // Before the release, #1's wait and #2's deadlock were concurrent.
    QVERIFY(!atMost(events[wait].full, events[victim].full) ||
            !atMost(events[victim].full, events[wait].full));
}

// The log's wait row names the attempts holding the lock, as the captions
// do, not the server sessions they happened to run on.
void TraceWritersTest::sqlLogNamesTheAttemptsAWaitIsFor() {
    const Trace::Loaded loaded = lockTrace("mariadb-check-for-update-deadlock.json");
    Trace trace;
    for (const TraceEvent& e : loaded.events) trace.append(e);
    SqlLogModel log;
    log.rebuild(trace);
    QStringList waits;
    for (int r = 0; r < log.rowCount(); ++r) {
        if (log.index(r, 0).data(SqlLogModel::KindRole).toString() == QLatin1String("lock-wait"))
            waits << log.index(r, SqlLogModel::Statement).data().toString();
    }
    QVERIFY(!waits.isEmpty());
    QCOMPARE(waits.first(), QStringLiteral("waits for #2, #3: gap lock on uk_orders_request_id"));
    for (const QString& w : std::as_const(waits))
        QVERIFY2(!w.contains(QRegularExpression(QStringLiteral("\\bc\\d"))), qPrintable(w));

    // ShiViz: a line on an attempt's own host ("service#2") or on the
    // database's, which names that host, does not repeat the number first.
    ShiVizExport format;
    const QRegularExpression tagged(
        QStringLiteral("^t=\\d+ #\\d+ (sends|gets|receives|c\\d|fire|response)"));
    int attemptLines = 0;
    for (const ShiVizEvent& e : shivizEvents(exportTrace(loaded, format))) {
        if (!e.host.contains(QLatin1Char('#')) && e.host != QLatin1String("database"))
            continue;
        ++attemptLines;
        QVERIFY2(!tagged.match(e.text).hasMatch(), qPrintable(e.host + ": " + e.text));
    }
    QVERIFY(attemptLines > 10);
}

void TraceWritersTest::chromeAndHistoryTellTheLocks() {
    // PostgreSQL: #3 and #2 wait for #1's transaction (a unique key), then
    // fail on it when #1 commits.
    const Trace::Loaded trace = lockTrace("postgres-check-for-update-wait.json");
    ChromeExport chrome;
    const QJsonArray events =
        QJsonDocument::fromJson(exportTrace(trace, chrome)).object().value("traceEvents").toArray();
    QMap<QString, QJsonObject> slices;  // wait slices by attempt
    QMap<qint64, QStringList> flows;    // id → its start and end
    QStringList released;               // the holders whose statements let a wait go
    for (const QJsonValue& v : events) {
        const QJsonObject o = v.toObject();
        const QString ph = o.value("ph").toString();
        const QJsonObject args = o.value("args").toObject();
        if (o.value("name").toString().startsWith(QLatin1String("lock wait"))) {
            QCOMPARE(ph, QStringLiteral("X"));
            slices.insert(args.value("attempt_id").toString(), o);
        }
        if (ph == QLatin1String("s") || ph == QLatin1String("f"))
            flows[o.value("id").toInteger()] << ph;
        if (ph == QLatin1String("X") &&
            o.value("name").toString() == QLatin1String("lock released"))
            released << args.value("attempt_id").toString();
    }
    QCOMPARE(slices.keys(), (QStringList{QStringLiteral("i1#2"), QStringLiteral("i1#3")}));
    QCOMPARE(slices["i1#3"].value("args").toObject().value("holders").toArray(),
             (QJsonArray{QStringLiteral("#1")}));
    // From the blocked statement's send (3 ms) to #1's commit (5 ms), whole.
    QCOMPARE(slices["i1#3"].value("ts").toInteger(), 3000);
    QCOMPARE(slices["i1#3"].value("dur").toInteger(), 2000);
    QCOMPARE(slices["i1#3"].value("args").toObject().value("outcome").toString(),
             QStringLiteral("unique-violation"));
    QCOMPARE(flows.size(), 2);
    for (const QStringList& f : std::as_const(flows))
        QCOMPARE(f, (QStringList{QStringLiteral("s"), QStringLiteral("f")}));
    QCOMPARE(released, (QStringList{QStringLiteral("i1#1"), QStringLiteral("i1#1")}));

    // MariaDB: the deadlocks are instants on the victims' attempts, and
    // their operations fail with the server's error in the history.
    const Trace::Loaded maria = lockTrace("mariadb-check-for-update-deadlock.json");
    ChromeExport chromeMaria;
    QStringList victims;
    for (const QJsonValue& v : QJsonDocument::fromJson(exportTrace(maria, chromeMaria))
                                   .object()
                                   .value("traceEvents")
                                   .toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value("ph").toString() == QLatin1String("n") &&
            o.value("name").toString() == QLatin1String("deadlock"))
            victims << o.value("id").toString();
    }
    QCOMPARE(victims, (QStringList{QStringLiteral("i1#3"), QStringLiteral("i1#2")}));
    HistoryExport history;
    QStringList failed;
    int waits = 0;
    for (const QByteArray& line : exportTrace(maria, history).split('\n')) {
        const QJsonObject op = QJsonDocument::fromJson(line).object();
        if (op.value("type").toString() == QLatin1String("fail")) {
            QCOMPARE(op.value("code").toInt(), 1213);
            failed << QStringLiteral("%1:%2")
                          .arg(op.value("attempt").toInt())
                          .arg(op.value("error").toString());
        }
        waits += int(op.value("lock_waits").toArray().size());
    }
    QCOMPARE(failed, (QStringList{QStringLiteral("3:deadlock"), QStringLiteral("2:deadlock")}));
    QCOMPARE(waits, 2);
}

void TraceWritersTest::fullDiskLeavesTheOldFile() {
    QTemporaryDir dir;
    const QString mountPoint = dir.filePath("small");
    QVERIFY(QDir().mkpath(mountPoint));
    QProcess mount;
    mount.start(QStringLiteral("mount"), {"-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint});
    if (!mount.waitForFinished(10'000) || mount.exitStatus() != QProcess::NormalExit ||
        mount.exitCode() != 0) {
        QSKIP("cannot mount a small tmpfs here (needs root); the full-disk path is untested");
    }
    auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mountPoint}); });
    const QString path = mountPoint + QStringLiteral("/report.csv");
    QString error;
    QVERIFY2(writeFileAtomically(path, "old report\n", &error), qPrintable(error));
    // Twice the size of the whole file system: the write stops short.
    QVERIFY(!writeFileAtomically(path, QByteArray(128 * 1024, 'x'), &error));
    QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("old report\n"));
    QCOMPARE(QDir(mountPoint).entryList(QDir::Files | QDir::Hidden).size(), 1);
    // Less than the free space but more than a page: written whole.
    QVERIFY2(writeFileAtomically(path, QByteArray(20 * 1024, 'y'), &error), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray(20 * 1024, 'y'));
    // Under the 16 KiB a file device buffers, with 4 KiB free: the failure
    // comes only when the last bytes are flushed, and is seen there.
    {
        QFile fill(mountPoint + QStringLiteral("/fill"));
        QVERIFY(fill.open(QIODevice::WriteOnly));
        const QByteArray page(4096, 'f');
        while (fill.write(page) == page.size() && fill.flush()) {
        }
        fill.close();
        QVERIFY(fill.resize(fill.size() / 4096 * 4096 - 4096));
    }
    QVERIFY(!writeFileAtomically(path, QByteArray(8 * 1024, 'z'), &error));
    QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray(20 * 1024, 'y'));
    QCOMPARE(QDir(mountPoint).entryList(QDir::Files | QDir::Hidden).size(), 2);
}

void TraceWritersTest::outputTakesNoPathThatChangedHands() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.csv"));
    const auto put = [&path](const QByteArray& bytes, QIODevice::OpenMode mode) {
        QFile f(path);
        QVERIFY(f.open(mode));
        QCOMPARE(f.write(bytes), bytes.size());
    };
    QString why;
    {
        // Free when noted, someone's file at the end: it stays.
        OutputFile out(path);
        QVERIFY2(out.open(&why), qPrintable(why));
        out.device().write("ours\n");
        put("mine\n", QIODevice::WriteOnly);
        QVERIFY(!out.commit(&why));
        QVERIFY(out.refused());
        QVERIFY2(why.contains(QStringLiteral("was created by someone else")), qPrintable(why));
        QCOMPARE(readAll(path), QByteArray("mine\n"));
    }
    {
        // Noted, then written to in place: it stays.
        OutputFile out(path);
        QVERIFY2(out.open(&why), qPrintable(why));
        out.device().write("ours\n");
        put("more\n", QIODevice::Append);
        QVERIFY(!out.commit(&why));
        QVERIFY(out.refused());
        QVERIFY2(why.contains(QStringLiteral("replaced or changed")), qPrintable(why));
        QCOMPARE(readAll(path), QByteArray("mine\nmore\n"));
    }
    {
        // Noted and untouched: replaced.
        OutputFile out(path);
        QVERIFY2(out.open(&why), qPrintable(why));
        out.device().write("ours\n");
        QVERIFY2(out.commit(&why), qPrintable(why));
        QVERIFY(!out.refused());
        QCOMPARE(readAll(path), QByteArray("ours\n"));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
}

void TraceWritersTest::unwritableFolderSaysWhy() {
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath("missing/report.csv");
    QVERIFY(!writeFileAtomically(path, "x", &error));
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("No such file or directory")),
             qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TraceWritersTest)
#include "tracewriters_test.moc"
