#include "sqllogview.h"

#include "contrast.h"
#include "labelholder.h"
#include "sqllogmodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSortFilterProxyModel>
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
            const QColor mark = wait ? QColor(0xf0, 0xa2, 0x02) : QColor(0xd6, 0x30, 0x31);
            painter->fillRect(option.rect, rowTint(option.palette.color(QPalette::Base), mark));
        }
        QStyleOptionViewItem opt = option;
        if (index.column() == SqlLogModel::Statement)
            opt.font.setFamily(QStringLiteral("monospace"));
        QStyledItemDelegate::paint(painter, opt, index);
    }
};

// The rows on screen: all, or all but the lab's own instruments'. Rows are
// told apart by their actor's small id: a long seek hands over 300,000 rows
// at once, and naming each one's actor would take longer than a frame.
class InternalsFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setShowInternals(bool show) {
        show_ = show;
        invalidateFilter();
    }
    void setInternalLanes(const QStringList& lanes) {
        lanes_.clear();
        for (const QString& lane : lanes) lanes_ << nameId(lane);
        invalidateFilter();
    }

protected:
public:
    // Whether it hides anything now.
    bool hides() const { return !show_ && !lanes_.isEmpty(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (show_ || lanes_.isEmpty() || parent.isValid())
            return true;
        return !lanes_.contains(static_cast<const SqlLogModel*>(sourceModel())->actorAt(row));
    }

private:
    bool show_ = false;
    QList<NameId> lanes_;
};

}  // namespace

SqlLogView::SqlLogView(SqlLogModel& model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      shown_(new InternalsFilter(this)),
      view_(new QTableView(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    leftOut_ = new QLabel(this);
    leftOut_->setWordWrap(true);
    leftOut_->setContentsMargins(6, 2, 6, 2);
    // Its count changes with every statement: held, so that only a new
    // height lays out what is around it.
    leftOutHolder_ = new LabelHolder(leftOut_, this);
    leftOutHolder_->hide();
    layout->addWidget(leftOutHolder_);
    told_ = new QLabel(this);
    told_->setWordWrap(true);
    told_->setTextFormat(Qt::PlainText);
    told_->setContentsMargins(6, 2, 6, 2);
    told_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    told_->hide();
    layout->addWidget(told_);
    layout->addWidget(view_);
    connect(&model_, &SqlLogModel::leftOutChanged, this, &SqlLogView::showLeftOut);
    shown_->setSourceModel(&model_);
    view_->setModel(&model_);
    view_->setItemDelegate(new LogDelegate(view_));
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->setVisible(false);
    view_->setWordWrap(false);
    view_->setTabKeyNavigation(false);
    setColumnModes();
    view_->setTextElideMode(Qt::ElideRight);
    view_->viewport()->installEventFilter(this);
    copy_ = new QAction(view_);
    connect(copy_, &QAction::triggered, this, &SqlLogView::copyCsv);
    view_->addAction(copy_);
    retranslate();
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(&model_, &QAbstractItemModel::rowsInserted, view_, &QTableView::scrollToBottom);
    connect(&model_, &QAbstractItemModel::modelReset, view_, &QTableView::scrollToBottom);
    connect(&model_, &QAbstractItemModel::rowsInserted, this, &SqlLogView::fitColumns);
    connect(&model_, &QAbstractItemModel::modelReset, this, &SqlLogView::fitColumns);
}

void SqlLogView::setColumnModes() {
    // Times, attempts, connections and row counts whole; the statement takes
    // the rest. Values and errors as wide as they need up to a fifth of the
    // width each (longer ones end in … with the full text in the tooltip).
    QHeaderView* h = view_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(SqlLogModel::Statement, QHeaderView::Stretch);
    h->setSectionResizeMode(SqlLogModel::Params, QHeaderView::Interactive);
    h->setSectionResizeMode(SqlLogModel::Error, QHeaderView::Interactive);
    // Times grow down the log: the newest is the widest (fitColumns).
    h->setSectionResizeMode(SqlLogModel::Time, QHeaderView::Interactive);
    // Sized by the rows in sight (the newest), not the first thousand: a step
    // late in a long run costs what an early one does.
    h->setResizeContentsPrecision(0);
    view_->verticalHeader()->setResizeContentsPrecision(0);
}

void SqlLogView::setInternalLanes(const QStringList& lanes) {
    static_cast<InternalsFilter*>(shown_)->setInternalLanes(lanes);
    placeFilter();
}

void SqlLogView::setShowInternals(bool show) {
    static_cast<InternalsFilter*>(shown_)->setShowInternals(show);
    placeFilter();
}

// The filter stands between the log and the table only while it hides
// something: every row the log takes in passes through it, and a long
// seek hands over 300,000 at once.
void SqlLogView::placeFilter() {
    QAbstractItemModel* wanted = static_cast<InternalsFilter*>(shown_)->hides()
                                     ? static_cast<QAbstractItemModel*>(shown_)
                                     : &model_;
    if (view_->model() == wanted)
        return;
    QItemSelectionModel* old = view_->selectionModel();  // not the view's to delete
    view_->setModel(wanted);
    delete old;
    setColumnModes();
    fitColumns();
    view_->scrollToBottom();
}

void SqlLogView::fitColumns() {
    const int rows = model_.rowCount();
    const QString newest =
        rows > 0 ? model_.data(model_.index(rows - 1, SqlLogModel::Time)).toString() : QString();
    const int margin =
        2 * (view_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 1);
    view_->setColumnWidth(SqlLogModel::Time,
                          std::max(view_->horizontalHeader()->sectionSizeHint(SqlLogModel::Time),
                                   view_->fontMetrics().horizontalAdvance(newest) + margin + 8));
    const int most = view_->viewport()->width() / 5;
    for (int column : {int(SqlLogModel::Params), int(SqlLogModel::Error)}) {
        const int header = view_->horizontalHeader()->sectionSizeHint(column);
        const int content = static_cast<QAbstractItemView*>(view_)->sizeHintForColumn(column);
        view_->setColumnWidth(column, std::min(std::max(header, content), std::max(header, most)));
    }
}

bool SqlLogView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

// The table lists the latest statements only; where the rest are.
void SqlLogView::showLeftOut() {
    const qsizetype out = model_.leftOut();
    leftOutHolder_->setVisible(out > 0);
    if (out > 0) {
        leftOut_->setText(tr("The latest %1 statements are listed; the %2 before them are in the "
                             "saved trace and in Copy SQL log as CSV.")
                              .arg(QLocale().toString(SqlLogModel::kShownRows))
                              .arg(QLocale().toString(out)));
    }
}

void SqlLogView::setSessionSettings(const QStringList& statements) {
    if (statements == settings_)
        return;
    settings_ = statements;
    showSettings();
}

void SqlLogView::showSettings() {
    told_->setVisible(!settings_.isEmpty());
    told_->setText(
        tr("Every session was told first: %1").arg(settings_.join(QStringLiteral("; "))));
    told_->setToolTip(
        tr("Sent by the lab as each connection opened, before the run's "
           "statements below"));
}

void SqlLogView::retranslate() {
    showLeftOut();
    showSettings();
    copy_->setText(tr("Copy SQL log as CSV"));
    view_->setAccessibleName(tr("SQL log"));
}

void SqlLogView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange)
        fitColumns();
}

void SqlLogView::copyCsv() const {
    QApplication::clipboard()->setText(model_.toCsv());
}

}  // namespace idem
