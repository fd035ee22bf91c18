#include "tabletabs.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <algorithm>

namespace idem {

QIcon guardIcon(const QPalette& palette, int size) {
    QPixmap pixmap(size * 2, size * 2);
    pixmap.setDevicePixelRatio(2);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const double w = size, h = size;
    QPainterPath shield;
    shield.moveTo(w * 0.5, h * 0.06);
    shield.lineTo(w * 0.9, h * 0.2);
    shield.cubicTo(w * 0.9, h * 0.62, w * 0.72, h * 0.82, w * 0.5, h * 0.96);
    shield.cubicTo(w * 0.28, h * 0.82, w * 0.1, h * 0.62, w * 0.1, h * 0.2);
    shield.closeSubpath();
    p.setPen(QPen(palette.color(QPalette::WindowText), size / 12.0));
    p.setBrush(palette.color(QPalette::Highlight));
    p.drawPath(shield);
    return QIcon(pixmap);
}

void TableTabBar::setLeastLetters(int letters) {
    letters = std::clamp(letters, kFewestLetters, kMostLetters);
    if (letters == letters_)
        return;
    letters_ = letters;
    updateGeometry();
}

int TableTabBar::leastWidth(int letters) const {
    int width = 0;
    for (int i = 0; i < count(); ++i) {
        if (isTabVisible(i))
            width += i == currentIndex() ? tabSizeHint(i).width() : shortest(i, letters).width();
    }
    return width;
}

QSize TableTabBar::minimumTabSizeHint(int index) const {
    return index == currentIndex() ? tabSizeHint(index) : shortest(index, letters_);
}

QSize TableTabBar::shortest(int index, int letters) const {
    const QSize least = QTabBar::minimumTabSizeHint(index);
    const QString text = tabText(index);
    if (letters <= kFewestLetters || text.size() <= kFewestLetters)
        return least;
    const int wanted = fontMetrics().horizontalAdvance(text.left(letters)) -
                       fontMetrics().horizontalAdvance(text.left(kFewestLetters));
    return {std::min(tabSizeHint(index).width(), least.width() + wanted), least.height()};
}

TableTabs::TableTabs(QWidget* parent) : QTabWidget(parent) {
    setTabBar(new TableTabBar(this));
    // Sizes follow the tab in front: laid out again when it changes.
    connect(this, &QTabWidget::currentChanged, this, [this] { tabBar()->updateGeometry(); });
}

}  // namespace idem
