// Paints status values (PROCESSING, SUCCESS, PAID, FAILED ...) in colour and
// marks the cells the last step changed, for every table view.
#pragma once

#include <QColor>
#include <QStyledItemDelegate>

namespace idem {

// The colour of a status or verdict word, or an invalid colour for others.
QColor statusColor(const QString& value);
QColor verdictColor(const QString& verdict);

class StatusDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // How strongly the changed rows are marked: 1 just after the step, easing
    // to 0, where the mark stays (still visible on a still picture).
    void setFlash(double strength) { flash_ = strength; }
    // The colour behind a changed cell at a flash strength, over `base`.
    static QColor changedBackground(const QPalette& palette, double strength);

private:
    double flash_ = 0;
};

}  // namespace idem
