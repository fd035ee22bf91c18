// The keyboard model written down: an overlay over the whole window (the `?`
// key, Help → Keyboard) listing every key the window obeys. Escape, `?` or a
// click closes it.
#pragma once

#include <QWidget>

class QLabel;

namespace idem {

class KeysOverlay : public QWidget {
    Q_OBJECT
public:
    explicit KeysOverlay(QWidget* host);
    void toggle();
    // The key table as rich text (also shown in the Help menu's tooltip).
    static QString keyTable();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void retranslate();
    // The whole list on screen: in a smaller font when the window's (a
    // projector's 1280×720 in presenter mode) would run it off the bottom.
    void fit();
    QLabel* panel_;
};

}  // namespace idem
