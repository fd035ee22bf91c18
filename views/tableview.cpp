#include "tableview.h"

#include "statusdelegate.h"
#include "tablemodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>
#include <QVariantAnimation>

namespace idem {

DatabaseTableView::DatabaseTableView(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      view_(new QTableView(this)),
      model_(new TableModel(this)),
      delegate_(new StatusDelegate(this)),
      flash_(new QVariantAnimation(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    QFont f = title_->font();
    f.setBold(true);
    title_->setFont(f);
    layout->addWidget(title_);
    layout->addWidget(view_, 1);
    view_->setModel(model_);
    view_->setItemDelegate(delegate_);
    flash_->setDuration(1200);
    flash_->setStartValue(1.0);
    flash_->setEndValue(0.0);
    connect(flash_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        delegate_->setFlash(v.toDouble());
        view_->viewport()->update();
    });
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->setVisible(false);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Columns fit the rows in sight, not the first thousand: a table of a
    // large run (50,000 orders) is measured in a fraction of a millisecond.
    view_->horizontalHeader()->setResizeContentsPrecision(0);
    view_->setWordWrap(false);
    view_->setTabKeyNavigation(false);  // Tab leaves the table, it does not walk its cells
    copy_ = new QAction(view_);
    connect(copy_, &QAction::triggered, this, &DatabaseTableView::copyCsv);
    view_->addAction(copy_);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    retranslate();
}

void DatabaseTableView::retranslate() {
    copy_->setText(tr("Copy table as CSV"));
    view_->setAccessibleName(tr("Table %1").arg(caption_));
}

void DatabaseTableView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void DatabaseTableView::setTable(const QString& table, const QString& caption) {
    model_->setTable(table);
    caption_ = caption.isEmpty() ? table : caption;
    title_->setText(caption_);
    retranslate();
}

QString DatabaseTableView::table() const {
    return model_->table();
}

void DatabaseTableView::setRowVersions(bool on) {
    model_->setRowVersions(on);
}

void DatabaseTableView::refresh(SqlConnection& connection, SqlConnection* writer) {
    exists_ = model_->refresh(connection, writer);
    const int uncommitted = model_->uncommittedRows();
    title_->setText(
        !exists_ ? tr("%1 (this variant does not use it)").arg(caption_)
        : uncommitted > 0
            ? tr("%1 — %n row(s) not yet committed (hatched)", "", uncommitted).arg(caption_)
            : caption_);
    view_->setEnabled(exists_);
}

int DatabaseTableView::uncommittedRows() const {
    return model_->uncommittedRows();
}

void DatabaseTableView::settle() {
    model_->settle();
}

bool DatabaseTableView::changedLastRefresh() const {
    return model_->changedLastRefresh();
}

void DatabaseTableView::flash() {
    flash_->stop();
    flash_->start();
    // The first changed row in sight.
    for (int row = 0; row < model_->rowCount(); ++row) {
        for (int column = 0; column < model_->columnCount(); ++column) {
            if (model_->index(row, column).data(TableModel::ChangedRole).toBool()) {
                view_->scrollTo(model_->index(row, column));
                return;
            }
        }
    }
}

namespace {
constexpr int kPointedFrame = 4;  // px of frame round a table a lesson points at
}  // namespace

void DatabaseTableView::setPointed(bool pointed) {
    if (pointed == pointed_)
        return;
    pointed_ = pointed;
    const int m = pointed ? kPointedFrame : 0;
    layout()->setContentsMargins(m, m, m, m);
    update();
}

void DatabaseTableView::paintEvent(QPaintEvent* event) {
    QWidget::paintEvent(event);
    if (!pointed_)
        return;
    QPainter painter(this);
    const QColor mark = palette().color(QPalette::Highlight);
    painter.setPen(QPen(mark, kPointedFrame, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    const double half = kPointedFrame / 2.0;
    painter.drawRect(QRectF(rect()).adjusted(half, half, -half, -half));
}

void DatabaseTableView::setTitleVisible(bool visible) {
    title_->setVisible(visible);
}

void DatabaseTableView::clear() {
    model_->clear();
}

void DatabaseTableView::copyCsv() const {
    QApplication::clipboard()->setText(model_->toCsv());
}

}  // namespace idem
