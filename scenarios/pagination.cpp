#include "pagination.h"

#include "attempt.h"
#include "pageaccount.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <stdexcept>

namespace idem {

namespace {

// This scenario's sentences, said in English in the trace and the summary
// and in the reader's language where they are shown.
Phrase said(const char* source, std::vector<Phrase> args = {}) {
    return Phrase("idem::Pagination", source, std::move(args));
}
Phrase reading(int page) {
    return said(QT_TRANSLATE_NOOP("idem::Pagination", "the user reads page %1"),
                {Phrase::number(page)});
}
Phrase pagesRead(int pages) {
    return said(QT_TRANSLATE_NOOP("idem::Pagination", "%1 pages"), {Phrase::number(pages)});
}

// Every variant shows the same order; only how it finds the next page differs.
const QString kFirstPage = QStringLiteral(R"(SELECT id, amount, created_at
FROM orders
ORDER BY created_at DESC, id DESC
LIMIT ?)");
const QString kOffsetPage = QStringLiteral(R"(SELECT id, amount, created_at
FROM orders
ORDER BY created_at DESC, id DESC
LIMIT ? OFFSET ?)");
const QString kCursorPage = QStringLiteral(R"(SELECT id, amount, created_at
FROM orders
WHERE created_at < ?
ORDER BY created_at DESC, id DESC
LIMIT ?)");
const QString kKeysetPage = QStringLiteral(R"(SELECT id, amount, created_at
FROM orders
WHERE (created_at, id) < (?, ?)
ORDER BY created_at DESC, id DESC
LIMIT ?)");

// The client logs what it displayed, [[id, created_at], ...] in page order:
// the judge's evidence of what the user saw.
const QString kLogPage =
    QStringLiteral(R"(INSERT INTO page_reads (reader, page, position, row_id, created_at)
SELECT ?, ?, key + 1, json_extract(value, '$[0]'), json_extract(value, '$[1]')
FROM json_each(?))");
// The same on PostgreSQL (the array's elements, numbered from 1; values
// bound as text are cast to the columns' types) ...
const QString kLogPagePostgres =
    QStringLiteral(R"(INSERT INTO page_reads (reader, page, position, row_id, created_at)
SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), shown.position,
       CAST(shown.item ->> 0 AS BIGINT), CAST(shown.item ->> 1 AS BIGINT)
FROM jsonb_array_elements(CAST(? AS JSONB)) WITH ORDINALITY AS shown(item, position))");
// ... and on MariaDB (JSON_TABLE, a row for each element).
const QString kLogPageMariaDb =
    QStringLiteral(R"(INSERT INTO page_reads (reader, page, position, row_id, created_at)
SELECT ?, ?, shown.position, shown.row_id, shown.created_at
FROM JSON_TABLE(?, '$[*]' COLUMNS (position   FOR ORDINALITY,
                                   row_id     BIGINT PATH '$[0]',
                                   created_at BIGINT PATH '$[1]')) AS shown)");
const QString& logPage(const QString& backend) {
    return backend == QLatin1String("postgres")  ? kLogPagePostgres
           : backend == QLatin1String("mariadb") ? kLogPageMariaDb
                                                 : kLogPage;
}
const QString kLogScrollEnd = QStringLiteral(R"(INSERT INTO scroll_ends (reader, pages, ended_at)
VALUES (?, ?, ?))");

// Other users, between two page reads.
const QString kInsertOrder = QStringLiteral(R"(INSERT INTO orders (amount, created_at)
VALUES (?, ?))");
const QString kDeleteSeen = QStringLiteral(R"(DELETE FROM orders
WHERE id IN (SELECT row_id
             FROM page_reads
             WHERE reader = ?
               AND row_id IN (SELECT id FROM orders)
             ORDER BY page, position
             LIMIT ?))");
// MariaDB takes no LIMIT in an IN subquery: the rows are chosen in a derived
// table first.
const QString kDeleteSeenMariaDb = QStringLiteral(R"(DELETE FROM orders
WHERE id IN (SELECT row_id
             FROM (SELECT row_id
                   FROM page_reads
                   WHERE reader = ?
                     AND row_id IN (SELECT id FROM orders)
                   ORDER BY page, position
                   LIMIT ?) AS seen))");

// The feed before the user opens the list: one order per second, oldest
// first, the newest one second before virtual time 0. With ties, each second
// holds a group of orders (created_at kept to the second, a busy shop).
const QString kSeedFeed = QStringLiteral(R"(WITH RECURSIVE n(i) AS (
    SELECT 0
    UNION ALL
    SELECT i + 1 FROM n WHERE i + 1 < ?
)
INSERT INTO orders (amount, created_at)
SELECT 100 + i * 37 % 900,
       ? - ((? - 1 - i) / ? + 1) * 1000
FROM n)");
// The same feed as PostgreSQL's engineers write it: the counter is a
// BIGINT from the start, so the timestamps (milliseconds) fit.
const QString kSeedFeedPostgres = QStringLiteral(R"(WITH RECURSIVE n(i) AS (
    SELECT CAST(0 AS BIGINT)
    UNION ALL
    SELECT i + 1 FROM n WHERE i + 1 < ?
)
INSERT INTO orders (amount, created_at)
SELECT 100 + i * 37 % 900,
       ? - ((? - 1 - i) / ? + 1) * 1000
FROM n)");
// ... and MariaDB's: the statement is the INSERT, the CTE feeds its SELECT,
// and DIV divides integers (its / gives a decimal).
const QString kSeedFeedMariaDb = QStringLiteral(R"(INSERT INTO orders (amount, created_at)
WITH RECURSIVE n(i) AS (
    SELECT 0
    UNION ALL
    SELECT i + 1 FROM n WHERE i + 1 < ?
)
SELECT 100 + i * 37 % 900,
       ? - ((? - 1 - i) DIV ? + 1) * 1000
FROM n)");
const QString kSnapshotFeed = QStringLiteral(R"(INSERT INTO feed_at_start (row_id, created_at)
SELECT id, created_at
FROM orders)");

const QString kWriter = QStringLiteral("writer");
// Virtual time 0 on the wall clock (2025-06-15 15:06:40 UTC), in ms.
constexpr qint64 kEpochMs = 1'750'000'000'000;
// How long the user looks at a page before asking for the next one; the
// writer is done long before (a few ms per statement).
constexpr qint64 kReadingMs = 4'000;

struct FeedShape {
    int rows = 100;
    int pageSize = 20;
    int inserts = 3;
    int deletes = 0;
    bool ties = false;

    int groupSize() const { return ties ? Pagination::tieGroupSize(pageSize) : 1; }
    // Offset under heavy inserts never reaches the end: the user gives up
    // after twice the pages the feed had at the start.
    int maxPages() const { return 2 * ((rows + pageSize - 1) / pageSize) + 1; }
};

FeedShape shapeOf(const ScenarioInfo& info, const RunConfig& c) {
    const auto number = [&](const char* key) {
        return info.paramValue(c, key).toInt();
    };
    return FeedShape{number("rows"), number("page-size"), number("inserts-per-page"),
                     number("deletes-per-page"), number("ties") == 1};
}

int readerOf(int intent) {
    return intent + 1;
}

QString displayedRows(const SqlResult& page) {
    QJsonArray rows;
    for (const QVariantList& row : page.data) {
        rows.append(QJsonArray{row[0].toLongLong(), row[2].toLongLong()});
    }
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact));
}

}  // namespace

int Pagination::tieGroupSize(int pageSize) {
    int size = 3;
    while (pageSize % size == 0) ++size;
    return size;
}

const Pagination::Strategy* Pagination::strategy(const QString& variant) {
    static const Strategy strategies[] = {
        {"offset", false, "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?", Cursor::Offset,
         kOffsetPage},
        {"cursor", false, "WHERE created_at < ? (the last row's timestamp), as in the article",
         Cursor::CreatedAt, kCursorPage},
        {"keyset", true, "WHERE (created_at, id) < (?, ?) (the last row's timestamp and id)",
         Cursor::CreatedAtAndId, kKeysetPage},
    };
    for (const Strategy& s : strategies) {
        if (variant == QLatin1String(s.id))
            return &s;
    }
    return nullptr;
}

Pagination::Pagination() {
    info_.id = QStringLiteral("pagination");
    info_.group = ScenarioGroup::Read;
    info_.title = QStringLiteral("Pagination (read idempotency)");
    for (const char* id : {"offset", "cursor", "keyset"}) {
        const Strategy& st = *strategy(QLatin1String(id));
        info_.variants << VariantInfo{.id = QString::fromLatin1(st.id),
                                      .recommended = st.recommended,
                                      .summary = QString::fromLatin1(st.summary),
                                      .handle = [this, &st](Attempt& a) {
                                          return scroll(a, st);
                                      }};
    }
    // Each "next page" is the user scrolling; nobody retries a page read.
    info_.sources = {Source::DoubleClick};
    info_.defaultTiming = Timing::Retry;
    info_.defaultDuplicates = 0;
    info_.callerRetries = false;
    // A reader runs two statements a page (the page, its log) and, while the
    // user reads it, the other users' transaction: BEGIN, the inserts, the
    // delete, COMMIT; up to maxPages pages, then its scroll's end.
    info_.statementsPerAttempt = [this](const RunConfig& c) {
        FeedShape feed = shapeOf(info_, c);
        // An unchecked configuration (a trace being read) may hold anything.
        feed.rows = std::clamp(feed.rows, 1, 1'000'000);
        feed.pageSize = std::clamp(feed.pageSize, 1, 1'000'000);
        const qint64 perPage =
            2 + 2 + qint64(std::clamp(feed.inserts, 0, 1'000'000)) + (feed.deletes > 0 ? 1 : 0);
        return qint64(feed.maxPages()) * perPage + 1;
    };
    info_.params = {
        {"rows", "100", {}, 1, 10'000, "orders in the feed when the user opens the list"},
        {"page-size", "20", {}, 1, 500, "orders per page"},
        {"inserts-per-page", "3", {}, 0, 100, "new orders inserted while the user reads a page"},
        {"deletes-per-page",
         "0",
         {},
         0,
         100,
         "orders the user has already seen deleted while the user reads a page"},
        {"ties",
         "0",
         {},
         0,
         1,
         "1: orders come in groups sharing one created_at; page boundaries fall inside groups"},
    };
    info_.tables = {"orders", "page_reads", "feed_at_start", "scroll_ends"};
    info_.lanes = {"client", "service", "writer"};
    info_.baseline = "offset";
    info_.effectTable = "orders";
    info_.stage = ScenarioInfo::Stage::Paging;
    // The feed as it was when paging began and where each reader stopped:
    // the judge's records, not the shop's.
    info_.internalTables = {"feed_at_start", "scroll_ends"};
    info_.effectNames = {"shown_twice", "missed"};
    info_.pagingNotes = {.page = "page", .feedChanged = "feed-changed"};
    info_.words = {
        .actors = {{kWriter, said(QT_TRANSLATE_NOOP("idem::Pagination", "writer"))}},
        .notes = {{"page",
                   said(QT_TRANSLATE_NOOP("idem::Pagination", "page")),
                   said(QT_TRANSLATE_NOOP("idem::Pagination", "The user gets page %1: %2 row(s).")),
                   {NoteArg::field("page"), NoteArg::field("rows")}},
                  {"gave-up",
                   said(QT_TRANSLATE_NOOP("idem::Pagination", "gave up")),
                   said(QT_TRANSLATE_NOOP("idem::Pagination",
                                          "The reader stops after %1 pages, the most it will "
                                          "read.")),
                   {NoteArg::field("page")}},
                  {"feed-changed",
                   said(QT_TRANSLATE_NOOP("idem::Pagination", "feed changed")),
                   said(QT_TRANSLATE_NOOP("idem::Pagination",
                                          "While the user reads page %1, other users add %2 "
                                          "order(s) and delete %3 the user has seen.")),
                   {NoteArg::field("after_page"), NoteArg::field("inserted"),
                    NoteArg::field("deleted")}}},
        .params = {{"rows", said(QT_TRANSLATE_NOOP("idem::Pagination", "Rows in the feed")),
                    said(QT_TRANSLATE_NOOP("idem::Pagination",
                                           "Orders in the feed when the user opens the list"))},
                   {"page-size", said(QT_TRANSLATE_NOOP("idem::Pagination", "Page size")),
                    said(QT_TRANSLATE_NOOP("idem::Pagination", "Orders per page"))},
                   {"inserts-per-page",
                    said(QT_TRANSLATE_NOOP("idem::Pagination", "Inserts per page")),
                    said(QT_TRANSLATE_NOOP("idem::Pagination",
                                           "New orders inserted while the user reads a page"))},
                   {"deletes-per-page",
                    said(QT_TRANSLATE_NOOP("idem::Pagination", "Deletes per page")),
                    said(QT_TRANSLATE_NOOP("idem::Pagination",
                                           "Orders already seen that are deleted while the user "
                                           "reads a page"))},
                   {"ties", said(QT_TRANSLATE_NOOP("idem::Pagination", "Equal timestamps")),
                    said(QT_TRANSLATE_NOOP("idem::Pagination",
                                           "On: orders come in groups sharing one created_at, "
                                           "and page boundaries fall inside a group"))}},
    };
    info_.schema = {
        QStringLiteral(R"(CREATE TABLE orders (
    id         INTEGER PRIMARY KEY,
    amount     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
))"),
        QStringLiteral("CREATE INDEX idx_orders_created_at_id ON orders (created_at, id)"),
        QStringLiteral(R"(CREATE TABLE page_reads (
    reader     INTEGER NOT NULL,
    page       INTEGER NOT NULL,
    position   INTEGER NOT NULL,
    row_id     INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (reader, page, position)
))"),
        QStringLiteral("CREATE INDEX idx_page_reads_row ON page_reads (reader, row_id)"),
        QStringLiteral(R"(CREATE TABLE feed_at_start (
    row_id     INTEGER PRIMARY KEY,
    created_at INTEGER NOT NULL
))"),
        QStringLiteral(R"(CREATE TABLE scroll_ends (
    reader   INTEGER PRIMARY KEY,
    pages    INTEGER NOT NULL,
    ended_at INTEGER NOT NULL
))"),
    };
}

void Pagination::seed(Setup& setup, int intent) const {
    if (intent != 0)
        return;  // one feed; every reader pages through it
    const FeedShape feed = shapeOf(info_, setup.config());
    const QString& backend = setup.config().backend;
    const QString& seedFeed = backend == QLatin1String("postgres")  ? kSeedFeedPostgres
                              : backend == QLatin1String("mariadb") ? kSeedFeedMariaDb
                                                                    : kSeedFeed;
    setup.exec(seedFeed, {feed.rows, kEpochMs, feed.rows, feed.groupSize()});
    setup.exec(kSnapshotFeed);
}

void Pagination::plan(Planner& planner, int intent) const {
    AttemptSpec reader;
    reader.intent = intent;
    reader.number = 1;
    reader.at = planner.intentStart(intent);
    reader.kind = QStringLiteral("original");
    planner.fire(reader);
}

Task<Reply> Pagination::handle(Attempt& a) const {
    // Other users' writes between page reads run as processes of their own.
    if (a.actor() == kWriter)
        return writeBetweenPages(a);
    return a.variant().handle(a);
}

Task<Reply> Pagination::scroll(Attempt& a, const Strategy& strategy) const {
    const FeedShape feed = shapeOf(info_, a.config());
    const int reader = readerOf(a.intent());
    qint64 lastCreatedAt = 0;  // the last row shown so far: the cursor
    qint64 lastId = 0;
    int page = 1;
    for (;; ++page) {
        const SqlResult rows = co_await readPage(a, strategy, page, lastCreatedAt, lastId);
        if (!rows.empty()) {
            co_await a.sql(logPage(a.config().backend), reader, page, displayedRows(rows));
            lastId = rows.data.last()[0].toLongLong();
            lastCreatedAt = rows.data.last()[2].toLongLong();
        }
        a.note(QStringLiteral("page"), {{"page", page}, {"rows", rows.rows}});
        if (rows.rows < feed.pageSize)
            break;  // the end of the list
        if (page == feed.maxPages()) {
            a.note(QStringLiteral("gave-up"), {{"page", page}, {"max_pages", feed.maxPages()}});
            break;
        }
        // While the user reads this page, other users change the feed.
        if (feed.inserts > 0 || feed.deletes > 0) {
            AttemptSpec writer;
            writer.intent = a.intent();
            writer.at = a.now();
            writer.caller = kWriter;
            writer.actor = kWriter;
            writer.kind = kWriter;
            writer.counted = false;
            writer.payload = {{"after_page", page}};
            a.fire(writer);
        }
        co_await a.work(kReadingMs, reading(page));
    }
    co_await a.sql(kLogScrollEnd, reader, page, a.now());
    co_return Reply{Response::Success, pagesRead(page)};
}

Task<SqlResult> Pagination::readPage(Attempt& a, const Strategy& strategy, int page,
                                     qint64 lastCreatedAt, qint64 lastId) const {
    const qint64 size = shapeOf(info_, a.config()).pageSize;
    switch (strategy.cursor) {
        case Cursor::Offset:
            co_return co_await a.sql(strategy.nextPage, size, (page - 1) * size);
        case Cursor::CreatedAt:
            if (page == 1)
                co_return co_await a.sql(kFirstPage, size);
            co_return co_await a.sql(strategy.nextPage, lastCreatedAt, size);
        case Cursor::CreatedAtAndId:
            if (page == 1)
                co_return co_await a.sql(kFirstPage, size);
            co_return co_await a.sql(strategy.nextPage, lastCreatedAt, lastId, size);
    }
    co_return SqlResult{};
}

Task<Reply> Pagination::writeBetweenPages(Attempt& a) const {
    const FeedShape feed = shapeOf(info_, a.config());
    const int afterPage = a.payload().value(QStringLiteral("after_page")).toInt();
    qint64 inserted = 0;
    qint64 deleted = 0;
    co_await a.begin();
    for (int k = 0; k < feed.inserts; ++k) {
        // New orders are newer than everything in the feed.
        const SqlResult added =
            co_await a.sql(kInsertOrder, 100 + (afterPage * 7 + k) * 13 % 900, kEpochMs + a.now());
        inserted += added.rows;
    }
    if (feed.deletes > 0) {
        const SqlResult removed = co_await a.sql(
            a.config().backend == QLatin1String("mariadb") ? kDeleteSeenMariaDb : kDeleteSeen,
            readerOf(a.intent()), feed.deletes);
        deleted = removed.rows;
    }
    co_await a.commit();
    // What the others did to the feed, for the views that show it beside the pages.
    a.note(QStringLiteral("feed-changed"), {{"reader", readerOf(a.intent())},
                                            {"after_page", afterPage},
                                            {"inserted", inserted},
                                            {"deleted", deleted}});
    co_return Reply{Response::Success, {}};
}

Effects Pagination::effects(Reader& db, int intent) const {
    PageAccount account(db, readerOf(intent));
    return {{QStringLiteral("shown_twice"), account.shownTwice()},
            {QStringLiteral("missed"), account.missed()}};
}

Effects Pagination::expectedEffects(const RunConfig&, int) const {
    return {{QStringLiteral("shown_twice"), 0}, {QStringLiteral("missed"), 0}};
}

Verdict Pagination::judge(const IntentJudgement& j) const {
    if (j.effects.value(QStringLiteral("shown_twice")) > 0)
        return Verdict::Duplicated;
    if (j.effects.value(QStringLiteral("missed")) > 0)
        return Verdict::Lost;
    if (!j.answered)
        return Verdict::Stuck;
    return Verdict::ExactlyOnce;
}

namespace {

// The database's plan for a page after the first, one step a line: SQLite's
// EXPLAIN QUERY PLAN as it numbers its steps; PostgreSQL's EXPLAIN, a line
// each; MariaDB's EXPLAIN, a table read each (its access type, key, the rows
// it expects to read).
QJsonArray queryPlan(Reader& db, const QString& backend, const QString& page,
                     const QVariantList& params) {
    QJsonArray plan;
    if (backend == QLatin1String("sqlite")) {
        for (const QVariantList& row :
             db.query(QStringLiteral("EXPLAIN QUERY PLAN ") + page, params).data) {
            plan.append(QJsonObject{{"id", row.value(0).toLongLong()},
                                    {"parent", row.value(1).toLongLong()},
                                    {"detail", row.value(3).toString()}});
        }
        return plan;
    }
    const bool maria = backend == QLatin1String("mariadb");
    qint64 id = 0;
    for (const QVariantList& row : db.query(QStringLiteral("EXPLAIN ") + page, params).data) {
        QString detail = row.value(0).toString();
        if (maria) {
            detail =
                QStringLiteral("%1 %2 type %3 key %4 rows %5 %6")
                    .arg(row.value(1).toString(), row.value(2).toString(), row.value(3).toString(),
                         row.value(5).toString(), row.value(8).toString(), row.value(9).toString())
                    .trimmed();
        }
        plan.append(QJsonObject{{"id", ++id}, {"parent", 0}, {"detail", detail}});
    }
    return plan;
}

}  // namespace

void Pagination::extendSummary(Reader& db, const RunConfig& config, QJsonObject& summary) const {
    const FeedShape feed = shapeOf(info_, config);
    const Strategy& st = *strategy(config.variant);
    const bool cursor = st.cursor == Cursor::CreatedAt;
    QJsonArray pages;
    for (int intent = 0; intent < std::max(1, config.intents); ++intent) {
        for (const QJsonValue& p : PageAccount(db, readerOf(intent)).pages(cursor)) pages.append(p);
    }
    summary.insert("pages", pages);

    QJsonObject shape{
        {"start_rows", db.count(QStringLiteral("SELECT COUNT(*) FROM feed_at_start"))},
        {"inserted", db.count(QStringLiteral(R"(SELECT COUNT(*)
FROM orders
WHERE id NOT IN (SELECT row_id FROM feed_at_start))"))},
        {"deleted", db.count(QStringLiteral(R"(SELECT COUNT(*)
FROM feed_at_start
WHERE row_id NOT IN (SELECT id FROM orders))"))},
        {"page_size", feed.pageSize},
    };
    if (feed.ties)
        shape.insert("tie_group_size", feed.groupSize());
    summary.insert("feed", shape);

    // How the database finds a page after the first: offset scans past the
    // skipped rows, a cursor or keyset seeks into the (created_at, id) index.
    QVariantList params;
    switch (st.cursor) {
        case Cursor::Offset:
            params = {feed.pageSize, feed.pageSize};
            break;
        case Cursor::CreatedAt:
            params = {kEpochMs, feed.pageSize};
            break;
        case Cursor::CreatedAtAndId:
            params = {kEpochMs, 0, feed.pageSize};
            break;
    }
    summary.insert("query_plan", queryPlan(db, config.backend, st.nextPage, params));
}

}  // namespace idem
