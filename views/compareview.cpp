#include "compareview.h"

#include "backendnames.h"
#include "comparison.h"
#include "configcheck.h"
#include "firepanel.h"
#include "frame.h"
#include "names.h"
#include "outcomepanel.h"
#include "scenario.h"
#include "sequenceview.h"
#include "serverinstall.h"
#include "sqlconnection.h"
#include "sweeper.h"
#include "tableview.h"
#include "texts.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaMethod>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace idem {

CompareView::CompareView(QWidget* parent) : QWidget(parent), rightLater_(new QTimer(this)) {
    rightLater_->setSingleShot(true);
    rightLater_->setTimerType(Qt::PreciseTimer);
    rightLater_->setInterval(kFrameMs);
    connect(rightLater_, &QTimer::timeout, this, &CompareView::showRightSide);
}

void CompareView::build() {
    if (input_)
        return;
    input_ = new QLabel(this);
    run_ = new QPushButton(this);
    auto* grid = new QGridLayout(this);
    input_->setWordWrap(true);
    grid->addWidget(input_, 0, 0, 1, 2);
    for (int side = 0; side < 2; ++side) {
        backends_[side] = new QComboBox(this);
        for (const QString& id : backendIds()) backends_[side]->addItem(backendName(id), id);
        backends_[side]->setObjectName(QStringLiteral("compareBackend%1").arg(side));
        variants_[side] = new QComboBox(this);
        variants_[side]->setObjectName(QStringLiteral("compareVariant%1").arg(side));
        variants_[side]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        variants_[side]->setMinimumContentsLength(8);
        outcomes_[side] = new OutcomePanel(this);
        tables_[side] = new DatabaseTableView(this);
        // The outcome scrolls when the room is short (presenter mode on a
        // projector): its verdict on top stays, and the table keeps room for
        // its rows (resizeEvent).
        outcomeRooms_[side] = new QScrollArea(this);
        outcomeRooms_[side]->setWidget(outcomes_[side]);
        outcomeRooms_[side]->setWidgetResizable(true);
        outcomeRooms_[side]->setFrameShape(QFrame::NoFrame);
        outcomeRooms_[side]->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        // Below the outcome, the side's table and its sequence diagram as
        // tabs; both sides show the same tab.
        details_[side] = new QTabWidget(this);
        details_[side]->setDocumentMode(true);
        details_[side]->addTab(tables_[side], QString());
        auto* sequencePage = new QWidget(details_[side]);
        auto* sequenceLayout = new QVBoxLayout(sequencePage);
        sequenceLayout->setContentsMargins(0, 0, 0, 0);
        sequences_[side] = new SequenceView(sequencePage);
        sequenceNotes_[side] = new QLabel(sequencePage);
        sequenceNotes_[side]->setWordWrap(true);
        sequenceNotes_[side]->hide();
        sequenceLayout->addWidget(sequenceNotes_[side]);
        sequenceLayout->addWidget(sequences_[side], 1);
        details_[side]->addTab(sequencePage, QString());
        auto* choosers = new QHBoxLayout;
        choosers->addWidget(backends_[side]);
        choosers->addWidget(variants_[side], 1);
        grid->addLayout(choosers, 1, side);
        grid->addWidget(outcomeRooms_[side], 2, side);
        grid->addWidget(details_[side], 3, side);
        connect(variants_[side], &QComboBox::activated, this, &CompareView::requestCompare);
        connect(backends_[side], &QComboBox::activated, this,
                [this, side] { backendChosen(side); });
        connect(details_[side], &QTabWidget::currentChanged, this, [this, side](int tab) {
            QTabWidget* other = details_[1 - side];
            if (other && other->currentIndex() != tab)
                other->setCurrentIndex(tab);
        });
        // The outcome draws its text a frame later (it is throttled): it is
        // measured once it has.
        connect(outcomes_[side], &OutcomePanel::verdictShown, this, &CompareView::fitOutcomes,
                Qt::QueuedConnection);
    }
    grid->addWidget(run_, 4, 0, 1, 2);
    grid->setRowStretch(3, 1);
    fitOutcomes();
    connect(run_, &QPushButton::clicked, this, &CompareView::requestCompare);
    if (scenario_) {
        fillBackends();
        fillVariants(false);
    }
    retranslate();
}

OutcomePanel* CompareView::outcome(int side) {
    build();
    return outcomes_[side];
}

DatabaseTableView* CompareView::table(int side) {
    build();
    return tables_[side];
}

SequenceView* CompareView::sequence(int side) {
    build();
    return sequences_[side];
}

void CompareView::setBackend(int side, const QString& backend) {
    build();
    const int index = backends_[side]->findData(backend);
    if (index < 0 || index == backends_[side]->currentIndex())
        return;
    backends_[side]->setCurrentIndex(index);
    backendChosen(side);
}

QString CompareView::backend(int side) const {
    return backends_[side] ? backends_[side]->currentData().toString() : config_.backend;
}

void CompareView::backendChosen(int side) {
    if (!scenario_)
        return;
    fillVariants(side, true);
    clearSides();
    retranslate();
    if (isVisible())
        requestCompare();
}

// Each outcome as tall as its text, but no more than a share of the page:
// the tables below keep room for at least three rows.
void CompareView::fitOutcomes() {
    if (!input_)
        return;
    // Both as tall as the taller, so that the two verdicts stand side by side.
    int wanted = 0;
    for (int side = 0; side < 2; ++side) {
        const int h = outcomes_[side]->heightForWidth(outcomeRooms_[side]->viewport()->width());
        wanted = std::max(wanted, h > 0 ? h : outcomes_[side]->sizeHint().height());
    }
    const int most = height() * kOutcomeShare / 100;
    for (QScrollArea* room : outcomeRooms_) room->setFixedHeight(std::min(most, wanted));
}

void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitOutcomes();
}

void CompareView::showEvent(QShowEvent* event) {
    build();
    QWidget::showEvent(event);
}

void CompareView::setInput(const Scenario& scenario, const RunConfig& config) {
    const bool sameScenario = scenario_ == &scenario;
    // A fire on another database brings both sides to it; a side set apart
    // on purpose stays while the class fires on the same one.
    const bool sameBackend = config_.backend == config.backend;
    scenario_ = &scenario;
    config_ = config;
    ++generation_;
    clearSides();
    if (!input_)
        return;  // built with these when first shown
    if (!sameBackend)
        fillBackends();
    fillVariants(sameScenario);
    retranslate();
    if (isVisible())
        requestCompare();
}

void CompareView::fillBackends() {
    for (int side = 0; side < 2; ++side) {
        const int index = backends_[side]->findData(config_.backend);
        backends_[side]->setCurrentIndex(std::max(0, index));
    }
}

void CompareView::fillVariants(bool sameScenario) {
    for (int side = 0; side < 2; ++side) fillVariants(side, sameScenario);
}

void CompareView::fillVariants(int side, bool keepChoice) {
    const ScenarioInfo& info = scenario_->info();
    const QString backend = backends_[side]->currentData().toString();
    const QString keep = variants_[side]->currentData().toString();
    variants_[side]->clear();
    // Only the variants that have this database's form.
    for (const VariantInfo& v : info.variants) {
        if (!FirePanel::unavailableText(v, backend).isEmpty())
            continue;
        QString title = Texts::instance().variantTitle(info.id, v.id);
        variants_[side]->addItem(title.isEmpty() ? v.id : title, v.id);
    }
    int index = keepChoice ? variants_[side]->findData(keep) : -1;
    if (index < 0) {
        // Left: the scenario's baseline; right: its recommended variant.
        const QString want = side == 0 ? info.baselineVariant() : info.recommendedVariant();
        index = variants_[side]->findData(want);
    }
    variants_[side]->setCurrentIndex(std::max(0, index));
    tables_[side]->setTable(info.guardTable.isEmpty() ? info.tables.value(0) : info.guardTable);
    sequences_[side]->setCast(info);
}

void CompareView::clearSides() {
    ranOn_ = RunConfig{};
    errors_.clear();
    for (int side = 0; side < 2 && input_; ++side) {
        outcomes_[side]->clear();
        tables_[side]->clear();
        sequences_[side]->clear();
        sequenceNotes_[side]->hide();
        notedBackend_[side].clear();
    }
}

QString CompareView::inputText() {
    build();
    return input_->text();
}

void CompareView::requestCompare() {
    if (isSignalConnected(QMetaMethod::fromSignal(&CompareView::compareRequested))) {
        emit compareRequested();
        return;
    }
    compare();
}

void CompareView::compare() {
    if (const auto runs = prepare()) {
        runComparison(*runs);
        show(runs);
    }
}

std::shared_ptr<CompareRuns> CompareView::prepare() {
    if (!scenario_)
        return nullptr;
    build();
    auto runs = std::make_shared<CompareRuns>();
    runs->scenario = scenario_;
    runs->generation = generation_;
    runs->input = config_;
    for (int side = 0; side < 2; ++side) {
        RunConfig c = config_;
        c.variant = variants_[side]->currentData().toString();
        c.backend = backends_[side]->currentData().toString();
        if (c.backend != config_.backend)
            c.isolation.clear();  // the fired level may not exist there: its default
        // A crash point the other variant lacks does not exist there.
        const VariantInfo* v = scenario_->info().variant(c.variant);
        if (v && !v->crashPoints.contains(c.crash))
            c.crash = CrashPoint::None;
        runs->configs[side] = c;
        runs->keepTrace[side] = estimatedStatements(c, scenario_->info()) <= kMaxDrawnStatements;
    }
    return runs;
}

void CompareView::show(const std::shared_ptr<CompareRuns>& runs, bool rightLater) {
    if (pending_)
        showRightSide();  // a newer comparison: the older one is done first
    if (!runs)
        return;
    if (runs->generation != generation_) {  // an old comparison: the input changed
        letGo(*runs, 0);
        letGo(*runs, 1);
        return;
    }
    build();
    clearSides();
    showSide(*runs, 0);
    letGo(*runs, 0);
    if (rightLater) {
        pending_ = runs;
        rightLater_->start();
        return;
    }
    showSide(*runs, 1);
    letGo(*runs, 1);
    finishShowing(*runs);
}

void CompareView::showRightSide() {
    rightLater_->stop();
    const std::shared_ptr<CompareRuns> runs = std::move(pending_);
    pending_.reset();
    if (!runs)
        return;
    if (runs->generation == generation_) {  // else the input changed meanwhile
        showSide(*runs, 1);
        finishShowing(*runs);
    }
    letGo(*runs, 1);
}

void CompareView::showSide(const CompareRuns& runs, int side) {
    const RunResult& run = runs.sides[side];
    if (!run.ok()) {
        // Say why on the panel itself rather than leaving it blank.
        errors_ << (run.failure == RunFailure::Cancelled ? tr("Stopped before the end.")
                                                         : run.error);
        return;
    }
    outcomes_[side]->showSummary(run.summary, true);
    const auto reader = run.run->openReader();
    // The guard's table; where this side's variant has none, the table its
    // effect is counted in, rather than an empty "not used".
    QStringList tables{tables_[side]->table()};
    if (scenario_)
        tables = {scenario_->info().guardTable, scenario_->info().effectTable,
                  scenario_->info().tables.value(0)};
    for (const QString& table : std::as_const(tables)) {
        if (table.isEmpty())
            continue;
        if (tables_[side]->table() != table)
            tables_[side]->setTable(table);
        tables_[side]->refresh(*reader);
        if (tables_[side]->exists())
            break;
    }
    const Trace& trace = run.run->trace();
    if (runs.keepTrace[side]) {
        sequences_[side]->showTrace(trace, trace.size(), trace.size());
    } else {
        notedBackend_[side] = runs.configs[side].backend;
        sayNotes();
        sequenceNotes_[side]->show();
    }
    fitOutcomes();
}

void CompareView::finishShowing(const CompareRuns& runs) {
    // Each side's database beside the other's: a deadlock on one side only
    // is drawn as the difference it is.
    if (runs.sides[0].ok() && runs.sides[1].ok()) {
        for (int side = 0; side < 2; ++side)
            outcomes_[side]->setCounterpart(runs.sides[1 - side].summary.cost,
                                            runs.configs[1 - side].backend);
    }
    if (errors_.isEmpty())
        ranOn_ = runs.input;
    retranslate();
}

void CompareView::letGo(CompareRuns& runs, int side) {
    RunResult& result = runs.sides[side];
    if (sweeper_ && result.run)
        sweeper_->take(std::shared_ptr<Run>(std::move(result.run)));
}

void CompareView::sayNotes() {
    for (int side = 0; side < 2; ++side) {
        if (!notedBackend_[side].isEmpty())
            sequenceNotes_[side]->setText(
                tr("This run is too long to draw side by side. Fire it on %1 to step through it.")
                    .arg(backendName(notedBackend_[side])));
    }
}

void CompareView::retranslate() {
    if (!input_)
        return;
    sayNotes();
    run_->setText(tr("Run &both on the same input"));
    for (int side = 0; side < 2; ++side) {
        details_[side]->setTabText(0, tr("Table"));
        details_[side]->setTabText(1, tr("Sequence diagram"));
        backends_[side]->setToolTip(
            tr("The database this side runs on: the same variant on SQLite and on "
               "MariaDB or PostgreSQL shows what a test suite on SQLite hides."));
    }
    // The variants' titles in the language now shown, the choice kept.
    for (int side = 0; side < 2 && scenario_; ++side) {
        for (int i = 0; i < variants_[side]->count(); ++i) {
            const QString id = variants_[side]->itemData(i).toString();
            const QString title = Texts::instance().variantTitle(scenario_->info().id, id);
            variants_[side]->setItemText(i, title.isEmpty() ? id : title);
        }
    }
    backends_[0]->setAccessibleName(tr("Left side's database"));
    backends_[1]->setAccessibleName(tr("Right side's database"));
    variants_[0]->setAccessibleName(tr("Left side's variant"));
    variants_[1]->setAccessibleName(tr("Right side's variant"));
    if (!scenario_) {
        input_->setText(tr("Fire a scenario first; then compare two of its variants here."));
        return;
    }
    // Which input the outcomes below belong to, so that no one reads an old
    // comparison as the fired one.
    const QString input = FirePanel::describe(config_, false);
    QString text = ranOn_.scenario.isEmpty() ? tr("Not run yet on the fired input: %1").arg(input)
                                             : tr("Both ran on the fired input: %1").arg(input);
    const QString left = backends_[0]->currentData().toString();
    const QString right = backends_[1]->currentData().toString();
    if (left != right || left != config_.backend)
        text += QLatin1Char('\n') + tr("Left on %1, right on %2: the same statements, two "
                                       "databases.")
                                        .arg(backendName(left), backendName(right));
    if (!errors_.isEmpty())
        text += QLatin1Char('\n') + errors_.join(QLatin1Char('\n'));
    input_->setText(text);
}

void CompareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        fitOutcomes();
}

}  // namespace idem
