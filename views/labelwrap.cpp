#include "labelwrap.h"

#include <QFontMetricsF>
#include <QList>
#include <QStringList>
#include <QTextBoundaryFinder>

#include <algorithm>

namespace idem {

namespace {

// The pieces a label may break between: where the Unicode line-breaking
// rules allow (between words, between Chinese characters but not before a
// closing mark), and after a state change's arrow ("PENDING→" "SENT"); a
// lone "·" stays at the end of its line and a lone "…" at the start of the
// next ("SELECT" "… FROM jobs"), so that no line ends as if it were cut.
// Each piece says whether a space joins it to the one before.
struct Piece {
    QString text;
    bool spaced = true;
};

QList<Piece> pieces(const QString& text) {
    QList<Piece> all;
    QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, text);
    qsizetype start = 0;
    bool afterSpace = false;
    QString held;  // a lone "…", waiting for the word it leads into
    bool heldSpaced = false;
    for (qsizetype end = breaks.toNextBoundary(); end > 0; end = breaks.toNextBoundary()) {
        const QString segment = text.mid(start, end - start);
        start = end;
        QString word = segment.trimmed();
        if (word.isEmpty()) {
            afterSpace = true;
            continue;
        }
        bool spaced = afterSpace;
        afterSpace = segment.back().isSpace();
        if (word == QStringLiteral("\u2026")) {
            held = afterSpace ? QStringLiteral("\u2026 ") : word;
            heldSpaced = spaced;
            continue;
        }
        if (!held.isEmpty()) {
            word = held + word;
            spaced = heldSpaced;
            held.clear();
        }
        const qsizetype arrow = word.indexOf(QChar(0x2192));
        if (word == QStringLiteral("\u00b7") && !all.isEmpty()) {
            all.last().text += spaced ? QStringLiteral(" \u00b7") : QStringLiteral("\u00b7");
        } else if (arrow > 0 && arrow + 1 < word.size()) {
            all.append({word.left(arrow + 1), spaced});
            all.append({word.mid(arrow + 1), false});
        } else {
            all.append({word, spaced});
        }
    }
    if (!held.isEmpty())
        all.append({held.trimmed(), heldSpaced});
    return all;
}

// A label's pieces with their widths, each measured once: breaking it into
// lines is then sums, however many widths are tried.
struct Measured {
    QList<Piece> pieces;
    QList<double> widths;
    double space = 0;
};

Measured measure(const QString& text, const QFontMetricsF& fm) {
    Measured m;
    m.pieces = pieces(text);
    m.space = fm.horizontalAdvance(QLatin1Char(' '));
    for (const Piece& piece : std::as_const(m.pieces)) m.widths << fm.horizontalAdvance(piece.text);
    return m;
}

// Where lines begin (indexes of pieces) when no line is wider than `width`.
QList<qsizetype> breaks(const Measured& m, double width) {
    QList<qsizetype> starts{0};
    double line = 0;
    for (qsizetype i = 0; i < m.pieces.size(); ++i) {
        const double longer = i == starts.last()
                                  ? m.widths[i]
                                  : line + (m.pieces[i].spaced ? m.space : 0) + m.widths[i];
        if (i > starts.last() && longer > width) {
            starts << i;
            line = m.widths[i];
        } else {
            line = longer;
        }
    }
    return starts;
}

}  // namespace

QString wrapped(const QString& text, const QFontMetricsF& fm, double width) {
    if (fm.horizontalAdvance(text) <= width)
        return text;
    const Measured m = measure(text, fm);
    const QList<qsizetype> starts = breaks(m, width);
    QStringList lines;
    for (qsizetype l = 0; l < starts.size(); ++l) {
        const qsizetype end = l + 1 < starts.size() ? starts[l + 1] : m.pieces.size();
        QString line;
        for (qsizetype i = starts[l]; i < end; ++i) {
            if (i > starts[l] && m.pieces[i].spaced)
                line += QLatin1Char(' ');
            line += m.pieces[i].text;
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

double narrowest(const QString& text, const QFontMetricsF& fm, int lines) {
    const double whole = fm.horizontalAdvance(text);
    const Measured m = measure(text, fm);
    double low = 0;
    for (double w : std::as_const(m.widths)) low = std::max(low, w);
    double high = std::max(low, whole);
    // wrapped() keeps a label that fits whole on one line.
    auto fits = [&](double width) {
        return width >= whole || breaks(m, width).size() <= lines;
    };
    while (high - low > 2) {
        const double mid = (low + high) / 2;
        if (fits(mid))
            high = mid;
        else
            low = mid;
    }
    return high;
}

double widest(const QString& text, const QFontMetricsF& fm) {
    double w = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        w = std::max(w, fm.horizontalAdvance(line));
    return w;
}

}  // namespace idem
