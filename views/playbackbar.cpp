#include "playbackbar.h"

#include "playback.h"
#include "sqllogmodel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace idem {

namespace {
// Milliseconds between steps; 0 = instant (many steps per tick).
constexpr int kSpeeds[] = {1500, 700, 300, 80, 0};
}  // namespace

PlaybackBar::PlaybackBar(Playback& playback, QWidget* parent)
    : QWidget(parent),
      playback_(playback),
      timer_(new QTimer(this)),
      reset_(new QToolButton(this)),
      back_(new QToolButton(this)),
      play_(new QToolButton(this)),
      step_(new QToolButton(this)),
      end_(new QToolButton(this)),
      speed_(new QComboBox(this)),
      scrubber_(new QSlider(Qt::Horizontal, this)),
      status_(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    reset_->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    back_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    step_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    end_->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    for (QToolButton* b : {reset_, back_, play_, step_, end_}) {
        b->setAutoRaise(true);
        b->setFocusPolicy(Qt::NoFocus);
        layout->addWidget(b);
    }
    for (int i = 0; i < 5; ++i) speed_->addItem(QString(), kSpeeds[i]);
    speed_->setCurrentIndex(2);
    speed_->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(speed_);
    scrubber_->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(scrubber_, 1);
    status_->setMinimumWidth(
        status_->fontMetrics().horizontalAdvance(QStringLiteral("0000/0000 · 00:00:00.000")));
    layout->addWidget(status_);

    connect(reset_, &QToolButton::clicked, this, [this] {
        pause();
        playback_.reset();
    });
    connect(back_, &QToolButton::clicked, this, [this] {
        pause();
        playback_.stepBack();
    });
    connect(step_, &QToolButton::clicked, this, [this] {
        pause();
        playback_.stepForward();
    });
    connect(end_, &QToolButton::clicked, this, [this] {
        pause();
        playback_.toEnd();
    });
    connect(play_, &QToolButton::clicked, this, &PlaybackBar::togglePlay);
    connect(timer_, &QTimer::timeout, this, &PlaybackBar::tick);
    connect(speed_, &QComboBox::currentIndexChanged, this, [this] {
        if (timer_->isActive())
            timer_->start(speed_->currentData().toInt());
    });
    connect(scrubber_, &QSlider::valueChanged, this, [this](int v) {
        if (v != playback_.position())
            playback_.seek(v);
    });
    connect(&playback_, &Playback::positionChanged, this, [this](int position, int length) {
        const QSignalBlocker b(scrubber_);
        scrubber_->setRange(0, length);
        scrubber_->setValue(position);
        if (playback_.atEnd())
            pause();
        updateStatus();
    });
    retranslate();
    updateStatus();
}

bool PlaybackBar::isPlaying() const {
    return timer_->isActive();
}

void PlaybackBar::togglePlay() {
    if (timer_->isActive()) {
        pause();
        return;
    }
    if (playback_.atEnd())
        playback_.reset();
    timer_->start(speed_->currentData().toInt());
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void PlaybackBar::pause() {
    const bool was = timer_->isActive();
    timer_->stop();
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    if (was)
        emit playingChanged(false);
}

void PlaybackBar::faster() {
    speed_->setCurrentIndex(std::min(speed_->currentIndex() + 1, 4));
}
void PlaybackBar::slower() {
    speed_->setCurrentIndex(std::max(speed_->currentIndex() - 1, 0));
}

void PlaybackBar::tick() {
    // Instant: take big strides, but return to the event loop between them
    // so the window never freezes on a long run.
    if (speed_->currentData().toInt() == 0) {
        playback_.seek(playback_.position() + 200);
    } else {
        playback_.stepForward();
    }
    if (playback_.atEnd())
        pause();
}

void PlaybackBar::updateStatus() {
    status_->setText(tr("step %1/%2 · t = %3")
                         .arg(playback_.position())
                         .arg(playback_.length())
                         .arg(SqlLogModel::formatTime(playback_.virtualTime())));
}

void PlaybackBar::retranslate() {
    reset_->setToolTip(tr("Reset to the start (Home)"));
    back_->setToolTip(tr("Step back (Left, Page Up)"));
    play_->setToolTip(tr("Play / pause (Space)"));
    step_->setToolTip(tr("Step (Right, Page Down)"));
    end_->setToolTip(tr("Run to the end (End)"));
    const char* names[] = {QT_TR_NOOP("slow motion"), QT_TR_NOOP("slow"), QT_TR_NOOP("normal"),
                           QT_TR_NOOP("fast"), QT_TR_NOOP("instant")};
    for (int i = 0; i < 5; ++i) speed_->setItemText(i, tr(names[i]));
    speed_->setToolTip(tr("Playback speed ([ slower, ] faster)"));
    scrubber_->setToolTip(tr("Drag to any step of the run"));
    updateStatus();
}

void PlaybackBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace idem
