// The colours of a handler in the workbench's editor: JavaScript's keywords,
// numbers, comments and strings, and inside a string the SQL it sends (its
// keywords and `?` placeholders), in the theme's light or dark.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace idem {

class HandlerHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit HandlerHighlighter(QTextDocument* document);
    // The colours for a light or a dark background; the text is coloured anew.
    void setDark(bool dark);
    bool dark() const { return dark_; }

protected:
    void highlightBlock(const QString& text) override;

private:
    enum State { Code = 0, InComment = 1, InTemplate = 2 };
    // A string's text from `from`, `length` characters: the string's colour,
    // its SQL keywords and placeholders over it.
    void formatString(const QString& text, int from, int length);

    bool dark_ = false;
    QTextCharFormat keyword_;
    QTextCharFormat yield_;
    QTextCharFormat number_;
    QTextCharFormat comment_;
    QTextCharFormat string_;
    QTextCharFormat sql_;
    QTextCharFormat placeholder_;
};

}  // namespace idem
