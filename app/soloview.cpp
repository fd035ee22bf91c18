#include "soloview.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

namespace idem {

SoloView::SoloView(QMainWindow* window, const Parts& parts, bool fullScreen)
    : QObject(window), window_(window), parts_(parts), fullScreen_(fullScreen) {
    // Another page chosen by its tab or key: the stage comes back first.
    connect(parts_.pages, &QTabWidget::currentChanged, this, [this] {
        if (shown_ == View::None)
            return;
        QWidget* wanted = shown_ == View::Compare ? parts_.compare : parts_.live;
        if (parts_.pages->currentWidget() != wanted)
            toggle(View::None);
    });
}

void SoloView::toggle(View view) {
    if (view == shown_ || view == View::None) {
        restore();
        return;
    }
    if (shown_ == View::None) {
        hidden_.clear();
        for (QDockWidget* dock : std::as_const(parts_.sidePanels)) {
            if (dock->isVisible()) {
                hidden_ << dock;
                dock->hide();
            }
        }
        wasFullScreen_ = window_->isFullScreen();
        if (fullScreen_ && !wasFullScreen_)
            window_->setWindowState(window_->windowState() | Qt::WindowFullScreen);
    }
    shown_ = view;
    switch (view) {
        case View::Sequence:
            parts_.live->setAlone(LiveStage::Part::Sequence);
            break;
        case View::State:
            parts_.live->setAlone(LiveStage::Part::State);
            break;
        case View::Tables:
            parts_.live->setAlone(LiveStage::Part::Tables);
            break;
        case View::Compare:
        case View::None:
            parts_.live->setAlone(LiveStage::Part::None);
            break;
    }
    parts_.pages->setCurrentWidget(view == View::Compare ? parts_.compare : parts_.live);
    emit shownChanged(shown_);
}

void SoloView::restore() {
    if (shown_ == View::None)
        return;
    shown_ = View::None;
    parts_.live->setAlone(LiveStage::Part::None);
    for (QDockWidget* dock : std::as_const(hidden_)) dock->show();
    hidden_.clear();
    if (fullScreen_ && !wasFullScreen_)
        window_->setWindowState(window_->windowState() & ~Qt::WindowFullScreen);
    emit shownChanged(shown_);
}

}  // namespace idem
