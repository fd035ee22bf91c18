#include "keysoverlay.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace idem {

KeysOverlay::KeysOverlay(QWidget* host) : QWidget(host), panel_(new QLabel(this)) {
    setObjectName(QStringLiteral("keysOverlay"));
    setFocusPolicy(Qt::StrongFocus);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(panel_, 0, Qt::AlignHCenter);
    layout->addStretch(1);
    panel_->setTextFormat(Qt::RichText);
    panel_->setAutoFillBackground(true);
    panel_->setBackgroundRole(QPalette::Base);
    panel_->setForegroundRole(QPalette::Text);
    panel_->setMargin(16);
    panel_->setFrameShape(QFrame::Box);
    host->installEventFilter(this);
    hide();
    retranslate();
}

void KeysOverlay::toggle() {
    if (isVisible()) {
        hide();
        return;
    }
    setGeometry(parentWidget()->rect());
    fit();
    raise();
    show();
    setFocus(Qt::ShortcutFocusReason);
}

QString KeysOverlay::keyTable() {
    const QList<QPair<QString, QString>> rows{
        {QStringLiteral("F5"),
         tr("Fire: run the fire panel's settings (from any tab; shows Live)")},
        {tr("Space"), tr("Play / pause")},
        {tr("→ or Page Down"), tr("Next step (a presentation remote sends these)")},
        {tr("← or Page Up"), tr("Step back")},
        {QStringLiteral("Home / End"), tr("Start / end of the run")},
        {QStringLiteral("Ctrl+→"),
         tr("Play to the next turn (a crash, a refusal, a retry, an alert)")},
        {QStringLiteral("[ / ]"), tr("Slower / faster")},
        {tr("Escape or Enter"), tr("Leave the field being edited: the keys above work again")},
        {QStringLiteral("Tab / Shift+Tab"), tr("Next / previous region")},
        {tr("Enter or Space"), tr("Press the focused button, tick the focused check box")},
        {tr("Enter (scenario list)"), tr("Load the highlighted scenario (↑/↓ only highlight)")},
        {QStringLiteral("Alt+1 … Alt+4"), tr("Live, Compare, Pagination, Experiment")},
        {tr("Ctrl+Page Up / Down"), tr("Previous / next tab")},
        {QStringLiteral("Ctrl+K"), tr("Compare ↔ Live")},
        {QStringLiteral("Ctrl+1 / Ctrl+2"), tr("Show or hide the side panels")},
        {QStringLiteral("F2"), tr("Choose a guided lesson")},
        {tr("Page Down / Up (lesson)"), tr("Next frame (first a prediction's answer) / back")},
        {tr("Space / F5 / Escape (lesson)"),
         tr("Play the frame again / fire its run anew / its run as it was")},
        {QStringLiteral("Shift+F2"), tr("Leave the lesson: back to free play")},
        {QStringLiteral("F6 / F7 / F8 / F9"),
         tr("Sequence, state, tables or Compare alone (the same key: all again)")},
        {QStringLiteral("Ctrl+P"), tr("Predict first: the verdict hidden until the end")},
        {QStringLiteral("F11"), tr("Presenter mode: full screen, large fonts")},
        {QStringLiteral("B / ."),
         tr("Black screen (a remote's blank key); the same key or any other brings the stage "
            "back")},
        {QStringLiteral("Ctrl+T"), tr("Dark theme")},
        {QStringLiteral("Ctrl + / Ctrl − / Ctrl+0"), tr("Zoom in / out / normal size")},
        {QStringLiteral("F1"), tr("Design advisor")},
        {QStringLiteral("?"), tr("This list")},
    };
    QString html = QStringLiteral("<h2>%1</h2><table cellspacing='0' cellpadding='4'>")
                       .arg(tr("Keyboard").toHtmlEscaped());
    for (const auto& [keys, what] : rows) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    }
    return html + QStringLiteral("</table><p>%1</p>").arg(tr("Escape or ? closes this list."));
}

void KeysOverlay::retranslate() {
    panel_->setText(keyTable());
    setAccessibleName(tr("Keyboard shortcuts"));
    if (isVisible())
        fit();
}

void KeysOverlay::fit() {
    QFont f = font();
    panel_->setFont(f);
    // Inside the layout's margins, which a long list reaches.
    const QMargins m = layout()->contentsMargins();
    const QSize room = rect().size() - QSize(m.left() + m.right() + 8, m.top() + m.bottom() + 8);
    qreal size = f.pointSizeF();
    while (size > 6 && (panel_->sizeHint().height() > room.height() ||
                        panel_->sizeHint().width() > room.width())) {
        size -= 0.5;
        f.setPointSizeF(size);
        panel_->setFont(f);
    }
}

bool KeysOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible()) {
        setGeometry(parentWidget()->rect());
        fit();
    }
    return QWidget::eventFilter(watched, event);
}

void KeysOverlay::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
    // Presenter mode and zoom change the window's font: the list fits again.
    if (event->type() == QEvent::FontChange && isVisible())
        fit();
}

void KeysOverlay::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_Question ||
        event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        hide();
        return;
    }
    QWidget::keyPressEvent(event);
}

void KeysOverlay::mousePressEvent(QMouseEvent*) {
    hide();
}

void KeysOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    QColor shade = palette().color(QPalette::Shadow);
    shade.setAlpha(150);
    p.fillRect(rect(), shade);
}

}  // namespace idem
