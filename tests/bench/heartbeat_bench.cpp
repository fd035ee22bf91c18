// The window never waits: drives the real MainWindow through Fire, End, Home
// (back from the end), Play at "instant", Compare, Save trace, the
// Experiment and the workbench's Check, at an ordinary size
// (50 intents x 2 duplicates) and at the fire panel's maximum (50 x 1000),
// with a 1 ms heartbeat timer on the window's thread, and prints the longest
// gap between two beats for each (goal: at most 16 ms, one 60 Hz frame).
// (Check attacks the first challenge's reference handler at the ordinary
// size, the lease's, 2,627 schedules stopped at the cap, at the largest.)
// Then, on MariaDB and PostgreSQL when they are installed, a live run:
// Fire (the lab's private server starts in the worker), ten steps (each
// waits for the server in a worker), End, and four Page Downs of a lesson
// whose frames run on the server.
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/heartbeat_bench [cap-seconds] [--why]
//       [--only INTERACTION,...|live]
//   (or under Xvfb: xvfb-run -a build/tests/bench/heartbeat_bench)
//
// Playing and the Experiment are stopped after cap-seconds (default 8), as a
// person would: the gap is what counts, not the whole run. Fire, End, Compare
// and Save trace run to their end. With --why, each interaction also lists
// the events (type and receiver) that filled its longest gap, and how much of
// the gap the window's thread spent on the CPU and waiting for one.
//
// Beside each gap, "machine" is how long the machine itself stood still
// within it (every CPU at once | any one CPU), as threads that only sleep
// 1 ms at a time, one pinned to each CPU, saw it: on a virtual machine the
// host sometimes leaves a CPU unrun for 5-20 ms, whatever the program does.
// The last lines give the longest gap less those stalls, and the longest
// stalls the machine had meanwhile.
#include "challenge.h"
#include "compareview.h"
#include "experimentview.h"
#include "handlereditor.h"
#include "lessonplayer.h"
#include "mainwindow.h"
#include "playback.h"
#include "playbackbar.h"
#include "registry.h"
#include "runcontroller.h"
#include "serverinstall.h"
#include "sweeper.h"
#include "workbenchview.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

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

// How long this thread has waited for a CPU while ready to run (the second
// field of the kernel's schedstat, in ns): a gap the thread spent neither on
// the CPU nor in this wait, it spent asleep (on a lock, the kernel, poll).
double threadRunQueueMs() {
    QFile f(QStringLiteral("/proc/thread-self/schedstat"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() / 1e6 : 0;
}

// The machine's own stalls. On a virtual machine the host sometimes does not
// run a CPU of it for 5-20 ms; a thread that does nothing but sleep 1 ms at
// a time sees them as late wake-ups. One such thread is pinned to each CPU,
// so a gap of the window can be set beside what the machine did meanwhile.
class MachineWatch {
public:
    MachineWatch() {
        const int cpus = std::max(1, int(std::thread::hardware_concurrency()));
        for (int cpu = 0; cpu < cpus; ++cpu) threads_.emplace_back([this, cpu] { watch(cpu); });
    }
    ~MachineWatch() {
        stop_ = true;
        for (std::thread& t : threads_) t.join();
    }
    // How long within [begin, end] (CLOCK_MONOTONIC ms) every CPU stood
    // still at once, and how long at least one did.
    struct Stalled {
        double all = 0;
        double any = 0;
    };
    Stalled within(double begin, double end) const {
        std::vector<std::pair<double, double>> spans;
        {
            std::lock_guard lock(mutex_);
            for (const Stall& s : stalls_) {
                const double a = std::max(begin, s.begin);
                const double b = std::min(end, s.end);
                if (a < b)
                    spans.emplace_back(a, b);
            }
        }
        // Sweep the spans' edges: time covered by at least one span, and by
        // one span of every CPU.
        std::vector<std::pair<double, int>> edges;
        for (const auto& [a, b] : spans) {
            edges.emplace_back(a, +1);
            edges.emplace_back(b, -1);
        }
        std::sort(edges.begin(), edges.end());
        Stalled r;
        int open = 0;
        const int cpus = int(threads_.size());
        for (size_t i = 0; i + 1 < edges.size(); ++i) {
            open += edges[i].second;
            const double length = edges[i + 1].first - edges[i].first;
            if (open > 0)
                r.any += length;
            if (open >= cpus)
                r.all += length;
        }
        return r;
    }
    // The longest time every CPU stood still at once, and the longest stall
    // of any one CPU, over the whole bench.
    struct Longest {
        double all = 0;
        double any = 0;
    };
    Longest longest() const {
        std::vector<Stall> stalls;
        {
            std::lock_guard lock(mutex_);
            stalls = stalls_;
        }
        Longest r;
        for (const Stall& s : stalls) {
            r.any = std::max(r.any, s.end - s.begin);
            r.all = std::max(r.all, within(s.begin, s.end).all);
        }
        return r;
    }
    static double nowMs() {
        timespec t{};
        clock_gettime(CLOCK_MONOTONIC, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

private:
    struct Stall {
        double begin = 0;
        double end = 0;
    };
    void watch(int cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
        double last = nowMs();
        while (!stop_) {
            const timespec oneMs{0, 1'000'000};
            nanosleep(&oneMs, nullptr);
            const double now = nowMs();
            if (now - last > kLateMs + 1) {  // woke over kLateMs late
                std::lock_guard lock(mutex_);
                stalls_.push_back({last + 1, now});
            }
            last = now;
        }
    }
    static constexpr double kLateMs = 1;
    std::vector<std::thread> threads_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;
    std::vector<Stall> stalls_;
};

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
            const double cpu = threadCpuMs();
            const double queued = threadRunQueueMs();
            const bool longest = now - last_ > longest_;
            longest_ = std::max(longest_, now - last_);
            if (longest) {
                longestCpu_ = cpu - lastCpu_;
                longestQueued_ = queued - lastQueued_;
                timespec t{};
                clock_gettime(CLOCK_MONOTONIC, &t);
                longestEnd_ = double(t.tv_sec) + double(t.tv_nsec) / 1e9;
            }
            last_ = now;
            lastCpu_ = cpu;
            lastQueued_ = queued;
            static_cast<TimedApp*>(QCoreApplication::instance())->beat(longest);
        });
        clock_.start();
        timer_.start();
    }
    void restart() {
        last_ = clock_.nsecsElapsed();
        lastCpu_ = threadCpuMs();
        lastQueued_ = threadRunQueueMs();
        longest_ = 0;
        longestCpu_ = 0;
        longestQueued_ = 0;
    }
    double longestMs() const { return double(longest_) / 1e6; }
    // The CPU time the window's thread had within the longest gap: far less
    // than the gap means the thread waited (for the CPU, a lock, the kernel).
    double longestCpuMs() const { return longestCpu_; }
    double longestQueuedMs() const { return longestQueued_; }
    // When the longest gap ended, on CLOCK_MONOTONIC in seconds (the clock
    // `perf record -k CLOCK_MONOTONIC` stamps its samples with).
    double longestEnd() const { return longestEnd_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    qint64 longest_ = 0;
    double lastCpu_ = 0;
    double longestCpu_ = 0;
    double lastQueued_ = 0;
    double longestQueued_ = 0;
    double longestEnd_ = 0;
};

struct Result {
    double gapMs = 0;
    double gapCpuMs = 0;            // the window's thread on the CPU within the gap
    double gapQueuedMs = 0;         // ... and waiting for a CPU
    double gapEnd = 0;              // CLOCK_MONOTONIC, seconds
    MachineWatch::Stalled machine;  // the machine's stalls within the gap
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

Result interact(Heartbeat& heart, const MachineWatch& machine, int capMs,
                const std::function<void()>& begin, const std::function<bool()>& done,
                const std::function<void()>& stop) {
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
    r.gapCpuMs = heart.longestCpuMs();
    r.gapQueuedMs = heart.longestQueuedMs();
    r.gapEnd = heart.longestEnd();
    r.machine = machine.within(r.gapEnd * 1e3 - r.gapMs, r.gapEnd * 1e3);
    r.slowest = app->longestGap();
    app->watch(false);
    return r;
}

// The lessons' deadlock run, on a live server.
RunConfig onServer(const QString& backend) {
    RunConfig c = defaultConfig(*findScenario(QStringLiteral("order-create")));
    c.variant = QStringLiteral("check-for-update");
    c.timing = Timing::Concurrent;
    c.backend = backend;
    return c;
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
    const MachineWatch machine;
    QTemporaryDir dir;
    auto idle = [&w] {
        return !w.jobs()->isBusy();
    };
    auto cancel = [&w] {
        w.jobs()->cancel();
    };

    // As a person presses End: once the keys work again (a worker's step
    // hands the run back a moment after its job ends), then until the run
    // is at its end.
    auto pressEnd = [&] {
        QTimer press;
        press.setInterval(5);
        QObject::connect(&press, &QTimer::timeout, &w, [&w, &press] {
            if (QAction* end = w.action("end"); end->isEnabled()) {
                press.stop();
                end->trigger();
            }
        });
        return interact(
            heart, machine, kNoCap, [&press] { press.start(); },
            [&w] { return !w.jobs()->isBusy() && w.playback().atEnd(); }, cancel);
    };

    // --only live: the servers' rows alone.
    const bool sizes =
        only.isEmpty() || std::any_of(only.cbegin(), only.cend(), [](const QString& name) {
            return name.compare(QLatin1String("live"), Qt::CaseInsensitive) != 0;
        });
    if (sizes)
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(QStringLiteral("interaction"), -22)
                   .arg(QStringLiteral("50 x 2: gap ms (took)"), 22)
                   .arg(QStringLiteral("machine"), 10)
                   .arg(QStringLiteral("50 x 1000: gap ms (took)"), 24)
                   .arg(QStringLiteral("machine"), 10);
    out.flush();
    struct Row {
        QString name;
        std::function<Result(int duplicates)> run;
    };
    const QList<Row> rows{
        {QStringLiteral("Fire"),
         [&](int d) {
             return interact(
                 heart, machine, kNoCap, [&w, d] { w.fireInBackground(sized(d)); }, idle, cancel);
         }},
        {QStringLiteral("End"),
         [&](int) {
             return pressEnd();
         }},
        {QStringLiteral("Home (from the end)"),
         [&](int) {
             return interact(
                 heart, machine, kNoCap, [&w] { w.action("reset")->trigger(); },
                 [&w] { return !w.jobs()->isBusy() && w.playback().position() == 0; }, cancel);
         }},
        {QStringLiteral("Play at instant"),
         [&](int) {
             w.playback().reset();
             while (w.jobs()->isBusy()) spin(5);  // back from the end in a worker
             w.playbackBar()->setSpeedIndex(int(std::size(PlaybackBar::kSpeeds)) - 1);
             return interact(
                 heart, machine, capMs, [&w] { w.playbackBar()->play(); },
                 [&w] { return !w.playbackBar()->isPlaying(); },
                 [&w] { w.playbackBar()->pause(); });
         }},
        {QStringLiteral("Compare"),
         [&](int) {
             const Result r = interact(
                 heart, machine, kNoCap, [&w] { w.tabs()->setCurrentWidget(w.compareView()); },
                 idle, cancel);
             w.tabs()->setCurrentWidget(w.liveView());
             return r;
         }},
        {QStringLiteral("Save trace"),
         [&](int) {
             w.playback().reset();
             while (w.jobs()->isBusy()) spin(5);  // back from the end in a worker
             return interact(
                 heart, machine, kNoCap,
                 [&] { w.saveTraceTo(dir.filePath(QStringLiteral("t.json"))); }, idle, cancel);
         }},
        {QStringLiteral("Experiment"),
         [&](int d) {
             ExperimentView* e = w.experimentView();
             w.tabs()->setCurrentWidget(e);
             e->intentsBox()->setValue(d > 2 ? e->intentsBox()->maximum() : 300);
             const Result r = interact(
                 heart, machine, capMs, [e] { e->start(); }, [e] { return !e->isRunning(); },
                 [e] { e->cancel(); });
             w.tabs()->setCurrentWidget(w.liveView());
             return r;
         }},
        // The workbench's Check: the first challenge's reference handler,
        // which passes (every schedule is run), and at the large size the
        // lease's (2,627 schedules, stopped at the cap).
        {QStringLiteral("Workbench Check"),
         [&](int d) {
             WorkbenchView* bench = w.workbenchView();
             w.tabs()->setCurrentWidget(bench);
             const QString id =
                 d > 2 ? QStringLiteral("lease-fencing") : QStringLiteral("double-click");
             bench->openChallenge(id);
             bench->editor()->setPlainText(findChallenge(id)->reference);
             const Result r = interact(
                 heart, machine, capMs, [bench] { bench->check(); },
                 [bench] { return !bench->isChecking(); }, [bench] { bench->cancel(); });
             bench->stop();
             w.tabs()->setCurrentWidget(w.liveView());
             return r;
         }},
    };
    QList<Result> ordinary, largest;
    // Each size runs through every interaction in turn (Fire loads the run
    // the others use).
    for (int size = 0; size < (sizes ? 2 : 0); ++size) {
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
    auto stalled = [](const Result& r) {
        return QStringLiteral("%1|%2").arg(r.machine.all, 0, 'f', 1).arg(r.machine.any, 0, 'f', 1);
    };
    // With --why: what filled the longest gap, and how much of it the lab
    // spent on the CPU.
    const auto explain = [&out](const Result& r) {
        for (const TimedApp::Slow& s : r.slowest)
            out << QStringLiteral("    %1 ms  %2\n").arg(s.ms, 6, 'f', 1).arg(s.what);
        out << QStringLiteral(
                   "    -- the gap: %1 ms, %2 ms of it on the CPU, %3 ms waiting "
                   "for one; it ended at %4 s (CLOCK_MONOTONIC)\n")
                   .arg(r.gapMs, 0, 'f', 1)
                   .arg(r.gapCpuMs, 0, 'f', 1)
                   .arg(r.gapQueuedMs, 0, 'f', 1)
                   .arg(r.gapEnd, 0, 'f', 6);
    };
    double worst = 0, worstLessAll = 0, worstLessAny = 0;
    for (int i = 0; i < (sizes ? rows.size() : 0); ++i) {
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(rows[i].name, -22)
                   .arg(cell(ordinary[i]), 22)
                   .arg(stalled(ordinary[i]), 10)
                   .arg(cell(largest[i]), 24)
                   .arg(stalled(largest[i]), 10);
        for (const Result* r : {&ordinary[i], &largest[i]}) {
            worst = std::max(worst, r->gapMs);
            worstLessAll = std::max(worstLessAll, r->gapMs - r->machine.all);
            worstLessAny = std::max(worstLessAny, r->gapMs - r->machine.any);
        }
        if (why) {
            for (const Result* r : {&ordinary[i], &largest[i]}) explain(*r);
        }
    }
    // On the live servers (when installed): the first fire starts the
    // lab's private server in the worker, each step waits for the server
    // there (a lock wait is certain after up to a few hundred ms), and a
    // lesson's server frames fire and step to their pause there too.
    QString backend;  // what the live rows fire on
    const QList<Row> liveRows{
        {QStringLiteral("Fire (server starts)"),
         [&](int) {
             return interact(
                 heart, machine, kNoCap, [&w, &backend] { w.fireInBackground(onServer(backend)); },
                 idle, cancel);
         }},
        {QStringLiteral("Step x 10"),
         [&](int) {
             const int target = std::min(w.playback().position() + 10, w.playback().length());
             auto steps = std::make_shared<QTimer>();
             steps->setInterval(5);
             QObject::connect(steps.get(), &QTimer::timeout, &w, [&w] {
                 if (!w.jobs()->isBusy())
                     w.action("step")->trigger();
             });
             const Result r = interact(
                 heart, machine, kNoCap, [steps] { steps->start(); },
                 [&w, target] { return !w.jobs()->isBusy() && w.playback().position() >= target; },
                 cancel);
             steps->stop();
             return r;
         }},
        {QStringLiteral("End"),
         [&](int) {
             return pressEnd();
         }},
        {QStringLiteral("Lesson, Page Down x 4"),
         [&](int) {
             const QString lesson = backend == QLatin1String("mariadb")
                                        ? QStringLiteral("gap-lock-deadlock")
                                        : QStringLiteral("unique-key-waits");
             QString error;
             auto pages = std::make_shared<int>(0);
             auto press = std::make_shared<QTimer>();
             press->setInterval(5);
             QObject::connect(press.get(), &QTimer::timeout, &w, [&w, pages] {
                 if (!w.lessonPlayer()->arriving() && !w.jobs()->isBusy() && *pages < 4) {
                     ++*pages;
                     w.lessonPlayer()->next();
                 }
             });
             const Result r = interact(
                 heart, machine, kNoCap,
                 [&w, &error, lesson, press] {
                     w.startLesson(lesson, 0, &error);
                     press->start();
                 },
                 [&w, pages] {
                     return *pages >= 4 && !w.lessonPlayer()->arriving() && !w.jobs()->isBusy();
                 },
                 cancel);
             press->stop();
             w.lessonPlayer()->stop();
             return r;
         }},
    };
    const bool live =
        only.isEmpty() || std::any_of(only.cbegin(), only.cend(), [](const QString& name) {
            return name.compare(QLatin1String("live"), Qt::CaseInsensitive) == 0;
        });
    for (const QString& server : {QStringLiteral("mariadb"), QStringLiteral("postgres")}) {
        if (!live)
            break;
        backend = server;
        const QString missing = missingServerPackage(backend);
        if (!missing.isEmpty()) {
            out << QStringLiteral("on %1: not measured (the package %2 is not installed)\n")
                       .arg(backend, missing);
            continue;
        }
        out << QStringLiteral("on %1 (order-create check-for-update, concurrent):\n").arg(backend);
        for (const Row& row : liveRows) {
            const Result r = row.run(0);
            out << QStringLiteral("  %1 %2 %3\n")
                       .arg(row.name, -22)
                       .arg(cell(r), 22)
                       .arg(stalled(r), 10);
            if (why)
                explain(r);
            out.flush();
            worst = std::max(worst, r.gapMs);
            worstLessAll = std::max(worstLessAll, r.gapMs - r.machine.all);
            worstLessAny = std::max(worstLessAny, r.gapMs - r.machine.any);
        }
    }
    const MachineWatch::Longest most = machine.longest();
    out << QStringLiteral(
               "longest gap overall: %1 ms (goal: 16 ms)\n"
               "less the machine's stalls within it (every CPU at once | any CPU): "
               "%2 | %3 ms\n"
               "the machine's own longest stalls meanwhile (every CPU at once | any "
               "CPU): %4 | %5 ms\n")
               .arg(worst, 0, 'f', 1)
               .arg(worstLessAll, 0, 'f', 1)
               .arg(worstLessAny, 0, 'f', 1)
               .arg(most.all, 0, 'f', 1)
               .arg(most.any, 0, 'f', 1);
    return 0;
}
