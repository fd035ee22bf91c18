#include "statusdelegate.h"

#include "tablemodel.h"

#include <QApplication>
#include <QPainter>

namespace idem {

QColor statusColor(const QString& value) {
    // Dark enough that white text on them has WCAG AA contrast (4.5:1).
    const QColor amber(0x9a, 0x67, 0x00), blue(0x1f, 0x6f, 0xd1), green(0x1e, 0x7e, 0x34),
        red(0xc6, 0x28, 0x28), grey(0x5f, 0x66, 0x72);
    static const QHash<QString, QColor> colours{
        {"PROCESSING", amber}, {"RUNNING", amber}, {"INFLIGHT", amber}, {"PAYING", blue},
        {"SUCCESS", green},    {"PAID", green},    {"DONE", green},     {"ACKED", green},
        {"DEDUCTED", green},   {"FAILED", red},    {"PENDING", grey},   {"CREATED", grey},
        {"READY", grey},
    };
    return colours.value(value);
}

QColor verdictColor(const QString& verdict) {
    // Backgrounds for white text, each at least 4.5:1 against it.
    if (verdict == QLatin1String("exactly-once"))
        return QColor(0x1e, 0x7e, 0x34);
    if (verdict == QLatin1String("stuck"))
        return QColor(0x9a, 0x67, 0x00);
    if (verdict == QLatin1String("lost"))
        return QColor(0x8e, 0x44, 0xad);
    if (verdict == QLatin1String("misanswered"))
        return QColor(0xc0, 0x39, 0x6b);
    if (verdict == QLatin1String("inconsistent"))
        return QColor(0xb3, 0x54, 0x00);
    if (verdict == QLatin1String("duplicated"))
        return QColor(0xc6, 0x28, 0x28);
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
    // Not yet committed: italic over diagonal hatching (what a rollback
    // would take away), struck through when the transaction deleted it.
    const QString uncommitted = index.data(TableModel::UncommittedRole).toString();
    if (!uncommitted.isEmpty()) {
        QColor hatch = opt.palette.color(QPalette::Highlight);
        hatch.setAlphaF(0.35f);
        painter->fillRect(opt.rect, QBrush(hatch, Qt::BDiagPattern));
        opt.font.setItalic(true);
        opt.font.setStrikeOut(uncommitted == QLatin1String("deleted"));
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
        f.setItalic(opt.font.italic());
        f.setStrikeOut(opt.font.strikeOut());
        painter->setFont(f);
        painter->drawText(pill, Qt::AlignCenter, opt.text);
        if (!uncommitted.isEmpty()) {  // a dashed outline: the status is not yet the database's
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(opt.palette.color(QPalette::Text), 1.5, Qt::DashLine));
            painter->drawRoundedRect(pill, pill.height() / 2.0, pill.height() / 2.0);
        }
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
