// The trace as a table, a row per event: the columns the CSV export and the
// spreadsheet (.xlsx) share, each cell a number or a text, so that each
// format writes numbers as numbers and text in its own escaping.
#pragma once

#include "lockstory.h"
#include "narration.h"

#include <QByteArrayList>
#include <QString>

#include <functional>
#include <memory>

namespace idem {

struct ExportRun;
struct ScenarioWords;
struct TraceEvent;

struct TableCell {
    enum class Kind { Empty, Number, Text };
    Kind kind = Kind::Empty;
    QString text;  // a number's digits, or the text as it is (no escaping)
};
using CellSink = std::function<void(const TableCell&)>;

// words: the run's scenario's, for the captions of its notes (null: the
// engine's words alone). A run on a server has four columns more: each
// statement's outcome in the words every backend shares (ok, deadlock,
// serialization-failure ...), and for a lock wait the attempts it waits for
// and the lock, and on the statement it held how long it waited
// (waited_ms); a SQLite run's columns are as they were.
class EventTable {
public:
    explicit EventTable(const ScenarioWords* words) : words_(words) {}
    ~EventTable();
    // Starts a run; its columns' names.
    QByteArrayList begin(const ExportRun& run);
    // The event's cells, one call each, in the columns' order. Cell by cell:
    // nothing is collected that an allocation could fail half-way through.
    void cells(const TraceEvent& e, const CellSink& sink);

private:
    const ScenarioWords* words_;
    std::unique_ptr<Narrator> narrator_;
    bool server_ = false;
    LockStory locks_{0};
};

}  // namespace idem
