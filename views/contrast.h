// Text a room can read: the WCAG contrast ratio of two colours, and a text
// colour nudged until it reaches a minimum on a background.
#pragma once

#include <QColor>

namespace idem {

// WCAG 2 AA for normal text.
inline constexpr double kMinContrast = 4.5;

// (L1 + 0.05) / (L2 + 0.05) of the relative luminances, 1 to 21.
double contrastRatio(const QColor& a, const QColor& b);
// `text` itself when it reaches `minimum` on `background`, else the same hue
// made darker (on a light background) or lighter (on a dark one) until it does.
QColor readableOn(const QColor& text, const QColor& background, double minimum = kMinContrast);
// `accent` laid thinly over `base`: the background of a marked row, light on a
// light theme and dark on a dark one, so that the theme's own text stays readable.
QColor rowTint(const QColor& base, const QColor& accent);

}  // namespace idem
