#include "statusdelegate.h"

#include "tablemodel.h"

#include <QApplication>
#include <QPainter>

namespace idem {

QColor statusColor(const QString& value) {
    static const QHash<QString, QColor> colours{
        {"PROCESSING", QColor(0xf0, 0xa2, 0x02)}, {"RUNNING", QColor(0xf0, 0xa2, 0x02)},
        {"INFLIGHT", QColor(0xf0, 0xa2, 0x02)},   {"PAYING", QColor(0x2f, 0x80, 0xed)},
        {"SUCCESS", QColor(0x27, 0xae, 0x60)},    {"PAID", QColor(0x27, 0xae, 0x60)},
        {"DONE", QColor(0x27, 0xae, 0x60)},       {"ACKED", QColor(0x27, 0xae, 0x60)},
        {"DEDUCTED", QColor(0x27, 0xae, 0x60)},   {"FAILED", QColor(0xd6, 0x30, 0x31)},
        {"PENDING", QColor(0x82, 0x8a, 0x96)},    {"CREATED", QColor(0x82, 0x8a, 0x96)},
        {"READY", QColor(0x82, 0x8a, 0x96)},
    };
    return colours.value(value);
}

QColor verdictColor(const QString& verdict) {
    if (verdict == QLatin1String("exactly-once"))
        return QColor(0x27, 0xae, 0x60);
    if (verdict == QLatin1String("stuck"))
        return QColor(0xf0, 0xa2, 0x02);
    if (verdict == QLatin1String("lost"))
        return QColor(0x8e, 0x44, 0xad);
    if (verdict == QLatin1String("misanswered"))
        return QColor(0xc0, 0x39, 0x6b);
    if (verdict == QLatin1String("inconsistent"))
        return QColor(0xe6, 0x7e, 0x22);
    if (verdict == QLatin1String("duplicated"))
        return QColor(0xd6, 0x30, 0x31);
    return {};
}

QColor StatusDelegate::changedBackground(const QPalette& palette, double strength) {
    // Opaque: the row's text is drawn on exactly this colour.
    const QColor base = palette.color(QPalette::Base);
    const QColor mark = palette.color(QPalette::Highlight);
    const double t = 0.22 + 0.2 * std::clamp(strength, 0.0, 1.0);
    return QColor::fromRgbF(float(base.redF() + (mark.redF() - base.redF()) * t),
                            float(base.greenF() + (mark.greenF() - base.greenF()) * t),
                            float(base.blueF() + (mark.blueF() - base.blueF()) * t));
}

void StatusDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QColor status = statusColor(opt.text);
    const bool changed = index.data(TableModel::ChangedRole).toBool();
    if (changed) {
        painter->fillRect(opt.rect, changedBackground(opt.palette, flash_));
        opt.font.setBold(true);
    }
    if (status.isValid()) {
        const QRect pill = opt.rect.adjusted(3, 3, -3, -3);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(status);
        painter->drawRoundedRect(pill, pill.height() / 2.0, pill.height() / 2.0);
        painter->setPen(Qt::white);
        QFont f = opt.font;
        f.setBold(true);
        painter->setFont(f);
        painter->drawText(pill, Qt::AlignCenter, opt.text);
        painter->restore();
        return;
    }
    QStyledItemDelegate::paint(painter, opt, index);
}

QSize StatusDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QString text = index.data().toString();
    // Changed cells are bold; a status is a bold word in a pill: room for both, whole.
    QFont bold = option.font;
    bold.setBold(true);
    const QFontMetrics fm(bold);
    int width = fm.horizontalAdvance(text) + 2 * fm.averageCharWidth();
    if (statusColor(text).isValid())
        width += fm.height() + 6;
    size.setWidth(std::max(size.width(), width));
    return size;
}

}  // namespace idem
