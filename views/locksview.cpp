#include "locksview.h"

#include "diagrampalette.h"
#include "locksmodel.h"
#include "traceevent.h"
#include "waitforgraph.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace idem {

LocksView::LocksView(QWidget* parent)
    : QWidget(parent),
      about_(new QLabel(this)),
      table_(new QTableView(this)),
      graph_(new WaitForGraph(this)),
      model_(new LocksModel(this)) {
    setObjectName(QStringLiteral("locksView"));
    about_->setObjectName(QStringLiteral("locksAbout"));
    about_->setWordWrap(true);
    about_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setObjectName(QStringLiteral("locksTable"));
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    graph_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // Its minimum is minimumSizeHint's, not the sum of its parts'.
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    layout->addWidget(about_);
    // The graph beside the table, not under it: on a projector's short
    // pane the rows keep the height (at 1280x720 in presenter mode, under
    // the graph, not even one row showed whole).
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(table_, 3);
    row->addWidget(graph_, 2);
    layout->addLayout(row, 1);
    applyPalette();
    retranslate();
}

void LocksView::show(const QList<TraceEvent>& events, qsizetype from, qsizetype to, qsizetype fresh,
                     bool rebuild, const QString& backend, const QString& writer) {
    // Steps forward add events; anything else reads the run again from its start.
    if (rebuild || backend != backend_ || from != follower_.followed() || to < from) {
        follower_.clear();
        from = 0;
    }
    fresh = std::clamp(fresh, from, to);
    auto waiting = [this] {
        const LockRows& rows = follower_.serverLocks();
        return std::count_if(rows.cbegin(), rows.cend(),
                             [](const LockRow& r) { return !r.granted; });
    };
    follower_.followRange(events, from, fresh);
    const auto before = waiting();
    beforeDeadlock_ = follower_.serverLocks();
    victim_.clear();
    // The server's own deadlock error (never the lab's cancel, a lock
    // timeout) among the step's events: the statement that closed the cycle,
    // or the waiting one the server chose to refuse.
    for (qsizetype i = fresh; i < to && i < events.size(); ++i) {
        const TraceEvent& e = events[i];
        if (e.is(EventKind::Sql) && e.attempt != 0 && e.outcome() == SqlOutcome::Deadlock) {
            victim_ = e.connectionName();
            break;
        }
    }
    if (victim_.isEmpty())
        beforeDeadlock_.clear();
    follower_.followRange(events, fresh, to);
    waitBegan_ = waiting() > before || !victim_.isEmpty();
    backend_ = backend;
    writer_ = writer;
    refresh();
}

void LocksView::clear() {
    follower_.clear();
    writer_.clear();
    waitBegan_ = false;
    beforeDeadlock_.clear();
    victim_.clear();
    refresh();
}

void LocksView::refresh() {
    const bool sqlite = backend_.isEmpty() || backend_ == QLatin1String("sqlite");
    model_->show(sqlite ? follower_.sqliteLocks(writer_) : follower_.serverLocks(), follower_);
    // Who waits for whom, when more than one attempt waits.
    QList<WaitForGraph::Edge> edges;
    QStringList waiters;
    // Each session by its attempt, as the table names them (the victim's
    // too, whose locks are gone).
    auto nameOf = [this](const QString& session) {
        const QString name = attemptName(follower_.attemptOf(session), follower_.manyIntents());
        return name.isEmpty() ? session : name;
    };
    auto addEdge = [&](const QString& waiter, const QString& holder, const QString& lock) {
        if (!waiters.contains(waiter))
            waiters << waiter;
        for (const WaitForGraph::Edge& e : std::as_const(edges)) {
            if (e.waiter == waiter && e.holder == holder)
                return;
        }
        edges << WaitForGraph::Edge{waiter, holder, lock};
    };
    auto addWaits = [&](const LockRows& rows) {
        for (const LockRow& r : rows) {
            if (r.granted)
                continue;
            const QString lock = lockKindName(r.kind) +
                                 (r.index.isEmpty() ? QString() : QStringLiteral(" · ") + r.index);
            for (const QString& holder : r.waitsFor)
                addEdge(nameOf(r.session), nameOf(holder), lock);
        }
    };
    if (showsDeadlock()) {
        // The cycle as it stood when the server broke it: the waits before
        // the step, and the victim's request, which waited for those that
        // waited for it (that closed the cycle; the server refused it).
        addWaits(beforeDeadlock_);
        const QString victim = nameOf(victim_);
        for (const LockRow& r : std::as_const(beforeDeadlock_)) {
            if (!r.granted && r.waitsFor.contains(victim_))
                addEdge(victim, nameOf(r.session), tr("refused: deadlock"));
        }
    }
    addWaits(model_->rows());
    graph_->setEdges(waiters.size() > 1 ? edges : QList<WaitForGraph::Edge>());
    graph_->setVisible(waiters.size() > 1 && !edges.isEmpty());
    QStringList said;
    for (const WaitForGraph::Edge& e : std::as_const(edges))
        said << tr("%1 waits for %2 (%3)").arg(e.waiter, e.holder, e.lock);
    graph_->setAccessibleDescription(graph_->isVisible() ? said.join(QStringLiteral("; "))
                                                         : QString());
    graph_->setToolTip(said.join(QLatin1Char('\n')));
    about_->setText(about());
    about_->setToolTip(source());
    about_->setAccessibleDescription(source());
}

QString LocksView::about() const {
    QString text;
    // On a server the line says only what to look at; where the locks come
    // from is its tooltip (the pane is narrow beside a diagram).
    if (backend_ != QLatin1String("postgres") && backend_ != QLatin1String("mariadb"))
        text = tr("SQLite has no row or gap locks: one writer at a time holds the write lock of "
                  "the whole database, from BEGIN IMMEDIATE to COMMIT or ROLLBACK, and every "
                  "other writer waits for it. Below, the lab's own lock table.") +
               QLatin1Char(' ');
    if (model_->rowCount() == 0)
        text += tr("Nothing is locked at this step.");
    else if (const int waiting = model_->waiting(); waiting > 0)
        text += tr("Locks awaited: %1 (highlighted).").arg(waiting);
    else
        text += tr("Locks held: %1, none awaited.").arg(model_->rowCount());
    if (follower_.truncated())
        text +=
            QLatin1Char(' ') + tr("The server listed only the first ten locks of a transaction.");
    return text;
}

// What the source shows, said once in the tooltip (the line above the
// table stays short beside a diagram).
QString LocksView::source() const {
    if (backend_ == QLatin1String("postgres"))
        return tr(
            "PostgreSQL's locks for the run's attempts at this step: pg_locks, and the row "
            "locks it keeps in the rows themselves (pgrowlocks).");
    if (backend_ == QLatin1String("mariadb"))
        return tr(
            "InnoDB's locks for the run's attempts at this step (SHOW ENGINE INNODB "
            "STATUS): record, gap, next-key and insert intention locks, with their index.");
    return {};
}

QSize LocksView::sizeHint() const {
    const int line = fontMetrics().height();
    return {line * 16, line * 8};
}

QSize LocksView::minimumSizeHint() const {
    const int line = fontMetrics().height();
    return {line * 4, line * 4};
}

void LocksView::applyPalette() {
    const DiagramPalette colours = DiagramPalette::from(palette());
    model_->setWaitingColours(DiagramPalette::tint(colours.waiting, colours.dark ? 90 : 70),
                              colours.text);
}

void LocksView::retranslate() {
    setAccessibleName(tr("Database locks"));
    table_->setAccessibleName(tr("Locks held and awaited at this step"));
    graph_->setAccessibleName(tr("Who waits for whom"));
    model_->retranslate();
    refresh();
}

void LocksView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QWidget::changeEvent(event);
}

}  // namespace idem
