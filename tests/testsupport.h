// Shared helpers for the truth-table tests: each SPEC cell becomes one data
// row per seed and duplicate count, run on a real database.
#pragma once

#include "runconfig.h"
#include "summary.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace idem {
class Run;
}

namespace idem::test {

struct Cell {
    QString variant;
    QString timing;      // empty: the scenario's default
    QString crash;       // empty: none
    QStringList params;  // "key=value"
    int minDuplicates = 1;
    int maxDuplicates = 3;
    QString expected;        // verdict id
    QString source = {};     // empty: the scenario's default
    qint64 intervalMs = -1;  // -1: the timing's default
};

RunConfig cellConfig(const QString& scenario, const Cell& cell, int duplicates, quint32 seed);
// The backend the cells run on: IDEM_TEST_BACKEND ("mariadb", "postgres"),
// SQLite when unset. tests/CMakeLists.txt runs each table on each.
QString testBackend();
// The Redis the cells of a variant with a Redis form use: IDEM_TEST_REDIS
// ("private", or a URL), off when unset (SPEC section 10).
QString testRedis();
// How many of a cell's seeds 1..seeds to run: all of them; fewer with
// IDEM_TABLE_SEEDS; on a server or with Redis two, or IDEM_LIVE_SEEDS.
int seedCount(int seeds);
// The first of them: 1 for a table run whole; for one run at fewer seeds
// (on a server, with Redis, at IDEM_TABLE_SEEDS) IDEM_LIVE_FIRST_SEED, kept
// within the table's seeds.
int firstSeed(int seeds);
// Runs to the end and returns the summary; fails the current test on error.
Summary runToSummary(const RunConfig& config);
// Finishes a run that stepped to its end; aborts the test program on error.
void finish(Run& run);
// Runs a cell to the end and keeps the run (its trace and database) for
// the test to read; aborts the test program if it cannot start.
std::unique_ptr<Run> finishedRun(const QString& scenario, const Cell& cell, int duplicates,
                                 quint32 seed);
std::unique_ptr<Run> finishedRun(const RunConfig& config);

// Adds the data columns and one row per cell, seed 1..seeds and duplicates.
void addCellRows(const QString& scenario, const QList<Cell>& cells, int seeds = 5);
// The body of a data-driven cell test: run the row and compare the verdict,
// the integrity check, and the effects against the verdict's meaning.
void checkCellRow();

}  // namespace idem::test
