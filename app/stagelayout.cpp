#include "stagelayout.h"

#include "livestage.h"
#include "outcomepanel.h"
#include "stageheader.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QScreen>
#include <QShortcut>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

namespace idem {

StageLayout::StageLayout(QMainWindow* window, const Parts& parts, bool fullScreen)
    : QObject(window), window_(window), parts_(parts), fullScreen_(fullScreen) {
    parts_.headerBar->hide();
    parts_.header->setVerdictShown(false);
    connect(parts_.pages, &QTabWidget::currentChanged, this, &StageLayout::showBanner);
    // An alert's red banner crosses the top in either mode.
    connect(parts_.header, &StageHeader::alertChanged, this, &StageLayout::showBanner);
    connect(parts_.header, &StageHeader::expandToggled, parts_.settingsDock, &QWidget::setVisible);
    connect(parts_.settingsDock->toggleViewAction(), &QAction::toggled, parts_.header,
            &StageHeader::setExpanded);
    connect(parts_.settingsDock, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        for (QShortcut* key : std::as_const(folded_)) key->setEnabled(!shown);
        if (shown && presenter_)
            QTimer::singleShot(0, this, &StageLayout::widenUnfolded);
    });
    bindFoldedMnemonics();
    window_->installEventFilter(this);
}

void StageLayout::apply(bool presenter) {
    if (presenter == presenter_) {
        fitOutcome();
        return;
    }
    presenter_ = presenter;
    showBanner();
    parts_.outcome->setVerdictVisible(!presenter);
    parts_.live->setPresenter(presenter);
    // Beside the page tabs, which leave most of their row empty.
    QWidget* line = parts_.header->settingsLine();
    parts_.pages->setCornerWidget(presenter ? line : nullptr, Qt::TopRightCorner);
    line->setVisible(presenter);
    if (presenter) {
        settingsShownBefore_ = parts_.settingsDock->isVisible() || !window_->isVisible();
        parts_.settingsDock->hide();
    } else {
        parts_.settingsDock->setVisible(settingsShownBefore_);
    }
    parts_.header->setExpanded(parts_.settingsDock->isVisible());
    parts_.outcomeDock->widget()->setMinimumWidth(presenter ? kOutcomeMinWidth : 0);
    if (fullScreen_) {
        window_->setWindowState(presenter ? window_->windowState() | Qt::WindowFullScreen
                                          : window_->windowState() & ~Qt::WindowFullScreen);
    }
    // After the window has taken its new size.
    QTimer::singleShot(0, this, [this] {
        keepOnScreen();
        fitOutcome();
    });
}

void StageLayout::showBanner() {
    QWidget* page = parts_.pages->currentWidget();
    const bool verdict = presenter_ && (page == parts_.live || page == parts_.pagination);
    parts_.header->setVerdictShown(verdict);
    parts_.headerBar->setVisible(verdict || parts_.header->hasAlert());
}

void StageLayout::fitOutcome() {
    const int width = window_->width();
    int want =
        presenter_ ? std::max(kOutcomeMinWidth, width * 19 / 100) : std::max(200, width * 18 / 100);
    if (lesson_)
        want = std::max(300, width * 34 / 100);
    parts_.outcomeDock->widget()->setMinimumWidth(lesson_      ? want
                                                  : presenter_ ? kOutcomeMinWidth
                                                               : 0);
    window_->resizeDocks({parts_.outcomeDock}, {want}, Qt::Horizontal);
}

void StageLayout::fitPanel() {
    const int width = window_->width();
    if (presenter_ || width < 1600 || !parts_.settingsDock->isVisible())
        return;
    // Widened only: a panel the user dragged wider stays.
    const int want = std::min(width / 5, parts_.settingsDock->sizeHint().width() + 120);
    if (parts_.settingsDock->width() < want)
        window_->resizeDocks({parts_.settingsDock}, {want}, Qt::Horizontal);
}

void StageLayout::setLessonShown(bool shown) {
    lesson_ = shown;
    fitOutcome();
}

void StageLayout::keepOnScreen() {
    if (!fullScreen_ || window_->isFullScreen() || window_->isMaximized())
        return;
    const QScreen* screen = window_->screen();
    if (!screen)
        return;
    const QRect room = screen->availableGeometry();
    QRect frame = window_->frameGeometry();
    const QSize extra = frame.size() - window_->size();
    const QSize size = window_->size().boundedTo(room.size() - extra);
    if (size != window_->size())
        window_->resize(size);
    frame = window_->frameGeometry();
    if (!room.contains(frame)) {
        window_->move(std::clamp(frame.left(), room.left(), room.right() - frame.width() + 1),
                      std::clamp(frame.top(), room.top(), room.bottom() - frame.height() + 1));
    }
}

void StageLayout::widenUnfolded() {
    const int want = std::max(kUnfoldedMinWidth, window_->width() * 28 / 100);
    if (parts_.settingsDock->width() < want)
        window_->resizeDocks({parts_.settingsDock}, {want}, Qt::Horizontal);
}

namespace {
// The letter after a single '&' ("方案(&N)" → N); none when there is none.
QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] != QLatin1Char('&'))
            return text[i + 1].toUpper();
        ++i;
    }
    return {};
}
}  // namespace

void StageLayout::bindFoldedMnemonics() {
    qDeleteAll(folded_);
    folded_.clear();
    QWidget* panel = parts_.settingsDock->widget();
    if (!panel)
        return;
    for (QLabel* label : panel->findChildren<QLabel*>()) {
        QWidget* field = label->buddy();
        const QChar letter = mnemonicOf(label->text());
        if (!field || letter.isNull())
            continue;
        auto* key = new QShortcut(
            QKeySequence(Qt::ALT | QKeyCombination::fromCombined(letter.unicode()).key()), window_);
        key->setContext(Qt::WindowShortcut);
        key->setEnabled(!parts_.settingsDock->isVisible());
        connect(key, &QShortcut::activated, this, [this, field] {
            parts_.settingsDock->show();
            field->setFocus(Qt::ShortcutFocusReason);
        });
        folded_ << key;
    }
}

bool StageLayout::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::LanguageChange)
        QTimer::singleShot(0, this, &StageLayout::bindFoldedMnemonics);  // other letters
    if (watched == window_ && event->type() == QEvent::Resize && (presenter_ || lesson_))
        QTimer::singleShot(0, this, &StageLayout::fitOutcome);
    if (watched == window_ && event->type() == QEvent::Resize && !presenter_)
        QTimer::singleShot(0, this, &StageLayout::fitPanel);
    return QObject::eventFilter(watched, event);
}

}  // namespace idem
