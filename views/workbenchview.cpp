#include "workbenchview.h"

#include "attack.h"
#include "challenge.h"
#include "handlereditor.h"
#include "handlerlocation.h"
#include "names.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJSEngine>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QVBoxLayout>

namespace idem {

namespace {

const QString kChallengeKey = QStringLiteral("workbench/challenge");
QString stateKey(const QString& id, const QString& backend) {
    return QStringLiteral("workbench/state/%1/%2").arg(id, backend);
}
QString hintsKey(const QString& id) {
    return QStringLiteral("workbench/hints/%1").arg(id);
}

constexpr int kParseAfterMs = 350;  // the editor compiles once typing pauses

}  // namespace

WorkbenchView::WorkbenchView(bool remember, QWidget* parent)
    : QWidget(parent),
      remember_(remember),
      split_(new QSplitter(Qt::Horizontal, this)),
      ladderTitle_(new QLabel(this)),
      ladder_(new QListWidget(this)),
      title_(new QLabel(this)),
      story_(new QLabel(this)),
      hint_(new QPushButton(this)),
      hints_(new QLabel(this)),
      file_(new QLabel(this)),
      save_(new QPushButton(this)),
      starter_(new QPushButton(this)),
      editor_(new HandlerEditor(this)),
      problem_(new QLabel(this)),
      check_(new QPushButton(this)),
      cancel_(new QPushButton(this)),
      backend_(new QComboBox(this)),
      isolation_(new QComboBox(this)),
      redis_(new QCheckBox(this)),
      boundLabel_(new QLabel(this)),
      bound_(new QSpinBox(this)),
      progress_(new QProgressBar(this)),
      progressText_(new QLabel(this)),
      results_(new QTableWidget(0, 6, this)),
      detail_(new QLabel(this)),
      step_(new QPushButton(this)),
      watcher_(new QFileSystemWatcher(this)) {
    // Made when a handler is first saved: a window that only looks
    // (`idemlab shot`) leaves nothing behind.
    if (remember_) {
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        if (!data.isEmpty())
            folder_ = QDir(data).filePath(QStringLiteral("workbench"));
    }

    // Left: the ladder, then the chosen challenge's story and hints.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    QFont bold = ladderTitle_->font();
    bold.setBold(true);
    ladderTitle_->setFont(bold);
    leftLayout->addWidget(ladderTitle_);
    ladder_->setTabKeyNavigation(false);
    // A long title ends in "…" (its tooltip says it whole) rather than give
    // the ladder a sideways scroll bar, which on a projector hides a row.
    ladder_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    ladder_->setTextElideMode(Qt::ElideRight);
    ladderTitle_->setBuddy(ladder_);
    leftLayout->addWidget(ladder_, 2);
    auto* storyBox = new QWidget(this);
    auto* storyLayout = new QVBoxLayout(storyBox);
    storyLayout->setContentsMargins(0, 0, 0, 0);
    title_->setWordWrap(true);
    title_->setFont(bold);
    story_->setWordWrap(true);
    story_->setTextFormat(Qt::RichText);
    story_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    story_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    hints_->setWordWrap(true);
    hints_->setTextFormat(Qt::RichText);
    hints_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    storyLayout->addWidget(title_);
    storyLayout->addWidget(story_);
    storyLayout->addWidget(hints_);
    storyLayout->addStretch(1);
    auto* storyScroll = new QScrollArea(this);
    storyScroll->setObjectName(QStringLiteral("workbenchStory"));
    storyScroll->setWidget(storyBox);
    storyScroll->setWidgetResizable(true);
    storyScroll->setFrameShape(QFrame::NoFrame);
    storyScroll->setFocusPolicy(Qt::NoFocus);
    leftLayout->addWidget(storyScroll, 5);
    leftLayout->addWidget(hint_);

    // Right: the handler's file and editor, Check, the results.
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 0, 0, 0);
    auto* fileRow = new QHBoxLayout;
    file_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wrapped rather than widening the page ("the starter, not saved yet").
    file_->setWordWrap(true);
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(save_);
    fileRow->addWidget(starter_);
    rightLayout->addLayout(fileRow);
    rightLayout->addWidget(editor_, 4);
    problem_->setWordWrap(true);
    problem_->setVisible(false);
    rightLayout->addWidget(problem_);
    // What the check runs on, then Check itself: two short rows rather than
    // one long one, which would set the page's least width (a projector's
    // 1280 pixels in Chinese, the fire panel unfolded beside it).
    auto* onRow = new QHBoxLayout;
    // The choosers grow to their longest item first, the row's end after.
    onRow->addWidget(backend_, 1);
    onRow->addWidget(isolation_, 1);
    onRow->addWidget(redis_);
    onRow->addWidget(boundLabel_);
    onRow->addWidget(bound_);
    onRow->addStretch(0);
    rightLayout->addLayout(onRow);
    auto* checkRow = new QHBoxLayout;
    checkRow->addWidget(check_);
    checkRow->addWidget(cancel_);
    checkRow->addWidget(progress_, 1);
    checkRow->addStretch(0);
    rightLayout->addLayout(checkRow);
    progressText_->setWordWrap(true);
    rightLayout->addWidget(progressText_);
    results_->verticalHeader()->setVisible(false);
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_->setTabKeyNavigation(false);
    results_->horizontalHeader()->setStretchLastSection(true);
    results_->setMaximumHeight(results_->fontMetrics().height() * 6);
    rightLayout->addWidget(results_, 1);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rightLayout->addWidget(detail_);
    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(step_);
    stepRow->addStretch(1);
    rightLayout->addLayout(stepRow);

    split_->addWidget(left);
    split_->addWidget(right);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 2);
    split_->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split_);

    backend_->addItem(QString(), QStringLiteral("sqlite"));
    backend_->addItem(QString(), QStringLiteral("mariadb"));
    backend_->addItem(QString(), QStringLiteral("postgres"));
    connect(backend_, &QComboBox::currentIndexChanged, this, [this] {
        fillIsolations();
        fillLadder();  // its marks are the chosen database's
    });
    bound_->setRange(0, 5);
    bound_->setValue(2);
    boundLabel_->setBuddy(bound_);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    progress_->setVisible(false);  // while a check runs
    cancel_->setEnabled(false);
    step_->setEnabled(false);

    parseLater_.setSingleShot(true);
    parseLater_.setInterval(kParseAfterMs);
    connect(&parseLater_, &QTimer::timeout, this, &WorkbenchView::syntaxCheck);
    connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
        parseLater_.start();
        showFileState();
    });
    connect(editor_->document(), &QTextDocument::modificationChanged, this,
            &WorkbenchView::showFileState);
    progressTimer_.setInterval(100);
    connect(&progressTimer_, &QTimer::timeout, this, &WorkbenchView::showProgress);
    connect(ladder_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (QListWidgetItem* item = ladder_->item(row))
            openChallenge(item->data(Qt::UserRole).toString());
    });
    connect(hint_, &QPushButton::clicked, this, &WorkbenchView::revealHint);
    connect(save_, &QPushButton::clicked, this, &WorkbenchView::saveRequested);
    connect(starter_, &QPushButton::clicked, this, &WorkbenchView::startOver);
    connect(check_, &QPushButton::clicked, this, &WorkbenchView::check);
    connect(cancel_, &QPushButton::clicked, this, &WorkbenchView::cancel);
    connect(step_, &QPushButton::clicked, this, [this] {
        if (last_ && last_->counterexample && !last_->counterexample->tracePath.isEmpty())
            emit stepRequested(last_->counterexample->tracePath);
    });
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &WorkbenchView::fileChanged);
    connect(this, &WorkbenchView::workerEnded, this, &WorkbenchView::workerDone);

    retranslate();
    fillLadder();
    QString first = allChallenges().isEmpty() ? QString() : allChallenges().first().id;
    if (remember_) {
        const QString saved = QSettings().value(kChallengeKey).toString();
        if (findChallenge(saved))
            first = saved;
    }
    openChallenge(first);
}

WorkbenchView::~WorkbenchView() {
    // A check still running stops; the window it would tell is going too.
    blockSignals(true);
    stop();
    if (remember_ && editor_->document()->isModified() && !starterOverOwnFile())
        save();
}

const Challenge* WorkbenchView::challenge() const {
    return findChallenge(challenge_);
}

QString WorkbenchView::challengeId() const {
    return challenge_;
}

QString WorkbenchView::handlerPath() const {
    return folder_.isEmpty() ? QString()
                             : QDir(folder_).filePath(challenge_ + QStringLiteral(".js"));
}

bool WorkbenchView::makeFolder(QString* error) {
    if (!remember_ && !scratch_) {
        scratch_ = std::make_unique<QTemporaryDir>(
            QDir::temp().filePath(QStringLiteral("idemlab-workbench-XXXXXX")));
        if (scratch_->isValid())
            folder_ = scratch_->path();
    }
    if (!folder_.isEmpty() && QDir().mkpath(folder_))
        return true;
    if (error)
        *error = folder_.isEmpty()
                     ? tr("Cannot save the handler: there is no folder for the lab's data")
                     : tr("Cannot save the handler: cannot make the folder %1")
                           .arg(QDir::toNativeSeparators(folder_));
    return false;
}

void WorkbenchView::setLanguage(const QString& code) {
    if (language_ == code)
        return;
    language_ = code;
    fillLadder();
    showStory();
}

QString WorkbenchView::stateOf(const QString& id, const QString& backend) const {
    const QString state = remember_ ? QSettings().value(stateKey(id, backend)).toString()
                                    : states_.value(id + QLatin1Char('/') + backend);
    return state.isEmpty() ? QStringLiteral("new") : state;
}

void WorkbenchView::setState(const QString& id, const QString& backend, const QString& state) {
    if (remember_)
        QSettings().setValue(stateKey(id, backend), state);
    else
        states_.insert(id + QLatin1Char('/') + backend, state);
    fillLadder();
}

void WorkbenchView::fillLadder() {
    const QSignalBlocker quiet(ladder_);
    ladder_->clear();
    int row = 0;
    for (const Challenge& c : allChallenges()) {
        // The mark is the chosen database's; the tooltip says all three.
        const QString chosen = backend_->currentData().toString();
        const QString state = stateOf(c.id, chosen);
        const QString mark = state == QLatin1String("passed")   ? QStringLiteral("✓ ")
                             : state == QLatin1String("failed") ? QStringLiteral("✗ ")
                                                                : QStringLiteral("  ");
        const QString said = ladderStates(c.id, chosen);
        auto* item = new QListWidgetItem(
            QStringLiteral("%1%2. %3").arg(mark).arg(row + 1).arg(c.title.in(language_)), ladder_);
        item->setData(Qt::UserRole, c.id);
        item->setToolTip(QStringLiteral("%1\n%2").arg(c.title.in(language_), said));
        item->setData(Qt::AccessibleTextRole,
                      QStringLiteral("%1. %2, %3").arg(row + 1).arg(c.title.in(language_), said));
        if (c.id == challenge_)
            ladder_->setCurrentRow(row);
        ++row;
    }
}

void WorkbenchView::showStory() {
    const Challenge* c = challenge();
    if (!c) {
        title_->clear();
        story_->clear();
        hints_->clear();
        return;
    }
    title_->setText(c->title.in(language_));
    QString html = QStringLiteral("<p>%1</p>").arg(c->story.in(language_).toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b> %2</p>")
                .arg(tr("You write:").toHtmlEscaped(), c->role.in(language_).toHtmlEscaped());
    QStringList attacks;
    for (const Attack& a : c->attacks) {
        QString line = tr("%1, %2, duplicates: %3")
                           .arg(sourceName(a.source), timingName(a.timing))
                           .arg(a.duplicates);
        if (a.crashes)
            line += tr("; a crash before every statement and every answer lost");
        if (a.pauses)
            line += tr("; the first attempt stalls past its lease before each statement");
        attacks << line.toHtmlEscaped();
    }
    html += QStringLiteral("<p><b>%1</b></p><ul><li>%2</li></ul>")
                .arg(tr("The lab attacks it with:").toHtmlEscaped(),
                     attacks.join(QStringLiteral("</li><li>")));
    if (c->statementBudget > 0)
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("Target:").toHtmlEscaped(), tr("statements per request: at most %1")
                                                            .arg(c->statementBudget)
                                                            .toHtmlEscaped());
    story_->setText(html);
    const int shown = hintsShown_.value(c->id);
    QString hints;
    for (int i = 0; i < std::min<int>(shown, int(c->hints.size())); ++i)
        hints += QStringLiteral("<p><b>%1</b> %2</p>")
                     .arg(tr("Hint %1:").arg(i + 1).toHtmlEscaped(),
                          c->hints[i].in(language_).toHtmlEscaped());
    hints_->setText(hints);
    hints_->setVisible(!hints.isEmpty());
    const int left = int(c->hints.size()) - shown;
    hint_->setEnabled(left > 0);
    hint_->setText(left > 0 ? tr("Show a hint (%1 of %2)").arg(shown + 1).arg(c->hints.size())
                            : tr("Every hint is shown (%1)").arg(c->hints.size()));
}

bool WorkbenchView::revealHint() {
    const Challenge* c = challenge();
    if (!c || hintsShown_.value(c->id) >= c->hints.size())
        return false;
    const int shown = hintsShown_.value(c->id) + 1;
    hintsShown_.insert(c->id, shown);
    if (remember_)
        QSettings().setValue(hintsKey(c->id), shown);
    showStory();
    return true;
}

void WorkbenchView::openChallenge(const QString& id) {
    if (!findChallenge(id) || id == challenge_)
        return;
    if (!challenge_.isEmpty() && editor_->document()->isModified() && !starterOverOwnFile()) {
        QString error;
        if (!save(&error)) {
            // The edits stay on screen rather than be lost.
            emit message(error);
            fillLadder();
            return;
        }
    }
    stop();
    if (!watcher_->files().isEmpty())
        watcher_->removePaths(watcher_->files());
    challenge_ = id;
    updateRedisChoice();
    if (remember_) {
        QSettings().setValue(kChallengeKey, id);
        hintsShown_.insert(id, QSettings().value(hintsKey(id), 0).toInt());
    }
    last_.reset();
    byBackend_.clear();
    results_->setRowCount(0);
    detail_->clear();
    progressText_->clear();
    step_->setEnabled(false);
    editor_->markLine(0);
    fillLadder();
    showStory();
    loadHandler();
}

void WorkbenchView::loadHandler() {
    const Challenge* c = challenge();
    const QString path = handlerPath();
    QFile f(path);
    QString text = c ? c->starter : QString();
    if (!path.isEmpty() && f.exists() && f.open(QIODevice::ReadOnly))
        text = QString::fromUtf8(f.readAll());
    if (!path.isEmpty() && QFileInfo::exists(path))
        watcher_->addPath(path);
    editor_->setPlainText(text);
    editor_->document()->setModified(false);
    editor_->markLine(0);
    syntaxCheck();
    showFileState();
    emit handlerChanged();
}

bool WorkbenchView::save(QString* error) {
    if (challenge_.isEmpty() || !makeFolder(error))
        return false;
    QSaveFile f(handlerPath());
    if (!f.open(QIODevice::WriteOnly) || f.write(editor_->toPlainText().toUtf8()) < 0 ||
        !f.commit()) {
        if (error)
            *error = tr("Cannot save the handler to %1: %2")
                         .arg(QDir::toNativeSeparators(handlerPath()), f.errorString());
        return false;
    }
    editor_->document()->setModified(false);
    // A file replaced by a rename is a new file to watch.
    if (!watcher_->files().contains(handlerPath()))
        watcher_->addPath(handlerPath());
    showFileState();
    return true;
}

void WorkbenchView::showFileState() {
    const QString name = challenge_ + QStringLiteral(".js");
    QString state;
    if (handlerPath().isEmpty() || !QFileInfo::exists(handlerPath()))
        state = tr("the starter, not saved yet (Ctrl+S)");
    else if (editor_->document()->isModified())
        state = tr("edited, not saved (Ctrl+S)");
    else
        state = tr("saved");
    file_->setText(QStringLiteral("%1 · %2").arg(name, state));
    file_->setToolTip(QDir::toNativeSeparators(handlerPath()));
}

void WorkbenchView::fileChanged(const QString& path) {
    if (path != handlerPath())
        return;
    // Many editors write a new file and rename it over the old one.
    if (QFileInfo::exists(path) && !watcher_->files().contains(path))
        watcher_->addPath(path);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QString text = QString::fromUtf8(f.readAll());
    if (text == editor_->toPlainText())
        return;
    if (editor_->document()->isModified()) {
        emit message(tr("%1 changed on disk; your unsaved edits are kept here (Ctrl+S writes "
                        "them over it)")
                         .arg(QFileInfo(path).fileName()));
        return;
    }
    const int line = editor_->textCursor().blockNumber();
    editor_->setPlainText(text);
    editor_->document()->setModified(false);
    const QTextBlock block = editor_->document()->findBlockByNumber(line);
    if (block.isValid())
        editor_->setTextCursor(QTextCursor(block));
    syntaxCheck();
    emit message(tr("Reloaded %1: it changed on disk").arg(QFileInfo(path).fileName()));
}

void WorkbenchView::startOver() {
    const Challenge* c = challenge();
    if (!c || editor_->toPlainText() == c->starter)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Start over"),
        tr("Replace the handler in the editor with the challenge's starter? Undo (Ctrl+Z) brings "
           "your text back."),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes)
        return;
    // As one edit, so that undo brings the student's text back.
    QTextCursor all(editor_->document());
    all.select(QTextCursor::Document);
    all.insertText(c->starter);
}

void WorkbenchView::syntaxCheck() {
    // A page nobody looks at compiles nothing: the window starts without a
    // JavaScript engine, and the page's first showing catches up.
    if (!isVisibleTo(window())) {
        parseStale_ = true;
        return;
    }
    parseNow();
}

void WorkbenchView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (parseStale_)
        parseNow();
}

void WorkbenchView::parseNow() {
    parseStale_ = false;
    if (!parser_)
        parser_ = std::make_unique<QJSEngine>();
    const std::optional<SyntaxError> e =
        idem::syntaxError(*parser_, editor_->toPlainText(), challenge_ + QStringLiteral(".js"));
    if (!e) {
        editor_->setProblem(0, 0, QString());
        problem_->clear();
        problem_->setVisible(false);
        return;
    }
    editor_->setProblem(e->line, e->column, e->message);
    problem_->setText(tr("Line %1, column %2: %3").arg(e->line).arg(e->column).arg(e->message));
    problem_->setVisible(true);
}

void WorkbenchView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void WorkbenchView::retranslate() {
    ladderTitle_->setText(tr("Challen&ges"));
    ladder_->setAccessibleName(tr("Challenges"));
    hint_->setAccessibleDescription(tr("Reveals the challenge's hints one at a time"));
    save_->setText(tr("Save"));
    save_->setToolTip(
        tr("Writes the handler to its file (Ctrl+S); edit it elsewhere too, it "
           "is reloaded when it changes"));
    starter_->setText(tr("Start over"));
    starter_->setToolTip(tr("Puts the challenge's starter handler back in the editor"));
    editor_->setAccessibleName(tr("Handler (JavaScript)"));
    editor_->setAccessibleDescription(
        tr("function* handle(request, db): yield each db call. Ctrl+Tab leaves the editor."));
    check_->setText(tr("Check"));
    check_->setToolTip(
        tr("Runs every schedule of the attacks on your handler (F5 or "
           "Ctrl+Enter)"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stops the check (Escape)"));
    fillDatabases();
    updateRedisChoice();
    boundLabel_->setText(tr("Pree&mptions:"));
    bound_->setToolTip(
        tr("The most times a schedule switches away from an attempt that had "
           "statements left"));
    results_->setHorizontalHeaderLabels({tr("Database"), tr("Isolation"), tr("Result"),
                                         tr("Schedules run"), tr("Skipped as repeats"),
                                         tr("Left out by the bound")});
    results_->setAccessibleName(tr("Check results"));
    step_->setText(tr("Step the failing run"));
    step_->setToolTip(tr("Puts the smallest failing run on the stage at its first wrong step"));
    fillLadder();
    showStory();
    showFileState();
    fillResults();
    if (last_)
        detail_->setText(describe(*last_));
}

}  // namespace idem
