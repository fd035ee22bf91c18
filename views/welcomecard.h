// The first start's welcome: a card over the top of the stage, inside the
// window, that offers the five-minute lesson. Not a dialog window of its
// own: it is drawn with the window in the same frame, whatever the window
// manager (a second top-level window of a Qt 6.4 program stays black for
// seconds under openbox, the window manager of LXDE and of the lab's
// keyboard tours), and the window behind it stays usable. The start button
// has the focus: Enter takes the lesson, Esc (or "Not now") closes the card.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace idem {

class WelcomeCard : public QFrame {
    Q_OBJECT
public:
    // Floats over `over` (a widget of the same window: the stage, below the
    // pages' tabs), centred near its top.
    WelcomeCard(QWidget* window, QWidget* over);
    void setTexts(const QString& title, const QString& text, const QString& start,
                  const QString& later);
    // Shows the card and gives its start button the focus.
    void offer();

signals:
    void started();

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void place();

    QWidget* over_;
    QLabel* title_;
    QLabel* text_;
    QPushButton* start_;
    QPushButton* later_;
};

}  // namespace idem
