#include "livestage.h"

#include "locksview.h"
#include "redisview.h"
#include "relativefont.h"
#include "scenario.h"
#include "sequenceview.h"
#include "sqllogmodel.h"
#include "sqllogview.h"
#include "statemachineview.h"
#include "tabletabs.h"
#include "tableview.h"
#include "trace.h"

#include <QCheckBox>
#include <QEvent>
#include <QIcon>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace idem {

LiveStage::LiveStage(QWidget* parent)
    : QWidget(parent),
      state_(new StateMachineView(this)),
      sequence_(new SequenceView(this)),
      tableTabs_(new TableTabs(this)),
      sqlLogModel_(new SqlLogModel(this)),
      sqlLog_(new SqlLogView(*sqlLogModel_, this)),
      locks_(new LocksView(this)),
      redis_(new RedisView(this)),
      rowVersions_(new QCheckBox(this)),
      top_(new QSplitter(Qt::Horizontal)),
      split_(new QSplitter(Qt::Vertical)) {
    setObjectName(QStringLiteral("live"));
    tableTabs_->setObjectName(QStringLiteral("tableTabs"));
    // The Locks view in front or not: the room is shared again.
    connect(tableTabs_, &QTabWidget::currentChanged, this, &LiveStage::fitTables);
    tableTabs_->setDocumentMode(true);
    tableTabs_->addTab(locks_, QString());
    tableTabs_->addTab(redis_, QString());
    tableTabs_->setTabVisible(tableTabs_->indexOf(redis_), false);
    rowVersions_->setObjectName(QStringLiteral("rowVersions"));
    tableTabs_->setCornerWidget(rowVersions_, Qt::TopRightCorner);
    connect(rowVersions_, &QCheckBox::toggled, this, [this](bool on) {
        for (DatabaseTableView* v : std::as_const(tables_)) v->setRowVersions(on);
        later_.tables = true;
        later_.tablesRebuild = true;
        emit tablesWanted();
    });
    top_->addWidget(state_);
    connect(state_, &StateMachineView::fullSizeWidthChanged, this, &LiveStage::fitTables);
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
    sqlLog_->setVisible(presenter_ || alone_ == Part::None || alone_ == Part::Tables);
    // In presenter mode the table names a step smaller than the tables and
    // diagrams, so that five or six tabs leave the state diagram its room.
    setRelativeFont(tableTabs_->tabBar(), presenter_ ? 0.8 : 1.0);
    // Six tables do not fit whole beside a diagram at 20 px: the tabs not in
    // front are shortened, never past a readable name; then they scroll.
    tableTabs_->tabBar()->setElideMode(presenter_ ? Qt::ElideRight : Qt::ElideNone);
    tableTabs_->tabBar()->setUsesScrollButtons(true);
    // Shares of the room; the splitters keep them as the window resizes.
    const QList<int> across = presenter_ ? QList<int>{62, 38} : QList<int>{50, 50};
    const QList<int> down = presenter_ ? QList<int>{60, 40} : QList<int>{36, 40, 24};
    for (int i = 0; i < across.size(); ++i) top_->setStretchFactor(i, across[i]);
    for (int i = 0; i < down.size(); ++i) split_->setStretchFactor(i, down[i]);
    top_->setSizes({across[0] * 100, across[1] * 100});
    QList<int> sizes;
    for (int share : down) sizes << share * 100;
    split_->setSizes(sizes);
    downForMachine_.reset();
    applyInternals();
    applyRowVersionsBox();
    retranslate();
}

// On a projector the tab bar needs its room (a corner widget counts in the tabs'
// least width even hidden): the box is there only where it can be used (PostgreSQL).
void LiveStage::applyRowVersionsBox() {
    const bool wanted = !presenter_ || rowVersions_->isEnabled();
    if (wanted == (tableTabs_->cornerWidget(Qt::TopRightCorner) == rowVersions_))
        return;
    tableTabs_->setCornerWidget(wanted ? rowVersions_ : nullptr, Qt::TopRightCorner);
    rowVersions_->setVisible(wanted);
}

void LiveStage::setAlone(Part part) {
    alone_ = part;
    const bool all = part == Part::None;
    state_->setVisible(all || part == Part::State);
    state_->setGrowToFit(part == Part::State);
    tableTabs_->setVisible(all || part == Part::Tables);
    top_->setVisible(all || part == Part::State || part == Part::Tables);
    sequence_->setVisible(all || part == Part::Sequence);
    // The SQL log is the tables' last tab in presenter mode, else a pane of
    // its own under the sequence diagram: it goes with the tables.
    if (!presenter_)
        sqlLog_->setVisible(all || part == Part::Tables);
}

void LiveStage::setScenario(const ScenarioInfo& info, const QString& variant) {
    effectTable_.clear();
    firstLook_ = true;
    // Fired again with the same cast (another timing, another crash point:
    // the usual next run), the views stay: the run's first showing reads
    // them afresh. Building them again took a few milliseconds of the
    // worker's hand-over.
    const QString cast = info.id + QLatin1Char('/') + variant;
    if (cast == cast_)
        return;
    cast_ = cast;
    state_->setMachine(info, variant);
    sequence_->setCast(info);
    sqlLog_->setInternalLanes(info.internalLanes);
    internalTables_ = info.internalTables;
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
        view->setRowVersions(showsRowVersions());
    }
    tableTabs_->addTab(locks_, QString());
    tableTabs_->addTab(redis_, QString());
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
    // In presenter mode a table this variant does not use is left out: the
    // tabs that matter fit the bar side by side.
    for (DatabaseTableView* v : std::as_const(tables_)) {
        const bool pointed = v->table() == pointedTable_;
        const bool shown = pointed || ((showInternals_ || !internalTables_.contains(v->table())) &&
                                       (!presenter_ || v->exists() || v->table() == effectTable_));
        tableTabs_->setTabVisible(tableTabs_->indexOf(v), shown);
    }
    // ... and so is the Locks tab on SQLite, whose one lock the sequence
    // diagram's waits show: a server's locks are the lesson there.
    const bool server =
        backend_ == QLatin1String("mariadb") || backend_ == QLatin1String("postgres");
    tableTabs_->setTabVisible(tableTabs_->indexOf(locks_), !presenter_ || server);
    tableTabs_->setTabVisible(tableTabs_->indexOf(redis_), redisOn_);
    sequence_->setShowInternals(showInternals_);
    sqlLog_->setShowInternals(showInternals_);
}

DatabaseTableView* LiveStage::frontTable() const {
    return qobject_cast<DatabaseTableView*>(tableTabs_->currentWidget());
}

void LiveStage::setPointed(const QString& table, bool locks, bool sqlLog) {
    pointedTable_ = table;
    pointedLocks_ = locks;
    pointedSqlLog_ = sqlLog;
    applyInternals();
    bringPointedToFront();
}

// The Locks view after a table: of the two, the locks are the lesson; and
// the SQL log, a tab only in presenter mode, before both.
bool LiveStage::bringPointedToFront() {
    QWidget* pointed = nullptr;
    if (pointedSqlLog_ && tableTabs_->indexOf(sqlLog_) >= 0) {
        pointed = sqlLog_;
    } else if (pointedLocks_ && tableTabs_->isTabVisible(tableTabs_->indexOf(locks_))) {
        pointed = locks_;
    } else if (!pointedTable_.isEmpty()) {
        for (DatabaseTableView* v : std::as_const(tables_)) {
            if (v->table() == pointedTable_)
                pointed = v;
        }
    }
    if (!pointed || tableTabs_->indexOf(pointed) < 0)
        return false;
    if (tableTabs_->currentWidget() != pointed)
        tableTabs_->setCurrentWidget(pointed);
    return true;
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
    // A lesson's pointer is a promise: what it names stays in front.
    if (bringPointedToFront())
        return;
    // A wait that began at this step keeps the Locks view in front
    // (showStep), though the waiting statement's own rows changed too.
    const bool waitInFront = locks_->waitBegan() && backend_ != QLatin1String("sqlite");
    if (front && !waitInFront)
        tableTabs_->setCurrentWidget(front);
}

void LiveStage::CatchUp::take(const QList<TraceEvent>& events, qsizetype begin, qsizetype end,
                              qsizetype fresh, bool rebuild) {
    if (rebuild) {
        tally.clear();
        begin = 0;
    } else if (tally.applied() != begin) {
        return;  // the views are elsewhere: they count for themselves
    }
    logRows = SqlLogModel::rowsOf(events, begin, end);
    tally.advance(events, end, fresh);
    from = begin;
    to = end;
    rebuilt = rebuild;
}

LiveStage::CatchUp LiveStage::prepareCatchUp() const {
    CatchUp c;
    c.tally = state_->tally();
    return c;
}

void LiveStage::showStep(const Trace& trace, const QString& backend, SqlConnection* reader,
                         SqlConnection* writer, qsizetype from, qsizetype to, qsizetype fresh,
                         bool rebuild, CatchUp* ready, bool later) {
    applyBackend(backend);
    locks_->show(trace.events(), from, to, fresh, rebuild, backend,
                 writer ? writer->id() : QString());
    const bool caught = ready && ready->from >= 0 && ready->to == to && ready->rebuilt == rebuild &&
                        (rebuild || ready->from == from);
    // The SQL log's new rows: counted by a worker already, or here.
    const QList<TraceEvent>& events = trace.events();
    QList<TraceEvent> rows = caught    ? std::move(ready->logRows)
                             : rebuild ? SqlLogModel::rowsOf(events, 0, events.size())
                                       : SqlLogModel::rowsOf(events, from, to);
    if (later) {
        holdLogRows(std::move(rows), rebuild);
        later_.tablesRebuild = (later_.tables && later_.tablesRebuild) || rebuild;
        later_.tables = true;
    } else {
        const bool tablesDue = later_.tables;
        const bool tablesRebuild = later_.tablesRebuild;
        later_.tables = false;
        later_.tablesRebuild = false;
        // Playing at "instant" the tables are read a few times a second:
        // read at every frame, with their columns fitted and the front tab
        // changed, they took half of it.
        const bool readTables =
            reader && (!fastPlay_ || rebuild || tablesDue || !tablesRead_.isValid() ||
                       tablesRead_.hasExpired(kFastRedrawMs));
        // What a hand-over left comes first; a rebuild makes it moot.
        if (rebuild) {
            later_.log = false;
            later_.logRows.clear();
            sqlLogModel_->resetRows(std::move(rows));
            logShown_.start();
        } else if (fastPlay_ &&
                   (readTables || (logShown_.isValid() && !logShown_.hasExpired(kFastRedrawMs)))) {
            // ... and the log, like them, takes its rows a few times a
            // second, never in the frame that reads the tables: repainted
            // at every frame, it was a third of the window's repaint.
            holdLogRows(std::move(rows), false);
        } else {
            showLogLater();
            sqlLogModel_->appendRows(std::move(rows));
            logShown_.start();
        }
        if (readTables) {
            refreshTables(*reader, writer, rebuild || tablesRebuild);
        } else if (reader) {
            tablesStale_ = true;
        }
    }
    // A step forward draws only its own events; a rebuild draws them all.
    if (caught) {
        state_->showTally(std::move(ready->tally));
    } else if (rebuild) {
        state_->showTrace(trace, to, fresh);
    } else {
        state_->advanceTrace(trace, to, fresh);
    }
    // A wait that began is where the eye goes, unless a lesson points elsewhere.
    if (locks_->waitBegan() && backend_ != QLatin1String("sqlite") && !bringPointedToFront())
        tableTabs_->setCurrentWidget(locks_);
    if (later)
        return;
    showSequence(trace, to, fresh, rebuild);
    // Tables the run has created since are "used" now.
    applyTabs();
}

bool LiveStage::showsRowVersions() const {
    return rowVersions_->isEnabled() && rowVersions_->isChecked();
}

void LiveStage::showRedis(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                          bool rebuild, bool on) {
    if (std::exchange(redisOn_, on) != on)
        applyInternals();
    if (on)
        redis_->show(events, from, to, rebuild);
}

// Row versions are PostgreSQL's: elsewhere the box is off and says why.
void LiveStage::applyBackend(const QString& backend) {
    if (backend == backend_)
        return;
    backend_ = backend;
    const bool postgres = backend == QLatin1String("postgres");
    const bool was = showsRowVersions();
    rowVersions_->setEnabled(postgres);
    applyRowVersionsBox();
    applyInternals();
    retranslate();
    if (was != showsRowVersions()) {
        for (DatabaseTableView* v : std::as_const(tables_)) v->setRowVersions(showsRowVersions());
    }
}

void LiveStage::showLater(SqlConnection* reader, SqlConnection* writer) {
    if (!hasLater())
        return;
    showLogLater();
    if (later_.tables) {
        const bool rebuild = later_.tablesRebuild;
        later_.tables = false;
        later_.tablesRebuild = false;
        if (reader)
            refreshTables(*reader, writer, rebuild);
    }
    applyTabs();
}

void LiveStage::holdLogRows(QList<TraceEvent> rows, bool rebuild) {
    // Kept in order behind any rows held before; a rebuild replaces them.
    if (rebuild || !later_.log) {
        later_.logRows = std::move(rows);
        later_.logRebuild = rebuild;
    } else {
        later_.logRows.append(std::move(rows));
    }
    later_.log = true;
}

void LiveStage::showLogLater() {
    if (!later_.log)
        return;
    if (later_.logRebuild) {
        sqlLogModel_->resetRows(std::move(later_.logRows));
    } else {
        sqlLogModel_->appendRows(std::move(later_.logRows));
    }
    later_.logRows.clear();
    later_.log = false;
    later_.logRebuild = false;
    logShown_.start();
}

void LiveStage::showSequence(const Trace& trace, qsizetype to, qsizetype fresh, bool rebuild) {
    if (rebuild) {
        sequence_->showTrace(trace, to, fresh);
    } else {
        sequence_->advanceTrace(trace, to, fresh);
    }
}

void LiveStage::refreshTables(SqlConnection& reader, SqlConnection* writer, bool rebuild) {
    // Most steps commit nothing (a read, an answer): the tables are as they
    // were, and reading them again cost a step half a millisecond once they
    // held the run's rows. A transaction still open is read through its own
    // connection, and what it showed is read again when it ends (a rollback
    // commits nothing, yet takes its rows away).
    const bool committed = reader.othersCommittedSinceAsked();
    if (!committed && !rebuild && !firstLook_ && !writer && !uncommittedShown_) {
        for (DatabaseTableView* v : std::as_const(tables_)) v->settle();
        tablesStale_ = false;
        tablesRead_.start();
        return;
    }
    uncommittedShown_ = false;
    for (DatabaseTableView* v : std::as_const(tables_)) {
        v->refresh(reader, writer);
        uncommittedShown_ = uncommittedShown_ || v->uncommittedRows() > 0;
    }
    if (presenter_)
        applyInternals();  // which tables this variant uses is known now
    bringChangeToFront(firstLook_);
    firstLook_ = false;
    tablesStale_ = false;
    tablesRead_.start();
}

void LiveStage::setFastPlay(bool fast, SqlConnection* reader, SqlConnection* writer) {
    // The tables are read in the first tick, the log takes its rows in the
    // next, the state diagram draws a third of an interval on (and the
    // outcome two thirds): each in a frame of its own.
    state_->setRedrawInterval(fast ? kFastRedrawMs : 0, kFastRedrawMs / 3);
    sequence_->setFastPlay(fast);
    fastPlay_ = fast;
    if (fast)
        return;
    showLogLater();
    if (tablesStale_ && reader)
        refreshTables(*reader, writer, false);
}

void LiveStage::retranslate() {
    tableTabs_->setAccessibleName(tr("Tables of the run"));
    rowVersions_->setText(tr("Row versions"));
    rowVersions_->setAccessibleName(tr("Show row versions (xmin, xmax)"));
    rowVersions_->setToolTip(
        rowVersions_->isEnabled()
            ? tr("Shows each row's xmin (the transaction that wrote this version) and xmax (the "
                 "transaction that deleted or locked it, 0 for none), each named by the attempt "
                 "whose transaction it is: a snapshot sees a row only if its xmin had committed "
                 "when the snapshot was taken.")
            : tr("Only PostgreSQL keeps row versions (xmin, xmax) in its rows: choose PostgreSQL "
                 "in the Fire panel to show them."));
    fitted_ = QSize();  // the room or the diagram may have changed too
    applyTabs();
}

// Tab labels: in normal mode the table's role in words; in presenter mode
// short (the guard marked by a shield, the SQL log as "SQL"), each with its
// whole name in its tooltip, as the bar never scrolls there.
void LiveStage::applyTabs() {
    if (const int locks = tableTabs_->indexOf(locks_); locks >= 0) {
        const QString text = presenter_ ? tr("Locks") : tr("Database locks");
        if (tableTabs_->tabText(locks) != text)
            tableTabs_->setTabText(locks, text);
        // The whole name in the tooltip, as every tab has it.
        tableTabs_->setTabToolTip(
            locks, tr("%1: what the database holds and awaits at this step").arg(text));
    }
    // Set only when it changes: a tab's new text lays the bar out again.
    if (const int redis = tableTabs_->indexOf(redis_); redis >= 0) {
        if (tableTabs_->tabText(redis).isEmpty())
            tableTabs_->setTabText(redis, QStringLiteral("Redis"));
        if (const QString tip = tr("Redis: the run's keys at this step");
            tableTabs_->tabToolTip(redis) != tip)
            tableTabs_->setTabToolTip(redis, tip);
    }
    if (const int sql = tableTabs_->indexOf(sqlLog_); sql >= 0) {
        tableTabs_->setTabText(sql, presenter_ ? tr("SQL") : tr("SQL log"));
        tableTabs_->setTabToolTip(sql, presenter_ ? tr("SQL log") : QString());
    }
    const int iconSize = tableTabs_->tabBar()->fontMetrics().height() * 3 / 4;
    if (tableTabs_->iconSize() != QSize(iconSize, iconSize))
        tableTabs_->setIconSize(QSize(iconSize, iconSize));
    for (int i = 0; i < tables_.size(); ++i) {
        DatabaseTableView* v = tables_[i];
        const int tab = tableTabs_->indexOf(v);
        QString text = v->table();
        QString tip;
        if (v == guard_) {
            tip = tr("%1 (guard)").arg(text);
            if (!presenter_)
                text = tip;
        }
        if (!v->exists()) {
            text = tr("%1 — not used").arg(text);
            tip = tr("This variant does not use the table %1").arg(v->table());
        }
        // Each change lays the tab bar out again: this runs at every step.
        if (tableTabs_->tabText(tab) != text)
            tableTabs_->setTabText(tab, text);
        const bool shield = presenter_ && v == guard_;
        if (shield || !tableTabs_->tabIcon(tab).isNull())
            tableTabs_->setTabIcon(tab, shield ? guardIcon(palette(), iconSize) : QIcon());
        if (presenter_ && tip.isEmpty())
            tip = v->table();
        if (presenter_ || !v->exists())
            tableTabs_->setTabToolTip(tab, tip);
        else if (!tableTabs_->tabToolTip(tab).isEmpty())
            tableTabs_->setTabToolTip(tab, QString());
    }
    if (fitted_ != tableTabs_->tabBar()->sizeHint()) {
        fitted_ = tableTabs_->tabBar()->sizeHint();
        fitTables();
    }
}

// In presenter mode the tables take what their tabs need (within bounds)
// and the state diagram the rest, so it is drawn at full size where it can.
void LiveStage::fitTables() {
    if (!presenter_)
        return;
    const int total = top_->width() - top_->handleWidth();
    if (total <= 0)
        return;
    auto* bar = static_cast<TableTabBar*>(tableTabs_->tabBar());
    const int tabs = bar->sizeHint().width();
    // Up to a little over half (six tables whole), but the state diagram at
    // full size while shortened tabs stay readable (else up to half).
    const QWidget* corner = tableTabs_->cornerWidget(Qt::TopRightCorner);
    const int besides = (corner ? corner->sizeHint().width() : 0) + 8;
    int tables = std::clamp(tabs + 4, total * 28 / 100, total * 55 / 100);
    if (const int diagram = state_->fullSizeWidth(); diagram > 0 && total - tables < diagram) {
        const int readable = bar->leastWidth(TableTabBar::kReadableLetters) + besides;
        tables = std::max({total * 28 / 100, total - diagram, std::min(readable, total / 2)});
    }
    // ... and the shortened tabs keep what that room gives (6 to 8 letters).
    const int barRoom = tables - besides;
    int letters = TableTabBar::kMostLetters;
    while (letters > TableTabBar::kReadableLetters && bar->leastWidth(letters) > barRoom) --letters;
    bar->setLeastLetters(letters);
    // A variant without a state machine has only a sentence saying so
    // there: the tables take the room.
    if (!state_->hasMachine())
        tables = total * 76 / 100;
    // The locks in front take as much as the diagram leaves them: their
    // rows are wide (attempt, lock, state, record, index).
    else if (tableTabs_->currentWidget() == locks_) {
        const int diagram = state_->fullSizeWidth();
        tables = std::max(
            tables, diagram > 0 ? std::min(total * 55 / 100, total - diagram) : total * 55 / 100);
    }
    top_->setSizes({total - tables, tables});

    // Without a state machine the sequence diagram tells the story: it gets
    // the larger share of 720 rows (set when the variant changes).
    const bool machine = state_->hasMachine();
    if (downForMachine_ != machine) {
        downForMachine_ = machine;
        split_->setSizes(machine ? QList<int>{6000, 4000} : QList<int>{4000, 6000});
    }
}

void LiveStage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTables();
}

void LiveStage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace idem
