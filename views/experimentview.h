// The stress experiment: many intents with random duplicates, timings and
// crashes under several variants at once, run in a worker thread, with a
// chart of verdict counts per variant.
#pragma once

#include "summary.h"
#include "vocabulary.h"

#include <QElapsedTimer>
#include <QMap>
#include <QWidget>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class QChartView;
class QStackedBarSeries;
class QValueAxis;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace idem {

class Scenario;
struct ExperimentPlan;

class ExperimentView : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentView(QWidget* parent = nullptr);
    ~ExperimentView() override;
    void setScenario(const Scenario& scenario);
    // Verdict counts per variant of the last finished experiment.
    QMap<QString, QMap<QString, int>> results() const { return results_; }
    bool isRunning() const;
    QSpinBox* intentsBox() const { return intents_; }

    // Runs the experiment in the calling thread and shows it (`idemlab shot`).
    void runNow();
    QChartView* chartView() const { return chart_; }

public slots:
    void start();
    void cancel();
    // Cancels the experiment in progress and waits for its worker.
    void stop();

signals:
    void finished();
    // Emitted by the worker: batches are waiting, it has ended.
    void batchesReady(QPrivateSignal);
    void workerEnded(quint64 generation, QPrivateSignal);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    static QStringList categoryLabels(const QStringList& variants);
    void retranslate();
    // A new chart for the variants (scenario, language, theme); the bars are
    // then updated in place by updateBars, a few times a second at most.
    void renderChart();
    void updateBars();
    ExperimentPlan plan() const;
    void batchDone(const QString& variant, const std::array<qint64, kVerdictCount>& counts,
                   const RunCost& cost, int done, int total);
    // A variant's list item: its name, and once it has run, what it cost
    // per intent.
    void nameItems();
    // What the worker reported since, on this thread.
    void takeBatches();
    void workerDone(quint64 generation);

    const Scenario* scenario_ = nullptr;
    QListWidget* variants_;
    QSpinBox* intents_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* explain_;
    QChartView* chart_;
    QStackedBarSeries* series_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
    QElapsedTimer sinceBars_;
    bool chartStale_ = true;  // the chart is built when the page is first shown
    // Joined before anything it read goes (stop, workerDone).
    std::thread worker_;
    std::shared_ptr<std::atomic_bool> stop_;
    // Batches the worker has run and this thread not yet shown.
    struct Batch {
        quint64 generation;
        QString variant;
        std::array<qint64, kVerdictCount> counts;
        RunCost cost;
        int done;
        int total;
    };
    std::mutex batchesMutex_;
    std::vector<Batch> batches_;
    quint64 generation_ = 0;
    QMap<QString, QMap<QString, int>> results_;
    QMap<QString, RunCost> costs_;       // per variant, over its batches
    QMap<QString, qint64> costIntents_;  // the intents those batches judged
};

}  // namespace idem
