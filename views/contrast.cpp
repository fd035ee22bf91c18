#include "contrast.h"

#include <cmath>

namespace idem {

namespace {

double luminance(const QColor& c) {
    auto channel = [](float v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor& text, const QColor& background, double minimum) {
    QColor c = text.toRgb();
    const bool darken = luminance(background) > 0.18;
    for (int i = 0; i < 40 && contrastRatio(c, background) < minimum; ++i)
        c = darken ? c.darker(110) : c.lighter(112);
    // A hue that cannot get there (black stays black under lighter()).
    if (contrastRatio(c, background) < minimum)
        c = darken ? QColor(Qt::black) : QColor(Qt::white);
    return c;
}

QColor rowTint(const QColor& base, const QColor& accent) {
    const double t = luminance(base) > 0.18 ? 0.22 : 0.38;
    return QColor::fromRgbF(float(base.redF() + (accent.redF() - base.redF()) * t),
                            float(base.greenF() + (accent.greenF() - base.greenF()) * t),
                            float(base.blueF() + (accent.blueF() - base.blueF()) * t));
}

}  // namespace idem
