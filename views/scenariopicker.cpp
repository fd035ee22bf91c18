#include "scenariopicker.h"

#include "registry.h"
#include "texts.h"

#include <QEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableWidget>
#include <QTextLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace idem {

namespace {
constexpr int kIdRole = Qt::UserRole;

// The height of `text` wrapped at `width`, each line as tall as the fonts
// drawing it (a Chinese line in the CJK fallback is taller than a Latin one).
int wrappedHeight(const QString& text, const QFont& font, int width) {
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    qreal height = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        height += line.height();
    }
    layout.endLayout();
    return int(std::ceil(height));
}
}  // namespace

ScenarioPicker::ScenarioPicker(QWidget* parent) : QWidget(parent), table_(new QTableWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    table_->setColumnCount(3);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    table_->verticalHeader()->setVisible(false);
    table_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Technique and reason share the width and wrap, like the article's table.
    QHeaderView* h = table_->horizontalHeader();
    h->setSectionResizeMode(0, QHeaderView::Interactive);
    h->setSectionResizeMode(1, QHeaderView::Stretch);
    h->setSectionResizeMode(2, QHeaderView::Stretch);
    connect(h, &QHeaderView::sectionResized, this, &ScenarioPicker::fitRowsSoon);
    // Arrows only move the highlight; a click or Enter loads the scenario, so
    // that browsing the list (or tabbing through it) never throws a run away.
    table_->setTabKeyNavigation(false);
    connect(table_, &QTableWidget::clicked, this,
            [this](const QModelIndex& index) { choose(index.row()); });
    table_->installEventFilter(this);
    table_->viewport()->installEventFilter(this);
    rebuild();
}

void ScenarioPicker::rebuild() {
    const QString current = currentScenario();
    const QSignalBlocker block(table_);
    table_->clearContents();
    table_->setRowCount(0);
    table_->setHorizontalHeaderLabels({tr("Scenario"), tr("Recommended technique"), tr("Why")});
    table_->setAccessibleName(tr("Scenarios"));
    const QList<QPair<QString, QString>> groups{
        {"recommended", tr("How to choose, by scenario (常见场景怎么选)")},
        {"natural", tr("Naturally idempotent operations (天然幂等)")},
        {"read", tr("Read idempotency (读幂等)")},
        {"misconception", tr("Common misconceptions (常见误区)")},
        {"production", tr("Production patterns (生产实践)")},
    };
    const Texts& t = Texts::instance();
    for (const auto& [group, title] : groups) {
        const int headerRow = table_->rowCount();
        table_->insertRow(headerRow);
        auto* header = new QTableWidgetItem(title);
        // Not enabled: the keyboard skips it and nobody can select it.
        header->setFlags(Qt::NoItemFlags);
        QFont f = header->font();
        f.setBold(true);
        header->setFont(f);
        header->setBackground(headerBackground(palette()));
        header->setForeground(palette().color(QPalette::Active, QPalette::WindowText));
        table_->setItem(headerRow, 0, header);
        table_->setSpan(headerRow, 0, 1, 3);
        for (const Scenario* s : allScenarios()) {
            const ScenarioInfo& info = s->info();
            if (info.group != group)
                continue;
            QString name = t.get(info.id, "title");
            if (name.isEmpty())
                name = info.title;
            const int row = table_->rowCount();
            table_->insertRow(row);
            const QStringList cells{name, t.get(info.id, "technique"), t.get(info.id, "reason")};
            for (int c = 0; c < 3; ++c) {
                auto* item = new QTableWidgetItem(cells[c]);
                item->setData(kIdRole, info.id);
                item->setToolTip(c == 0 ? info.id : cells[c]);
                table_->setItem(row, c, item);
            }
        }
    }
    // The names' column as wide as its widest name, at most 16 characters
    // (a name on one line; the wrapped rows are laid out only when shown).
    const QFontMetrics fm(table_->font());
    int widest = 0;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* item = table_->item(row, 0);
        if (item && item->flags() != Qt::NoItemFlags)
            widest = std::max(widest, fm.horizontalAdvance(item->text()));
    }
    const int padding = 2 * (table_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 4);
    table_->setColumnWidth(0, std::min(widest + padding, fm.averageCharWidth() * 16));
    fitRows();
    if (!current.isEmpty())
        selectScenario(current);
}

QString ScenarioPicker::currentScenario() const {
    const QTableWidgetItem* item = table_->item(table_->currentRow(), 0);
    return item ? item->data(kIdRole).toString() : QString();
}

void ScenarioPicker::selectScenario(const QString& id) {
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* item = table_->item(row, 0);
        if (item && item->data(kIdRole).toString() == id) {
            table_->setCurrentCell(row, 0);
            return;
        }
    }
}

void ScenarioPicker::setCompact(bool compact) {
    if (compact == compact_)
        return;
    compact_ = compact;
    table_->setColumnHidden(1, compact);
    table_->setColumnHidden(2, compact);
    QHeaderView* h = table_->horizontalHeader();
    h->setSectionResizeMode(0, compact ? QHeaderView::Stretch : QHeaderView::Interactive);
    if (!compact)
        rebuild();
    fitRows();
}

void ScenarioPicker::choose(int row) {
    const QTableWidgetItem* item = table_->item(row, 0);
    if (item && !item->data(kIdRole).toString().isEmpty())
        emit scenarioSelected(item->data(kIdRole).toString());
}

QColor ScenarioPicker::headerBackground(const QPalette& palette) {
    return palette.color(QPalette::Active, QPalette::AlternateBase);
}

bool ScenarioPicker::eventFilter(QObject* watched, QEvent* event) {
    // The viewport widens when the scroll bar goes: the stretched column with it.
    if (watched == table_->viewport() && event->type() == QEvent::Resize)
        fitRowsSoon();
    if (watched == table_ && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            choose(table_->currentRow());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ScenarioPicker::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

void ScenarioPicker::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    setCompact(width() < fontMetrics().averageCharWidth() * 48);
    fitRowsSoon();
}

void ScenarioPicker::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (rowsStale_)
        fitRows();
}

void ScenarioPicker::fitRows() {
    if (!isVisible()) {
        rowsStale_ = true;
        return;
    }
    rowsStale_ = false;
    table_->resizeRowsToContents();
    // The delegate measures a wrapped row with its own font's line height; a
    // line in Chinese is drawn in the (taller) CJK fallback font, so a
    // heading whose second line is "(天然幂等)" would be cut. Laid out here
    // as it is drawn, line by line, the fallback's height included.
    for (int row = 0; row < table_->rowCount(); ++row) {
        const QTableWidgetItem* item = table_->item(row, 0);
        if (!item)
            continue;
        int width = 0;
        for (int c = 0; c < table_->columnSpan(row, 0); ++c)
            if (!table_->isColumnHidden(c))
                width += table_->columnWidth(c);
        const int need = wrappedHeight(item->text(), item->font(), width - 8) + 4;
        if (need > table_->rowHeight(row))
            table_->setRowHeight(row, need);
    }
}

void ScenarioPicker::fitRowsSoon() {
    if (fitPending_)
        return;
    fitPending_ = true;
    QTimer::singleShot(0, this, [this] {
        fitPending_ = false;
        fitRows();
    });
}

}  // namespace idem
