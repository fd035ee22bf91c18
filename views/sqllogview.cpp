#include "sqllogview.h"

#include "sqllogmodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QPainter>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace idem {

namespace {

class LogDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        if (index.data(SqlLogModel::FailedRole).toBool()) {
            const bool wait =
                index.data(SqlLogModel::KindRole).toString() == QLatin1String("lock-wait");
            QColor c = wait ? QColor(0xf0, 0xa2, 0x02) : QColor(0xd6, 0x30, 0x31);
            c.setAlpha(70);
            painter->fillRect(option.rect, c);
        }
        QStyleOptionViewItem opt = option;
        if (index.column() == SqlLogModel::Statement)
            opt.font.setFamily(QStringLiteral("monospace"));
        QStyledItemDelegate::paint(painter, opt, index);
    }
};

}  // namespace

SqlLogView::SqlLogView(SqlLogModel& model, QWidget* parent)
    : QWidget(parent), model_(model), view_(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    view_->setModel(&model_);
    view_->setItemDelegate(new LogDelegate(view_));
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->setVisible(false);
    view_->setWordWrap(false);
    view_->setTabKeyNavigation(false);
    QHeaderView* h = view_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(SqlLogModel::Statement, QHeaderView::Stretch);
    // Long values and errors are elided (full text in the tooltip) so the
    // statement keeps the room.
    h->setSectionResizeMode(SqlLogModel::Params, QHeaderView::Interactive);
    h->setSectionResizeMode(SqlLogModel::Error, QHeaderView::Interactive);
    h->resizeSection(SqlLogModel::Params, fontMetrics().horizontalAdvance(QString(18, 'x')));
    h->resizeSection(SqlLogModel::Error, fontMetrics().horizontalAdvance(QString(22, 'x')));
    view_->setTextElideMode(Qt::ElideRight);
    h->setSectionResizeMode(SqlLogModel::Time, QHeaderView::Fixed);
    h->resizeSection(SqlLogModel::Time,
                     fontMetrics().horizontalAdvance(QStringLiteral("000:00:00 ")) +
                         2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 8);
    auto* copy = new QAction(tr("Copy SQL log as CSV"), view_);
    connect(copy, &QAction::triggered, this, &SqlLogView::copyCsv);
    view_->addAction(copy);
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(&model_, &QAbstractItemModel::rowsInserted, view_, &QTableView::scrollToBottom);
    connect(&model_, &QAbstractItemModel::modelReset, view_, &QTableView::scrollToBottom);
}

void SqlLogView::copyCsv() const {
    QApplication::clipboard()->setText(model_.toCsv());
}

}  // namespace idem
