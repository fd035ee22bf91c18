// Benchmarks of the engine's performance targets (not run by ctest; run
// build/tests/bench/engine_bench by hand): ten thousand intents of the
// recommended order-create variant, and a step back in the window's playback.
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "runner.h"

#include <QTest>

using namespace idem;

class EngineBench : public QObject {
    Q_OBJECT
private slots:
    void tenThousandIntents();
    void stepBackInPlayback();
};

void EngineBench::tenThousandIntents() {
    const Scenario& scenario = *findScenario("order-create");
    RunConfig c = defaultConfig(scenario);
    c.intents = 10'000;
    Summary summary;
    QBENCHMARK_ONCE {
        summary = runToEnd(c, scenario, RunOptions::untraced()).summary;
    }
    QCOMPARE(summary.verdictCount(Verdict::ExactlyOnce), 10'000);
}

void EngineBench::stepBackInPlayback() {
    const Scenario& scenario = *findScenario("payment-callback");
    RunConfig c = defaultConfig(scenario);
    c.duplicates = 3;
    Playback playback;
    QString error;
    QVERIFY(playback.load(c, scenario, &error));
    playback.toEnd();
    QBENCHMARK {
        playback.stepBack();
        playback.stepForward();
    }
}

QTEST_GUILESS_MAIN(EngineBench)
#include "engine_bench.moc"
