// A black screen over the whole window, as a presentation program gives one
// (B or . in PowerPoint and Impress): the class looks at the teacher, not at
// the stage. It takes no focus, so every key still reaches the window; any
// key or a click brings the stage back (B or . toggle it themselves).
#pragma once

#include <QWidget>

class QKeyEvent;

namespace idem {

class BlankCover : public QWidget {
    Q_OBJECT
public:
    explicit BlankCover(QWidget* host);
    // Blanks the window, or brings it back.
    void toggle();
    // Whether a key is one of the blanking keys (B, .) with no modifier.
    static bool isBlankingKey(const QKeyEvent* event);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void cover();
    void uncover();
    void retranslate();
};

}  // namespace idem
