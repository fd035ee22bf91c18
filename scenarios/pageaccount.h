// The judge's accounting of a paged read, from the database alone: page_reads
// (what each page showed), feed_at_start (what existed when paging began) and
// orders (what was deleted since). Which rows were shown twice, which were
// lost, and on which page each of them went wrong.
#pragma once

#include <QJsonArray>
#include <QtGlobal>

namespace idem {

class Reader;

class PageAccount {
public:
    PageAccount(Reader& db, int reader) : db_(db), reader_(reader) {}

    // Rows this reader was shown on more than one page.
    qint64 shownTwice();
    // Rows that existed at the start, were never deleted and were never
    // shown: those the reader has already passed, or all once it is done.
    qint64 missed();
    // One object per page: {"reader", "page", "rows", "duplicates", "lost",
    // "boundary"}; withSkipped adds "skipped", the lost rows that share the
    // page's boundary timestamp (what a timestamp cursor jumps over).
    QJsonArray pages(bool withSkipped);

private:
    Reader& db_;
    int reader_;
};

}  // namespace idem
