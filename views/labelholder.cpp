#include "labelholder.h"

#include <QEvent>
#include <QLabel>

#include <algorithm>

namespace idem {

LabelHolder::LabelHolder(QLabel* label, QWidget* parent) : QWidget(parent), label_(label) {
    label_->setParent(this);
    QSizePolicy policy = label_->sizePolicy();
    policy.setHeightForWidth(label_->wordWrap());
    setSizePolicy(policy);
}

bool LabelHolder::hasHeightForWidth() const {
    return label_->wordWrap();
}

int LabelHolder::heightForWidth(int width) const {
    const int needed = label_->heightForWidth(width);
    return keepsTallest_ && width == shownWidth_ ? std::max(needed, shownHeight_) : needed;
}

QSize LabelHolder::sizeHint() const {
    QSize hint = label_->sizeHint();
    if (keepsTallest_ && label_->wordWrap())
        hint.setHeight(std::max(hint.height(), heightForWidth(width())));
    return hint;
}

void LabelHolder::forgetTallest() {
    shownHeight_ = -1;  // the next text's height is the room's
    updateGeometry();
}

QSize LabelHolder::minimumSizeHint() const {
    return label_->minimumSizeHint();
}

bool LabelHolder::outgrown() const {
    if (label_->wordWrap()) {
        const int needed = label_->heightForWidth(width());
        return keepsTallest_ ? needed > shownHeight_ : needed != shownHeight_;
    }
    const QSize needed = label_->sizeHint();
    return needed.width() > width() || needed.height() > height();
}

bool LabelHolder::event(QEvent* event) {
    // The label's text changed: only a text that no longer fits concerns the layout.
    if (event->type() == QEvent::LayoutRequest) {
        if (outgrown()) {
            shownHeight_ = label_->heightForWidth(width());
            shownWidth_ = width();
            updateGeometry();
        }
        return true;
    }
    return QWidget::event(event);
}

void LabelHolder::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    label_->setGeometry(rect());
    const int needed = label_->heightForWidth(width());
    shownHeight_ =
        keepsTallest_ && width() == shownWidth_ ? std::max(needed, shownHeight_) : needed;
    shownWidth_ = width();
}

}  // namespace idem
