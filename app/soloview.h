// One view fills the window, for a projector: the sequence diagram, the
// state diagram, the tables, or Compare alone, the side panels out of the way
// (and the window full screen when it is a real one); the same key brings
// the whole stage back as it was.
#pragma once

#include "livestage.h"

#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QTabWidget;

namespace idem {

class SoloView : public QObject {
    Q_OBJECT
public:
    enum class View { None, Sequence, State, Tables, Compare };
    struct Parts {
        LiveStage* live;
        QWidget* compare;
        QTabWidget* pages;
        QList<QDockWidget*> sidePanels;
    };
    // fullScreen: a window a person looks at (not `idemlab shot`, not a test).
    SoloView(QMainWindow* window, const Parts& parts, bool fullScreen);

    // Shows `view` alone; the view shown alone already (or None) brings the
    // stage back.
    void toggle(View view);
    View shown() const { return shown_; }

signals:
    void shownChanged(SoloView::View view);

private:
    void restore();

    QMainWindow* window_;
    Parts parts_;
    bool fullScreen_;
    View shown_ = View::None;
    QList<QDockWidget*> hidden_;  // side panels this hid, shown again on the way back
    bool wasFullScreen_ = false;
};

}  // namespace idem
