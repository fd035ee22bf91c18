// The window never waits: drives the real MainWindow through Fire, End, Home
// (back from the end), Play at "instant", Compare, Save trace and the
// Experiment, at an ordinary size
// (50 intents x 2 duplicates) and at the fire panel's maximum (50 x 1000),
// with a 1 ms heartbeat timer on the window's thread, and prints the longest
// gap between two beats for each (goal: at most 16 ms, one 60 Hz frame).
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/heartbeat_bench [cap-seconds] [--why]
//       [--only INTERACTION,...]
//   (or under Xvfb: xvfb-run -a build/tests/bench/heartbeat_bench)
//
// Playing and the Experiment are stopped after cap-seconds (default 8), as a
// person would: the gap is what counts, not the whole run. Fire, End, Compare
// and Save trace run to their end. With --why, each interaction also lists
// the events (type and receiver) that filled its longest gap.
#include "compareview.h"
#include "experimentview.h"
#include "mainwindow.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "runcontroller.h"
#include "sweeper.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <functional>

using namespace idem;

namespace {

// Times every event the window's thread delivers from its event loop (the
// outermost notify only): with --why, what filled the longest gap between
// two beats is listed, event by event.
// The CPU time this thread has had: a gap longer than it was spent waiting
// for the CPU (another thread, another process), not working.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

class TimedApp : public QApplication {
public:
    using QApplication::QApplication;
    struct Slow {
        double ms = 0;
        QString what;
    };
    bool notify(QObject* receiver, QEvent* event) override {
        if (!watching_)
            return QApplication::notify(receiver, event);
        if (depth_ > 0) {  // within a repaint: which widget took long
            if (event->type() != QEvent::Paint)
                return QApplication::notify(receiver, event);
            QElapsedTimer clock;
            clock.start();
            const bool result = QApplication::notify(receiver, event);
            if (const double ms = double(clock.nsecsElapsed()) / 1e6; ms >= 0.2) {
                // Named by its class, its name and its parents' classes.
                QStringList path;
                for (const QObject* o = receiver; o && path.size() < 4; o = o->parent()) {
                    path << QLatin1String(o->metaObject()->className()) +
                                (o->objectName().isEmpty() ? QString()
                                                           : QLatin1Char('#') + o->objectName());
                }
                sinceBeat_ << Slow{
                    ms, QStringLiteral("    paint of %1").arg(path.join(QLatin1String(" < ")))};
            }
            return result;
        }
        ++depth_;
        QElapsedTimer clock;
        clock.start();
        const QEvent::Type type = event->type();
        const QObject* owner = receiver->parent();
        const char* ownerName = owner ? owner->metaObject()->className() : "";
        const char* name = receiver->metaObject()->className();
        const double cpuBefore = threadCpuMs();
        const bool result = QApplication::notify(receiver, event);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        const double cpu = threadCpuMs() - cpuBefore;
        --depth_;
        if (ms >= 0.5) {
            sinceBeat_ << Slow{ms, QStringLiteral("event %1 to %2%3%4 (on the CPU %5 ms)")
                                       .arg(int(type))
                                       .arg(QLatin1String(name))
                                       .arg(owner ? QStringLiteral(" in ") : QString())
                                       .arg(QLatin1String(ownerName))
                                       .arg(cpu, 0, 'f', 1)};
        }
        return result;
    }
    // A beat: the events since the last one filled the gap.
    void beat(bool longest) {
        if (longest)
            gap_ = sinceBeat_;
        sinceBeat_.clear();
    }
    void watch(bool on) {
        watching_ = on;
        sinceBeat_.clear();
        gap_.clear();
    }
    const QList<Slow>& longestGap() const { return gap_; }

private:
    int depth_ = 0;
    bool watching_ = false;
    QList<Slow> sinceBeat_, gap_;
};

class Heartbeat {
public:
    Heartbeat() {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(1);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.nsecsElapsed();
            const bool longest = now - last_ > longest_;
            longest_ = std::max(longest_, now - last_);
            if (longest) {
                timespec t{};
                clock_gettime(CLOCK_MONOTONIC, &t);
                longestEnd_ = double(t.tv_sec) + double(t.tv_nsec) / 1e9;
            }
            last_ = now;
            static_cast<TimedApp*>(QCoreApplication::instance())->beat(longest);
        });
        clock_.start();
        timer_.start();
    }
    void restart() {
        last_ = clock_.nsecsElapsed();
        longest_ = 0;
    }
    double longestMs() const { return double(longest_) / 1e6; }
    // When the longest gap ended, on CLOCK_MONOTONIC in seconds (the clock
    // `perf record -k CLOCK_MONOTONIC` stamps its samples with).
    double longestEnd() const { return longestEnd_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 longest_ = 0;
    double longestEnd_ = 0;
};

struct Result {
    double gapMs = 0;
    double gapEnd = 0;  // CLOCK_MONOTONIC, seconds
    double tookMs = 0;
    bool stopped = false;  // cancelled at the cap
    QList<TimedApp::Slow> slowest;
};

// Turns a real event loop for `ms`, as the window's own loop does: it sleeps
// in the system's poll until the next timer or event. (QTest::qWait sleeps
// between its turns instead, up to 10 ms at a time with no event handled:
// those sleeps would count as gaps the window never has.)
void spin(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

// Starts `begin`, keeps the event loop turning until `done` (or the cap,
// then `stop`), and reports the longest gap between beats meanwhile.
constexpr int kNoCap = 3'600'000;

Result interact(Heartbeat& heart, int capMs, const std::function<void()>& begin,
                const std::function<bool()>& done, const std::function<void()>& stop) {
    spin(100);  // settle what came before
    Result r;
    QElapsedTimer clock;
    auto* app = static_cast<TimedApp*>(QCoreApplication::instance());
    app->watch(true);
    heart.restart();
    clock.start();
    begin();
    QEventLoop loop;
    QTimer check;
    check.setInterval(2);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        } else if (clock.elapsed() > capMs && !r.stopped) {
            r.stopped = true;
            stop();
        }
    });
    check.start();
    if (!done())
        loop.exec();
    check.stop();
    r.tookMs = double(clock.nsecsElapsed()) / 1e6;
    spin(50);  // what the end brings (the views catching up) counts too
    r.gapMs = heart.longestMs();
    r.gapEnd = heart.longestEnd();
    r.slowest = app->longestGap();
    app->watch(false);
    return r;
}

RunConfig sized(int duplicates) {
    RunConfig c = defaultConfig(*findScenario(QStringLiteral("order-create")));
    c.intents = 50;
    c.duplicates = duplicates;
    return c;
}

}  // namespace

int main(int argc, char** argv) {
    Sweeper::freeEvenly();  // as idemlab's window does
    TimedApp app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("idemlab-bench"));
    QStringList args = QCoreApplication::arguments().mid(1);
    const bool why = args.removeAll(QStringLiteral("--why")) > 0;
    // --only NAME[,NAME...]: measure those interactions alone (Fire still
    // loads the run first).
    QStringList only;
    if (const qsizetype at = args.indexOf(QStringLiteral("--only"));
        at >= 0 && at + 1 < args.size()) {
        only = args.takeAt(at + 1).split(QLatin1Char(','));
        args.removeAt(at);
    }
    const int capMs = (args.isEmpty() ? 8 : std::max(1, args.first().toInt())) * 1000;
    QTextStream out(stdout);
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    w.jobs()->finishNow();
    Heartbeat heart;
    QTemporaryDir dir;
    auto idle = [&w] {
        return !w.jobs()->isBusy();
    };
    auto cancel = [&w] {
        w.jobs()->cancel();
    };

    out << QStringLiteral("%1 %2 %3\n")
               .arg(QStringLiteral("interaction"), -22)
               .arg(QStringLiteral("50 x 2: gap ms (took)"), 26)
               .arg(QStringLiteral("50 x 1000: gap ms (took)"), 30);
    out.flush();
    struct Row {
        QString name;
        std::function<Result(int duplicates)> run;
    };
    const QList<Row> rows{
        {QStringLiteral("Fire"),
         [&](int d) {
             return interact(
                 heart, kNoCap, [&w, d] { w.fireInBackground(sized(d)); }, idle, cancel);
         }},
        {QStringLiteral("End"),
         [&](int) {
             return interact(
                 heart, kNoCap, [&w] { w.action("end")->trigger(); },
                 [&w] { return !w.jobs()->isBusy() && w.playback().atEnd(); }, cancel);
         }},
        {QStringLiteral("Home (from the end)"),
         [&](int) {
             return interact(
                 heart, kNoCap, [&w] { w.action("reset")->trigger(); },
                 [&w] { return !w.jobs()->isBusy() && w.playback().position() == 0; }, cancel);
         }},
        {QStringLiteral("Play at instant"),
         [&](int) {
             w.playback().reset();
             while (w.jobs()->isBusy()) spin(5);  // back from the end in a worker
             w.playbackBar()->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
             return interact(
                 heart, capMs, [&w] { w.playbackBar()->play(); },
                 [&w] { return !w.playbackBar()->isPlaying(); },
                 [&w] { w.playbackBar()->pause(); });
         }},
        {QStringLiteral("Compare"),
         [&](int) {
             const Result r = interact(
                 heart, kNoCap, [&w] { w.tabs()->setCurrentWidget(w.compareView()); }, idle,
                 cancel);
             w.tabs()->setCurrentWidget(w.liveView());
             return r;
         }},
        {QStringLiteral("Save trace"),
         [&](int) {
             w.playback().reset();
             while (w.jobs()->isBusy()) spin(5);  // back from the end in a worker
             return interact(
                 heart, kNoCap, [&] { w.saveTraceTo(dir.filePath(QStringLiteral("t.json"))); },
                 idle, cancel);
         }},
        {QStringLiteral("Experiment"),
         [&](int d) {
             ExperimentView* e = w.experimentView();
             w.tabs()->setCurrentWidget(e);
             e->intentsBox()->setValue(d > 2 ? e->intentsBox()->maximum() : 300);
             const Result r = interact(
                 heart, capMs, [e] { e->start(); }, [e] { return !e->isRunning(); },
                 [e] { e->cancel(); });
             w.tabs()->setCurrentWidget(w.liveView());
             return r;
         }},
    };
    QList<Result> ordinary, largest;
    // Each size runs through every interaction in turn (Fire loads the run
    // the others use).
    for (int size = 0; size < 2; ++size) {
        const int duplicates = size == 0 ? 2 : 1000;
        for (const Row& row : rows) {
            const bool wanted =
                only.isEmpty() || row.name == QLatin1String("Fire") ||
                std::any_of(only.cbegin(), only.cend(), [&row](const QString& name) {
                    return row.name.startsWith(name, Qt::CaseInsensitive);
                });
            (size == 0 ? ordinary : largest) << (wanted ? row.run(duplicates) : Result{});
        }
    }
    auto cell = [](const Result& r) {
        return QStringLiteral("%1 (%2 ms%3)")
            .arg(r.gapMs, 0, 'f', 1)
            .arg(r.tookMs, 0, 'f', 0)
            .arg(r.stopped ? QStringLiteral(", stopped") : QString());
    };
    double worst = 0;
    for (int i = 0; i < rows.size(); ++i) {
        out << QStringLiteral("%1 %2 %3\n")
                   .arg(rows[i].name, -22)
                   .arg(cell(ordinary[i]), 26)
                   .arg(cell(largest[i]), 30);
        worst = std::max({worst, ordinary[i].gapMs, largest[i].gapMs});
        if (why) {
            for (const Result* r : {&ordinary[i], &largest[i]}) {
                for (const TimedApp::Slow& s : r->slowest)
                    out << QStringLiteral("    %1 ms  %2\n").arg(s.ms, 6, 'f', 1).arg(s.what);
                out << QStringLiteral("    -- (the gap ended at %1 s, CLOCK_MONOTONIC)\n")
                           .arg(r->gapEnd, 0, 'f', 6);
            }
        }
    }
    out << QStringLiteral("longest gap overall: %1 ms (goal: 16 ms)\n").arg(worst, 0, 'f', 1);
    return 0;
}
