// The main window. It only composes: the views, the docks, the menus with
// their shortcuts, and the settings it remembers. The run lives in Playback,
// what it does to the views in StageDirector, long work in RunController,
// the arrangement for a room in StageLayout, the keyboard in PlaybackKeys.
#pragma once

#include "livestage.h"
#include "playback.h"
#include "runconfig.h"

#include <QColor>
#include <QMainWindow>
#include <QMap>
#include <QPointer>
#include <QTranslator>

#include <memory>

class QStatusBar;
class QAction;
class QTabWidget;

namespace idem {

class CompareView;
class DatabaseTableView;
class ExperimentView;
class ExplanationView;
class WorkbenchView;
class FirePanel;
class KeysOverlay;
class LessonPanel;
class LessonPlayer;
class OutcomePanel;
class PaginationView;
struct PagingRuns;
class Scenario;
class PlaybackBar;
class PlaybackKeys;
class BlankCover;
class RecentTraces;
class RunController;
class ScenarioPicker;
class SequenceView;
class SqlLogModel;
class StageHeader;
class StageDirector;
class SoloView;
class StageLayout;
class StateMachineView;
class StepCaption;
class WindowExports;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // remember: read and write QSettings and go full screen in presenter mode
    // (false for `idemlab shot` and tests).
    explicit MainWindow(bool remember = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a configuration as if fired from the panel and waits for it
    // (tests, `idemlab shot`). False on bad input or when the run cannot
    // run (`failure` says which: BadInput, or Io for a full disk).
    bool fire(const RunConfig& config, QString* error, RunFailure* failure = nullptr);
    // Fires from the window: checks the input, asks before a run above the
    // cost limit, then measures it in the background (Escape cancels).
    void fireInBackground(const RunConfig& config);
    StageDirector* director() const { return director_; }
    // Saves the run on screen as a trace file, in the background.
    void saveTraceTo(const QString& path);
    RecentTraces* recentTraces() const { return recent_; }
    // File → Export: the report, the hand-out, the sequence diagram as text.
    WindowExports* exports() const { return exports_; }
    RunController* jobs() const { return jobs_; }
    // A job's progress and the window's messages ("Saved the trace to …"),
    // floating over the bottom of the stage.
    QStatusBar* messages() const { return messages_; }
    Playback& playback() const { return *playback_; }
    void setLanguage(const QString& code);  // "zh" or "en"
    void setTheme(bool dark, bool presenter, int zoomPercent);
    // The widget `idemlab shot --view NAME` captures; nullptr if unknown.
    QWidget* viewWidget(const QString& name);
    static QStringList viewNames();

    ScenarioPicker* picker() const { return picker_; }
    FirePanel* firePanel() const { return firePanel_; }
    PlaybackBar* playbackBar() const { return playbackBar_; }
    LiveStage* liveStage() const { return live_; }
    // The scenario's guard table (its first table when it has none).
    DatabaseTableView* guardTable() const;
    StateMachineView* stateView() const;
    SequenceView* sequenceView() const;
    SqlLogModel* sqlLog() const;
    OutcomePanel* outcome() const { return outcome_; }
    // The Compare and Pagination pages build their widgets when first shown;
    // paginationView() builds them now if that has not happened yet (Compare
    // builds its own when its outcomes or tables are asked for).
    CompareView* compareView() const { return compare_; }
    PaginationView* paginationView() const;
    ExperimentView* experimentView() const { return experiment_; }
    WorkbenchView* workbenchView() const;
    // "Step the failing run": the workbench's counterexample on the stage, at
    // the first step where the judge sees the verdict it ends with.
    void stepCounterexample(const QString& tracePath);
    StepCaption* caption() const { return caption_; }
    StageHeader* stageHeader() const { return header_; }
    QTabWidget* tabs() const { return tabs_; }
    QWidget* liveView() const;
    PlaybackKeys* keys() const { return keys_; }
    // The black screen of B and . (as in a presentation program).
    BlankCover* blankCover() const { return blank_; }
    QAction* action(const QString& id) const { return actions_.value(id); }
    QString language() const { return language_; }

    // Lessons: the player, its panel, and starting one by bundled id or file
    // path at a frame (0-based). False with a message naming the problem.
    LessonPlayer* lessonPlayer() const { return lessons_; }
    // One view alone, filling the window (F6 to F9; the same key again: back).
    SoloView* soloView() const { return solo_; }
    LessonPanel* lessonPanel() const { return lessonPanel_; }
    // The first start offers the five-minute lesson (once; a dialog that
    // does not block the window).
    void offerFirstLesson();
    static constexpr int kFirstOfferDelayMs = 600;
    // `failure` (when given) tells a lesson that does not read (BadInput) from
    // a frame whose run could not run on this machine (Io).
    bool startLesson(const QString& idOrPath, int frame, QString* error,
                     RunFailure* failure = nullptr);
    // File → Open a lesson file… without the dialog: reads the file, asks
    // first (No by default) when a frame's run is above the cost limit, then
    // checks every frame in the background (Escape stops it) and opens it.
    void openLessonFileAt(const QString& path);
    // File → Open trace… without the dialog (`idemlab FILE`, File → Open
    // recent): read in the background, then replayed. A trace that does not
    // open is said so, and the window goes on as it was.
    void openTraceAt(const QString& path);
    // While a lesson withholds it, the outcome and the verdict are hidden so
    // that a prediction is a prediction.
    void setOutcomeWithheld(bool withheld);
    bool outcomeWithheld() const { return outcomeWithheld_; }

protected:
    bool event(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildViews();
    void buildMenus();
    void retranslate();
    // Sets the language and installs its translators, telling no widget.
    void installLanguage(const QString& code);
    void selectScenario(const QString& id);
    void openTrace();
    void saveTrace();
    void exportDiagram(bool svg);
    void copyCurrentTableCsv();
    void chooseLesson();
    void openLessonFile();
    void showVerdict();
    // A dialog on screen; the status bar off screen (tests, `idemlab shot`).
    void showError(const QString& title, const QString& message);
    // The tab that plays the run: Pagination for pagination, else Live.
    QWidget* playbackTab() const;
    // Shows `page` and, chosen from the keyboard, gives it the focus.
    void showTab(QWidget* page);
    void updateEnabled();
    // The workbench's signals to the window (mainworkbench.cpp).
    void connectWorkbench();
    void saveHandler();
    void seekFirstWrongStep();
    // Back on the Workbench from the failing run: the line of the statement
    // the step on screen sent is marked.
    void markCounterexampleStatement();
    void stepTab(int by);
    void tabChanged();
    // The window's title: the lab's name, after the file on show (the open
    // trace, or the workbench's handler on its page).
    void updateTitle();
    QString shownTrace_;

    bool remember_;
    Playback* playback_;
    QTranslator translator_;
    QTranslator qtTranslator_;
    QString language_;

    ScenarioPicker* picker_ = nullptr;
    FirePanel* firePanel_ = nullptr;
    PlaybackBar* playbackBar_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    LiveStage* live_ = nullptr;
    StepCaption* caption_ = nullptr;
    StageHeader* header_ = nullptr;
    StageLayout* stage_ = nullptr;
    SoloView* solo_ = nullptr;
    OutcomePanel* outcome_ = nullptr;
    ExplanationView* explanation_ = nullptr;
    CompareView* compare_ = nullptr;
    PaginationView* pagination_ = nullptr;
    ExperimentView* experiment_ = nullptr;
    QPointer<WorkbenchView> workbench_;  // a page may go first (a test's)
    PlaybackKeys* keys_ = nullptr;
    KeysOverlay* keysOverlay_ = nullptr;
    BlankCover* blank_ = nullptr;
    QMap<QString, QAction*> actions_;
    LessonPanel* lessonPanel_ = nullptr;
    LessonPlayer* lessons_ = nullptr;
    bool outcomeWithheld_ = false;
    // The verdict the outcome last showed, for when it is no longer withheld.
    QString verdictText_;
    QColor verdictBackground_;
    QColor verdictForeground_;
    RunController* jobs_ = nullptr;
    QStatusBar* messages_ = nullptr;
    StageDirector* director_ = nullptr;
    RecentTraces* recent_ = nullptr;
    WindowExports* exports_ = nullptr;
    bool firstFirePending_ = false;  // the first scenario runs after the first paint
};

}  // namespace idem
