#include "handlerhighlighter.h"

#include <QRegularExpression>
#include <QSet>

namespace idem {

namespace {

const QSet<QString>& javascriptKeywords() {
    static const QSet<QString> words{
        "break",      "case", "catch", "class",   "const",     "continue", "default", "delete",
        "do",         "else", "false", "finally", "for",       "function", "if",      "in",
        "instanceof", "let",  "new",   "null",    "of",        "return",   "switch",  "this",
        "throw",      "true", "try",   "typeof",  "undefined", "var",      "void",    "while"};
    return words;
}

bool startsIdentifier(QChar c) {
    return c.isLetter() || c == QLatin1Char('_') || c == QLatin1Char('$');
}

// The index of the closing `quote` after `from`, skipping escaped ones; -1
// when the line ends first.
int closingQuote(const QString& text, int from, QChar quote) {
    for (int i = from; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('\\'))
            ++i;
        else if (text.at(i) == quote)
            return i;
    }
    return -1;
}

}  // namespace

HandlerHighlighter::HandlerHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    setDark(false);
}

void HandlerHighlighter::setDark(bool dark) {
    dark_ = dark;
    keyword_ = {};
    keyword_.setForeground(dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1a, 0x4f, 0xb0));
    keyword_.setFontWeight(QFont::Bold);
    yield_ = keyword_;
    yield_.setForeground(dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x1c, 0x1c));
    number_ = {};
    number_.setForeground(dark ? QColor(0x7f, 0xd8, 0xd8) : QColor(0x00, 0x6d, 0x6d));
    comment_ = {};
    comment_.setForeground(dark ? QColor(0x9a, 0xa0, 0xa6) : QColor(0x5f, 0x63, 0x68));
    comment_.setFontItalic(true);
    string_ = {};
    string_.setForeground(dark ? QColor(0x9c, 0xd6, 0x8c) : QColor(0x2e, 0x6b, 0x1f));
    sql_ = string_;
    sql_.setForeground(dark ? QColor(0xf6, 0xc1, 0x77) : QColor(0x8a, 0x4b, 0x00));
    sql_.setFontWeight(QFont::Bold);
    placeholder_ = sql_;
    placeholder_.setForeground(dark ? QColor(0xff, 0x9e, 0xe6) : QColor(0x9c, 0x1f, 0x8c));
    rehighlight();
}

void HandlerHighlighter::formatString(const QString& text, int from, int length) {
    setFormat(from, length, string_);
    static const QRegularExpression sqlWords(
        QStringLiteral("\\b(SELECT|INSERT|INTO|VALUES|UPDATE|SET|DELETE|FROM|WHERE|AND|OR|NOT|"
                       "NULL|IS|IN|ON|CONFLICT|DO|NOTHING|DUPLICATE|KEY|IGNORE|FOR|SHARE|"
                       "RETURNING|ORDER|BY|LIMIT|OFFSET|JOIN|LEFT|AS|COUNT|CASE|WHEN|THEN|"
                       "ELSE|END|EXISTS|LOCK|NOWAIT|SKIP|LOCKED|GROUP|HAVING|DISTINCT)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    const QString inside = text.mid(from, length);
    for (auto it = sqlWords.globalMatch(inside); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        // Only a word written in capitals is taken for SQL: "for the order"
        // in a message stays a message.
        if (m.captured() == m.captured().toUpper())
            setFormat(from + int(m.capturedStart()), int(m.capturedLength()), sql_);
    }
    for (int i = 0; i < inside.size(); ++i) {
        if (inside.at(i) == QLatin1Char('?'))
            setFormat(from + i, 1, placeholder_);
    }
}

void HandlerHighlighter::highlightBlock(const QString& text) {
    int state = previousBlockState() < 0 ? Code : previousBlockState();
    int i = 0;
    const int n = int(text.size());
    while (i < n) {
        if (state == InComment) {
            const int end = int(text.indexOf(QStringLiteral("*/"), i));
            if (end < 0) {
                setFormat(i, n - i, comment_);
                i = n;
                break;
            }
            setFormat(i, end + 2 - i, comment_);
            i = end + 2;
            state = Code;
            continue;
        }
        if (state == InTemplate) {
            const int end = closingQuote(text, i, QLatin1Char('`'));
            if (end < 0) {
                formatString(text, i, n - i);
                i = n;
                break;
            }
            formatString(text, i, end + 1 - i);
            i = end + 1;
            state = Code;
            continue;
        }
        const QChar c = text.at(i);
        if (c == QLatin1Char('/') && i + 1 < n && text.at(i + 1) == QLatin1Char('/')) {
            setFormat(i, n - i, comment_);
            break;
        }
        if (c == QLatin1Char('/') && i + 1 < n && text.at(i + 1) == QLatin1Char('*')) {
            setFormat(i, 2, comment_);
            i += 2;
            state = InComment;
            continue;
        }
        if (c == QLatin1Char('`')) {
            setFormat(i, 1, string_);
            ++i;
            state = InTemplate;
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            const int end = closingQuote(text, i + 1, c);
            const int stop = end < 0 ? n : end + 1;
            formatString(text, i, stop - i);
            i = stop;
            continue;
        }
        if (c.isDigit()) {
            int j = i;
            while (j < n && (text.at(j).isLetterOrNumber() || text.at(j) == QLatin1Char('.'))) ++j;
            setFormat(i, j - i, number_);
            i = j;
            continue;
        }
        if (startsIdentifier(c)) {
            int j = i;
            while (j < n && (startsIdentifier(text.at(j)) || text.at(j).isDigit())) ++j;
            const QString word = text.mid(i, j - i);
            // `yield` is where the scheduler may switch to another attempt.
            if (word == QLatin1String("yield"))
                setFormat(i, j - i, yield_);
            else if (javascriptKeywords().contains(word))
                setFormat(i, j - i, keyword_);
            i = j;
            continue;
        }
        ++i;
    }
    setCurrentBlockState(state);
}

}  // namespace idem
