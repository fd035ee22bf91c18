// Holds a label whose text changes often (a caption, a count, the playback
// position) so that a new text lays out nothing around it while it fits.
// A QLabel asks its parent's layout for room at every new text; the request
// climbs to the window, which lays out and repaints far more than the label
// (1 ms and more at every step of a run). The holder passes a request on only
// when the label needs another height at its width (a wrapping label) or more
// width than it has (a label on one line).
#pragma once

#include <QWidget>

class QLabel;

namespace idem {

class LabelHolder : public QWidget {
public:
    // Takes `label` as its child; place the holder where the label would go.
    explicit LabelHolder(QLabel* label, QWidget* parent = nullptr);

    // A wrapping label's room keeps the height of its tallest text until
    // its width changes or forgetTallest(): a caption that takes two lines,
    // then one, then two does not move what is under it at every step.
    void setKeepsTallest(bool keep) { keepsTallest_ = keep; }
    // The room shrinks to the label's next text (a new run begins).
    void forgetTallest();

    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Whether the label's text no longer fits the room it was given.
    bool outgrown() const;

    QLabel* label_;
    int shownHeight_ = -1;  // a wrapping label's height at its width when last laid out
    int shownWidth_ = -1;   // the width shownHeight_ is for
    bool keepsTallest_ = false;
};

}  // namespace idem
