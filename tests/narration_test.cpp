// Every step of every scenario, variant, crash point and timing has a
// caption, in English and in Chinese, and the captions say what the run did.
#include "narration.h"
#include "narrationtext.h"
#include "registry.h"
#include "run.h"
#include "testsupport.h"
#include "traceevent.h"
#include "tracewriters.h"

#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

using namespace idem;

namespace {

// The configurations the captions must cover: each scenario's variants ×
// (no crash and each of the variant's crash points) × every timing, plus one
// run per non-default value of every scenario parameter (for a numeric one,
// the next value above its default).
QList<RunConfig> everyConfiguration() {
    QList<RunConfig> configs;
    for (const Scenario* scenario : allScenarios()) {
        const ScenarioInfo& info = scenario->info();
        for (const VariantInfo& v : info.variants) {
            if (v.serverOnly)
                continue;  // a server's alone (SPEC section 8)
            QList<CrashPoint> crashes{CrashPoint::None};
            crashes << v.crashPoints;
            for (CrashPoint crash : crashes) {
                for (const QString& timing : timingIds()) {
                    RunConfig c;
                    c.scenario = info.id;
                    c.variant = v.id;
                    c.crash = crash;
                    c.timing = *timingFromId(timing);
                    c.duplicates = 2;
                    configs << c;
                }
            }
            for (const ParamInfo& p : info.params) {
                QStringList values = p.allowed;
                const qint64 next = p.defaultValue.toLongLong() + 1;
                if (values.isEmpty() && next <= p.max)
                    values << QString::number(next);
                for (const QString& value : values) {
                    if (value == p.defaultValue)
                        continue;
                    RunConfig c;
                    c.scenario = info.id;
                    c.variant = v.id;
                    c.timing = info.defaultTiming;
                    c.duplicates = 2;
                    c.params.insert(p.key, value);
                    configs << c;
                }
            }
        }
    }
    return configs;
}

// Runs `config` step by step; every event's caption and every step's
// caption, in order.
struct Told {
    QStringList events;
    QStringList steps;
};

Told tell(const RunConfig& config) {
    Run run(config, *findScenario(config.scenario));
    QString error;
    if (!run.start(&error))
        qFatal("%s", qPrintable(error));
    const ScenarioWords* words = &findScenario(config.scenario)->info().words;
    Narrator perEvent(config.intents, words);
    Narrator perStep(config.intents, words);
    Told told;
    qsizetype from = 0;
    const auto step = [&] {
        const QList<TraceEvent>& events = run.trace().events();
        for (qsizetype i = from; i < events.size(); ++i) {
            const QString caption = perEvent.caption(events.at(i));
            if (caption.isEmpty()) {
                told.events << QStringLiteral("<no caption for %1 in %2/%3>")
                                   .arg(events.at(i).kindId(), config.scenario, config.variant);
            } else {
                told.events << caption;
            }
        }
        if (from < events.size())
            told.steps << perStep.narrate(events, from, events.size());
        from = events.size();
    };
    step();
    while (run.step()) step();
    test::finish(run);
    step();
    return told;
}

// RFC 4180: fields in quotes may hold commas, quotes ("") and line breaks.
QList<QStringList> csvRows(const QString& text) {
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() &&
                text.at(i + 1) == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row << field;
            field.clear();
            rows << row;
            row.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    return rows;
}

bool anyContains(const QStringList& captions, const QString& text) {
    for (const QString& c : captions)
        if (c.contains(text))
            return true;
    return false;
}

}  // namespace

class NarrationTest : public QObject {
    Q_OBJECT
private slots:
    void everyEventHasACaption();
    void everyCaptionIsTranslated();
    void captionsSayWhatHappened();
    void captionsDoNotPromiseWhatTheVariantDoesNot();
    void csvHasACaptionForEveryEvent();
    void outboxHelpersAreCalledByTheirOwnNumbers();
    void aWaiterAheadInTheQueueIsNotCalledAHolder();
    void anAttemptsLabelIsSpacedBeforeAChineseWordOnly();
};

void NarrationTest::everyEventHasACaption() {
    int runs = 0;
    qint64 events = 0;
    for (const RunConfig& config : everyConfiguration()) {
        const Told told = tell(config);
        for (const QString& caption : told.events)
            QVERIFY2(!caption.startsWith(QLatin1Char('<')), qPrintable(caption));
        for (const QString& caption : told.steps)
            QVERIFY2(!caption.isEmpty(), qPrintable(config.scenario + "/" + config.variant));
        ++runs;
        events += told.events.size();
    }
    qInfo("%d runs, %lld events, all captioned", runs, events);
    QVERIFY(runs > 300);
}

void NarrationTest::everyCaptionIsTranslated() {
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")));
    QCoreApplication::installTranslator(&zh);
    Narrator::untranslated();  // forget anything said before
    static const QRegularExpression chinese(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    // A Latin word after Chinese keeps its space ("应答 TCC 协调者").
    static const QRegularExpression glued(QStringLiteral("[\\x{4e00}-\\x{9fff}][A-Za-z]"));
    for (const RunConfig& config : everyConfiguration()) {
        const Told told = tell(config);
        for (const QString& caption : told.steps) {
            QVERIFY2(caption.contains(chinese), qPrintable(caption));
            QVERIFY2(!caption.contains(glued), qPrintable(caption));
        }
    }
    const QStringList missing = Narrator::untranslated();
    QCoreApplication::removeTranslator(&zh);
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1String("\n"))));
}

void NarrationTest::captionsSayWhatHappened() {
    RunConfig payment;
    payment.scenario = QStringLiteral("payment-callback");
    payment.variant = QStringLiteral("none");
    payment.timing = Timing::Retry;
    payment.duplicates = 1;
    Told told = tell(payment);
    // Inside its transaction: counted as what the database will hold if it
    // commits, and then said to be there for everyone.
    QVERIFY(anyContains(told.steps,
                        QStringLiteral("#2 inserts another pay_flow row for the same request, "
                                       "not yet committed: if it commits there will be 2 of "
                                       "them, and nothing checks for a repeat.")));
    // The commit is told by itself (a caption per event); in its step the
    // answer says more.
    Narrator one(1, &findScenario(payment.scenario)->info().words);
    QStringList each;
    const std::unique_ptr<Run> run = test::finishedRun(payment);
    for (const TraceEvent& e : run->trace().events()) each << one.caption(e);
    QVERIFY2(each.contains(QStringLiteral("#2 commits: the database now holds 2 ledger rows, 2 "
                                          "pay_flow rows for this request.")),
             qPrintable(each.join("\n")));
    QVERIFY(anyContains(told.steps, QStringLiteral("where 1 was expected: 1 too many")));

    payment.variant = QStringLiteral("state-machine");
    told = tell(payment);
    QVERIFY2(anyContains(told.steps, QStringLiteral("#2 cannot move")),
             qPrintable(told.steps.join("\n")));
    QVERIFY(anyContains(told.steps, QStringLiteral("it is PAID now")));
    QVERIFY(!anyContains(told.steps, QStringLiteral("too many")));

    RunConfig order;
    order.scenario = QStringLiteral("order-create");
    order.variant = QStringLiteral("dedup-table");
    order.timing = Timing::Retry;
    order.duplicates = 1;
    order.crash = CrashPoint::AfterBusiness;
    order.crashAttempt = 1;
    told = tell(order);
    QVERIFY(anyContains(told.steps,
                        QStringLiteral("#1 dies after committing the business change but before "
                                       "marking its guard record done.")));
    QVERIFY(anyContains(told.steps, QStringLiteral("The database rolls back")) ||
            anyContains(told.steps, QStringLiteral("looks in the business table")));
}

// Captions that were false for some variants: a failure kept as the answer
// is not "a retry may claim it again"; a failed record is taken over for its
// failure, not its age; a retry after an error answer did get an answer; a
// reader logging the rows it showed is not repeating a request; code that
// ignores a failed statement is said to.
void NarrationTest::captionsDoNotPromiseWhatTheVariantDoesNot() {
    RunConfig cached = defaultConfig(*findScenario("order-create"));
    cached.variant = QStringLiteral("dedup-cache-error");
    cached.timing = Timing::Retry;
    cached.params.insert("business-error", "1");
    Told told = tell(cached);
    const QString all = told.events.join("\n");
    QVERIFY2(!all.contains("may claim it again") && !all.contains("a retry is welcome"),
             qPrintable(all));
    QVERIFY2(all.contains("keeps the error as the answer"), qPrintable(all));
    QVERIFY2(all.contains("a retry will get the same error"), qPrintable(all));
    QVERIFY2(all.contains("was answered with an error"), qPrintable(all));
    QVERIFY2(!all.contains("no definite answer"), qPrintable(all));

    RunConfig takeover = cached;
    takeover.variant = QStringLiteral("dedup-table");
    told = tell(takeover);
    const QString taken = told.events.join("\n");
    QVERIFY2(taken.contains("its record says the last try failed"), qPrintable(taken));
    QVERIFY2(!taken.contains("older than the expiry"), qPrintable(taken));

    RunConfig pages = defaultConfig(*findScenario("pagination"));
    told = tell(pages);
    QVERIFY2(!told.events.join("\n").contains("for the same request"),
             qPrintable(told.events.join("\n")));

    RunConfig tcc = defaultConfig(*findScenario("tcc"));
    tcc.variant = QStringLiteral("naive");
    tcc.params.insert("cancel-before-try", "1");
    told = tell(tcc);
    QVERIFY2(anyContains(told.events, "ignores its failed statement"),
             qPrintable(told.events.join("\n")));
}

// The CSV export carries the captions: a column of its own, no empty cell
// (every scenario's recommended variant and its `none`-like first variant);
// and an sql row's count in one of two columns, neither for BEGIN or COMMIT.
void NarrationTest::csvHasACaptionForEveryEvent() {
    int rows = 0, control = 0;
    for (const Scenario* scenario : allScenarios()) {
        for (const VariantInfo& v :
             {scenario->info().variants.first(), scenario->info().variants.last()}) {
            RunConfig c = defaultConfig(*scenario);
            c.variant = v.id;
            Run run(c, *scenario);
            QString error;
            QVERIFY(run.start(&error));
            run.runToEnd();
            QVERIFY(run.finish(&error));
            const QList<QStringList> table = csvRows(QString::fromUtf8(
                traceToCsv(run.trace().events(), false, &scenario->info().words)));
            QVERIFY(table.size() > 1);
            QCOMPARE(table.first().last(), QString("caption"));
            const qsizetype sql = table.first().indexOf("sql");
            const qsizetype returned = table.first().indexOf("rows_returned");
            const qsizetype changed = table.first().indexOf("rows_changed");
            QVERIFY(sql > 0 && returned > 0 && changed > 0 && !table.first().contains("rows"));
            for (int i = 1; i < table.size(); ++i) {
                const QStringList& row = table.at(i);
                QCOMPARE(row.size(), table.first().size());
                QVERIFY2(!row.last().trimmed().isEmpty(), qPrintable(row.join(QLatin1Char('|'))));
                QVERIFY2(row.at(returned).isEmpty() || row.at(changed).isEmpty(),
                         qPrintable(row.join(QLatin1Char('|'))));
                if (row.at(sql).startsWith(QLatin1String("BEGIN")) ||
                    row.at(sql).startsWith(QLatin1String("COMMIT"))) {
                    QVERIFY2(row.at(returned).isEmpty() && row.at(changed).isEmpty(),
                             qPrintable(row.join(QLatin1Char('|'))));
                    ++control;
                }
                ++rows;
            }
        }
    }
    QVERIFY(rows > 500);
    QVERIFY(control > 20);
}

// The outbox's relay, broker and consumer are numbered apart from the
// create requests: "relay R2", never "#2", in both languages.
void NarrationTest::outboxHelpersAreCalledByTheirOwnNumbers() {
    RunConfig outbox;
    outbox.scenario = QStringLiteral("outbox");
    outbox.variant = QStringLiteral("outbox");
    outbox.timing = Timing::Retry;
    outbox.crash = CrashPoint::AfterPublish;
    outbox.duplicates = 1;
    const QString english = tell(outbox).events.join(QLatin1Char('\n'));
    for (const char* said :
         {"The outbox relay R1 publishes event evt-O20250001-1 to the broker.",
          "The outbox relay R1 reads outbox", "The outbox relay R2 moves evt-O20250001-1",
          "The broker B1 delivers message 1 to the consumer.",
          "The broker B2 delivers message 2 to the consumer.", "The consumer C2 "}) {
        QVERIFY2(english.contains(QLatin1String(said)), said);
    }
    // #1 and #2 are the two create requests, and nobody else.
    for (const QString& caption : english.split(QLatin1Char('\n'))) {
        if (caption.contains(QLatin1Char('#')))
            QVERIFY2(!caption.contains(QLatin1String("relay")) &&
                         !caption.contains(QLatin1String("consumer")) &&
                         !caption.startsWith(QLatin1String("The broker")),
                     qPrintable(caption));
    }
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm")));
    QCoreApplication::installTranslator(&zh);
    const QString chinese = tell(outbox).events.join(QLatin1Char('\n'));
    QCoreApplication::removeTranslator(&zh);
    for (const char* said : {"消息中继 R1把事件 evt-O20250001-1 发布到消息中间件。",
                             "消息中间件 B2把消息 2 投递给消费者。", "消费者 C2"}) {
        QVERIFY2(chinese.contains(QString::fromUtf8(said)), said);
    }
}

// InnoDB names as a blocker every transaction whose request for the lock
// is queued ahead, waiting or not: a caption calls only those that do not
// wait holders (a server's lock-wait events, as the scheduler records them).
void NarrationTest::aWaiterAheadInTheQueueIsNotCalledAHolder() {
    const ScenarioInfo& info = findScenario("order-create")->info();
    Narrator narrator(1, &info.words);
    qint64 seq = 0;
    const auto statement = [&](qint32 attempt, const QString& sql) {
        TraceEvent e;
        e.seq = ++seq;
        e.kind = EventKind::Sql;
        e.actor = nameId(u"service");
        e.intent = 0;
        e.attempt = attempt;
        e.connection = qint16(attempt);
        e.sql = sql;
        return e;
    };
    const auto wait = [&](qint32 attempt, const QString& holders, const QString& lock) {
        TraceEvent e;
        e.seq = ++seq;
        e.kind = EventKind::LockWait;
        e.actor = nameId(u"service");
        e.intent = 0;
        e.attempt = attempt;
        e.fields.set("connection", QStringLiteral("c%1").arg(attempt));
        e.fields.set("holder", holders);
        e.fields.set("lock", lock);
        return e;
    };
    const QString gap = QStringLiteral(
        "waits for c1: RECORD X,GAP,INSERT_INTENTION on `orders` index uk_orders_request_id "
        "row supremum pseudo-record, held as S,GAP");
    for (qint32 a : {1, 2, 3})
        narrator.caption(statement(a, "SELECT id FROM orders WHERE request_id = ? FOR UPDATE"));
    const QString first = narrator.caption(wait(2, "c1", gap));
    QVERIFY2(first.contains("#2 waits for the gap lock #1 holds"), qPrintable(first));
    const QString both = narrator.caption(wait(3, "c1, c2", gap));
    QVERIFY2(both.contains("#1 holds it, and #2, which asked first and waits too, is ahead"),
             qPrintable(both));
    const QString ahead = narrator.caption(wait(1, "c2", gap));
    QVERIFY2(ahead.contains("#1 waits on #2") && ahead.contains("queues behind"),
             qPrintable(ahead));
    // A statement that ends is no longer waiting: a holder again.
    narrator.caption(statement(2, "INSERT INTO orders (request_id) VALUES (?)"));
    const QString later = narrator.caption(wait(3, "c2", gap));
    QVERIFY2(later.contains("#3 waits for the gap lock #2 holds"), qPrintable(later));
    // A locking read with no index scans the table: its lock ends the primary key.
    const QString scan = narrator.caption(
        wait(3, "c2",
             "waits for c2: RECORD X,INSERT_INTENTION on `orders` index PRIMARY row supremum "
             "pseudo-record, held as S"));
    QVERIFY2(scan.contains("scanned the whole table"), qPrintable(scan));
    // Another client of the server holds it: named as the server names it,
    // and the caption says no step of the run can free it.
    TraceEvent outside = wait(1, QString(),
                              "waits for a connection outside the run: relation "
                              "RowExclusiveLock on orders");
    outside.fields.set("outside", QStringLiteral("pid 4242, user ana, application psql, idle in "
                                                 "transaction: LOCK TABLE orders IN SHARE MODE"));
    const QString other = narrator.caption(outside);
    QVERIFY2(other.contains("held by a connection outside the run (pid 4242, user ana") &&
                 other.contains("No step of the run can free it"),
             qPrintable(other));
}

void NarrationTest::anAttemptsLabelIsSpacedBeforeAChineseWordOnly() {
    QCOMPARE(narration::joinSentences({QStringLiteral("#1记录下这个请求。")}),
             QStringLiteral("#1 记录下这个请求。"));
    // The ideographic comma and full stop join labels as they are.
    QCOMPARE(narration::joinSentences({QStringLiteral("#1 等待 #2、#3 持有的锁。")}),
             QStringLiteral("#1 等待 #2、#3 持有的锁。"));
    QCOMPARE(narration::joinSentences({QStringLiteral("回滚了 #2。")}),
             QStringLiteral("回滚了 #2。"));
    QCOMPARE(narration::joinSentences({QStringLiteral("#12 waits.")}),
             QStringLiteral("#12 waits."));
}

QTEST_GUILESS_MAIN(NarrationTest)
#include "narration_test.moc"
