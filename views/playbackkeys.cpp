#include "playbackkeys.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace idem {

namespace {

// The field a widget belongs to: a spin box or an editable combo box for the
// line edit inside it, the widget itself for a writable text widget.
QWidget* textFieldOf(QWidget* w) {
    if (!w)
        return nullptr;
    QWidget* parent = w->parentWidget();
    if (qobject_cast<QAbstractSpinBox*>(w))
        return w;
    if (auto* combo = qobject_cast<QComboBox*>(w))
        return combo->isEditable() ? combo : nullptr;
    if (auto* line = qobject_cast<QLineEdit*>(w)) {
        if (qobject_cast<QAbstractSpinBox*>(parent) || qobject_cast<QComboBox*>(parent))
            return parent;
        return line->isReadOnly() ? nullptr : line;
    }
    if (auto* text = qobject_cast<QTextEdit*>(w))
        return text->isReadOnly() ? nullptr : text;
    if (auto* plain = qobject_cast<QPlainTextEdit*>(w))
        return plain->isReadOnly() ? nullptr : plain;
    return nullptr;
}

bool isEnter(const QKeyEvent* e) {
    return e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter;
}

bool plainModifiers(const QKeyEvent* e) {
    return (e->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
}

// A key that types into a field (and so starts an edit).
bool typesText(const QKeyEvent* e) {
    if (e->key() == Qt::Key_Backspace || e->key() == Qt::Key_Delete)
        return true;
    if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    const QString text = e->text();
    return !text.isEmpty() && text.at(0).isPrint();
}

// Space belongs to a focused button, or to a list whose current item has a check box.
bool spaceBelongsTo(QWidget* w) {
    if (auto* button = qobject_cast<QAbstractButton*>(w))
        return button->isEnabled();
    if (auto* view = qobject_cast<QAbstractItemView*>(w)) {
        // A check box the item shows, not only the flag (a QTableWidgetItem
        // has it by default, with no box drawn).
        const QModelIndex current = view->currentIndex();
        return current.flags().testFlag(Qt::ItemIsUserCheckable) &&
               current.data(Qt::CheckStateRole).isValid();
    }
    return false;
}

}  // namespace

PlaybackKeys::PlaybackKeys(QWidget* window) : QObject(window), window_(window) {
    qApp->installEventFilter(this);
    // Leaving a field ends its edit, however the focus left.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (editing_ && textFieldOf(now) != editing_)
            editing_ = nullptr;
    });
}

PlaybackKeys::~PlaybackKeys() {
    qApp->removeEventFilter(this);
}

bool PlaybackKeys::isPlaybackKey(const QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Space:
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
        case Qt::Key_Home:
        case Qt::Key_End:
        case Qt::Key_BracketLeft:
        case Qt::Key_BracketRight:
            return plainModifiers(e);
        case Qt::Key_Question:  // Shift+/ on most layouts
            return (e->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier)) == 0;
        default:
            return false;
    }
}

bool PlaybackKeys::inWindow(const QWidget* w) const {
    return w && w->window() == window_;
}

bool PlaybackKeys::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress &&
        type != QEvent::MouseButtonPress) {
        return false;
    }
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget)
        return false;
    if (type == QEvent::MouseButtonPress) {
        // A click into a field is the start of an edit.
        if (QWidget* field = textFieldOf(widget); field && inWindow(field))
            editing_ = field;
        return false;
    }
    // Key events travel up the parents when ignored: act once, where they start.
    QWidget* focus = QApplication::focusWidget();
    if (focus && widget != focus)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    return type == QEvent::ShortcutOverride ? onShortcutOverride(widget, key)
                                            : onKeyPress(widget, key);
}

bool PlaybackKeys::onShortcutOverride(QWidget* target, QKeyEvent* event) {
    if (!inWindow(target) || !isPlaybackKey(event))
        return false;
    if (QWidget* field = textFieldOf(target); field && field == editing_)
        return false;  // the field's own keys while it is edited
    if (event->key() == Qt::Key_Space && spaceBelongsTo(target)) {
        event->accept();  // the widget takes it as a key press
        return true;
    }
    // Not accepted: the window's shortcut for this key runs.
    event->ignore();
    return true;
}

bool PlaybackKeys::onKeyPress(QWidget* target, QKeyEvent* event) {
    if (QWidget* field = textFieldOf(target)) {
        if (!inWindow(field))
            return false;
        if (event->key() == Qt::Key_Escape || isEnter(event)) {
            editing_ = nullptr;  // the key still reaches the field (Enter commits)
        } else if (typesText(event)) {
            editing_ = field;
        }
        return false;
    }
    if (isEnter(event) && plainModifiers(event)) {
        if (auto* button = qobject_cast<QAbstractButton*>(target); button && button->isEnabled()) {
            button->animateClick();
            return true;
        }
    }
    return false;
}

}  // namespace idem
