// The workbench's editor of a handler: a plain-text editor in a fixed-width
// face that follows the window's zoom, with line numbers, the line the
// cursor is on, a syntax error underlined where the engine stopped, and the
// line of a statement marked (the one the failing run's step sent).
#pragma once

#include <QPlainTextEdit>

namespace idem {

class HandlerHighlighter;

class HandlerEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit HandlerEditor(QWidget* parent = nullptr);

    // A syntax error at line:column (1-based), underlined to the line's end;
    // line 0 clears it.
    void setProblem(int line, int column, const QString& message);
    int problemLine() const { return problemLine_; }
    // The statement's line marked (0: none), scrolled into view with the cursor on it.
    void markLine(int line);
    int markedLine() const { return markedLine_; }
    HandlerHighlighter* highlighter() const { return highlighter_; }

    // The gutter's width for the document's line count.
    int gutterWidth() const;
    // While a lesson plays, Page Up and Page Down are the remote's (the
    // lesson's frames), not the editor's.
    void setPassPageKeys(bool pass) { passPageKeys_ = pass; }

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    friend class HandlerGutter;
    void paintGutter(QPaintEvent* event);
    void updateSelections();
    void followTheme();

    bool passPageKeys_ = false;  // first: the gutter made below is a child, told to event()
    QWidget* gutter_;
    HandlerHighlighter* highlighter_;
    int problemLine_ = 0;
    int problemColumn_ = 0;
    int markedLine_ = 0;
};

}  // namespace idem
