#include "relativefont.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

namespace idem {

namespace {

class RelativeFont : public QObject {
public:
    RelativeFont(QWidget* widget, double factor, bool bold)
        : QObject(widget), widget_(widget), factor_(factor), bold_(bold) {
        apply();
        widget->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == widget_ && event->type() == QEvent::ApplicationFontChange)
            apply();
        return false;
    }

private:
    void apply() {
        QFont f = QApplication::font(widget_);
        f.setPointSizeF(f.pointSizeF() * factor_);
        f.setBold(bold_);
        widget_->setFont(f);
    }

    QWidget* widget_;
    double factor_;
    bool bold_;
};

}  // namespace

void setRelativeFont(QWidget* widget, double factor, bool bold) {
    for (QObject* child : widget->children()) {
        if (dynamic_cast<RelativeFont*>(child))
            delete child;
    }
    new RelativeFont(widget, factor, bold);
}

}  // namespace idem
