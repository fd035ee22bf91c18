#include "handlereditor.h"

#include "handlerhighlighter.h"

#include <QEvent>
#include <QKeyEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

namespace idem {

// The line numbers beside the text.
class HandlerGutter : public QWidget {
public:
    explicit HandlerGutter(HandlerEditor* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { editor_->paintGutter(event); }

private:
    HandlerEditor* editor_;
};

HandlerEditor::HandlerEditor(QWidget* parent)
    : QPlainTextEdit(parent),
      gutter_(new HandlerGutter(this)),
      highlighter_(new HandlerHighlighter(document())) {
    // Only the family: the size comes from the window's, so zoom and
    // presenter mode reach the code too.
    QFont fixed;
    fixed.setFamilies({QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Noto Sans Mono CJK SC"),
                       QStringLiteral("monospace")});
    fixed.setStyleHint(QFont::TypeWriter);
    setFont(fixed);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0)
            gutter_->scroll(0, dy);
        else
            gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &HandlerEditor::updateSelections);
    setViewportMargins(gutterWidth(), 0, 0, 0);
    followTheme();
    updateSelections();
}

int HandlerEditor::gutterWidth() const {
    int digits = 2;
    for (int n = std::max(1, blockCount()); n >= 100; n /= 10) ++digits;
    return fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 1) + 6;
}

void HandlerEditor::setProblem(int line, int column, const QString& message) {
    problemLine_ = line;
    problemColumn_ = std::max(1, column);
    setToolTip(line > 0 ? message : QString());
    updateSelections();
}

void HandlerEditor::markLine(int line) {
    markedLine_ = line;
    if (line > 0) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (block.isValid()) {
            QTextCursor c(block);
            setTextCursor(c);
            centerCursor();
        }
    }
    updateSelections();
}

void HandlerEditor::updateSelections() {
    const bool dark = highlighter_->dark();
    QList<QTextEdit::ExtraSelection> selections;
    QTextEdit::ExtraSelection current;
    current.format.setBackground(dark ? QColor(0x2a, 0x2f, 0x3a) : QColor(0xee, 0xf3, 0xfb));
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    selections << current;
    if (markedLine_ > 0) {
        const QTextBlock block = document()->findBlockByNumber(markedLine_ - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection marked;
            marked.format.setBackground(dark ? QColor(0x5c, 0x46, 0x10) : QColor(0xff, 0xe8, 0xa8));
            marked.format.setProperty(QTextFormat::FullWidthSelection, true);
            marked.cursor = QTextCursor(block);
            selections << marked;
        }
    }
    if (problemLine_ > 0) {
        const QTextBlock block = document()->findBlockByNumber(problemLine_ - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection problem;
            problem.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            problem.format.setUnderlineColor(dark ? QColor(0xff, 0x6b, 0x6b)
                                                  : QColor(0xc6, 0x28, 0x28));
            problem.cursor = QTextCursor(block);
            const int from = std::min(problemColumn_ - 1, std::max(0, block.length() - 2));
            problem.cursor.setPosition(block.position() + from);
            problem.cursor.setPosition(block.position() + std::max(from + 1, block.length() - 1),
                                       QTextCursor::KeepAnchor);
            selections << problem;
        }
    }
    setExtraSelections(selections);
}

void HandlerEditor::followTheme() {
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    if (dark != highlighter_->dark()) {
        highlighter_->setDark(dark);
        updateSelections();
    }
}

void HandlerEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    gutter_->setGeometry(r.left(), r.top(), gutterWidth(), r.height());
}

void HandlerEditor::changeEvent(QEvent* event) {
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followTheme();
    if (event->type() == QEvent::FontChange) {
        setViewportMargins(gutterWidth(), 0, 0, 0);
        setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 4);
    }
}

bool HandlerEditor::event(QEvent* event) {
    // (The type first: a child made in the constructor is told here before
    // the members are.)
    if (event->type() == QEvent::ShortcutOverride && passPageKeys_) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_PageDown || key->key() == Qt::Key_PageUp) &&
            key->modifiers() == Qt::NoModifier) {
            event->ignore();  // the window's shortcut takes it
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

void HandlerEditor::keyPressEvent(QKeyEvent* event) {
    // Tab indents by four spaces; Ctrl+Tab and Ctrl+Shift+Tab leave the
    // editor for the next or the previous control.
    if ((event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab) &&
        (event->modifiers() & Qt::ControlModifier)) {
        QAbstractScrollArea::focusNextPrevChild(event->key() == Qt::Key_Tab &&
                                                !(event->modifiers() & Qt::ShiftModifier));
        return;
    }
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        textCursor().insertText(QStringLiteral("    "));
        return;
    }
    // A new line keeps the indentation of the one it leaves.
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
        event->modifiers() == Qt::NoModifier) {
        const QString line = textCursor().block().text();
        int indent = 0;
        while (indent < line.size() && line.at(indent) == QLatin1Char(' ')) ++indent;
        textCursor().insertText(QLatin1Char('\n') + QString(indent, QLatin1Char(' ')));
        ensureCursorVisible();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void HandlerEditor::paintGutter(QPaintEvent* event) {
    QPainter painter(gutter_);
    const QPalette& p = palette();
    painter.fillRect(event->rect(), p.color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int current = textCursor().blockNumber();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            QFont f = font();
            f.setBold(block.blockNumber() == current || line == markedLine_);
            painter.setFont(f);
            painter.setPen(line == problemLine_             ? QColor(0xc6, 0x28, 0x28)
                           : block.blockNumber() == current ? p.color(QPalette::Text)
                                                            : p.color(QPalette::PlaceholderText));
            painter.drawText(0, top, gutter_->width() - 4, height,
                             Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        }
        block = block.next();
        top += height;
    }
}

}  // namespace idem
