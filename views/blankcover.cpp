#include "blankcover.h"

#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QPainter>

namespace idem {

BlankCover::BlankCover(QWidget* host) : QWidget(host) {
    setObjectName(QStringLiteral("blankCover"));
    setFocusPolicy(Qt::NoFocus);
    // Black in the dark and the light theme alike, drawn whole.
    setAttribute(Qt::WA_OpaquePaintEvent);
    host->installEventFilter(this);
    hide();
    retranslate();
}

bool BlankCover::isBlankingKey(const QKeyEvent* event) {
    const bool plain = (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
    return plain && (event->key() == Qt::Key_B || event->key() == Qt::Key_Period);
}

void BlankCover::toggle() {
    if (isVisible())
        uncover();
    else
        cover();
}

void BlankCover::cover() {
    setGeometry(parentWidget()->rect());
    raise();
    show();
    // Installed last, so it hears a key before the window's own filters do.
    qApp->installEventFilter(this);
}

void BlankCover::uncover() {
    qApp->removeEventFilter(this);
    hide();
}

void BlankCover::retranslate() {
    setAccessibleName(tr("Screen blanked: any key brings the stage back"));
}

bool BlankCover::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (watched == parentWidget() && type == QEvent::Resize && isVisible())
        setGeometry(parentWidget()->rect());
    if (!isVisible())
        return QWidget::eventFilter(watched, event);
    auto* widget = qobject_cast<QWidget*>(watched);
    // Something raised over the cover (the floating status line) goes under it again.
    if (type == QEvent::ZOrderChange && widget && widget != this &&
        widget->parentWidget() == parentWidget()) {
        raise();
    }
    if ((type == QEvent::ShortcutOverride || type == QEvent::KeyPress) && widget &&
        widget->window() == window()) {
        auto* key = static_cast<QKeyEvent*>(event);
        switch (key->key()) {
            case Qt::Key_Shift:
            case Qt::Key_Control:
            case Qt::Key_Alt:
            case Qt::Key_Meta:
            case Qt::Key_AltGr:
                break;  // half of a key still to come
            default:
                // B or . as a shortcut toggles the cover itself; as text typed
                // into a field (a key press) it brings the stage back like any key.
                if (type == QEvent::KeyPress || !isBlankingKey(key))
                    uncover();
        }
    }
    // The key itself goes on to do what it does.
    return QWidget::eventFilter(watched, event);
}

void BlankCover::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void BlankCover::mousePressEvent(QMouseEvent*) {
    uncover();
}

void BlankCover::paintEvent(QPaintEvent*) {
    QPainter(this).fillRect(rect(), Qt::black);
}

}  // namespace idem
