// The colours both diagrams draw with, taken from the widget's palette so that
// light and dark themes read alike: green for accepted, red for rejected and
// errors, amber for waiting, the highlight colour for "where it is now".
#pragma once

#include <QColor>
#include <QPalette>

namespace idem {

struct DiagramPalette {
    QColor background;
    QColor text;
    QColor muted;  // lane lines, secondary labels
    QColor nodeFill;
    QColor nodeBorder;
    QColor highlight;
    QColor highlightText;
    QColor accepted;
    QColor rejected;
    QColor waiting;
    QColor forbidden;  // accepted although the diagram forbids it: neither good nor a refusal
    bool dark = false;

    static DiagramPalette from(const QPalette& p) {
        DiagramPalette d;
        d.dark = p.color(QPalette::Window).lightness() < 128;
        d.background = p.color(QPalette::Base);
        d.text = p.color(QPalette::Text);
        d.muted = mix(d.text, d.background, 0.45);
        d.nodeFill = p.color(QPalette::AlternateBase);
        d.nodeBorder = mix(d.text, d.background, 0.3);
        d.highlight = p.color(QPalette::Highlight);
        d.highlightText = p.color(QPalette::HighlightedText);
        // Fixed hues, lightened on dark backgrounds so they keep their contrast.
        d.accepted = d.dark ? QColor(0x5c, 0xc8, 0x7a) : QColor(0x1a, 0x7f, 0x37);
        d.rejected = d.dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
        d.waiting = d.dark ? QColor(0xf0, 0xb4, 0x29) : QColor(0xb2, 0x6a, 0x00);
        d.forbidden = d.dark ? QColor(0xff, 0x79, 0xe6) : QColor(0xa0, 0x20, 0x8c);
        return d;
    }

    // A colour between a (t = 0) and b (t = 1).
    static QColor mix(const QColor& a, const QColor& b, double t) {
        return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                                float(a.greenF() + (b.greenF() - a.greenF()) * t),
                                float(a.blueF() + (b.blueF() - a.blueF()) * t));
    }
    // The colour as a faint fill behind a label or a row.
    static QColor tint(QColor c, int alpha) {
        c.setAlpha(alpha);
        return c;
    }
};

}  // namespace idem
