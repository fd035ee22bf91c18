// The main window's menus, actions and shortcuts, and their words in the
// language of the moment. The file commands behind them are in mainfiles.cpp.
#include "mainwindow.h"

#include "handlereditor.h"

#include "stagedirector.h"

#include "runner.h"
#include "settings.h"

#include "advisordialog.h"
#include "appearance.h"
#include "blankcover.h"
#include "compareview.h"
#include "experimentview.h"
#include "firepanel.h"
#include "idemversion.h"
#include "keysoverlay.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "outputpaths.h"
#include "paginationview.h"
#include "playback.h"
#include "playbackbar.h"
#include "recenttraces.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "sequenceview.h"
#include "soloview.h"
#include "sqllogview.h"
#include "statemachineview.h"
#include "stepcaption.h"
#include "trace.h"
#include "verdictglossary.h"
#include "windowexports.h"
#include "workbenchview.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace idem {

namespace {

// How long a word about a key that changed nothing stays in the status line.
constexpr int kSaidForMs = 4000;

struct ActionSpec {
    const char* id;
    const char* menu;  // file, run, view, help
    QList<QKeySequence> keys;
};

}  // namespace

void MainWindow::buildMenus() {
    const QList<ActionSpec> specs{
        {"open", "file", {QKeySequence::Open}},
        {"save", "file", {QKeySequence::Save}},
        {"export-png", "file", {QKeySequence(Qt::CTRL | Qt::Key_E)}},
        {"export-svg", "file", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)}},
        {"export-report", "file", {}},
        {"export-xlsx", "file", {}},
        {"export-mermaid", "file", {}},
        {"export-plantuml", "file", {}},
        {"export-handout", "file", {}},
        {"copy-csv", "file", {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)}},
        {"quit", "file", {QKeySequence::Quit}},
        {"fire", "run", {QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_Return)}},
        {"play", "run", {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_MediaPlay)}},
        {"step", "run", {QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_PageDown)}},
        {"back", "run", {QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageUp)}},
        {"reset", "run", {QKeySequence(Qt::Key_Home)}},
        {"end", "run", {QKeySequence(Qt::Key_End)}},
        {"next-turn", "run", {QKeySequence(Qt::CTRL | Qt::Key_Right)}},
        {"cancel", "run", {QKeySequence(Qt::Key_Escape)}},
        {"faster", "run", {QKeySequence(Qt::Key_BracketRight)}},
        {"slower", "run", {QKeySequence(Qt::Key_BracketLeft)}},
        {"autoplay", "run", {}},
        {"compare", "run", {QKeySequence(Qt::CTRL | Qt::Key_K)}},
        {"tab-live", "view", {QKeySequence(Qt::ALT | Qt::Key_1)}},
        {"tab-compare", "view", {QKeySequence(Qt::ALT | Qt::Key_2)}},
        {"tab-pagination", "view", {QKeySequence(Qt::ALT | Qt::Key_3)}},
        {"tab-experiment", "view", {QKeySequence(Qt::ALT | Qt::Key_4)}},
        {"tab-workbench", "view", {QKeySequence(Qt::ALT | Qt::Key_5)}},
        {"tab-next", "view", {QKeySequence(Qt::CTRL | Qt::Key_PageDown)}},
        {"tab-previous", "view", {QKeySequence(Qt::CTRL | Qt::Key_PageUp)}},
        {"lessons", "lessons", {QKeySequence(Qt::Key_F2)}},
        {"open-lesson", "lessons", {}},
        {"leave-lesson", "lessons", {QKeySequence(Qt::SHIFT | Qt::Key_F2)}},
        {"advisor", "help", {QKeySequence(Qt::Key_F1)}},
        {"lang-zh", "view", {}},
        {"lang-en", "view", {}},
        {"dark", "view", {QKeySequence(Qt::CTRL | Qt::Key_T)}},
        {"presenter", "view", {QKeySequence(Qt::Key_F11)}},
        {"blank", "view", {QKeySequence(Qt::Key_B), QKeySequence(Qt::Key_Period)}},
        {"solo-sequence", "view", {QKeySequence(Qt::Key_F6)}},
        {"solo-state", "view", {QKeySequence(Qt::Key_F7)}},
        {"solo-tables", "view", {QKeySequence(Qt::Key_F8)}},
        {"solo-compare", "view", {QKeySequence(Qt::Key_F9)}},
        {"zoom-in", "view", {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)}},
        {"zoom-out", "view", {QKeySequence::ZoomOut}},
        {"zoom-reset", "view", {QKeySequence(Qt::CTRL | Qt::Key_0)}},
        {"internals", "view", {}},
        {"predict", "view", {QKeySequence(Qt::CTRL | Qt::Key_P)}},
        {"keys", "help", {QKeySequence(Qt::Key_Question)}},
        {"verdicts", "help", {}},
        {"about", "help", {}},
    };
    QMap<QString, QMenu*> menus;
    for (const char* m : {"file", "run", "view", "lessons", "help"}) {
        menus.insert(m, menuBar()->addMenu(QString()));
        menus[m]->setObjectName(QLatin1String(m));
    }
    for (const ActionSpec& spec : specs) {
        auto* action = new QAction(this);
        action->setObjectName(QLatin1String(spec.id));
        action->setShortcuts(spec.keys);
        action->setShortcutContext(Qt::WindowShortcut);
        menus[spec.menu]->addAction(action);
        addAction(action);
        actions_.insert(spec.id, action);
    }
    // File → Open recent, below Open trace.
    recent_ = new RecentTraces(remember_, this);
    menus["file"]->insertMenu(actions_["save"], recent_->menu());
    connect(recent_, &RecentTraces::openRequested, this, &MainWindow::openTraceAt);
    exports_ = new WindowExports({this, director_, playback_, lessons_, messages_}, this);
    connect(exports_, &WindowExports::errorRaised, this, &MainWindow::showError);
    connect(director_, &StageDirector::traceOpened, this, [this](const QString& path, bool opened) {
        // Not written over, even when it did not open: it may be all there is.
        exports_->protect(path);
        if (opened) {
            recent_->add(path);
            return;
        }
        // Started on a trace that does not open: the window as it would have been.
        if (!playback_->isLoaded() && !jobs_->isBusy())
            director_->fireFromPanel();
    });
    // Show or hide the side panels (a teacher may want only the live views).
    QMenu* view = menus["view"];
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setObjectName(QStringLiteral("toggle-") + dock->objectName());
        view->addAction(toggle);
    }
    actions_["toggle-scenario"] = findChild<QDockWidget*>("scenarioDock")->toggleViewAction();
    actions_["toggle-outcome"] = findChild<QDockWidget*>("outcomeDock")->toggleViewAction();
    actions_["toggle-scenario"]->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    actions_["toggle-outcome"]->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    auto* languages = new QActionGroup(this);
    for (const char* id : {"lang-zh", "lang-en"}) {
        actions_[id]->setCheckable(true);
        languages->addAction(actions_[id]);
    }
    actions_["dark"]->setCheckable(true);
    actions_["internals"]->setCheckable(true);
    actions_["predict"]->setCheckable(true);
    connect(actions_["predict"], &QAction::toggled, director_, &StageDirector::setPredictFirst);
    connect(actions_["internals"], &QAction::toggled, this, [this](bool on) {
        live_->setShowInternals(on);
        if (remember_)
            QSettings().setValue(settings::kShowInternals, on);
        director_->redraw();
    });
    // Row versions switched beside the tables: read them again.
    connect(live_, &LiveStage::tablesWanted, director_, &StageDirector::redraw);
    actions_["autoplay"]->setCheckable(true);
    actions_["autoplay"]->setChecked(playbackBar_->autoPlay());
    connect(actions_["autoplay"], &QAction::toggled, playbackBar_, &PlaybackBar::setAutoPlay);
    connect(playbackBar_, &PlaybackBar::autoPlayChanged, actions_["autoplay"],
            &QAction::setChecked);
    actions_["presenter"]->setCheckable(true);
    // One view alone: each key shows its view filling the window, and again
    // brings the whole stage back.
    const QList<QPair<const char*, SoloView::View>> solos{
        {"solo-sequence", SoloView::View::Sequence},
        {"solo-state", SoloView::View::State},
        {"solo-tables", SoloView::View::Tables},
        {"solo-compare", SoloView::View::Compare}};
    for (const auto& [id, view] : solos) {
        QAction* a = actions_[id];
        a->setCheckable(true);
        connect(a, &QAction::triggered, this, [this, view = view] { solo_->toggle(view); });
    }
    connect(solo_, &SoloView::shownChanged, this, [this, solos](SoloView::View shown) {
        for (const auto& [id, view] : solos) actions_[id]->setChecked(view == shown);
    });

    connect(actions_["open"], &QAction::triggered, this, &MainWindow::openTrace);
    // On the Workbench, Ctrl+S saves the handler, F5 checks it and Escape
    // stops the check.
    connect(actions_["save"], &QAction::triggered, this, [this] {
        if (tabs_->currentWidget() == workbench_)
            saveHandler();
        else
            saveTrace();
    });
    connect(actions_["export-png"], &QAction::triggered, this, [this] { exportDiagram(false); });
    connect(actions_["export-svg"], &QAction::triggered, this, [this] { exportDiagram(true); });
    const QList<QPair<const char*, WindowExports::Format>> runExports{
        {"export-report", WindowExports::Format::Report},
        {"export-xlsx", WindowExports::Format::Spreadsheet},
        {"export-mermaid", WindowExports::Format::Mermaid},
        {"export-plantuml", WindowExports::Format::PlantUml}};
    for (const auto& [id, format] : runExports) {
        connect(actions_[id], &QAction::triggered, exports_,
                [this, format = format] { exports_->exportRun(format); });
    }
    connect(actions_["export-handout"], &QAction::triggered, exports_,
            &WindowExports::exportHandout);
    actions_["export-handout"]->setEnabled(false);
    connect(lessons_, &LessonPlayer::activeChanged, actions_["export-handout"],
            &QAction::setEnabled);
    connect(actions_["copy-csv"], &QAction::triggered, this, &MainWindow::copyCurrentTableCsv);
    connect(actions_["quit"], &QAction::triggered, this, &QWidget::close);
    // In a lesson F5 (which many remotes send) plays the frame again, and
    // Escape brings it back: the frame's words and its run stay together.
    connect(actions_["fire"], &QAction::triggered, this, [this] {
        if (tabs_->currentWidget() == workbench_)
            workbench_->check();
        else if (lessons_->isActive())
            lessons_->replay();
        else
            director_->fireFromPanel();
    });
    // In a lesson the remote's keys step through its frames.
    connect(actions_["play"], &QAction::triggered, this, [this] {
        if (lessons_->isActive())
            lessons_->play();
        else
            playbackBar_->togglePlay();
    });
    connect(actions_["step"], &QAction::triggered, this, [this] {
        playbackBar_->stop();
        if (lessons_->isActive())
            lessons_->next();
        else
            playback_->stepForward();
    });
    connect(actions_["back"], &QAction::triggered, this, [this] {
        playbackBar_->stop();
        if (lessons_->isActive())
            lessons_->back();
        else
            playback_->stepBack();
    });
    connect(actions_["lessons"], &QAction::triggered, this, &MainWindow::chooseLesson);
    connect(actions_["open-lesson"], &QAction::triggered, this, &MainWindow::openLessonFile);
    connect(actions_["leave-lesson"], &QAction::triggered, lessons_, &LessonPlayer::stop);
    actions_["leave-lesson"]->setEnabled(false);
    connect(lessons_, &LessonPlayer::activeChanged, actions_["leave-lesson"], &QAction::setEnabled);
    connect(lessons_, &LessonPlayer::activeChanged, this, &MainWindow::updateEnabled);
    // The remote's Page Down goes on to the next frame on the Workbench page too.
    connect(lessons_, &LessonPlayer::activeChanged, workbench_->editor(),
            &HandlerEditor::setPassPageKeys);
    connect(actions_["reset"], &QAction::triggered, this, [this] {
        playbackBar_->stop();
        playback_->reset();
    });
    connect(actions_["end"], &QAction::triggered, this, [this] {
        playbackBar_->stop();
        playback_->requestSeek(playback_->length());
    });
    connect(actions_["cancel"], &QAction::triggered, this, [this] {
        // Escape also ends a play that leaps or runs to the next turn.
        playbackBar_->stop();
        if (tabs_->currentWidget() == workbench_ && workbench_->isChecking()) {
            workbench_->cancel();
            return;
        }
        if (!lessons_->isActive()) {
            jobs_->cancel();
            return;
        }
        // Said for a while: the frame is soon there, and then it is not news.
        if (lessons_->arriving())
            messages_->showMessage(tr("The frame's run is on its way: it goes on. Page Down or "
                                      "Page Up moves to another frame."),
                                   kSaidForMs);
        lessons_->restoreFrame();
    });
    // The status line's Cancel button is Escape's: in a lesson it too keeps
    // the frame's run under its words.
    disconnect(jobs_->cancelButton(), &QPushButton::clicked, jobs_, &RunController::cancel);
    connect(jobs_->cancelButton(), &QPushButton::clicked, actions_["cancel"], &QAction::trigger);
    connect(actions_["next-turn"], &QAction::triggered, playbackBar_, &PlaybackBar::playToNextTurn);
    actions_["cancel"]->setEnabled(false);
    connect(actions_["faster"], &QAction::triggered, playbackBar_, &PlaybackBar::faster);
    connect(actions_["slower"], &QAction::triggered, playbackBar_, &PlaybackBar::slower);
    // Ctrl+K goes to Compare and back to the run on screen.
    connect(actions_["compare"], &QAction::triggered, this,
            [this] { showTab(tabs_->currentWidget() == compare_ ? playbackTab() : compare_); });
    const QList<QPair<const char*, QWidget*>> tabActions{{"tab-live", live_},
                                                         {"tab-compare", compare_},
                                                         {"tab-pagination", pagination_},
                                                         {"tab-experiment", experiment_},
                                                         {"tab-workbench", workbench_}};
    for (const auto& [id, page] : tabActions) {
        connect(actions_[id], &QAction::triggered, this, [this, page = page] { showTab(page); });
    }
    connect(actions_["tab-next"], &QAction::triggered, this, [this] { stepTab(+1); });
    connect(actions_["tab-previous"], &QAction::triggered, this, [this] { stepTab(-1); });
    connect(actions_["keys"], &QAction::triggered, keysOverlay_, &KeysOverlay::toggle);
    connect(actions_["blank"], &QAction::triggered, blank_, &BlankCover::toggle);
    connect(actions_["verdicts"], &QAction::triggered, this, [this] {
        auto* glossary = new VerdictGlossary(this);
        glossary->setAttribute(Qt::WA_DeleteOnClose);
        glossary->show();
    });
    connect(actions_["advisor"], &QAction::triggered, this, [this] {
        AdvisorDialog dialog(this);
        connect(&dialog, &AdvisorDialog::openScenario, this,
                [this](const QString& scenario, const QString& variant) {
                    const Scenario* s = findScenario(scenario);
                    if (!s)
                        return;
                    RunConfig c = defaultConfig(*s);
                    if (s->info().variant(variant))
                        c.variant = variant;
                    QString error;
                    if (!fire(c, &error))
                        showError(tr("Cannot run this configuration"), error);
                });
        dialog.exec();
    });
    connect(actions_["lang-zh"], &QAction::triggered, this, [this] { setLanguage("zh"); });
    connect(actions_["lang-en"], &QAction::triggered, this, [this] { setLanguage("en"); });
    auto look = [] {
        return currentAppearance();
    };
    connect(actions_["dark"], &QAction::triggered, this,
            [this, look](bool on) { setTheme(on, look().presenter, look().zoomPercent); });
    connect(actions_["presenter"], &QAction::triggered, this,
            [this, look](bool on) { setTheme(look().dark, on, look().zoomPercent); });
    connect(actions_["zoom-in"], &QAction::triggered, this,
            [this, look] { setTheme(look().dark, look().presenter, look().zoomPercent + 10); });
    connect(actions_["zoom-out"], &QAction::triggered, this,
            [this, look] { setTheme(look().dark, look().presenter, look().zoomPercent - 10); });
    connect(actions_["zoom-reset"], &QAction::triggered, this,
            [this, look] { setTheme(look().dark, look().presenter, 100); });
    connect(actions_["about"], &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About Idempotency Lab"),
            tr("<h3>Idempotency Lab 幂等实验室</h3><p>Fire duplicate requests at real "
               "SQL on a real SQLite database and watch which techniques keep the "
               "business effect exactly once.</p>") +
                tr("<p>Version %1</p>").arg(QLatin1String(kVersion)) +
                tr("<p>Free software under the MIT licence.</p>"));
    });
    retranslate();
}

void MainWindow::retranslate() {
    updateTitle();
    const QMap<QString, QString> menuTitles{{"file", tr("&File")},
                                            {"run", tr("&Run")},
                                            {"view", tr("&View")},
                                            {"lessons", tr("G&uided lessons")},
                                            {"help", tr("&Help")}};
    for (QMenu* m : menuBar()->findChildren<QMenu*>()) {
        if (menuTitles.contains(m->objectName()))
            m->setTitle(menuTitles[m->objectName()]);
    }
    const QMap<QString, QPair<QString, QString>> texts{
        {"open", {tr("&Open trace…"), tr("Open a saved trace and replay it")}},
        {"save", {tr("&Save trace…"), tr("Save the whole run as a JSON trace")}},
        {"export-png",
         {tr("Export diagram as &PNG…"), tr("The state or sequence diagram on screen")}},
        {"export-svg",
         {tr("Export diagram as S&VG…"), tr("The state or sequence diagram on screen")}},
        {"export-report",
         {tr("Export &HTML report…"),
          tr("The whole run as one page to hand in: settings, outcome, both diagrams, every "
             "event (as idemlab export --format html)")}},
        {"export-xlsx",
         {tr("Export events as sprea&dsheet…"),
          tr("Every event as a row of an .xlsx workbook that LibreOffice and Excel open with "
             "every character right, and the run's settings on a second sheet (as idemlab "
             "export --format xlsx)")}},
        {"export-mermaid",
         {tr("Export sequence diagram as &Mermaid…"),
          tr("The whole run's sequence diagram as Mermaid text, for Markdown and slides")}},
        {"export-plantuml",
         {tr("Export sequence diagram as Plant&UML…"),
          tr("The whole run's sequence diagram as PlantUML text")}},
        {"export-handout",
         {tr("Export lesson hand-ou&t…"),
          tr("The lesson on screen as a page to print: every frame, its diagrams and "
             "questions, the answers at the end")}},
        {"copy-csv",
         {tr("&Copy the table in front as CSV"), tr("Right-click any table for its own copy")}},
        {"quit", {tr("&Quit"), {}}},
        {"fire", {tr("&Fire"), tr("Run the fire panel's settings")}},
        {"play", {tr("&Play / pause"), {}}},
        {"step", {tr("S&tep"), {}}},
        {"back", {tr("Step &back"), {}}},
        {"reset", {tr("&Reset"), {}}},
        {"end", {tr("Run to the &end"), {}}},
        {"next-turn",
         {tr("Play to the ne&xt turn"),
          tr("Play on and stop after the next step that matters: a crash, a refusal, an answer "
             "other than success, a retry, an alert (Ctrl+Right)")}},
        {"cancel",
         {tr("Stop the &work in progress"),
          tr("Stop the run being measured, played to a step, compared or saved")}},
        {"faster", {tr("F&aster"), {}}},
        {"slower", {tr("&Slower"), {}}},
        {"autoplay",
         {tr("Auto-pla&y after Fire"), tr("Play each fired run by itself at the chosen speed")}},
        {"compare", {tr("&Compare two variants"), tr("Compare ↔ the run on screen")}},
        {"tab-live", {tr("&Live run"), {}}},
        {"tab-compare", {tr("Co&mpare"), {}}},
        {"tab-pagination", {tr("Pa&gination"), {}}},
        {"tab-experiment", {tr("E&xperiment"), {}}},
        {"tab-workbench", {tr("&Workbench"), {}}},
        {"tab-next", {tr("Next ta&b"), {}}},
        {"tab-previous", {tr("Previous t&ab"), {}}},
        {"keys", {tr("&Keyboard shortcuts"), tr("Every key the window obeys (?)")}},
        {"verdicts",
         {tr("The six &verdicts"),
          tr("What exactly once, duplicated, inconsistent, misanswered, lost and stuck mean")}},
        {"lang-zh", {QStringLiteral("中文"), {}}},
        {"lang-en", {QStringLiteral("English"), {}}},
        {"dark", {tr("&Dark theme"), {}}},
        {"presenter", {tr("&Presenter mode (large, high contrast)"), {}}},
        {"blank",
         {tr("Blan&k the screen"),
          tr("A black screen over the whole window, as presentation programs give (B or .); "
             "the same key or any other brings the stage back")}},
        {"solo-sequence",
         {tr("Sequence diagram alone"),
          tr("The sequence diagram fills the window; F6 again brings the whole stage back")}},
        {"solo-state",
         {tr("State diagram alone"),
          tr("The state diagram fills the window; F7 again brings the whole stage back")}},
        {"solo-tables",
         {tr("Tables alone"),
          tr("The tables fill the window; F8 again brings the whole stage back")}},
        {"solo-compare",
         {tr("Compare alone"), tr("Compare fills the window; F9 again brings it all back")}},
        {"zoom-in", {tr("Zoom &in"), {}}},
        {"zoom-out", {tr("Zoom &out"), {}}},
        {"zoom-reset", {tr("&Normal size"), {}}},
        {"internals",
         {tr("Show the lab's internal&s"),
          tr("The set-up before the first attempt, and the lab's own helpers (an observer "
             "that copies rows, its copies)")}},
        {"about", {tr("A&bout"), {}}},
        {"predict",
         {tr("P&redict first"),
          tr("Fire asks the class for the verdict first; the outcome stays hidden until the end "
             "(Ctrl+P)")}},
        {"lessons",
         {tr("&Choose a lesson…"),
          tr("Narrated lessons of the article, driven by Page Down and Page Up (F2)")}},
        {"open-lesson",
         {tr("&Open a lesson file…"), tr("A lesson of your own, checked before it opens")}},
        {"leave-lesson", {tr("&Leave the lesson"), tr("Back to free play (Shift+F2)")}},
        {"advisor",
         {tr("Design &advisor: ask these questions first…"),
          tr("Six questions that pick the techniques for your own case")}},
    };
    if (jobs_)
        jobs_->retranslate();
    if (recent_)
        recent_->retranslate();
    if (exports_)
        exports_->setLanguage(language_);
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        if (QAction* a = actions_.value(it.key())) {
            a->setText(it.value().first);
            a->setToolTip(it.value().second.isEmpty() ? it.value().first : it.value().second);
            a->setStatusTip(it.value().second);
        }
    }
    if (tabs_) {
        tabs_->setTabText(0, tr("Live 实时"));
        tabs_->setTabText(1, tr("Compare 对比"));
        tabs_->setTabText(2, tr("Pagination 分页"));
        tabs_->setTabText(3, tr("Experiment 压力实验"));
        tabs_->setTabText(4, tr("Workbench 工作台"));
    }
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        if (d->objectName() == QLatin1String("scenarioDock"))
            d->setWindowTitle(tr("Scenario and fire panel"));
        if (d->objectName() == QLatin1String("outcomeDock"))
            d->setWindowTitle(tr("Outcome and explanation"));
        // Qt names its own title buttons once, in the language of that moment.
        for (QAbstractButton* b : d->findChildren<QAbstractButton*>()) {
            // Their descriptions in Qt's own words and translations.
            if (b->objectName() == QLatin1String("qt_dockwidget_closebutton")) {
                b->setAccessibleName(tr("Close the panel %1").arg(d->windowTitle()));
                b->setAccessibleDescription(
                    QCoreApplication::translate("QDockWidget", "Closes the dock widget"));
            }
            if (b->objectName() == QLatin1String("qt_dockwidget_floatbutton")) {
                b->setAccessibleName(tr("Detach or re-attach the panel %1").arg(d->windowTitle()));
                b->setAccessibleDescription(QCoreApplication::translate(
                    "QDockWidget", "Undocks and re-attaches the dock widget"));
            }
        }
    }
    // The » buttons Qt shows when a bar has no room for all it holds.
    for (QAbstractButton* b : findChildren<QAbstractButton*>()) {
        if (b->objectName() == QLatin1String("qt_toolbar_ext_button") ||
            b->objectName() == QLatin1String("qt_menubar_ext_button")) {
            b->setAccessibleName(tr("More of this bar"));
        }
    }
    if (tabs_)
        tabs_->setAccessibleName(tr("Pages: live run, compare, pagination, experiment, workbench"));
    if (workbench_)
        workbench_->setLanguage(language_);
    if (auto* outcome = findChild<QWidget*>(QStringLiteral("outcomeScroll")))
        outcome->setAccessibleName(tr("Outcome"));
    if (auto* lesson = findChild<QWidget*>(QStringLiteral("lessonScroll")))
        lesson->setAccessibleName(tr("Lesson"));
    // Diagram labels and lane names are drawn in the language of the moment:
    // draw them again now rather than at the next step.
    if (director_)
        director_->redraw();
    if (lessons_)
        lessons_->retell();
    showVerdict();
}

}  // namespace idem
