#include "experimentview.h"

#include "background.h"
#include "experiment.h"
#include "names.h"
#include "statusdelegate.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

namespace idem {

namespace {

constexpr int kBatch = 10;         // intents per run; each run draws its own input
constexpr int kBarsEveryMs = 250;  // the chart follows the run at most four times a second

}  // namespace

ExperimentView::ExperimentView(QWidget* parent)
    : QWidget(parent),
      variants_(new QListWidget(this)),
      intents_(new QSpinBox(this)),
      run_(new QPushButton(this)),
      cancel_(new QPushButton(this)),
      progress_(new QProgressBar(this)),
      explain_(new QLabel(this)),
      chart_(new QChartView(this)) {
    auto* grid = new QGridLayout(this);
    explain_->setWordWrap(true);
    grid->addWidget(explain_, 0, 0, 1, 2);
    grid->addWidget(variants_, 1, 0);
    auto* side = new QVBoxLayout;
    intents_->setRange(kBatch, 100'000);
    intents_->setSingleStep(kBatch * 10);
    intents_->setValue(300);
    side->addWidget(intents_);
    side->addWidget(run_);
    side->addWidget(cancel_);
    side->addWidget(progress_);
    side->addStretch(1);
    grid->addLayout(side, 1, 1);
    grid->addWidget(chart_, 2, 0, 1, 2);
    grid->setRowStretch(2, 1);
    variants_->setTabKeyNavigation(false);
    variants_->setMaximumHeight(variants_->fontMetrics().height() * 8);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setFocusPolicy(Qt::NoFocus);  // nothing to operate: Tab passes it by
    cancel_->setEnabled(false);
    connect(run_, &QPushButton::clicked, this, &ExperimentView::start);
    connect(cancel_, &QPushButton::clicked, this, &ExperimentView::cancel);
    // Emitted by the worker: queued to this thread.
    connect(this, &ExperimentView::batchesReady, this, &ExperimentView::takeBatches);
    connect(this, &ExperimentView::workerEnded, this, &ExperimentView::workerDone);
    retranslate();
    renderChart();
}

ExperimentView::~ExperimentView() {
    stop();
}

bool ExperimentView::isRunning() const {
    return worker_.joinable();
}

void ExperimentView::setScenario(const Scenario& scenario) {
    if (scenario_ == &scenario)
        return;
    stop();
    scenario_ = &scenario;
    variants_->clear();
    for (const VariantInfo& v : scenario.info().variants) {
        if (v.serverLesson)
            continue;  // the window runs on SQLite
        auto* item = new QListWidgetItem(variants_);
        item->setData(Qt::UserRole, v.id);
        item->setCheckState(Qt::Checked);
    }
    results_.clear();
    costs_.clear();
    costIntents_.clear();
    nameItems();
    renderChart();
}

ExperimentPlan ExperimentView::plan() const {
    ExperimentPlan plan;
    for (int i = 0; i < variants_->count(); ++i) {
        if (variants_->item(i)->checkState() == Qt::Checked) {
            plan.variants << variants_->item(i)->data(Qt::UserRole).toString();
        }
    }
    plan.intentsPerVariant = intents_->value();
    plan.seed = 20261129;
    plan.batch = kBatch;
    return plan;
}

void ExperimentView::runNow() {
    if (!scenario_ || isRunning())
        return;
    const ExperimentPlan plan = this->plan();
    if (plan.variants.isEmpty())
        return;
    results_.clear();
    costs_.clear();
    costIntents_.clear();
    runExperiment(*scenario_, plan, nullptr,
                  [this](const QString& variant, const std::array<qint64, kVerdictCount>& counts,
                         const RunCost& cost, int done,
                         int total) { batchDone(variant, counts, cost, done, total); });
    updateBars();
}

void ExperimentView::start() {
    if (!scenario_ || isRunning())
        return;
    const ExperimentPlan plan = this->plan();
    if (plan.variants.isEmpty())
        return;
    results_.clear();
    costs_.clear();
    costIntents_.clear();
    updateBars();
    sinceBars_.start();
    progress_->setRange(0, 0);
    progress_->setValue(0);
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    stop_ = std::make_shared<std::atomic_bool>(false);
    // Results of an earlier experiment still queued when this one starts
    // (the scenario changed meanwhile) carry an old generation and are dropped.
    const quint64 generation = ++generation_;
    const Scenario* scenario = scenario_;
    auto stop = stop_;
    // Each batch runs on its own database and connections, all made and
    // closed in the worker thread, which runs only on a CPU nothing else
    // wants; results come back through batches_, the worker's signals say
    // when.
    worker_ = std::thread([this, scenario, plan, stop, generation] {
        becomeIdle();
        runExperiment(*scenario, plan, stop.get(),
                      [this, generation](const QString& variant,
                                         const std::array<qint64, kVerdictCount>& counts,
                                         const RunCost& cost, int done, int total) {
                          {
                              const std::lock_guard lock(batchesMutex_);
                              batches_.push_back({generation, variant, counts, cost, done, total});
                          }
                          emit batchesReady(QPrivateSignal());
                      });
        emit workerEnded(generation, QPrivateSignal());
    });
}

void ExperimentView::takeBatches() {
    std::vector<Batch> batches;
    {
        const std::lock_guard lock(batchesMutex_);
        batches.swap(batches_);
    }
    // Results of an earlier experiment still queued when this one started
    // (the scenario changed meanwhile) carry an old generation: dropped.
    for (const Batch& b : batches) {
        if (b.generation == generation_)
            batchDone(b.variant, b.counts, b.cost, b.done, b.total);
    }
}

void ExperimentView::workerDone(quint64 generation) {
    // An experiment stopped (its worker joined there) has nothing more to say.
    if (generation != generation_ || !worker_.joinable())
        return;
    worker_.join();
    run_->setEnabled(true);
    cancel_->setEnabled(false);
    updateBars();
    emit finished();
}

void ExperimentView::batchDone(const QString& variant,
                               const std::array<qint64, kVerdictCount>& counts, const RunCost& cost,
                               int done, int total) {
    for (std::size_t v = 0; v < counts.size(); ++v) {
        if (counts[v] > 0)
            results_[variant][toId(Verdict(v))] += int(counts[v]);
        costIntents_[variant] += counts[v];
    }
    RunCost& sum = costs_[variant];
    sum.statements += cost.statements;
    sum.transactions += cost.transactions;
    sum.rowsWritten += cost.rowsWritten;
    sum.lockWaits += cost.lockWaits;
    progress_->setRange(0, total);
    progress_->setValue(done);
    if (!sinceBars_.isValid() || sinceBars_.elapsed() >= kBarsEveryMs || done == total) {
        updateBars();
        sinceBars_.start();
    }
}

void ExperimentView::cancel() {
    if (stop_)
        *stop_ = true;
}

void ExperimentView::stop() {
    ++generation_;
    if (!worker_.joinable())
        return;
    cancel();
    worker_.join();
    run_->setEnabled(true);
    cancel_->setEnabled(false);
}

// A variant's name under its bar, a part of the id per line
// ("dedup-<br>no-expiry"): whole, where the bars of ten variants leave each
// name a tenth of the width. The chart's axis draws its labels as rich text.
QStringList ExperimentView::categoryLabels(const QStringList& variants) {
    QStringList labels;
    constexpr qsizetype kLongest = 8;  // letters of a line; a longer word is split in two
    for (const QString& v : variants) {
        QStringList lines;
        const QStringList words = v.split(QLatin1Char('-'));
        for (qsizetype i = 0; i < words.size(); ++i) {
            const QString& word = words[i];
            if (word.size() > kLongest) {
                const qsizetype half = (word.size() + 1) / 2;
                lines << word.left(half) + QLatin1Char('-') << word.mid(half);
            } else {
                lines << word;
            }
            if (i + 1 < words.size())
                lines.last() += QLatin1Char('-');
        }
        labels << lines.join(QStringLiteral("<br>"));
    }
    return labels;
}

void ExperimentView::renderChart() {
    // A hidden page builds no chart (start-up stays quick); it is built when shown.
    if (!isVisible()) {
        chartStale_ = true;
        return;
    }
    chartStale_ = false;
    auto* chart = new QChart;
    chart->setTitle(tr("Verdicts per variant (random duplicates, timings and crashes)"));
    series_ = new QStackedBarSeries(chart);
    QStringList variants;
    for (int i = 0; i < variants_->count(); ++i)
        variants << variants_->item(i)->data(Qt::UserRole).toString();
    for (const QString& verdict : verdictIds()) {
        auto* set = new QBarSet(verdictName(verdict));
        for (qsizetype v = 0; v < variants.size(); ++v) *set << 0;
        series_->append(set);
    }
    chart->addSeries(series_);
    // The whole name and the counts of a bar under the pointer.
    connect(series_, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const QString variant = variants_->item(index)->data(Qt::UserRole).toString();
        QToolTip::showText(QCursor::pos(),
                           tr("%1 — %2: %3").arg(variant, set->label()).arg(set->at(index)),
                           chart_);
    });
    auto* x = new QBarCategoryAxis(chart);
    x->append(categoryLabels(variants));
    yAxis_ = new QValueAxis(chart);
    yAxis_->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(x);
    series_->attachAxis(yAxis_);
    // Under the bars, not beside them: ten variants' names need the width.
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setTheme(palette().color(QPalette::Window).lightness() < 128 ? QChart::ChartThemeDark
                                                                        : QChart::ChartThemeLight);
    for (QBarSet* set : series_->barSets()) {
        set->setColor(verdictColor(verdictIds().value(int(series_->barSets().indexOf(set)))));
    }
    chart->setFont(font());
    QChart* old = chart_->chart();
    chart_->setChart(chart);
    delete old;
    updateBars();
}

void ExperimentView::updateBars() {
    if (!series_)
        return;
    const QList<QBarSet*> sets = series_->barSets();
    const QStringList verdicts = verdictIds();
    qreal peak = 0;
    for (int i = 0; i < variants_->count(); ++i) {
        const QMap<QString, int> counts =
            results_.value(variants_->item(i)->data(Qt::UserRole).toString());
        qreal stack = 0;
        for (qsizetype v = 0; v < sets.size() && v < verdicts.size(); ++v) {
            const qreal value = counts.value(verdicts[v]);
            if (sets[v]->at(i) != value)
                sets[v]->replace(i, value);
            stack += value;
        }
        peak = std::max(peak, stack);
    }
    yAxis_->setRange(0, std::max<qreal>(peak, 1));
    // What the bars say, for a screen reader: each variant by its whole
    // name and its verdicts.
    QStringList said;
    for (int i = 0; i < variants_->count(); ++i) {
        QStringList counts;
        for (qsizetype v = 0; v < sets.size(); ++v) {
            if (sets[v]->at(i) > 0)
                counts << QStringLiteral("%1 %2").arg(sets[v]->label()).arg(sets[v]->at(i));
        }
        if (!counts.isEmpty())
            said << QStringLiteral("%1: %2").arg(variants_->item(i)->data(Qt::UserRole).toString(),
                                                 counts.join(QStringLiteral(", ")));
    }
    chart_->setAccessibleDescription(said.join(QStringLiteral("; ")));
    nameItems();
}

void ExperimentView::nameItems() {
    if (!scenario_)
        return;
    for (int i = 0; i < variants_->count(); ++i) {
        QListWidgetItem* item = variants_->item(i);
        const QString id = item->data(Qt::UserRole).toString();
        const VariantInfo* info = scenario_->info().variant(id);
        QString text = (info && info->recommended ? QStringLiteral("★ ") : QString()) + id;
        const qint64 judged = costIntents_.value(id);
        if (judged > 0) {
            // The price of the technique beside its name: statements and rows
            // written per intent, what a heavy generic scheme pays.
            const RunCost cost = costs_.value(id);
            const auto per = [judged](qint64 total) {
                return QLocale().toString(double(total) / double(judged), 'f', 1);
            };
            text += tr(" — per intent %1 statements, %2 rows written")
                        .arg(per(cost.statements), per(cost.rowsWritten));
        }
        if (item->text() != text)
            item->setText(text);
    }
}

void ExperimentView::retranslate() {
    explain_->setText(
        tr("Runs many intents of this scenario under each checked variant. Every batch of "
           "%1 intents draws its own duplicates (1-3), source, timing and crash point; "
           "the database decides each verdict. Runs in the background: the window stays "
           "usable.")
            .arg(kBatch));
    intents_->setPrefix(tr("Intents per variant: "));
    run_->setText(tr("&Start the experiment"));
    cancel_->setText(tr("Cance&l"));
    variants_->setAccessibleName(tr("Variants in the experiment"));
    intents_->setAccessibleName(tr("Intents per variant"));
    chart_->setAccessibleName(tr("Verdicts per variant"));
    renderChart();
}

void ExperimentView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (chartStale_)
        renderChart();
}

void ExperimentView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange)
        renderChart();
    QWidget::changeEvent(event);
}

}  // namespace idem
