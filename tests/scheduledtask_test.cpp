// Every cell of SPEC section 3's scheduled-task table, for seeds 1-5 and
// duplicates 1-3, and what the trace must show of a long pause: with a lock
// alone node B takes the expired lease while node A sleeps; with lock and
// claim, A's late commit is refused by the fencing token.
#include "registry.h"
#include "run.h"
#include "testsupport.h"

#include <QTest>

#include <optional>

using namespace idem;
using idem::test::Cell;

namespace {

constexpr qint64 kLongPauseInterval = 45'000;

struct Finished {
    std::unique_ptr<Run> run;
    Summary summary;
};

Finished runLongPause(const QString& variant, quint32 seed) {
    Cell cell{variant, "retry", "long-pause", {}, 1, 1, "", "", kLongPauseInterval};
    Finished f;
    f.run = test::finishedRun(test::cellConfig("scheduled-task", cell, 1, seed));
    f.summary = f.run->summary();
    return f;
}

std::optional<TraceEvent> firstEvent(const Run& run, const QString& actor, const QString& kind,
                                     const QString& guard = {}, const QString& decision = {}) {
    for (const TraceEvent& e : run.trace().events()) {
        if (e.actorName() != actor || e.kindId() != kind)
            continue;
        if (!guard.isEmpty() && e.fields.value("guard").toString() != guard)
            continue;
        if (!decision.isEmpty() && e.fields.value("decision").toString() != decision)
            continue;
        return e;
    }
    return std::nullopt;
}

}  // namespace

class ScheduledTaskTest : public QObject {
    Q_OBJECT
private slots:
    void truthTable_data();
    void truthTable() { test::checkCellRow(); }
    void lockOnlyNodeBTakesTheExpiredLeaseWhileAIsPaused_data();
    void lockOnlyNodeBTakesTheExpiredLeaseWhileAIsPaused();
    void lockAndClaimRejectsTheLateCommit_data();
    void lockAndClaimRejectsTheLateCommit();
    void longPauseSpacesNodeBByOneAndAHalfLeases();
};

void ScheduledTaskTest::truthTable_data() {
    struct Row {
        const char* variant;
        const char* concurrent;
        const char* rerunLater;
        const char* longPause;
        const char* afterGuard;  // nullptr: the point does not exist
    };
    const Row rows[] = {
        {"none", "duplicated", "duplicated", "duplicated", nullptr},
        {"lock-only", "exactly-once", "duplicated", "duplicated", "exactly-once"},
        {"claim-only", "exactly-once", "exactly-once", "duplicated", "exactly-once"},
        {"lock-and-claim", "exactly-once", "exactly-once", "exactly-once", "exactly-once"},
    };
    QList<Cell> cells;
    for (const Row& r : rows) {
        cells << Cell{r.variant, "concurrent", "", {}, 1, 3, r.concurrent};
        // "Re-run later" is compensation; a re-run seconds or a day later
        // finds the same state.
        for (const char* t : {"retry", "compensation", "cross-day"}) {
            cells << Cell{r.variant, t, "", {}, 1, 3, r.rerunLater};
        }
        cells << Cell{r.variant,   "retry", "long-pause",      {}, 1, 3,
                      r.longPause, "",      kLongPauseInterval};
        // Without --interval-ms node B comes 1.5 leases after A anyway.
        cells << Cell{r.variant, "concurrent", "long-pause", {}, 1, 3, r.longPause};
        if (r.afterGuard)
            cells << Cell{r.variant, "retry", "after-guard", {}, 1, 3, r.afterGuard};
    }
    test::addCellRows("scheduled-task", cells);
}

void ScheduledTaskTest::lockOnlyNodeBTakesTheExpiredLeaseWhileAIsPaused_data() {
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 5; ++seed) QTest::addRow("seed=%d", seed) << seed;
}

void ScheduledTaskTest::lockOnlyNodeBTakesTheExpiredLeaseWhileAIsPaused() {
    QFETCH(int, seed);
    const Finished f = runLongPause("lock-only", quint32(seed));
    const Run& run = *f.run;
    const auto aTakes = firstEvent(run, "node-a", "guard", "lease-lock", "acquired");
    const auto pause = firstEvent(run, "node-a", "pause");
    const auto resume = firstEvent(run, "node-a", "resume");
    const auto bTakes = firstEvent(run, "node-b", "guard", "lease-lock", "acquired");
    QVERIFY(aTakes && pause && resume && bTakes);
    // B takes the lock after A's lease ran out and while A still sleeps ...
    QVERIFY(bTakes->tMs >= aTakes->fields.value("expires_at").toLongLong());
    QVERIFY(bTakes->tMs > pause->tMs);
    QVERIFY(bTakes->tMs < resume->tMs);
    QVERIFY(bTakes->fields.value("token").toLongLong() >
            aTakes->fields.value("token").toLongLong());
    // ... and A, awake, writes its payouts anyway and finds the lock gone.
    const auto aReleases = firstEvent(run, "node-a", "guard", "lease-lock", "lease-lost");
    QVERIFY(aReleases && aReleases->tMs > resume->tMs);
    QCOMPARE(f.summary.verdictId(), QStringLiteral("duplicated"));
}

void ScheduledTaskTest::lockAndClaimRejectsTheLateCommit_data() {
    lockOnlyNodeBTakesTheExpiredLeaseWhileAIsPaused_data();
}

void ScheduledTaskTest::lockAndClaimRejectsTheLateCommit() {
    QFETCH(int, seed);
    const Finished f = runLongPause("lock-and-claim", quint32(seed));
    const Run& run = *f.run;
    const auto resume = firstEvent(run, "node-a", "resume");
    const auto bTakesOver = firstEvent(run, "node-b", "guard", "claim", "takeover");
    const auto bCommits = firstEvent(run, "node-b", "guard", "fencing-token", "accepted");
    const auto aFenced = firstEvent(run, "node-a", "guard", "fencing-token", "rejected");
    QVERIFY(resume && bTakesOver && bCommits && aFenced);
    QVERIFY(bTakesOver->tMs < resume->tMs);
    QVERIFY(aFenced->tMs > resume->tMs);
    QVERIFY(aFenced->fields.value("token").toLongLong() <
            bCommits->fields.value("token").toLongLong());
    bool doneRejected = false;
    for (const TraceEvent& e : run.trace().events()) {
        doneRejected |= e.actorName() == QLatin1String("node-a") && e.is(EventKind::Transition) &&
                        e.fields.value("to_state").toString() == QLatin1String("DONE") &&
                        !e.fields.value("accepted").toBool();
    }
    QVERIFY(doneRejected);
    QCOMPARE(f.summary.verdictId(), QStringLiteral("exactly-once"));
    QCOMPARE(f.summary.responseCount(Response::Rejected), 1);
}

void ScheduledTaskTest::longPauseSpacesNodeBByOneAndAHalfLeases() {
    Cell cell{"lock-and-claim", "compensation", "long-pause", {}, 1, 1, ""};
    RunConfig config = test::cellConfig("scheduled-task", cell, 1, 1);
    QCOMPARE(config.effectiveIntervalMs(), 45'000);
    config.intervalMs = 20'000;  // given explicitly: it wins
    QCOMPARE(config.effectiveIntervalMs(), 20'000);
}

QTEST_GUILESS_MAIN(ScheduledTaskTest)
#include "scheduledtask_test.moc"
