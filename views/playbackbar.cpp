#include "playbackbar.h"

#include "labelholder.h"
#include "playback.h"
#include "sqllogmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QToolButton>

namespace idem {

namespace {

enum class Glyph { Reset, Back, Play, Pause, Step, End };

// A playback icon drawn in the button text's colour, so that it reads on
// light, dark and high-contrast palettes alike (the style's own media icons
// are dark grey on every palette).
QIcon glyphIcon(Glyph glyph, const QColor& color, int size) {
    const qreal dpr = 2;
    QPixmap pixmap(QSize(size, size) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    const qreal s = size;
    auto triangle = [&](qreal left, qreal right) {  // pointing from left to right
        QPainterPath path;
        path.moveTo(left, s * 0.2);
        path.lineTo(right, s * 0.5);
        path.lineTo(left, s * 0.8);
        path.closeSubpath();
        p.drawPath(path);
    };
    auto bar = [&](qreal x) {
        p.drawRect(QRectF(x, s * 0.2, s * 0.12, s * 0.6));
    };
    switch (glyph) {
        case Glyph::Play:
            triangle(s * 0.25, s * 0.8);
            break;
        case Glyph::Pause:
            p.drawRect(QRectF(s * 0.25, s * 0.2, s * 0.17, s * 0.6));
            p.drawRect(QRectF(s * 0.58, s * 0.2, s * 0.17, s * 0.6));
            break;
        case Glyph::Step:
            triangle(s * 0.2, s * 0.65);
            bar(s * 0.68);
            break;
        case Glyph::End:
            triangle(s * 0.08, s * 0.45);
            triangle(s * 0.42, s * 0.79);
            bar(s * 0.8);
            break;
        case Glyph::Back:
        case Glyph::Reset:
            p.translate(s, 0);
            p.scale(-1, 1);
            if (glyph == Glyph::Back) {
                triangle(s * 0.2, s * 0.65);
                bar(s * 0.68);
            } else {
                triangle(s * 0.08, s * 0.45);
                triangle(s * 0.42, s * 0.79);
                bar(s * 0.8);
            }
            break;
    }
    return QIcon(pixmap);
}

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
      autoPlay_(new QCheckBox(this)),
      scrubber_(new QSlider(Qt::Horizontal, this)),
      status_(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    for (QToolButton* b : {reset_, back_, play_, step_, end_}) {
        b->setAutoRaise(true);
        // The keys do what these do, wherever the focus is.
        b->setFocusPolicy(Qt::NoFocus);
        layout->addWidget(b);
    }
    for (int i = 0; i < 5; ++i) speed_->addItem(QString(), kSpeeds[i]);
    speed_->setCurrentIndex(kNormalSpeed);
    speed_->setFocusPolicy(Qt::TabFocus);
    layout->addWidget(speed_);
    autoPlay_->setFocusPolicy(Qt::TabFocus);
    layout->addWidget(autoPlay_);
    scrubber_->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(scrubber_, 1);
    // A new position at every step: held, so that only a wider text lays
    // out the tool bar (and the window under it).
    layout->addWidget(new LabelHolder(status_, this));
    paintIcons();

    connect(reset_, &QToolButton::clicked, this, [this] {
        stop();
        playback_.reset();
    });
    connect(back_, &QToolButton::clicked, this, [this] {
        stop();
        playback_.stepBack();
    });
    connect(step_, &QToolButton::clicked, this, [this] {
        stop();
        playback_.stepForward();
    });
    connect(end_, &QToolButton::clicked, this, [this] {
        stop();
        playback_.requestSeek(playback_.length());
    });
    connect(play_, &QToolButton::clicked, this, &PlaybackBar::togglePlay);
    connect(timer_, &QTimer::timeout, this, &PlaybackBar::tick);
    connect(speed_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (timer_->isActive())
            timer_->start(tickMs());
        emit speedChanged(index);
    });
    connect(autoPlay_, &QCheckBox::toggled, this, &PlaybackBar::autoPlayChanged);
    connect(scrubber_, &QSlider::valueChanged, this, [this](int v) {
        if (v != playback_.position())
            playback_.requestSeek(v);
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
}

bool PlaybackBar::isPlaying() const {
    return timer_->isActive() || leaping_;
}

int PlaybackBar::speedIndex() const {
    return std::clamp(speed_->currentIndex(), 0, int(std::size(kSpeeds)) - 1);
}

bool PlaybackBar::autoPlay() const {
    return autoPlay_->isChecked();
}

void PlaybackBar::setSpeedIndex(int index) {
    speed_->setCurrentIndex(std::clamp(index, 0, int(std::size(kSpeeds)) - 1));
}

void PlaybackBar::setAutoPlay(bool on) {
    autoPlay_->setChecked(on);
}

void PlaybackBar::togglePlay() {
    // Playing, or waiting for a worker's step to play on.
    if (isPlaying() || playWhenEnabled_) {
        stop();
        return;
    }
    play();
}

void PlaybackBar::play() {
    if (timer_->isActive())
        return;
    if (playback_.atEnd())
        playback_.reset();
    // Going back from the end of a long run is a worker's job, and the bar
    // waits for it (disabled): the playing starts when it is done.
    if (!isEnabled()) {
        playWhenEnabled_ = true;
        return;
    }
    timer_->start(tickMs());
    paintIcons();
    emit playingChanged(true);
}

void PlaybackBar::pause() {
    const bool was = isPlaying();
    timer_->stop();
    // While a worker holds the run (a leap, a way back), the window pauses
    // the bar; the playing goes on when the worker is done. Otherwise a
    // pause ends it.
    if (isEnabled() && !leapAsked_)
        leaping_ = false;
    updateStatus();
    paintIcons();
    if (was)
        emit playingChanged(false);
}

void PlaybackBar::faster() {
    setSpeedIndex(speedIndex() + 1);
}

void PlaybackBar::slower() {
    setSpeedIndex(speedIndex() - 1);
}

void PlaybackBar::tick() {
    if (!isEnabled()) {  // a worker holds the run
        pause();
        return;
    }
    // A run on a live server: each step is a worker's (it waits for the
    // server); the bar waits for it, then plays on.
    if (playback_.stepsInWorker()) {
        timer_->stop();
        playWhenEnabled_ = true;
        leapAsked_ = true;
        playback_.stepForward();
        leapAsked_ = false;
        return;
    }
    // A long run at instant: leaps, each a seek a worker makes while the
    // window answers; the bar waits for it, then plays on.
    if (stepMs() == 0 && playback_.length() > kLeapRun) {
        if (!leaping_) {
            leaping_ = true;
            leapClock_.start();
            leapFrom_ = playback_.position();
        }
        const int leap = std::max(Playback::kInlineSteps + 1, playback_.length() / kLeaps);
        timer_->stop();
        playWhenEnabled_ = true;
        leapAsked_ = true;  // the seek's own pause is not the end of the playing
        playback_.requestSeek(std::min(playback_.length(), playback_.position() + leap));
        leapAsked_ = false;
        updateStatus();
        if (playback_.atEnd())
            stop();
        return;
    }
    // Instant: as many steps as fit in a few milliseconds, then back to the
    // event loop, so a tick costs the same early and late in any run.
    if (stepMs() == 0) {
        QElapsedTimer clock;
        clock.start();
        playback_.stepFor(kInstantBudgetMs, tickEvents_);
        // Fewer events next time when drawing them took long, a few more when
        // cheap: some events cost a sequence row each, some nothing, so the
        // count comes down at once and goes up slowly.
        const qint64 took = std::max<qint64>(1, clock.elapsed());
        if (took > kTickTargetMs) {
            tickEvents_ = std::max<qsizetype>(1, tickEvents_ * kTickTargetMs / took);
        } else if (took < kTickTargetMs / 2) {
            tickEvents_ = std::min<qsizetype>(
                Playback::kTickEvents * 10, tickEvents_ + std::max<qsizetype>(1, tickEvents_ / 4));
        }
    } else {
        playback_.stepForward();
    }
    if (playback_.atEnd())
        pause();
}

void PlaybackBar::paintIcons() {
    // The enabled colour, whatever the bar's state now (its palette() is
    // the disabled one while a worker holds the run): a disabled button
    // greys the icon itself, and an icon drawn grey would stay grey.
    const QColor color = palette().color(QPalette::Active, QPalette::ButtonText);
    const int size = std::max(16, fontMetrics().height());
    reset_->setIcon(glyphIcon(Glyph::Reset, color, size));
    back_->setIcon(glyphIcon(Glyph::Back, color, size));
    play_->setIcon(glyphIcon(timer_->isActive() ? Glyph::Pause : Glyph::Play, color, size));
    step_->setIcon(glyphIcon(Glyph::Step, color, size));
    end_->setIcon(glyphIcon(Glyph::End, color, size));
    for (QToolButton* b : {reset_, back_, play_, step_, end_}) b->setIconSize(QSize(size, size));
}

void PlaybackBar::updateStatus() {
    QString text = tr("step %1/%2 · t = %3")
                       .arg(playback_.position())
                       .arg(playback_.length())
                       .arg(SqlLogModel::formatTime(playback_.virtualTime()));
    if (const QString left = estimate(); !left.isEmpty())
        text += QStringLiteral(" · ") + left;
    status_->setText(text);
}

// How long the leaps will take to the end, from how fast they went so far.
QString PlaybackBar::estimate() const {
    if (!leaping_)
        return {};
    const int done = playback_.position() - leapFrom_;
    const qint64 took = leapClock_.elapsed();
    if (done <= 0 || took <= 0)
        return tr("leaping to the end…");
    const qint64 left = qint64(playback_.length() - playback_.position()) * took / done;
    return tr("about %1 s to the end").arg(std::max<qint64>(1, (left + 999) / 1000));
}

void PlaybackBar::stop() {
    playWhenEnabled_ = false;
    leaping_ = false;
    playback_.setStopAtTurn(false);
    pause();
}

void PlaybackBar::playToNextTurn() {
    stop();
    if (playback_.atEnd())
        return;
    playback_.setStopAtTurn(true);
    playback_.requestSeek(playback_.length());
}

void PlaybackBar::retranslate() {
    const QList<QPair<QToolButton*, QPair<QString, QString>>> buttons{
        {reset_, {tr("Reset to the start"), tr("Reset to the start (Home)")}},
        {back_, {tr("Step back"), tr("Step back (Left, Page Up)")}},
        {play_, {tr("Play or pause"), tr("Play / pause (Space)")}},
        {step_, {tr("Step"), tr("Step (Right, Page Down)")}},
        {end_, {tr("Run to the end"), tr("Run to the end (End)")}},
    };
    for (const auto& [button, texts] : buttons) {
        button->setAccessibleName(texts.first);
        button->setToolTip(texts.second);
    }
    const char* names[] = {QT_TR_NOOP("slow motion"), QT_TR_NOOP("slow"), QT_TR_NOOP("normal"),
                           QT_TR_NOOP("fast"), QT_TR_NOOP("instant")};
    for (int i = 0; i < 5; ++i) speed_->setItemText(i, tr(names[i]));
    speed_->setToolTip(tr("Playback speed ([ slower, ] faster); normal is one step a second"));
    speed_->setAccessibleName(tr("Playback speed"));
    autoPlay_->setText(tr("Auto-&play"));
    autoPlay_->setToolTip(tr("Play each fired run by itself, at the chosen speed"));
    autoPlay_->setAccessibleName(tr("Play fired runs by themselves"));
    scrubber_->setToolTip(tr("Drag to any step of the run"));
    scrubber_->setAccessibleName(tr("Step of the run"));
    status_->setAccessibleName(tr("Step and virtual time"));
    updateStatus();
}

void PlaybackBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::EnabledChange && isEnabled() && playWhenEnabled_) {
        // Not when the way back was cancelled: the run is still at its end;
        // nor when stopped meanwhile (Escape between two leaps).
        QTimer::singleShot(0, this, [this] {
            if (!isEnabled() || !playWhenEnabled_)
                return;
            playWhenEnabled_ = false;
            if (playback_.atEnd()) {
                stop();
                return;
            }
            if (leaping_) {  // the next leap
                timer_->start(tickMs());
                updateStatus();
                return;
            }
            play();
        });
    }
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        paintIcons();
    QWidget::changeEvent(event);
}

}  // namespace idem
