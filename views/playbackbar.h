// Playback: reset, step back, step, play/pause, speed (slow motion to
// instant) and a scrubber over the run's steps. The keyboard shortcuts live
// in the main window's actions, which call these slots.
#pragma once

#include <QWidget>

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
    explicit PlaybackBar(Playback& playback, QWidget* parent = nullptr);
    bool isPlaying() const;
    QSlider* scrubber() const { return scrubber_; }
    QLabel* status() const { return status_; }

signals:
    void playingChanged(bool playing);

public slots:
    void togglePlay();
    void pause();
    void faster();
    void slower();

protected:
    void changeEvent(QEvent* event) override;

private:
    void tick();
    void retranslate();
    void updateStatus();

    Playback& playback_;
    QTimer* timer_;
    QToolButton* reset_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* step_;
    QToolButton* end_;
    QComboBox* speed_;
    QSlider* scrubber_;
    QLabel* status_;
};

}  // namespace idem
