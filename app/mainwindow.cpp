#include "mainwindow.h"

#include "advisordialog.h"
#include "appearance.h"
#include "blankcover.h"
#include "challengescenario.h"
#include "compareview.h"
#include "diagramexport.h"
#include "experimentview.h"
#include "explanationview.h"
#include "firepanel.h"
#include "floatingstatus.h"
#include "keysoverlay.h"
#include "lessonpanel.h"
#include "lessonplayer.h"
#include "livestage.h"
#include "locksview.h"
#include "names.h"
#include "outcomepanel.h"
#include "paginationview.h"
#include "playback.h"
#include "playbackbar.h"
#include "playbackkeys.h"
#include "redisview.h"
#include "registry.h"
#include "run.h"
#include "runcontroller.h"
#include "scenariopicker.h"
#include "sequenceview.h"
#include "settings.h"
#include "soloview.h"
#include "sqlconnection.h"
#include "sqllogmodel.h"
#include "sqllogview.h"
#include "stagedirector.h"
#include "stageheader.h"
#include "stagehints.h"
#include "stagelayout.h"
#include "statemachineview.h"
#include "stepcaption.h"
#include "tablemodel.h"
#include "tableview.h"
#include "texts.h"
#include "windowexports.h"
#include "workbenchview.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace idem {

namespace {

// The remembered theme (or the default), applied before the window itself is
// built: every widget is made in its style, palette and font once, not
// polished again for it when the window is all there. Returns `parent`.
QWidget* inRememberedLook(bool remember, QWidget* parent) {
    Appearance look;
    if (remember) {
        QSettings s;
        look.dark = s.value(settings::kDark, false).toBool();
        look.presenter = s.value(settings::kPresenter, false).toBool();
        look.zoomPercent = std::clamp(s.value(settings::kZoom, 100).toInt(), 50, 300);
    }
    if (!isApplied(look))
        applyAppearance(look);
    return parent;
}

}  // namespace

MainWindow::MainWindow(bool remember, QWidget* parent)
    : QMainWindow(inRememberedLook(remember, parent)),
      remember_(remember),
      playback_(new Playback(this)) {
    setObjectName(QStringLiteral("MainWindow"));
    // A workbench's trace names its challenge, and a lesson may show one
    // (main() does this too; here for the window's tests).
    registerChallengeScenarios();
    // The language first: every widget is built in it, and nothing needs
    // telling again (no LanguageChange to every widget at start-up).
    QString language = QLocale::system().language() == QLocale::Chinese ? "zh" : "en";
    if (remember_)
        language = QSettings().value(settings::kLanguage, language).toString();
    installLanguage(language);
    buildViews();
    keys_ = new PlaybackKeys(this);
    keysOverlay_ = new KeysOverlay(this);
    blank_ = new BlankCover(this);
    messages_ = new FloatingStatus(this, centralWidget());
    jobs_ = new RunController(messages_, this);
    director_ = new StageDirector(
        {playback_, jobs_, messages_, picker_, firePanel_, playbackBar_, tabs_, live_, pagination_,
         compare_, experiment_, caption_, header_, outcome_, explanation_, lessons_},
        this);
    connect(director_, &StageDirector::heldChanged, this, &MainWindow::updateEnabled);
    connect(director_, &StageDirector::errorRaised, this, &MainWindow::showError);
    connect(director_, &StageDirector::playbackTabWanted, this, [this] { showTab(playbackTab()); });
    connect(director_, &StageDirector::shownTraceChanged, this, [this](const QString& path) {
        shownTrace_ = path;
        updateTitle();
    });
    connect(director_, &StageDirector::outcomeWithheldChanged, this,
            &MainWindow::setOutcomeWithheld);
    // The caption's hint names the lesson's keys only while one plays.
    connect(lessons_, &LessonPlayer::activeChanged, director_, &StageDirector::updateCaption);
    connect(firePanel_, &FirePanel::fireRequested, director_, &StageDirector::fireFromPanel);
    buildMenus();
    connectWorkbench();
    connect(jobs_, &RunController::busyChanged, this, &MainWindow::updateEnabled);

    const Appearance look = currentAppearance();
    QString scenario = allScenarios().first()->info().id;
    if (remember_) {
        QSettings s;
        if (!restoreGeometry(s.value(settings::kGeometry).toByteArray())) {
            // First start: most of the screen, centred; a screen of a
            // projector's size (1280x720, 1366x768) is the window's whole.
            const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
            const bool small = screen.width() < 1600 || screen.height() < 900;
            resize(small ? screen.size() : screen.size() * 0.85);
            move(screen.center() - rect().center());
            if (small)
                setWindowState(windowState() | Qt::WindowMaximized);
        }
        restoreState(s.value(settings::kWindowState).toByteArray());
        scenario = s.value(settings::kScenario, scenario).toString();
        playbackBar_->setSpeedIndex(s.value(settings::kSpeed, PlaybackBar::kNormalSpeed).toInt());
        playbackBar_->setAutoPlay(s.value(settings::kAutoPlay, false).toBool());
        actions_["internals"]->setChecked(s.value(settings::kShowInternals, false).toBool());
        connect(playbackBar_, &PlaybackBar::speedChanged, this,
                [](int index) { QSettings().setValue(settings::kSpeed, index); });
        connect(playbackBar_, &PlaybackBar::autoPlayChanged, this,
                [](bool on) { QSettings().setValue(settings::kAutoPlay, on); });
    }
    setTheme(look.dark, look.presenter, look.zoomPercent);
    retranslate();
    actions_["lang-zh"]->setChecked(language_ == QLatin1String("zh"));
    actions_["lang-en"]->setChecked(language_ == QLatin1String("en"));
    if (!findScenario(scenario))
        scenario = allScenarios().first()->info().id;
    picker_->selectScenario(scenario);
    // The first scenario's panel now; its explanation and its run right
    // after the window's first paint (see event()).
    firstFirePending_ = true;
    explanation_->setHeld(true);
    selectScenario(scenario);
    tabChanged();
}

bool MainWindow::event(QEvent* event) {
    const bool done = QMainWindow::event(event);
    if (event->type() == QEvent::Paint && firstFirePending_) {
        firstFirePending_ = false;
        QTimer::singleShot(0, this, [this] { explanation_->setHeld(false); });
        QTimer::singleShot(0, this, [this] {
            // Unless something was fired meanwhile.
            if (!playback_->isLoaded() && !jobs_->isBusy())
                director_->fireFromPanel();
        });
        // A student alone, the first time: where to begin.
        if (remember_ && !QSettings().value(settings::kFirstLessonOffered, false).toBool()) {
            QSettings().setValue(settings::kFirstLessonOffered, true);
            QTimer::singleShot(kFirstOfferDelayMs, this, &MainWindow::offerFirstLesson);
        }
    }
    return done;
}

MainWindow::~MainWindow() {
    // Gone without a close (a test, `idemlab shot`): the job in progress
    // stops, and goes with what it held, while all it could report to is here.
    jobs_->abandon();
    // So does a check on the Workbench page, before the tabs it reports to go.
    if (workbench_)
        workbench_->stop();
}

WorkbenchView* MainWindow::workbenchView() const {
    return workbench_;
}

QStringList MainWindow::viewNames() {
    return {"overview", "dedup", "state", "sequence",   "sql",     "outcome",    "compare",
            "tables",   "locks", "redis", "pagination", "advisor", "experiment", "workbench"};
}

void MainWindow::buildViews() {
    picker_ = new ScenarioPicker(this);
    firePanel_ = new FirePanel(this);
    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(picker_);
    left->addWidget(firePanel_);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setChildrenCollapsible(false);
    auto* leftDock = new QDockWidget(this);
    leftDock->setObjectName(QStringLiteral("scenarioDock"));
    leftDock->setWidget(left);
    leftDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                          QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, leftDock);

    outcome_ = new OutcomePanel(this);
    explanation_ = new ExplanationView(this);
    // The outcome scrolls rather than being cut off on small screens.
    auto* outcomeScroll = new QScrollArea(this);
    outcomeScroll->setObjectName(QStringLiteral("outcomeScroll"));
    outcomeScroll->setWidget(outcome_);
    outcomeScroll->setWidgetResizable(true);
    outcomeScroll->setFrameShape(QFrame::NoFrame);
    // A lesson's narration sits on top while a lesson plays (LessonPlayer).
    lessonPanel_ = new LessonPanel(this);
    auto* lessonScroll = new QScrollArea(this);
    lessonScroll->setObjectName(QStringLiteral("lessonScroll"));
    lessonScroll->setWidget(lessonPanel_);
    lessonScroll->setWidgetResizable(true);
    lessonScroll->setFrameShape(QFrame::NoFrame);
    lessonScroll->hide();
    auto* right = new QSplitter(Qt::Vertical, this);
    right->setObjectName(QStringLiteral("rightSplitter"));
    right->addWidget(lessonScroll);
    right->addWidget(outcomeScroll);
    right->addWidget(explanation_);
    right->setChildrenCollapsible(false);
    right->setSizes({0, 450, 550});
    auto* rightDock = new QDockWidget(this);
    rightDock->setObjectName(QStringLiteral("outcomeDock"));
    rightDock->setWidget(right);
    rightDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                           QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, rightDock);

    live_ = new LiveStage(this);
    compare_ = new CompareView(this);
    pagination_ = new PaginationView(this);
    experiment_ = new ExperimentView(this);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("pages"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(live_, QString());
    tabs_->addTab(compare_, QString());
    tabs_->addTab(pagination_, QString());
    tabs_->addTab(experiment_, QString());
    workbench_ = new WorkbenchView(remember_, this);
    tabs_->addTab(workbench_, QString());
    caption_ = new StepCaption(this);
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(tabs_, 1);
    centreLayout->addWidget(caption_);
    setCentralWidget(centre);

    header_ = new StageHeader(this);
    auto* headerBar = new QToolBar(this);
    headerBar->setObjectName(QStringLiteral("stageBar"));
    headerBar->setMovable(false);
    headerBar->setFloatable(false);
    headerBar->addWidget(header_);
    addToolBar(Qt::TopToolBarArea, headerBar);

    playbackBar_ = new PlaybackBar(*playback_, this);
    auto* bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("playbackBar"));
    bar->setMovable(false);
    bar->setFloatable(false);
    bar->addWidget(playbackBar_);
    addToolBar(Qt::BottomToolBarArea, bar);

    stage_ = new StageLayout(
        this, {headerBar, header_, leftDock, rightDock, outcome_, live_, tabs_, pagination_},
        remember_);
    solo_ = new SoloView(this, {live_, compare_, tabs_, {leftDock, rightDock}}, remember_);

    connect(picker_, &ScenarioPicker::scenarioSelected, this, &MainWindow::selectScenario);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::tabChanged);
    connect(outcome_, &OutcomePanel::verdictShown, this,
            [this](const QString& text, const QColor& background, const QColor& foreground) {
                verdictText_ = text;
                verdictBackground_ = background;
                verdictForeground_ = foreground;
                showVerdict();
            });
    lessons_ = new LessonPlayer(this, lessonPanel_);
    auto fastPlay = [this] {
        const bool fast = playbackBar_->isPlaying() && playbackBar_->stepMs() == 0;
        live_->setFastPlay(fast, playback_->reader(), playback_->writer());
        // Two thirds of an interval on: not in the state diagram's frame
        // (LiveStage::setFastPlay).
        outcome_->setRedrawInterval(fast ? LiveStage::kFastRedrawMs : 0,
                                    2 * LiveStage::kFastRedrawMs / 3);
    };
    connect(playbackBar_, &PlaybackBar::playingChanged, this, fastPlay);
    // Escape stops a worker's job, and also a play between two of its leaps.
    connect(playbackBar_, &PlaybackBar::playingChanged, this, [this] {
        if (QAction* cancel = actions_.value("cancel"))
            cancel->setEnabled(jobs_->isBusy() || playbackBar_->isPlaying() ||
                               workbench_->isChecking());
    });
    connect(playbackBar_, &PlaybackBar::speedChanged, this, fastPlay);
}

PaginationView* MainWindow::paginationView() const {
    pagination_->build();
    return pagination_;
}

QWidget* MainWindow::liveView() const {
    return live_;
}

DatabaseTableView* MainWindow::guardTable() const {
    return live_->guardTable() ? live_->guardTable() : live_->tables().value(0);
}

StateMachineView* MainWindow::stateView() const {
    return live_->stateView();
}

SequenceView* MainWindow::sequenceView() const {
    return live_->sequenceView();
}

SqlLogModel* MainWindow::sqlLog() const {
    return live_->sqlLogModel();
}

QWidget* MainWindow::playbackTab() const {
    return tabs_->isTabVisible(tabs_->indexOf(pagination_)) ? static_cast<QWidget*>(pagination_)
                                                            : live_;
}

void MainWindow::showTab(QWidget* page) {
    if (!tabs_->isTabVisible(tabs_->indexOf(page)))
        return;
    tabs_->setCurrentWidget(page);
    // A page chosen from the keyboard takes the focus (its first control), so
    // that Tab, Enter and Space act on it next; the live run needs none, its
    // playback keys act from anywhere.
    if (page == live_ || page->isAncestorOf(QApplication::focusWidget()))
        return;
    QWidget* w = page;
    do {
        w = w->nextInFocusChain();
    } while (w != page && !(page->isAncestorOf(w) && w->isVisible() && w->isEnabled() &&
                            (w->focusPolicy() & Qt::TabFocus)));
    if (w != page)
        w->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::stepTab(int by) {
    const int n = tabs_->count();
    for (int i = 1; i < n; ++i) {
        const int index = ((tabs_->currentIndex() + by * i) % n + n) % n;
        if (tabs_->isTabVisible(index)) {
            tabs_->setCurrentIndex(index);
            return;
        }
    }
}

void MainWindow::updateTitle() {
    const QString lab = tr("Idempotency Lab 幂等实验室");
    QString file = shownTrace_;
    if (workbench_ && tabs_ && tabs_->currentWidget() == workbench_)
        file = workbench_->handlerPath();
    // "—" as desktop programs put a document's name before their own.
    setWindowTitle(file.isEmpty() ? lab : QFileInfo(file).fileName() + QStringLiteral(" — ") + lab);
}

void MainWindow::tabChanged() {
    updateTitle();
    if (tabs_->currentWidget() == compare_ && compare_->ranOn().scenario.isEmpty())
        compare_->requestCompare();
    if (tabs_->currentWidget() == workbench_)
        markCounterexampleStatement();
    // What the stage's step did says nothing about the handler in the editor.
    caption_->setVisible(tabs_->currentWidget() != workbench_);
    updateEnabled();
}

void MainWindow::updateEnabled() {
    // The playback keys drive the run only where it is on screen: elsewhere
    // (Compare, Experiment) Space and the arrows belong to the page's own
    // widgets. While a worker holds the run, the bar waits, but the keys
    // still count: a step, a step back, Home or End pressed meanwhile is
    // carried out once the run is back (Playback::takeQueued), and Space
    // pauses a play whose step the worker is taking.
    const bool onStage = tabs_->currentWidget() == live_ || tabs_->currentWidget() == pagination_;
    const bool held = director_ && director_->isHeld();
    const bool playing = onStage && !held;
    for (const char* id : {"play", "step", "back", "reset", "end", "faster", "slower"}) {
        if (QAction* a = actions_.value(id))
            a->setEnabled(onStage);
    }
    // In a lesson they go through its frames, on every page a frame shows
    // (the Workbench's editor keeps its arrows and Space: HandlerEditor).
    if (lessons_ && lessons_->isActive()) {
        for (const char* id : {"play", "step", "back"}) {
            if (QAction* a = actions_.value(id))
                a->setEnabled(true);
        }
    }
    if (QAction* a = actions_.value("next-turn"))
        a->setEnabled(playing);
    // What plays the run to its end and writes it waits only for a worker.
    for (const char* id :
         {"save", "export-report", "export-xlsx", "export-mermaid", "export-plantuml"}) {
        if (QAction* a = actions_.value(id))
            a->setEnabled(!held);
    }
    playbackBar_->setEnabled(playing);
    if (!playing)
        playbackBar_->pause();
    // Escape stops a worker's job, and also a play between two of its leaps.
    if (QAction* cancel = actions_.value("cancel"))
        cancel->setEnabled(jobs_->isBusy() || playbackBar_->isPlaying() ||
                           (workbench_ && workbench_->isChecking()));
}

void MainWindow::selectScenario(const QString& id) {
    const Scenario* scenario = findScenario(id);
    if (!scenario)
        return;
    firePanel_->setScenario(*scenario);
    explanation_->showFor(firePanel_->config());
    if (remember_)
        QSettings().setValue(settings::kScenario, id);
    if (firstFirePending_ && !isVisible())
        return;  // the constructor's choice: it runs after the first paint
    firstFirePending_ = false;
    director_->fireFromPanel();
}

bool MainWindow::fire(const RunConfig& config, QString* error, RunFailure* failure) {
    return director_->fire(config, error, failure);
}

void MainWindow::fireInBackground(const RunConfig& config) {
    director_->fireInBackground(config);
}

QWidget* MainWindow::viewWidget(const QString& name) {
    if (name == QLatin1String("overview"))
        return this;
    if (name == QLatin1String("dedup"))
        return guardTable();
    if (name == QLatin1String("state"))
        return live_->stateView();
    if (name == QLatin1String("sequence"))
        return live_->sequenceView();
    if (name == QLatin1String("sql"))
        return live_->sqlLog();
    if (name == QLatin1String("outcome"))
        return outcome_->parentWidget();
    if (name == QLatin1String("tables"))
        return live_->tableTabs();
    if (name == QLatin1String("locks")) {
        live_->tableTabs()->setCurrentWidget(live_->locksView());
        return live_->tableTabs();
    }
    if (name == QLatin1String("redis")) {
        live_->tableTabs()->setCurrentWidget(live_->redisView());
        return live_->tableTabs();
    }
    if (name == QLatin1String("advisor"))
        return new AdvisorDialog(this);
    if (name == QLatin1String("workbench")) {
        tabs_->setCurrentWidget(workbench_);
        // The picture shows a check's result on the run's database (shot
        // --backend): the starter fails.
        workbench_->chooseDatabase(playback_->config().backend, playback_->config().isolation);
        workbench_->checkNow();
        return workbench_;
    }
    if (name == QLatin1String("experiment")) {
        tabs_->setCurrentWidget(experiment_);
        experiment_->runNow();
        return experiment_;
    }
    if (name == QLatin1String("pagination")) {
        tabs_->setCurrentWidget(pagination_);
        return paginationView();
    }
    if (name == QLatin1String("compare")) {
        tabs_->setCurrentWidget(compare_);
        compare_->compare();
        return compare_;
    }
    return nullptr;
}

void MainWindow::installLanguage(const QString& code) {
    language_ = code == QLatin1String("zh") ? QStringLiteral("zh") : QStringLiteral("en");
    setCurrentLanguage(language_ == QLatin1String("zh") ? Language::Chinese : Language::English);
    QApplication::removeTranslator(&translator_);
    QApplication::removeTranslator(&qtTranslator_);
    if (language_ == QLatin1String("zh")) {
        if (translator_.load(QStringLiteral(":/i18n/idemlab_zh_CN.qm"))) {
            QApplication::installTranslator(&translator_);
        }
        if (qtTranslator_.load(QStringLiteral("qtbase_zh_CN"),
                               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QApplication::installTranslator(&qtTranslator_);
        }
    }
}

void MainWindow::setLanguage(const QString& code) {
    installLanguage(code);
    if (remember_)
        QSettings().setValue(settings::kLanguage, language_);
    // Installing a translator sends LanguageChange to every widget; with none
    // installed (English) send it ourselves.
    QEvent change(QEvent::LanguageChange);
    for (QWidget* w : QApplication::allWidgets()) QApplication::sendEvent(w, &change);
    if (actions_.contains("lang-zh")) {
        actions_["lang-zh"]->setChecked(language_ == QLatin1String("zh"));
        actions_["lang-en"]->setChecked(language_ == QLatin1String("en"));
    }
}

void MainWindow::setTheme(bool dark, bool presenter, int zoomPercent) {
    if (const Appearance look{dark, presenter, std::clamp(zoomPercent, 50, 300)}; !isApplied(look))
        applyAppearance(look);
    // Zoomed in, the diagram is asked to be larger: it scrolls rather than shrink.
    live_->stateView()->setShrinkToFit(zoomPercent <= 100);
    stage_->apply(presenter);
    QTimer::singleShot(0, stage_, &StageLayout::keepOnScreen);
    if (remember_) {
        QSettings s;
        s.setValue(settings::kDark, dark);
        s.setValue(settings::kPresenter, presenter);
        s.setValue(settings::kZoom, zoomPercent);
    }
    if (actions_.contains("dark")) {
        actions_["dark"]->setChecked(dark);
        actions_["presenter"]->setChecked(presenter);
    }
    // Diagrams pick colours from the palette when they draw.
    if (director_)
        director_->redraw();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Closed, quit or logged out of while something runs in the background:
    // no play goes on to start more, the job in progress stops at its next
    // step and hands back the run it held, and an experiment stops too,
    // before the window goes. Closing waits only for that step.
    playbackBar_->stop();
    jobs_->cancelNow();
    experiment_->stop();
    workbench_->stop();
    if (remember_) {
        QSettings s;
        s.setValue(settings::kGeometry, saveGeometry());
        s.setValue(settings::kWindowState, saveState());
    }
    event->accept();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::showError(const QString& title, const QString& message) {
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
        messages_->showMessage(message);
        return;
    }
    QMessageBox::warning(this, title, message);
}

}  // namespace idem
