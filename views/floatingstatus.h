// The window's status bar (a job's progress and Cancel, and messages such as
// "Saved the trace to …"), floating over the bottom right of the stage
// instead of taking a row of the window's layout. A bar that took room would
// lay the whole window out again and paint it each time it came or went: in
// the same frame as the views taking in what a job did.
#pragma once

#include <QStatusBar>

class QTimer;

namespace idem {

class FloatingStatus : public QStatusBar {
    Q_OBJECT
public:
    // Floats over the bottom of `over` (a widget of the same window, usually
    // the central one), sized to what it shows.
    FloatingStatus(QWidget* window, QWidget* over);
    // How long a message stays (it lies over the views); a job's bar stays
    // while the job runs.
    static constexpr int kMessageMs = 10'000;

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void place();
    QWidget* over_;
    QTimer* messageTimer_;
};

}  // namespace idem
