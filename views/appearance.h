// Theme, presenter mode and zoom: application-wide palette and font, never
// set per widget.
#pragma once

class QApplication;

namespace idem {

// The least text size of presenter mode at 100 % zoom, in pixels.
constexpr double kPresenterPixels = 20.0;

struct Appearance {
    bool dark = false;
    bool presenter = false;  // at least 150 % fonts and high contrast
    int zoomPercent = 100;   // Ctrl +/- steps of 10 %

    int effectivePercent() const { return zoomPercent * (presenter ? 160 : 100) / 100; }
};

void applyAppearance(const Appearance& appearance);
const Appearance& currentAppearance();
// True when `appearance` is the one applied last: applying it again would
// only polish every widget anew.
bool isApplied(const Appearance& appearance);

}  // namespace idem
