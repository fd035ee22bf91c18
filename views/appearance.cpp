#include "appearance.h"

#include <QApplication>
#include <QEvent>
#include <QFont>
#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QProxyStyle>
#include <QScreen>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

#include <algorithm>

namespace idem {

namespace {

Appearance g_appearance;
bool g_applied = false;
int g_basePointSize = 0;

// The tool bars' "more" button (shown when a bar is too short for its
// buttons): two chevrons, drawn when painted in the palette's text colour, so
// they read on every theme. The style's own icon is a grey picture file, and
// reading its size made Qt load every image-format plugin (to sniff the
// file's format) before the window's first paint.
class ChevronEngine : public QIconEngine {
public:
    explicit ChevronEngine(bool vertical) : vertical_(vertical) {}

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override {
        const QPalette::ColorGroup group =
            mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active;
        const double s = std::min(rect.width(), rect.height());
        QPen pen(QApplication::palette().color(group, QPalette::ButtonText), std::max(1.2, s / 10));
        pen.setCapStyle(Qt::RoundCap);
        pen.setJoinStyle(Qt::RoundJoin);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        painter->translate(QRectF(rect).center());
        if (vertical_)
            painter->rotate(90);
        QPainterPath chevrons;
        for (const double x : {-0.28, 0.05}) {
            chevrons.moveTo(s * x, -s * 0.25);
            chevrons.lineTo(s * (x + 0.22), 0);
            chevrons.lineTo(s * x, s * 0.25);
        }
        painter->drawPath(chevrons);
        painter->restore();
    }

    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        QPixmap pixmap(size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        paint(&painter, QRect(QPoint(), size), mode, state);
        return pixmap;
    }

    QIconEngine* clone() const override { return new ChevronEngine(vertical_); }

private:
    bool vertical_;
};

// Fusion, with the tool bars' "more" button drawn.
class LabStyle : public QProxyStyle {
public:
    LabStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

    QIcon standardIcon(StandardPixmap which, const QStyleOption* option,
                       const QWidget* widget) const override {
        if (which == SP_ToolBarHorizontalExtensionButton ||
            which == SP_ToolBarVerticalExtensionButton) {
            return QIcon(new ChevronEngine(which == SP_ToolBarVerticalExtensionButton));
        }
        return QProxyStyle::standardIcon(which, option, widget);
    }
};

QPalette lightPalette(const QStyle& fusion, bool highContrast) {
    QPalette p = fusion.standardPalette();
    if (highContrast) {
        p.setColor(QPalette::WindowText, Qt::black);
        p.setColor(QPalette::Text, Qt::black);
        p.setColor(QPalette::Base, Qt::white);
        p.setColor(QPalette::Window, QColor(0xf4, 0xf4, 0xf4));
        p.setColor(QPalette::Highlight, QColor(0x00, 0x4c, 0xb3));
    }
    return p;
}

QPalette darkPalette(bool highContrast) {
    QPalette p;
    const QColor window = highContrast ? QColor(0x10, 0x10, 0x10) : QColor(0x2b, 0x2d, 0x30);
    const QColor base = highContrast ? QColor(0x00, 0x00, 0x00) : QColor(0x1e, 0x1f, 0x22);
    const QColor text = highContrast ? QColor(0xff, 0xff, 0xff) : QColor(0xdf, 0xe1, 0xe5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window.lighter(115));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window.lighter(110));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6a, 0xb0, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, text.darker(150));
    p.setColor(QPalette::Disabled, QPalette::Text, text.darker(180));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, text.darker(180));
    p.setColor(QPalette::Disabled, QPalette::WindowText, text.darker(180));
    return p;
}

}  // namespace

const Appearance& currentAppearance() {
    return g_appearance;
}

bool isApplied(const Appearance& appearance) {
    return g_applied && appearance.dark == g_appearance.dark &&
           appearance.presenter == g_appearance.presenter &&
           appearance.zoomPercent == g_appearance.zoomPercent;
}

void applyAppearance(const Appearance& appearance) {
    g_appearance = appearance;
    g_applied = true;
    // QApplication takes the style as its child: it deletes it when another
    // style replaces it or when the application ends.
    QStyle* fusion = new LabStyle;
    const QPalette palette = appearance.dark ? darkPalette(appearance.presenter)
                                             : lightPalette(*fusion, appearance.presenter);
    QApplication::setStyle(fusion);
    QApplication::setPalette(palette);
    QFont font = QApplication::font();
    if (g_basePointSize == 0)
        g_basePointSize = font.pointSize() > 0 ? font.pointSize() : 10;
    double points = g_basePointSize * appearance.effectivePercent() / 100.0;
    if (appearance.presenter) {
        // Text a back row can read: at least kPresenterPixels before zoom.
        const QScreen* screen = QGuiApplication::primaryScreen();
        const double dpi = screen ? screen->logicalDotsPerInchY() : 96.0;
        points = std::max(points, kPresenterPixels * 72.0 / dpi * appearance.zoomPercent / 100.0);
    }
    font.setPointSizeF(points);
    QApplication::setFont(font);
    // Qt 6.4 tells only some widgets that the application's font changed
    // (not windows, not widgets in hidden tool bars): tell every one, so
    // that none keeps the old size.
    QEvent change(QEvent::ApplicationFontChange);
    for (QWidget* w : QApplication::allWidgets()) QApplication::sendEvent(w, &change);
}

}  // namespace idem
