// How the main window arranges itself for a room. In presenter mode: the
// verdict banner across the top, the scenario list and fire panel folded into
// one line of settings (a button unfolds them), the outcome panel at least a
// fifth of the width, and the window never larger than its screen (full
// screen when it is a real window). Normal mode gives the side panel back.
#pragma once

#include <QList>
#include <QObject>

class QDockWidget;
class QShortcut;
class QMainWindow;
class QTabWidget;
class QToolBar;

namespace idem {

class LiveStage;
class OutcomePanel;
class StageHeader;

class StageLayout : public QObject {
    Q_OBJECT
public:
    struct Parts {
        QToolBar* headerBar;
        StageHeader* header;
        QDockWidget* settingsDock;  // scenario list and fire panel
        QDockWidget* outcomeDock;
        OutcomePanel* outcome;
        LiveStage* live;
        QTabWidget* pages;    // Live, Compare, ...: the settings line sits beside their tabs
        QWidget* pagination;  // with Live, the pages that play the run the banner judges
    };
    // fullScreen: a window a person looks at (not `idemlab shot`, not a test).
    StageLayout(QMainWindow* window, const Parts& parts, bool fullScreen);

    void apply(bool presenter);
    bool presenter() const { return presenter_; }
    // Larger fonts never push a real window past its screen.
    void keepOnScreen();
    // The narrowest the outcome panel gets in presenter mode.
    static constexpr int kOutcomeMinWidth = 240;
    // The side panel unfolded in presenter mode is at least this wide.
    static constexpr int kUnfoldedMinWidth = 340;
    // A lesson shows its narration on the right: the side takes a third of
    // the window in either mode.
    void setLessonShown(bool shown);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitOutcome();
    // On a wide window the fire panel takes the room its choices need to be
    // read whole ("double click (front end)"), up to a fifth of the width.
    void fitPanel();
    // The fire panel's Alt+letter keys while its panel is folded away
    // (presenter mode): the letter unfolds it and goes to its field.
    void bindFoldedMnemonics();
    // Unfolded in presenter mode, the side panel is wide enough for its
    // choices' names.
    void widenUnfolded();
    // The verdict banner in presenter mode, on the pages that play the run
    // it judges (Compare and Experiment have verdicts of their own).
    void showBanner();

    QMainWindow* window_;
    Parts parts_;
    bool fullScreen_;
    bool presenter_ = false;
    bool settingsShownBefore_ = true;  // the side panel's state in normal mode
    bool lesson_ = false;
    QList<QShortcut*> folded_;  // bindFoldedMnemonics's keys
};

}  // namespace idem
