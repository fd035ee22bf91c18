#include "welcomecard.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace idem {

namespace {
// Room between the card and the top of the widget it floats over.
constexpr int kInset = 12;
// The card's width in average characters, at most (less on a narrow window).
constexpr int kWidthChars = 64;
}  // namespace

WelcomeCard::WelcomeCard(QWidget* window, QWidget* over)
    : QFrame(window),
      over_(over),
      title_(new QLabel(this)),
      text_(new QLabel(this)),
      start_(new QPushButton(this)),
      later_(new QPushButton(this)) {
    setFrameShape(QFrame::StyledPanel);
    setFrameShadow(QFrame::Raised);
    setLineWidth(2);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    QFont bold = title_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    title_->setFont(bold);
    title_->setWordWrap(true);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(start_);
    buttons->addWidget(later_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(10);
    layout->addWidget(title_);
    layout->addWidget(text_);
    layout->addLayout(buttons);
    connect(start_, &QPushButton::clicked, this, [this] {
        close();
        emit started();
    });
    connect(later_, &QPushButton::clicked, this, &QWidget::close);
    over_->installEventFilter(this);
    hide();
}

void WelcomeCard::setTexts(const QString& title, const QString& text, const QString& start,
                           const QString& later) {
    title_->setText(title);
    text_->setText(text);
    start_->setText(start);
    later_->setText(later);
    setAccessibleName(title);
    setAccessibleDescription(text);
    place();
}

void WelcomeCard::offer() {
    show();
    raise();
    start_->setFocus(Qt::OtherFocusReason);
}

void WelcomeCard::place() {
    if (!isVisible() || !over_)
        return;
    const QRect area = over_->geometry();
    const int width = std::min(fontMetrics().averageCharWidth() * kWidthChars,
                               std::max(area.width() - 2 * kInset, 0));
    const int height =
        std::min(heightForWidth(width) > 0 ? heightForWidth(width) : sizeHint().height(),
                 std::max(area.height() - 2 * kInset, 0));
    const QPoint topLeft = over_->parentWidget()->mapTo(
        parentWidget(), QPoint(area.left() + (area.width() - width) / 2, area.top() + kInset));
    setGeometry(QRect(topLeft, QSize(width, height)));
    raise();
}

bool WelcomeCard::event(QEvent* event) {
    // Esc and Enter are the card's while it has the focus, not the window's
    // shortcuts (Esc also stops a job).
    if (event->type() == QEvent::ShortcutOverride) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Escape || key == Qt::Key_Return || key == Qt::Key_Enter) {
            event->accept();
            return true;
        }
    }
    return QFrame::event(event);
}

bool WelcomeCard::eventFilter(QObject* watched, QEvent* event) {
    if (watched == over_ && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        place();
    return QFrame::eventFilter(watched, event);
}

void WelcomeCard::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Escape:
            close();
            return;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (later_->hasFocus())
                later_->click();
            else
                start_->click();
            return;
        default:
            QFrame::keyPressEvent(event);
    }
}

void WelcomeCard::showEvent(QShowEvent* event) {
    QFrame::showEvent(event);
    place();
}

}  // namespace idem
