// What one step costs in the real window early and late in the largest run
// the fire panel allows (50 intents x 1000 duplicates): the views apply only
// the step's events and paint only what they changed, so a step should cost
// what it does whatever the position. The first steps of this run are the
// callers' fires (no SQL) and the late ones run statements, so the bench
// also sets each kind of step where it first comes beside the same kind late.
//
//   QT_QPA_PLATFORM=offscreen build/tests/bench/step_bench [steps-per-sample] [--paint]
#include "livestage.h"
#include "mainwindow.h"
#include "playback.h"
#include "registry.h"
#include "run.h"
#include "sequenceview.h"
#include "sqlconnection.h"
#include "statemachineview.h"
#include "tableview.h"
#include "traceevent.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <vector>

using namespace idem;

namespace {

// With --paint: where the time after a step's update goes, summed over the
// samples of one position: each event the loop delivered (named by its type
// and its receiver's parents), how much of that was painting, and each
// widget's own paint.
class TimedApp : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override {
        if (!watching)
            return QApplication::notify(receiver, event);
        if (event->type() == QEvent::Paint)
            return timedPaint(receiver, event);
        if (depth_ > 0)
            return QApplication::notify(receiver, event);
        // Named before it is delivered: a deferred delete ends its receiver.
        const QString what =
            QStringLiteral("event %1 to %2").arg(int(event->type())).arg(nameOf(receiver, 4));
        ++depth_;
        nestedPaint_ = 0;
        QElapsedTimer clock;
        clock.start();
        const bool result = QApplication::notify(receiver, event);
        --depth_;
        spent_[what] += double(clock.nsecsElapsed()) / 1e6;
        if (nestedPaint_ > 0)
            spent_[what + QStringLiteral(", of it painting")] += nestedPaint_;
        return result;
    }

    void reset() { spent_.clear(); }

    void report(QTextStream& out, int samples) {
        if (!watching)
            return;
        QList<std::pair<double, QString>> rows;
        for (auto it = spent_.cbegin(); it != spent_.cend(); ++it)
            rows << std::pair{it.value(), it.key()};
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (qsizetype i = 0; i < std::min<qsizetype>(18, rows.size()); ++i) {
            out << QStringLiteral("    %1 ms  %2\n")
                       .arg(rows[i].first / samples, 6, 'f', 2)
                       .arg(rows[i].second);
        }
        spent_.clear();
    }

    bool watching = false;

private:
    static QString nameOf(const QObject* o, int parents) {
        QStringList chain;
        for (; o && chain.size() < parents; o = o->parent()) {
            chain << QLatin1String(o->metaObject()->className()) +
                         (o->objectName().isEmpty() ? QString()
                                                    : QLatin1Char('#') + o->objectName());
        }
        return chain.join(QLatin1String(" < "));
    }

    bool timedPaint(QObject* receiver, QEvent* event) {
        const bool outermost = !inPaint_;
        inPaint_ = true;
        QElapsedTimer clock;
        clock.start();
        const bool result = QApplication::notify(receiver, event);
        const double ms = double(clock.nsecsElapsed()) / 1e6;
        inPaint_ = !outermost;
        spent_[QStringLiteral("paint of ") + nameOf(receiver, 3)] += ms;
        if (outermost)
            nestedPaint_ += ms;
        return result;
    }

    int depth_ = 0;
    bool inPaint_ = false;
    double nestedPaint_ = 0;
    QHash<QString, double> spent_;
};

struct Sample {
    double medianMs = 0;
    double worstMs = 0;
    double updateMs = 0;  // median of the step and the views' update
    double paintMs = 0;   // median of the repaint after it
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// What a step did: the kinds of its events in order ("fire", "sql+guard+response").
QString stepKinds(const MainWindow& w) {
    const QList<TraceEvent>& events = w.playback().run()->trace().events();
    QStringList kinds;
    for (qsizetype i = w.playback().lastStepBegin(); i < w.playback().eventCount(); ++i)
        kinds << toId(events[i].kind);
    return kinds.join(QLatin1Char('+'));
}

using CostsByKind = QHash<QString, std::vector<double>>;

// Steps `count` times from where the run is, each step drawn as on screen;
// with `byKind`, each step's cost is also filed under what the step did.
Sample stepCost(MainWindow& w, int count, CostsByKind* byKind = nullptr) {
    std::vector<double> ms, update, paint;
    for (int i = 0; i < count && !w.playback().atEnd(); ++i) {
        QElapsedTimer clock;
        clock.start();
        w.playback().stepForward();
        const double stepped = double(clock.nsecsElapsed()) / 1e6;
        QApplication::processEvents();  // paint what the step changed
        ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        update.push_back(stepped);
        paint.push_back(ms.back() - stepped);
        if (byKind)
            (*byKind)[stepKinds(w)].push_back(ms.back());
    }
    return {median(ms), ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end()), median(update),
            median(paint)};
}

// Where a step's time goes: each view's update alone, as showStep calls it.
void breakdown(MainWindow& w, QTextStream& out) {
    const Run& run = *w.playback().run();
    const qsizetype to = w.playback().eventCount();
    const qsizetype from = w.playback().lastStepBegin();
    auto time = [&out](const char* what, const std::function<void()>& f) {
        QElapsedTimer clock;
        clock.start();
        f();
        out << QStringLiteral("    %1 %2 ms\n")
                   .arg(QLatin1String(what), -28)
                   .arg(double(clock.nsecsElapsed()) / 1e6, 8, 'f', 2);
    };
    time("judge now (outcome)", [&] { w.playback().liveSummary(); });
    time("tables refresh", [&] {
        for (DatabaseTableView* t : w.liveStage()->tables()) t->refresh(*w.playback().reader());
    });
    time("state diagram (redrawn whole)", [&] { w.stateView()->showTrace(run.trace(), to, from); });
    time("sequence diagram (redrawn whole)",
         [&] { w.sequenceView()->showTrace(run.trace(), to, from); });
}

}  // namespace

int main(int argc, char** argv) {
    TimedApp app(argc, argv);
    app.watching = app.arguments().contains(QStringLiteral("--paint"));
    QApplication::setApplicationName(QStringLiteral("idemlab-bench"));
    QStringList args = app.arguments().mid(1);
    args.removeAll(QStringLiteral("--paint"));
    const int count = args.isEmpty() ? 50 : std::max(1, args.first().toInt());
    QTextStream out(stdout);
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    RunConfig c = defaultConfig(*findScenario(QStringLiteral("order-create")));
    c.intents = 50;
    c.duplicates = 1000;
    QString error;
    QElapsedTimer clock;
    clock.start();
    if (!w.fire(c, &error)) {
        out << "cannot fire: " << error << "\n";
        return 1;
    }
    out << "order-create, 50 intents x 1000 duplicates: " << w.playback().length()
        << " steps (fired in " << clock.elapsed() << " ms)\n";
    w.playback().seek(10);
    QApplication::processEvents();
    app.reset();
    CostsByKind earlyKinds, fullKinds, lateKinds;
    const Sample early = stepCost(w, count, &earlyKinds);
    app.report(out, count);
    breakdown(w, out);
    // Past the first 400 events the sequence diagram holds its most rows:
    // from here on a step should cost the same anywhere.
    w.playback().seek(2000);
    QApplication::processEvents();
    app.reset();
    const Sample full = stepCost(w, count, &fullKinds);
    app.report(out, count);
    const int late = std::min(300'000, w.playback().length() - count - 1);
    clock.restart();
    w.playback().seek(late);
    QApplication::processEvents();
    out << "seek to " << late << " took " << clock.elapsed() << " ms\n";
    app.reset();
    const Sample lateCost = stepCost(w, count, &lateKinds);
    app.report(out, count);
    breakdown(w, out);
    // What the sampled steps did, the commonest first.
    auto kindsOf = [](const CostsByKind& byKind) {
        QList<QPair<qsizetype, QString>> counted;
        for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
            counted.append({qsizetype(it.value().size()), it.key()});
        std::sort(counted.begin(), counted.end(), std::greater<>());
        QStringList parts;
        for (const auto& [n, kind] : std::as_const(counted))
            parts << QStringLiteral("%1 x%2").arg(kind).arg(n);
        return parts.join(QStringLiteral(", "));
    };
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg("position", 10)
               .arg("median ms", 12)
               .arg("worst ms", 12)
               .arg("update ms", 12)
               .arg("paint ms", 12);
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(10, 10)
               .arg(early.medianMs, 12, 'f', 2)
               .arg(early.worstMs, 12, 'f', 2)
               .arg(early.updateMs, 12, 'f', 2)
               .arg(early.paintMs, 12, 'f', 2);
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(2000, 10)
               .arg(full.medianMs, 12, 'f', 2)
               .arg(full.worstMs, 12, 'f', 2)
               .arg(full.updateMs, 12, 'f', 2)
               .arg(full.paintMs, 12, 'f', 2);
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(late, 10)
               .arg(lateCost.medianMs, 12, 'f', 2)
               .arg(lateCost.worstMs, 12, 'f', 2)
               .arg(lateCost.updateMs, 12, 'f', 2)
               .arg(lateCost.paintMs, 12, 'f', 2);
    out << QStringLiteral("steps sampled at 10: %1\n").arg(kindsOf(earlyKinds));
    out << QStringLiteral("steps sampled at 2000: %1\n").arg(kindsOf(fullKinds));
    out << QStringLiteral("steps sampled at %1: %2\n").arg(late).arg(kindsOf(lateKinds));

    // Like for like. This run's first steps are the callers' fires, which
    // run no SQL (position 10 samples them); from somewhere before 2,000
    // its steps run statements and answer (positions 2,000 and 300,000).
    // So each kind of step is timed where it first comes, with the views
    // nearly empty, and again once they are full.
    constexpr int kLikeSteps = 600;
    auto sample = [&](int from, CostsByKind* into) {
        w.playback().seek(from);
        QApplication::processEvents();
        stepCost(w, kLikeSteps, into);
    };
    // Where the first statement runs, to within a few thousand steps.
    int firstSql = 10;
    while (firstSql < late) {
        firstSql += 2500;
        w.playback().seek(firstSql);
        w.playback().stepForward();
        if (stepKinds(w).split(QLatin1Char('+')).contains(QLatin1String("sql")))
            break;
    }
    // Three stretches: the callers' first fires; the first statements, with
    // the SQL log still short; and the end of the run, every view full.
    const QList<int> starts{10, firstSql, late - kLikeSteps};
    QList<CostsByKind> stretches(starts.size());
    for (qsizetype i = 0; i < starts.size(); ++i) sample(starts[i], &stretches[i]);
    out << QStringLiteral(
               "\neach kind of step in the first stretch of %1 steps that has it, "
               "and in the last (stretches from 10, %2 and %3):\n")
               .arg(kLikeSteps)
               .arg(firstSql)
               .arg(late - kLikeSteps);
    out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
               .arg("step", -24)
               .arg("from", 8)
               .arg("ms", 7)
               .arg("from", 8)
               .arg("ms", 7)
               .arg("later:first", 12);
    QSet<QString> kinds;
    for (const CostsByKind& stretch : std::as_const(stretches)) {
        for (auto it = stretch.cbegin(); it != stretch.cend(); ++it) kinds.insert(it.key());
    }
    QStringList sorted(kinds.cbegin(), kinds.cend());
    sorted.sort();
    constexpr size_t kEnough = 20;
    for (const QString& kind : std::as_const(sorted)) {
        qsizetype a = -1, b = -1;
        for (qsizetype i = 0; i < stretches.size(); ++i) {
            if (stretches[i].value(kind).size() >= kEnough) {
                if (a < 0)
                    a = i;
                b = i;
            }
        }
        if (a < 0 || a == b)
            continue;
        const double first = median(stretches[a].value(kind));
        const double last = median(stretches[b].value(kind));
        out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(kind.left(24), -24)
                   .arg(starts[a], 8)
                   .arg(first, 7, 'f', 2)
                   .arg(starts[b], 8)
                   .arg(last, 7, 'f', 2)
                   .arg(last / first, 12, 'f', 2);
    }
    return 0;
}
