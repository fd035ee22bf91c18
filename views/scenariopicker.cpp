#include "scenariopicker.h"

#include "registry.h"
#include "texts.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QPainter>
#include <QSignalBlocker>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTextLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace idem {

namespace {
constexpr int kIdRole = Qt::UserRole;
// The article's technique for a scenario, drawn under its name when the
// list is too narrow for the technique's own column.
constexpr int kTechniqueRole = Qt::UserRole + 1;
constexpr double kTechniqueScale = 0.88;

QFont techniqueFont(QFont f) {
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * kTechniqueScale);
    else
        f.setPixelSize(std::max(8, int(f.pixelSize() * kTechniqueScale)));
    f.setItalic(true);
    return f;
}

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
// Draws a scenario's name, and in the narrow list its technique under it
// (smaller, in italics, in the muted colour): the article's table in one column.
class NameAndTechnique : public QStyledItemDelegate {
public:
    NameAndTechnique(const bool* compact, QObject* parent)
        : QStyledItemDelegate(parent), compact_(compact) {}

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        const QString technique = index.data(kTechniqueRole).toString();
        if (!*compact_ || technique.isEmpty()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString name = opt.text;
        opt.text.clear();
        const QWidget* widget = opt.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        const QRect r = opt.rect.adjusted(4, 2, -4, -2);
        const bool selected = opt.state & QStyle::State_Selected;
        const QPalette::ColorRole ink = selected ? QPalette::HighlightedText : QPalette::Text;
        painter->save();
        painter->setFont(opt.font);
        painter->setPen(opt.palette.color(ink));
        const int nameHeight = wrappedHeight(name, opt.font, r.width());
        painter->drawText(QRect(r.left(), r.top(), r.width(), nameHeight),
                          Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, name);
        QColor muted = opt.palette.color(ink);
        if (!selected)
            muted = opt.palette.color(QPalette::PlaceholderText);
        painter->setPen(muted);
        painter->setFont(techniqueFont(opt.font));
        painter->drawText(QRect(r.left(), r.top() + nameHeight, r.width(), r.height() - nameHeight),
                          Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, technique);
        painter->restore();
    }

private:
    const bool* compact_;
};

}  // namespace

ScenarioPicker::ScenarioPicker(QWidget* parent) : QWidget(parent), table_(new QTableWidget(this)) {
    table_->setItemDelegateForColumn(0, new NameAndTechnique(&compact_, this));
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
    const QList<QPair<ScenarioGroup, QString>> groups{
        {ScenarioGroup::Recommended, tr("How to choose, by scenario (常见场景怎么选)")},
        {ScenarioGroup::Natural, tr("Naturally idempotent operations (天然幂等)")},
        {ScenarioGroup::Read, tr("Read idempotency (读幂等)")},
        {ScenarioGroup::Misconception, tr("Common misconceptions (常见误区)")},
        {ScenarioGroup::Production, tr("Production patterns (生产实践)")},
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
                // The name's tooltip holds the whole row: in the narrow list
                // the why is read there.
                item->setToolTip(
                    c == 0
                        ? QStringLiteral("%1 (%2)\n%3\n%4").arg(name, info.id, cells[1], cells[2])
                        : cells[c]);
                if (c == 0) {
                    item->setData(kTechniqueRole, cells[1]);
                    item->setData(Qt::AccessibleDescriptionRole,
                                  QStringLiteral("%1. %2").arg(cells[1], cells[2]));
                }
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
        int need = wrappedHeight(item->text(), item->font(), width - 8) + 4;
        const QString technique = item->data(kTechniqueRole).toString();
        if (compact_ && !technique.isEmpty())
            need += wrappedHeight(technique, techniqueFont(item->font()), width - 8) + 2;
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
