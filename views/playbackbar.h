// Playback: reset, step back, step, play/pause, speed (slow motion to
// instant), a scrubber over the run's steps, and whether a fired run plays
// by itself. The keyboard shortcuts live in the main window's actions, which
// call these slots.
#pragma once

#include <QElapsedTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace idem {

class Playback;

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    // Milliseconds between steps per speed, slow motion first; 0 = instant.
    static constexpr int kSpeeds[] = {2500, 1600, 1000, 400, 0};
    static constexpr int kNormalSpeed = 2;  // about one step a second: a classroom's pace
    // At "instant" a tick comes once a frame (60 Hz), so the window paints
    // between two ticks; the stepping each tick may take, and what a whole
    // tick (the views' drawing included) should take: the events per tick
    // adapt. The repaint that follows a tick takes 5 to 8 ms of the frame.
    static constexpr int kInstantTickMs = 16;
    static constexpr int kInstantBudgetMs = 2;
    static constexpr int kTickTargetMs = 4;
    // A run longer than this plays at "instant" in leaps, each a seek in the
    // background (the views drawn once per leap): about kLeaps of them, so
    // that a run of 300,000 steps ends in seconds, not the twenty minutes a
    // tick's few steps at a time took.
    static constexpr int kLeapRun = 20'000;
    static constexpr int kLeaps = 40;

    explicit PlaybackBar(Playback& playback, QWidget* parent = nullptr);
    bool isPlaying() const;
    QSlider* scrubber() const { return scrubber_; }
    QLabel* status() const { return status_; }
    QCheckBox* autoPlayBox() const { return autoPlay_; }
    int speedIndex() const;
    int stepMs() const { return kSpeeds[speedIndex()]; }
    // How often the play timer fires at the chosen speed.
    int tickMs() const { return stepMs() == 0 ? kInstantTickMs : stepMs(); }
    bool autoPlay() const;

signals:
    void playingChanged(bool playing);
    void speedChanged(int index);
    void autoPlayChanged(bool on);

public slots:
    void togglePlay();
    void play();
    void pause();
    // Ends the playing, leaps and a play to the next turn included (Escape,
    // or pausing by hand).
    void stop();
    // Plays on (in the background where the way is long) and stops after
    // the next step that matters: a crash, a refusal, an answer other than
    // success, a retry, an alert (Playback::isTurn).
    void playToNextTurn();
    void faster();
    void slower();
    void setSpeedIndex(int index);
    void setAutoPlay(bool on);

protected:
    void changeEvent(QEvent* event) override;

private:
    void tick();
    void retranslate();
    void updateStatus();
    void paintIcons();

    Playback& playback_;
    QTimer* timer_;
    QToolButton* reset_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* step_;
    QToolButton* end_;
    QComboBox* speed_;
    QCheckBox* autoPlay_;
    QSlider* scrubber_;
    QLabel* status_;
    bool playWhenEnabled_ = false;  // Play was pressed while a worker held the run
    // Playing a long run at "instant" in leaps: when the leaps began, and
    // where, to tell how long the rest will take.
    bool leaping_ = false;
    bool leapAsked_ = false;  // a leap's seek is being asked for
    QElapsedTimer leapClock_;
    int leapFrom_ = 0;
    QString estimate() const;
    qsizetype tickEvents_ = 50;  // events per tick at "instant", adapted to what drawing costs
};

}  // namespace idem
