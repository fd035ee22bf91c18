#include "appearance.h"

#include "diagrampalette.h"

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
#include <QStyleOptionSlider>
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

// A scroll bar as flat shapes in the palette's colours: a plain track, a
// rounded handle that darkens under the mouse and takes the highlight while
// dragged, and a small triangle in each arrow button. Fusion's gradients cost
// half a millisecond per bar, paid at every step by the bars of views that
// scroll as a run plays, and 2-3 ms for the first one painted at start-up.
// The parts stay where Fusion puts them (it still answers every hit test).
void drawFlatScrollBar(const QStyle& fusion, const QStyleOptionSlider& bar, QPainter* painter,
                       const QWidget* widget) {
    const QPalette& pal = bar.palette;
    const QColor window = pal.color(QPalette::Window);
    const QColor text = pal.color(QPalette::WindowText);
    const bool dark = window.lightnessF() < 0.5;
    const bool enabled = bar.state & QStyle::State_Enabled;
    const bool horizontal = bar.orientation == Qt::Horizontal;
    painter->save();
    painter->fillRect(bar.rect, dark ? window.lighter(112) : window.darker(104));
    // The track's edge towards the view, as Fusion draws it.
    painter->setPen(DiagramPalette::mix(window, text, 0.18));
    if (horizontal)
        painter->drawLine(bar.rect.topLeft(), bar.rect.topRight());
    else
        painter->drawLine(bar.rect.topLeft(), bar.rect.bottomLeft());

    auto part = [&](QStyle::SubControl sc) {
        return fusion.subControlRect(QStyle::CC_ScrollBar, &bar, sc, widget);
    };
    auto active = [&](QStyle::SubControl sc) {
        return (bar.activeSubControls & sc) && (bar.state & QStyle::State_MouseOver);
    };
    auto pressed = [&](QStyle::SubControl sc) {
        return (bar.activeSubControls & sc) && (bar.state & QStyle::State_Sunken);
    };
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    if (bar.subControls & QStyle::SC_ScrollBarSlider) {
        const QRect slider = part(QStyle::SC_ScrollBarSlider);
        if (slider.isValid() && enabled && bar.maximum > bar.minimum) {
            const QColor handle =
                pressed(QStyle::SC_ScrollBarSlider)
                    ? pal.color(QPalette::Highlight)
                    : DiagramPalette::mix(window, text,
                                          active(QStyle::SC_ScrollBarSlider) ? 0.62 : 0.48);
            const QRectF r = QRectF(slider).adjusted(horizontal ? 1 : 3, horizontal ? 3 : 1,
                                                     horizontal ? -1 : -2, horizontal ? -2 : -1);
            const double radius = std::min(r.width(), r.height()) / 2;
            painter->setBrush(handle);
            painter->drawRoundedRect(r, radius, radius);
        }
    }
    // The arrow buttons: a triangle each, pointing the way it scrolls.
    for (const QStyle::SubControl sc : {QStyle::SC_ScrollBarSubLine, QStyle::SC_ScrollBarAddLine}) {
        if (!(bar.subControls & sc))
            continue;
        const QRect button = part(sc);
        if (!button.isValid())
            continue;
        if (pressed(sc))
            painter->fillRect(button, DiagramPalette::mix(window, text, 0.2));
        const bool towardsEnd = sc == QStyle::SC_ScrollBarAddLine;
        const double s = std::min(button.width(), button.height()) * 0.22;
        const QPointF c = QRectF(button).center();
        QPolygonF triangle;
        if (horizontal) {
            const double d = towardsEnd ? s : -s;
            triangle << c + QPointF(d, 0) << c + QPointF(-d * 0.6, -s) << c + QPointF(-d * 0.6, s);
        } else {
            const double d = towardsEnd ? s : -s;
            triangle << c + QPointF(0, d) << c + QPointF(-s, -d * 0.6) << c + QPointF(s, -d * 0.6);
        }
        const bool atStop =
            towardsEnd ? bar.sliderValue >= bar.maximum : bar.sliderValue <= bar.minimum;
        painter->setBrush(DiagramPalette::mix(window, text,
                                              !enabled || atStop ? 0.3
                                              : active(sc)       ? 0.85
                                                                 : 0.65));
        painter->drawPolygon(triangle);
    }
    painter->restore();
}

// Fusion, with the tool bars' "more" button and the scroll bars drawn.
class LabStyle : public QProxyStyle {
public:
    LabStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option,
                            QPainter* painter, const QWidget* widget) const override {
        if (control == CC_ScrollBar) {
            if (const auto* bar = qstyleoption_cast<const QStyleOptionSlider*>(option)) {
                drawFlatScrollBar(*baseStyle(), *bar, painter, widget);
                return;
            }
        }
        QProxyStyle::drawComplexControl(control, option, painter, widget);
    }

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
