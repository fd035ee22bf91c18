#include "testsupport.h"

#include "registry.h"
#include "run.h"
#include "runner.h"
#include "scenario.h"
#include "trace.h"
#include "traceevent.h"

#include <QJsonDocument>
#include <QTest>

#include <algorithm>

namespace idem::test {

RunConfig cellConfig(const QString& scenario, const Cell& cell, int duplicates, quint32 seed) {
    const Scenario* s = findScenario(scenario);
    RunConfig c = defaultConfig(*s);
    c.variant = cell.variant;
    if (!cell.timing.isEmpty())
        c.timing = *timingFromId(cell.timing);
    if (!cell.crash.isEmpty())
        c.crash = *crashPointFromId(cell.crash);
    if (!cell.source.isEmpty())
        c.source = *sourceFromId(cell.source);
    for (const QString& kv : cell.params) {
        const qsizetype eq = kv.indexOf('=');
        c.params.insert(kv.left(eq), kv.mid(eq + 1));
    }
    c.intervalMs = cell.intervalMs;
    c.duplicates = duplicates;
    c.seed = seed;
    c.backend = testBackend();
    if (const VariantInfo* v = s->info().variant(c.variant); v && v->redis)
        c.redis = testRedis();
    return c;
}

int seedCount(int seeds) {
    const auto cap = [](const char* variable, int fallback) {
        bool ok = false;
        const int n = qEnvironmentVariableIntValue(variable, &ok);
        return ok && n > 0 ? n : fallback;
    };
    // Every seed the table names, unless IDEM_TABLE_SEEDS asks for fewer
    // (the sanitizers' stage of CI: the first stage runs them all) ...
    seeds = std::min(seeds, cap("IDEM_TABLE_SEEDS", seeds));
    // ... and on a server, where each run is real sessions on a real server,
    // two unless IDEM_LIVE_SEEDS says otherwise.
    if (testBackend() != QLatin1String("sqlite") || testRedis() != QLatin1String("off"))
        seeds = std::min(seeds, cap("IDEM_LIVE_SEEDS", 2));
    return seeds;
}

int firstSeed(int seeds) {
    // A table run at fewer seeds than it names (on a server, with Redis, in
    // CI's sanitizer stage) starts where CI says: CI turns the seed with each
    // commit, so that over a week of commits every seed of every table has
    // run there. A table run whole starts at 1.
    bool ok = false;
    const int first = qEnvironmentVariableIntValue("IDEM_LIVE_FIRST_SEED", &ok);
    return ok ? std::clamp(first, 1, std::max(1, seeds - seedCount(seeds) + 1)) : 1;
}

QString testRedis() {
    const QString redis = qEnvironmentVariable("IDEM_TEST_REDIS");
    return redis.isEmpty() ? QStringLiteral("off") : redis;
}

QString testBackend() {
    const QString backend = qEnvironmentVariable("IDEM_TEST_BACKEND");
    return backend.isEmpty() ? QStringLiteral("sqlite") : backend;
}

Summary runToSummary(const RunConfig& config) {
    const Scenario* scenario = findScenario(config.scenario);
    if (!scenario) {
        QTest::qFail("unknown scenario", __FILE__, __LINE__);
        return {};
    }
    // On a server the events are kept: a statement the server could not
    // run (its SQL not in the server's spelling) fails the cell, whatever
    // the verdict.
    const bool server = config.backend != QLatin1String("sqlite");
    const RunResult r =
        runToEnd(config, *scenario, server ? RunOptions{} : RunOptions::untraced(), server);
    if (!r.ok())
        QTest::qFail(qPrintable(r.error), __FILE__, __LINE__);
    if (server && r.run) {
        for (const TraceEvent& e : r.run->trace().events()) {
            if (e.is(EventKind::Sql) && e.outcome() == SqlOutcome::OtherError) {
                QTest::qFail(qPrintable(QStringLiteral("%1 could not run: %2\n%3")
                                            .arg(config.backend, e.error, e.sql)),
                             __FILE__, __LINE__);
                break;
            }
        }
    }
    return r.summary;
}

void finish(Run& run) {
    QString error;
    if (!run.finish(&error))
        qFatal("%s", qPrintable(error));
}

std::unique_ptr<Run> finishedRun(const QString& scenario, const Cell& cell, int duplicates,
                                 quint32 seed) {
    return finishedRun(cellConfig(scenario, cell, duplicates, seed));
}

std::unique_ptr<Run> finishedRun(const RunConfig& config) {
    auto run = std::make_unique<Run>(config, *findScenario(config.scenario));
    QString error;
    if (!run->start(&error))
        qFatal("%s", qPrintable(error));
    run->runToEnd();
    finish(*run);
    return run;
}

void addCellRows(const QString& scenario, const QList<Cell>& cells, int seeds) {
    const QString backend = testBackend();
    const int first = firstSeed(seeds);
    seeds = seedCount(seeds);
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("timing");
    QTest::addColumn<QString>("crash");
    QTest::addColumn<QStringList>("params");
    QTest::addColumn<QString>("source");
    QTest::addColumn<qint64>("interval");
    QTest::addColumn<int>("duplicates");
    QTest::addColumn<int>("seed");
    QTest::addColumn<QString>("expected");
    const Scenario* s = findScenario(scenario);
    for (const Cell& cell : cells) {
        const VariantInfo* variant = s->info().variant(cell.variant);
        if (backend != QLatin1String("sqlite") && variant && !variant->servers.contains(backend))
            continue;
        for (int d = cell.minDuplicates; d <= cell.maxDuplicates; ++d) {
            for (int seed = first; seed < first + seeds; ++seed) {
                const QString name = QStringLiteral("%1 %2 %3 %4 %5 d=%6 seed=%7")
                                         .arg(cell.variant, cell.timing, cell.crash,
                                              cell.params.join(','), cell.source)
                                         .arg(d)
                                         .arg(seed)
                                         .simplified();
                QTest::newRow(qPrintable(name))
                    << scenario << cell.variant << cell.timing << cell.crash << cell.params
                    << cell.source << cell.intervalMs << d << seed << cell.expected;
            }
        }
    }
}

void checkCellRow() {
    QFETCH(QString, scenario);
    QFETCH(QString, variant);
    QFETCH(QString, timing);
    QFETCH(QString, crash);
    QFETCH(QStringList, params);
    QFETCH(QString, source);
    QFETCH(qint64, interval);
    QFETCH(int, duplicates);
    QFETCH(int, seed);
    QFETCH(QString, expected);
    Cell cell{variant, timing, crash, params, duplicates, duplicates, expected, source, interval};
    const Summary summary = runToSummary(cellConfig(scenario, cell, duplicates, quint32(seed)));
    const QByteArray dump = QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact);
    QVERIFY2(summary.verdictId() == expected, dump.constData());
    QVERIFY2(summary.integrity == QLatin1String("ok"), dump.constData());
    // The verdict must agree with the counted effects.
    bool more = false, fewer = false;
    for (auto it = summary.expectedEffects.cbegin(); it != summary.expectedEffects.cend(); ++it) {
        more |= summary.effects.value(it.key()) > it.value();
        fewer |= summary.effects.value(it.key()) < it.value();
    }
    if (expected == QLatin1String("duplicated"))
        QVERIFY2(more, dump.constData());
    if (expected == QLatin1String("exactly-once") || expected == QLatin1String("stuck")) {
        QVERIFY2(!more && !fewer, dump.constData());
    }
    if (expected == QLatin1String("lost"))
        QVERIFY2(fewer && !more, dump.constData());
}

}  // namespace idem::test
