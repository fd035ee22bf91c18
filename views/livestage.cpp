#include "livestage.h"

#include "run.h"
#include "scenario.h"
#include "sequenceview.h"
#include "sqllogmodel.h"
#include "sqllogview.h"
#include "stagehints.h"
#include "statemachineview.h"
#include "tableview.h"

#include <QEvent>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace idem {

LiveStage::LiveStage(QWidget* parent)
    : QWidget(parent),
      state_(new StateMachineView(this)),
      sequence_(new SequenceView(this)),
      tableTabs_(new QTabWidget(this)),
      sqlLogModel_(new SqlLogModel(this)),
      sqlLog_(new SqlLogView(*sqlLogModel_, this)),
      top_(new QSplitter(Qt::Horizontal)),
      split_(new QSplitter(Qt::Vertical)) {
    setObjectName(QStringLiteral("live"));
    tableTabs_->setObjectName(QStringLiteral("tableTabs"));
    tableTabs_->setDocumentMode(true);
    top_->addWidget(state_);
    top_->addWidget(tableTabs_);
    split_->addWidget(top_);
    split_->addWidget(sequence_);
    split_->addWidget(sqlLog_);
    for (QSplitter* s : {top_, split_}) s->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split_);
    arrange();
    retranslate();
}

void LiveStage::setPresenter(bool presenter) {
    if (presenter == presenter_)
        return;
    presenter_ = presenter;
    arrange();
}

void LiveStage::arrange() {
    if (presenter_) {
        tableTabs_->addTab(sqlLog_, QString());
    } else {
        split_->addWidget(sqlLog_);
    }
    // Shares of the room; the splitters keep them as the window resizes.
    const QList<int> across = presenter_ ? QList<int>{62, 38} : QList<int>{50, 50};
    const QList<int> down = presenter_ ? QList<int>{60, 40} : QList<int>{36, 40, 24};
    for (int i = 0; i < across.size(); ++i) top_->setStretchFactor(i, across[i]);
    for (int i = 0; i < down.size(); ++i) split_->setStretchFactor(i, down[i]);
    top_->setSizes({across[0] * 100, across[1] * 100});
    QList<int> sizes;
    for (int share : down) sizes << share * 100;
    split_->setSizes(sizes);
    retranslate();
}

void LiveStage::setScenario(const ScenarioInfo& info, const QString& variant) {
    effectTable_.clear();
    firstLook_ = true;
    state_->setMachine(info, variant);
    tableTabs_->clear();
    qDeleteAll(tables_);
    tables_.clear();
    guard_ = nullptr;
    guardName_ = info.guardTable;
    if (presenter_)
        tableTabs_->removeTab(tableTabs_->indexOf(sqlLog_));
    for (const QString& table : info.tables) {
        auto* view = new DatabaseTableView(tableTabs_);
        view->setTable(table);
        view->setTitleVisible(false);
        tableTabs_->addTab(view, table);
        tables_ << view;
        if (table == info.guardTable)
            guard_ = view;
    }
    if (presenter_)
        tableTabs_->addTab(sqlLog_, QString());
    applyInternals();
    retranslate();
}

void LiveStage::setShowInternals(bool show) {
    showInternals_ = show;
    applyInternals();
}

void LiveStage::applyInternals() {
    for (DatabaseTableView* v : std::as_const(tables_)) {
        tableTabs_->setTabVisible(tableTabs_->indexOf(v),
                                  showInternals_ || !stagehints::isInternalTable(v->table()));
    }
    sequence_->setShowInternals(showInternals_);
    sqlLog_->setShowInternals(showInternals_);
}

DatabaseTableView* LiveStage::frontTable() const {
    return qobject_cast<DatabaseTableView*>(tableTabs_->currentWidget());
}

// The eye goes where the change is: at first the effect's table (or the
// first the variant uses), then after each step the table that step changed,
// its changed rows pulsing.
void LiveStage::bringChangeToFront(bool firstLook) {
    auto shown = [this](DatabaseTableView* v) {
        return v->exists() && tableTabs_->isTabVisible(tableTabs_->indexOf(v));
    };
    DatabaseTableView* front = nullptr;
    if (firstLook) {
        for (DatabaseTableView* v : std::as_const(tables_)) {
            if (shown(v) && (v->table() == effectTable_ || !front))
                front = v;
            if (front && front->table() == effectTable_)
                break;
        }
    } else {
        for (DatabaseTableView* v : std::as_const(tables_)) {
            if (!shown(v) || !v->changedLastRefresh())
                continue;
            if (!front || v->table() == effectTable_)
                front = v;
        }
        if (front)
            front->flash();
    }
    if (front)
        tableTabs_->setCurrentWidget(front);
}

void LiveStage::showStep(const Run& run, SqlConnection* reader, qsizetype from, qsizetype to,
                         qsizetype fresh, bool rebuild) {
    if (rebuild) {
        sqlLogModel_->rebuild(run.trace());
    } else {
        sqlLogModel_->append(run.trace(), from, to);
    }
    if (reader) {
        for (DatabaseTableView* v : std::as_const(tables_)) v->refresh(*reader);
        bringChangeToFront(firstLook_);
        firstLook_ = false;
    }
    state_->showTrace(run.trace(), to, fresh);
    sequence_->showTrace(run.trace(), to, fresh);
    retranslate();
}

void LiveStage::retranslate() {
    tableTabs_->setAccessibleName(tr("Tables of the run"));
    if (const int sql = tableTabs_->indexOf(sqlLog_); sql >= 0)
        tableTabs_->setTabText(sql, tr("SQL log"));
    for (int i = 0; i < tables_.size(); ++i) {
        DatabaseTableView* v = tables_[i];
        QString text = v->table();
        if (v == guard_)
            text = tr("%1 (guard)").arg(text);
        if (!v->exists())
            text = tr("%1 — not used").arg(text);
        tableTabs_->setTabText(i, text);
        tableTabs_->setTabToolTip(
            i,
            v->exists() ? QString() : tr("This variant does not use the table %1").arg(v->table()));
    }
}

void LiveStage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace idem
