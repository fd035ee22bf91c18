#include "paginationview.h"

#include "runner.h"

#include "contrast.h"
#include "names.h"
#include "run.h"
#include "statusdelegate.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTreeWidget>
#include <QValueAxis>

namespace idem {

struct StrategyRun {
    QJsonArray pages;
    QJsonArray plan;
    QList<QPair<qint64, qint64>> writes;  // inserted, deleted after each page
    QString verdict;
    QString error;
};

struct PagingRuns {
    StrategyRun strategies[3];
};

namespace {

const StrategyRun& runOf(const std::shared_ptr<PagingRuns>& runs, int strategy) {
    static const StrategyRun none;
    return runs ? runs->strategies[strategy] : none;
}

QSet<qint64> idSet(const QJsonValue& v) {
    QSet<qint64> ids;
    for (const QJsonValue& id : v.toArray()) ids.insert(id.toInteger());
    return ids;
}

QString idList(const QJsonArray& ids) {
    QStringList parts;
    for (const QJsonValue& id : ids) parts << QString::number(id.toInteger());
    return parts.join(QStringLiteral(", "));
}

}  // namespace

PaginationView::PaginationView(QWidget* parent) : QWidget(parent) {}

void PaginationView::build() {
    if (chart_)
        return;
    chart_ = new QChartView(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* columnsBox = new QWidget(split);
    auto* grid = new QGridLayout(columnsBox);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int s = 0; s < 3; ++s) {
        titles_[s] = new QLabel(columnsBox);
        titles_[s]->setAlignment(Qt::AlignCenter);
        titles_[s]->setWordWrap(true);
        QFont f = titles_[s]->font();
        f.setBold(true);
        titles_[s]->setFont(f);
        columns_[s] = new QTreeWidget(columnsBox);
        columns_[s]->setColumnCount(2);
        columns_[s]->setRootIsDecorated(true);
        columns_[s]->setTabKeyNavigation(false);
        columns_[s]->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        columns_[s]->header()->setStretchLastSection(true);
        // A plan line is long and has few spaces: it wraps anywhere rather
        // than making three columns wider than a projector.
        plans_[s] = new QPlainTextEdit(columnsBox);
        plans_[s]->setReadOnly(true);
        plans_[s]->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        plans_[s]->setFrameShape(QFrame::NoFrame);
        plans_[s]->setTabChangesFocus(true);
        plans_[s]->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum);
        plans_[s]->setMaximumHeight(plans_[s]->fontMetrics().height() * 5);
        grid->addWidget(titles_[s], 0, s);
        grid->addWidget(columns_[s], 1, s);
        grid->addWidget(plans_[s], 2, s);
    }
    grid->setRowStretch(1, 1);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setFocusPolicy(Qt::NoFocus);  // nothing to operate: Tab passes it by
    chart_->setMinimumHeight(180);
    split->addWidget(columnsBox);
    split->addWidget(chart_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    retranslate();
    render();
}

void PaginationView::showEvent(QShowEvent* event) {
    build();
    QWidget::showEvent(event);
}

void PaginationView::retranslate() {
    chart_->setAccessibleName(tr("Rows shown twice and skipped per page"));
    for (int s = 0; s < 3; ++s) {
        columns_[s]->setAccessibleName(tr("Pages read with %1").arg(strategies()[s]));
        plans_[s]->setAccessibleName(tr("Query plan of %1").arg(strategies()[s]));
    }
}

void PaginationView::setInput(const Scenario& scenario, const RunConfig& config) {
    show(*runAll(scenario, config));
}

std::shared_ptr<PagingRuns> PaginationView::runAll(const Scenario& scenario,
                                                   const RunConfig& config,
                                                   const std::atomic<bool>* cancel) {
    auto all = std::make_shared<PagingRuns>();
    for (int s = 0; s < 3; ++s) {
        RunConfig c = config;
        c.variant = strategies()[s];
        StrategyRun& result = all->strategies[s];
        RunOptions options;
        options.cancel = cancel;
        const RunResult run = runToEnd(c, scenario, options, true);
        if (!run.ok()) {
            result.error = run.error;
            continue;
        }
        result.pages = run.summary.extras.value("pages").toArray();
        result.plan = run.summary.extras.value("query_plan").toArray();
        result.verdict = toId(run.summary.verdict);
        // What the writer did after each page, read from the trace.
        qint64 inserted = 0, deleted = 0;
        for (const TraceEvent& e : run.run->trace().events()) {
            if (e.kindId() == QLatin1String("page") && e.fields.number("page") > 1) {
                result.writes << qMakePair(inserted, deleted);
                inserted = deleted = 0;
            }
            if (!e.is(EventKind::Sql) || e.actorName() != QLatin1String("writer"))
                continue;
            if (e.sql.startsWith(QLatin1String("INSERT INTO orders")))
                inserted += e.rows;
            if (e.sql.startsWith(QLatin1String("DELETE FROM orders")))
                deleted += e.rows;
        }
        result.writes << qMakePair(inserted, deleted);
    }
    return all;
}

void PaginationView::show(const PagingRuns& runs) {
    runs_ = std::make_shared<PagingRuns>(runs);
    shown_ = 0;
    render();
}

int PaginationView::pageCount(int strategy) const {
    return runs_ ? int(runs_->strategies[strategy].pages.size()) : 0;
}

QList<QPair<QString, QString>> PaginationView::verdicts() const {
    QList<QPair<QString, QString>> out;
    for (int s = 0; s < 3; ++s) {
        if (runOf(runs_, s).error.isEmpty())
            out << qMakePair(strategies()[s], runOf(runs_, s).verdict);
    }
    return out;
}

void PaginationView::showPages(int pages) {
    if (pages == shown_)
        return;
    shown_ = pages;
    render();
}

void PaginationView::followRun(const QList<TraceEvent>& events, qsizetype upTo) {
    int pages = 0;
    for (qsizetype i = 0; i < upTo && i < events.size(); ++i)
        pages += events[i].kindId() == QLatin1String("page");
    showPages(pages);
}

int PaginationView::duplicatedRows(int strategy) const {
    int n = 0;
    for (int p = 0; p < std::min<int>(shown_, runOf(runs_, strategy).pages.size()); ++p) {
        n += runOf(runs_, strategy).pages[p].toObject().value("duplicates").toArray().size();
    }
    return n;
}

int PaginationView::lostRows(int strategy) const {
    int n = 0;
    for (int p = 0; p < std::min<int>(shown_, runOf(runs_, strategy).pages.size()); ++p) {
        n += runOf(runs_, strategy).pages[p].toObject().value("lost").toArray().size();
    }
    return n;
}

void PaginationView::render() {
    if (!chart_)
        return;  // drawn when built
    const QColor dup = verdictColor(QStringLiteral("duplicated"));
    const QColor lost = verdictColor(QStringLiteral("lost"));
    // Marked rows keep the theme's text on a thin tint of the mark, and
    // coloured notes are made readable on the theme's background.
    const QColor base = palette().color(QPalette::Base);
    const QColor dupRow = rowTint(base, dup), lostRow = rowTint(base, lost);
    const QColor dupText = readableOn(dup, base), lostText = readableOn(lost, base);
    for (int s = 0; s < 3; ++s) {
        const StrategyRun& run = runOf(runs_, s);
        QTreeWidget* tree = columns_[s];
        tree->clear();
        tree->setHeaderLabels({tr("Page / row"), tr("Note")});
        const int pages = std::min<int>(shown_, run.pages.size());
        int dupTotal = 0, lostTotal = 0;
        for (int p = 0; p < pages; ++p) {
            const QJsonObject page = run.pages[p].toObject();
            const QSet<qint64> duplicates = idSet(page.value("duplicates"));
            const QJsonArray lostIds = page.value("lost").toArray();
            dupTotal += duplicates.size();
            lostTotal += lostIds.size();
            auto* item = new QTreeWidgetItem(
                tree, {tr("Page %1 · %2 rows")
                           .arg(page.value("page").toInt())
                           .arg(page.value("rows").toArray().size()),
                       tr("%1 repeated, %2 skipped").arg(duplicates.size()).arg(lostIds.size())});
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
            if (!duplicates.isEmpty())
                item->setForeground(1, dupText);
            else if (!lostIds.isEmpty())
                item->setForeground(1, lostText);
            for (const QJsonValue& id : page.value("rows").toArray()) {
                auto* row = new QTreeWidgetItem(item, {tr("order %1").arg(id.toInteger())});
                if (duplicates.contains(id.toInteger())) {
                    row->setText(1, tr("shown again"));
                    row->setBackground(0, dupRow);
                    row->setBackground(1, dupRow);
                }
            }
            if (!lostIds.isEmpty()) {
                auto* gap = new QTreeWidgetItem(item, {tr("skipped: %1").arg(idList(lostIds))});
                gap->setBackground(0, lostRow);
                gap->setBackground(1, lostRow);
                gap->setFirstColumnSpanned(true);
            }
            if (p + 1 < run.writes.size()) {
                const auto [ins, del] = run.writes[p + 1];
                if (ins > 0 || del > 0) {
                    auto* w = new QTreeWidgetItem(
                        tree, {tr("writer: +%1 new, −%2 deleted").arg(ins).arg(del)});
                    w->setFirstColumnSpanned(true);
                    QFont italic = w->font(0);
                    italic.setItalic(true);
                    w->setFont(0, italic);
                }
            }
            item->setExpanded(p == pages - 1 || !duplicates.isEmpty() || !lostIds.isEmpty());
        }
        tree->scrollToBottom();
        const QString name = strategies()[s];
        titles_[s]->setText(
            run.error.isEmpty()
                ? tr("%1 — %2 repeated, %3 skipped").arg(name).arg(dupTotal).arg(lostTotal)
                : tr("%1 — %2").arg(name, run.error));
        QStringList plan;
        for (const QJsonValue& row : run.plan) plan << row.toObject().value("detail").toString();
        plans_[s]->setPlainText(tr("EXPLAIN QUERY PLAN (page 2 on):\n%1").arg(plan.join('\n')));
    }
    renderChart();
}

void PaginationView::renderChart() {
    auto* chart = new QChart;
    chart->setTitle(tr("Rows shown twice (solid) and skipped (light) per page"));
    auto* series = new QBarSeries(chart);
    const QColor colours[3] = {QColor(0xd6, 0x30, 0x31), QColor(0xf0, 0xa2, 0x02),
                               QColor(0x27, 0xae, 0x60)};
    int pages = 0;
    for (int s = 0; s < 3; ++s)
        pages = std::max(pages, std::min<int>(shown_, runOf(runs_, s).pages.size()));
    qreal peak = 1;
    for (int s = 0; s < 3; ++s) {
        auto* dupSet = new QBarSet(tr("%1 repeated").arg(strategies()[s]));
        auto* lostSet = new QBarSet(tr("%1 skipped").arg(strategies()[s]));
        dupSet->setColor(colours[s]);
        lostSet->setColor(colours[s].lighter(160));
        for (int p = 0; p < pages; ++p) {
            const QJsonObject page = runOf(runs_, s).pages.at(p).toObject();
            const qreal d = page.value("duplicates").toArray().size();
            const qreal l = page.value("lost").toArray().size();
            *dupSet << d;
            *lostSet << l;
            peak = std::max({peak, d, l});
        }
        series->append(dupSet);
        series->append(lostSet);
    }
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis(chart);
    for (int p = 1; p <= pages; ++p) x->append(QString::number(p));
    auto* y = new QValueAxis(chart);
    y->setRange(0, peak);
    y->setLabelFormat(QStringLiteral("%d"));
    y->setTickCount(std::min(int(peak) + 1, 6));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setTheme(palette().color(QPalette::Window).lightness() < 128 ? QChart::ChartThemeDark
                                                                        : QChart::ChartThemeLight);
    for (int i = 0; i < series->count(); ++i) {
        series->barSets()[i]->setColor(i % 2 == 0 ? colours[i / 2] : colours[i / 2].lighter(160));
    }
    chart->setFont(font());
    chart->legend()->setFont(font());
    QChart* old = chart_->chart();
    chart_->setChart(chart);
    delete old;
}

void PaginationView::changeEvent(QEvent* event) {
    if (!chart_) {
        QWidget::changeEvent(event);
        return;
    }
    if (event->type() == QEvent::FontChange) {
        for (QPlainTextEdit* plan : plans_)
            plan->setMaximumHeight(plan->fontMetrics().height() * 5);
    }
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QWidget::changeEvent(event);
}

}  // namespace idem
