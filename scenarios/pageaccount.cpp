#include "pageaccount.h"

#include "authoring.h"

#include <QHash>
#include <QJsonObject>

#include <algorithm>
#include <vector>

namespace idem {

namespace {

const QString kShownTwice = QStringLiteral(R"(SELECT COUNT(*)
FROM (SELECT row_id
      FROM page_reads
      WHERE reader = ?
      GROUP BY row_id
      HAVING COUNT(*) > 1) AS shown_twice)");

// Existed at the start, still in the feed (never deleted), never shown; and
// either the reader is done, or it has already shown an older row.
const QString kLost = QStringLiteral(R"(SELECT s.row_id, s.created_at
FROM feed_at_start s
WHERE s.row_id IN (SELECT id FROM orders)
  AND s.row_id NOT IN (SELECT row_id FROM page_reads WHERE reader = ?)
  AND (EXISTS (SELECT 1 FROM scroll_ends WHERE reader = ?)
       OR (s.created_at, s.row_id) > (SELECT created_at, row_id
                                      FROM page_reads
                                      WHERE reader = ?
                                      ORDER BY created_at, row_id
                                      LIMIT 1))
ORDER BY s.created_at DESC, s.row_id DESC)");

const QString kShown = QStringLiteral(R"(SELECT page, row_id, created_at
FROM page_reads
WHERE reader = ?
ORDER BY page, position)");

// Rows an earlier page of the same reader already showed.
const QString kShownBefore = QStringLiteral(R"(SELECT r.page, r.row_id
FROM page_reads r
JOIN (SELECT row_id, MIN(page) AS page
      FROM page_reads
      WHERE reader = ?
      GROUP BY row_id) first_shown ON first_shown.row_id = r.row_id
WHERE r.reader = ?
  AND r.page > first_shown.page
ORDER BY r.page, r.position)");

// A row's place in the feed's order: ORDER BY created_at DESC, id DESC.
struct FeedKey {
    qint64 createdAt = 0;
    qint64 id = 0;
    auto operator<=>(const FeedKey&) const = default;
};

struct PageRecord {
    int number = 0;
    QJsonArray rows;
    QJsonArray duplicates;
    QJsonArray lost;
    FeedKey boundary;  // the page's last row
};

}  // namespace

qint64 PageAccount::shownTwice() {
    return db_.count(kShownTwice, {reader_});
}

qint64 PageAccount::missed() {
    return db_.query(kLost, {reader_, reader_, reader_}).rows;
}

QJsonArray PageAccount::pages(bool withSkipped) {
    std::vector<PageRecord> pages;
    QHash<int, std::size_t> indexOf;
    for (const QVariantList& row : db_.query(kShown, {reader_}).data) {
        const int number = row[0].toInt();
        if (pages.empty() || pages.back().number != number) {
            indexOf.insert(number, pages.size());
            pages.push_back(PageRecord{number, {}, {}, {}, {}});
        }
        pages.back().rows.append(row[1].toLongLong());
        pages.back().boundary = FeedKey{row[2].toLongLong(), row[1].toLongLong()};
    }
    if (pages.empty())
        return {};

    for (const QVariantList& row : db_.query(kShownBefore, {reader_, reader_}).data) {
        pages[indexOf.value(row[0].toInt())].duplicates.append(row[1].toLongLong());
    }

    // A lost row went missing on the first page that ended below it in the
    // feed's order: by then it should have been shown. The lowest boundary so
    // far only sinks, so that page is a binary search. Rows the reader never
    // got past belong to its last page.
    std::vector<FeedKey> lowest;
    lowest.reserve(pages.size());
    for (const PageRecord& p : pages) {
        lowest.push_back(lowest.empty() ? p.boundary : std::min(lowest.back(), p.boundary));
    }
    QHash<qint64, QJsonArray> lostAt;  // created_at -> lost rows with that timestamp
    for (const QVariantList& row : db_.query(kLost, {reader_, reader_, reader_}).data) {
        const FeedKey key{row[1].toLongLong(), row[0].toLongLong()};
        const auto below = std::partition_point(lowest.begin(), lowest.end(),
                                                [&key](const FeedKey& low) { return low >= key; });
        const std::size_t page =
            below == lowest.end() ? pages.size() - 1 : std::size_t(below - lowest.begin());
        pages[page].lost.append(key.id);
        lostAt[key.createdAt].append(key.id);
    }

    QJsonArray out;
    for (const PageRecord& p : pages) {
        QJsonObject page{
            {"reader", reader_},
            {"page", p.number},
            {"rows", p.rows},
            {"duplicates", p.duplicates},
            {"lost", p.lost},
            {"boundary", QJsonObject{{"created_at", p.boundary.createdAt}, {"id", p.boundary.id}}},
        };
        // The next request of a timestamp cursor is "created_at < boundary":
        // whatever shares the boundary timestamp and was not shown is skipped.
        if (withSkipped)
            page.insert("skipped", lostAt.value(p.boundary.createdAt));
        out.append(page);
    }
    return out;
}

}  // namespace idem
