#include "paginationview.h"

#include "paging.h"
#include "traceevent.h"

#include "contrast.h"
#include "names.h"
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

namespace {

const StrategyRun& runOf(const std::shared_ptr<PagingRuns>& runs, int strategy) {
    static const StrategyRun none;
    return runs && strategy >= 0 && strategy < runs->strategies.size() ? runs->strategies[strategy]
                                                                       : none;
}

int runCount(const std::shared_ptr<PagingRuns>& runs) {
    return runs ? int(runs->strategies.size()) : 0;
}

// The strategies in the scenario's order, its baseline first and its
// recommended one last: red through amber to green.
QColor strategyColour(int strategy, int strategies) {
    const QColor red(0xd6, 0x30, 0x31), amber(0xf0, 0xa2, 0x02), green(0x27, 0xae, 0x60);
    const double t = strategies > 1 ? double(strategy) / (strategies - 1) : 0.0;
    const QColor& from = t <= 0.5 ? red : amber;
    const QColor& to = t <= 0.5 ? amber : green;
    const double u = t <= 0.5 ? t * 2 : t * 2 - 1;
    auto mix = [u](int a, int b) {
        return int(std::lround(a + (b - a) * u));
    };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()),
                  mix(from.blue(), to.blue()));
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
    grid_ = new QGridLayout(columnsBox);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setRowStretch(1, 1);
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

void PaginationView::fitColumns(int count) {
    QWidget* box = grid_->parentWidget();
    while (columns_.size() > count) {
        const Column c = columns_.takeLast();
        delete c.title;
        delete c.pages;
        delete c.plan;
    }
    while (columns_.size() < count) {
        const int s = int(columns_.size());
        Column c;
        c.title = new QLabel(box);
        c.title->setAlignment(Qt::AlignCenter);
        c.title->setWordWrap(true);
        QFont f = c.title->font();
        f.setBold(true);
        c.title->setFont(f);
        c.pages = new QTreeWidget(box);
        c.pages->setColumnCount(2);
        c.pages->setRootIsDecorated(true);
        c.pages->setTabKeyNavigation(false);
        c.pages->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        c.pages->header()->setStretchLastSection(true);
        // A plan line is long and has few spaces: it wraps anywhere rather
        // than making the columns wider than a projector.
        c.plan = new QPlainTextEdit(box);
        c.plan->setReadOnly(true);
        c.plan->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        c.plan->setFrameShape(QFrame::NoFrame);
        c.plan->setTabChangesFocus(true);
        c.plan->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum);
        c.plan->setMaximumHeight(c.plan->fontMetrics().height() * 5);
        grid_->addWidget(c.title, 0, s);
        grid_->addWidget(c.pages, 1, s);
        grid_->addWidget(c.plan, 2, s);
        columns_ << c;
    }
}

void PaginationView::retranslate() {
    chart_->setAccessibleName(tr("Rows shown twice and skipped per page"));
    const QStringList names = strategies();
    for (int s = 0; s < columns_.size(); ++s) {
        columns_[s].pages->setAccessibleName(tr("Pages read with %1").arg(names.value(s)));
        columns_[s].plan->setAccessibleName(tr("Query plan of %1").arg(names.value(s)));
    }
}

QStringList PaginationView::strategies() const {
    QStringList ids;
    for (int s = 0; s < runCount(runs_); ++s) ids << runs_->strategies[s].variant;
    return ids;
}

void PaginationView::setInput(const Scenario& scenario, const RunConfig& config) {
    show(*runPagingStrategies(scenario, config));
}

void PaginationView::show(const PagingRuns& runs) {
    runs_ = std::make_shared<PagingRuns>(runs);
    shown_ = 0;
    render();
}

int PaginationView::pageCount(int strategy) const {
    return int(runOf(runs_, strategy).pages.size());
}

QList<QPair<QString, QString>> PaginationView::verdicts() const {
    QList<QPair<QString, QString>> out;
    for (int s = 0; s < runCount(runs_); ++s) {
        if (runOf(runs_, s).error.isEmpty())
            out << qMakePair(runOf(runs_, s).variant, runOf(runs_, s).verdict);
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
    if (!runs_)
        return;
    int pages = 0;
    for (qsizetype i = 0; i < upTo && i < events.size(); ++i)
        pages += events[i].kindId() == runs_->pageNote;
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
    fitColumns(runCount(runs_));
    for (int s = 0; s < columns_.size(); ++s) {
        const StrategyRun& run = runOf(runs_, s);
        QTreeWidget* tree = columns_[s].pages;
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
            const auto written = run.writes.constFind(
                qMakePair(page.value("reader").toInteger(), page.value("page").toInteger()));
            if (written != run.writes.cend()) {
                const auto [ins, del] = *written;
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
        const QString name = run.variant;
        columns_[s].title->setText(
            run.error.isEmpty()
                ? tr("%1 — %2 repeated, %3 skipped").arg(name).arg(dupTotal).arg(lostTotal)
                : tr("%1 — %2").arg(name, run.error));
        QStringList plan;
        for (const QJsonValue& row : run.plan) plan << row.toObject().value("detail").toString();
        columns_[s].plan->setPlainText(
            tr("EXPLAIN QUERY PLAN (page 2 on):\n%1").arg(plan.join('\n')));
    }
    retranslate();  // the columns' accessible names follow their strategies
    renderChart();
}

void PaginationView::renderChart() {
    auto* chart = new QChart;
    chart->setTitle(tr("Rows shown twice (solid) and skipped (light) per page"));
    auto* series = new QBarSeries(chart);
    const int strategies = runCount(runs_);
    int pages = 0;
    for (int s = 0; s < strategies; ++s)
        pages = std::max(pages, std::min<int>(shown_, runOf(runs_, s).pages.size()));
    qreal peak = 1;
    for (int s = 0; s < strategies; ++s) {
        auto* dupSet = new QBarSet(tr("%1 repeated").arg(runOf(runs_, s).variant));
        auto* lostSet = new QBarSet(tr("%1 skipped").arg(runOf(runs_, s).variant));
        dupSet->setColor(strategyColour(s, strategies));
        lostSet->setColor(strategyColour(s, strategies).lighter(160));
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
        const QColor colour = strategyColour(i / 2, strategies);
        series->barSets()[i]->setColor(i % 2 == 0 ? colour : colour.lighter(160));
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
        for (const Column& c : std::as_const(columns_))
            c.plan->setMaximumHeight(c.plan->fontMetrics().height() * 5);
    }
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QWidget::changeEvent(event);
}

}  // namespace idem
