// One keyboard model for a window: the playback keys (Space, ←/→, Page Up/Down,
// Home/End, [ ]) reach the window's actions whatever widget has the focus,
// except while a text field is being edited; Escape or Enter ends the edit and
// gives the keys back. Enter and Space press the focused button or toggle the
// focused check box (or checkable list item) everywhere.
#pragma once

#include <QObject>
#include <QPointer>

class QKeyEvent;
class QWidget;

namespace idem {

class PlaybackKeys : public QObject {
    Q_OBJECT
public:
    // Watches every key of the application, acting only on `window`'s widgets.
    explicit PlaybackKeys(QWidget* window);
    ~PlaybackKeys() override;

    // A key the window's actions own (no modifiers but Shift on '?').
    static bool isPlaybackKey(const QKeyEvent* event);
    // The text field being edited now, or nullptr.
    QWidget* editing() const { return editing_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool inWindow(const QWidget* w) const;
    bool onShortcutOverride(QWidget* target, QKeyEvent* event);
    bool onKeyPress(QWidget* target, QKeyEvent* event);

    QWidget* window_;
    QPointer<QWidget> editing_;
};

}  // namespace idem
