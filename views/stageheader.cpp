#include "stageheader.h"

#include "relativefont.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace idem {

namespace {

// A label that paints its own background: inside a tool bar, a palette's
// window colour alone is not drawn.
class Banner : public QLabel {
public:
    using QLabel::QLabel;
    QColor background;

protected:
    void paintEvent(QPaintEvent* event) override {
        QPainter(this).fillRect(rect(), background);
        QLabel::paintEvent(event);
    }
};

// A banner of one line: what does not fit ends in … (the whole text is its
// tooltip and its accessible name), so that a long alert lays nothing out.
class OneLineBanner : public Banner {
public:
    using Banner::Banner;
    QSize sizeHint() const override {
        return {fontMetrics().averageCharWidth() * 10, QLabel::sizeHint().height()};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), background);
        p.setPen(palette().color(QPalette::WindowText));
        p.setFont(font());
        const QRect r = contentsRect().adjusted(margin(), 0, -margin(), 0);
        const QString line = text().section(QLatin1Char('\n'), 0, 0);
        p.drawText(r, Qt::AlignCenter, fontMetrics().elidedText(line, Qt::ElideRight, r.width()));
    }
};

// One line of text that takes whatever width it is given: what does not fit
// ends in … (the whole line is in the tooltip and in the unfolded panel).
class OneLine : public QLabel {
public:
    using QLabel::QLabel;
    QSize sizeHint() const override {
        return {fontMetrics().averageCharWidth() * 10, QLabel::sizeHint().height()};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setPen(palette().color(QPalette::WindowText));
        const QRect r = contentsRect();
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};

// The settings line beside the page tabs: it asks for the width the tabs
// leave in their row (QTabWidget gives a corner widget the width it asks for,
// the tabs' own included).
class CornerLine : public QWidget {
public:
    using QWidget::QWidget;
    QSize sizeHint() const override {
        QSize size = QWidget::sizeHint();
        if (auto* pages = qobject_cast<QTabWidget*>(parentWidget())) {
            const int tabs = pages->tabBar()->sizeHint().width();
            size.setWidth(std::max(minimumSizeHint().width(), pages->width() - tabs - 4));
        }
        return size;
    }
};

}  // namespace

StageHeader::StageHeader(QWidget* parent)
    : QWidget(parent),
      verdict_(new Banner(this)),
      alert_(new OneLineBanner(this)),
      line_(new CornerLine(this)),
      settings_(new OneLine(line_)),
      expand_(new QPushButton(line_)) {
    setObjectName(QStringLiteral("stageHeader"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    verdict_->setObjectName(QStringLiteral("verdictBanner"));
    // In presenter mode the banner is the verdict (the outcome panel's is
    // hidden): Tab reaches it, so that a screen reader reads it out.
    verdict_->setFocusPolicy(Qt::TabFocus);
    verdict_->setAlignment(Qt::AlignCenter);
    verdict_->setMargin(2);
    setRelativeFont(verdict_, 1.25, true);
    layout->addWidget(verdict_);
    alert_->setObjectName(QStringLiteral("alertBanner"));
    alert_->setAlignment(Qt::AlignCenter);
    alert_->setMargin(4);
    alert_->setTextFormat(Qt::PlainText);
    // Dark red under white text (WCAG AA), in either theme.
    static_cast<Banner*>(alert_)->background = QColor(0xc6, 0x28, 0x28);
    QPalette white = alert_->palette();
    white.setColor(QPalette::WindowText, Qt::white);
    alert_->setPalette(white);
    setRelativeFont(alert_, 1.1, true);
    alert_->hide();
    layout->addWidget(alert_);
    line_->setObjectName(QStringLiteral("settingsLine"));
    auto* row = new QHBoxLayout(line_);
    row->setContentsMargins(8, 0, 4, 0);
    expand_->setCheckable(true);
    settings_->setTextFormat(Qt::PlainText);
    settings_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    // Across the whole tool bar it sits in.
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    row->addWidget(expand_);
    row->addWidget(settings_, 1);
    line_->hide();
    connect(expand_, &QPushButton::toggled, this, [this](bool on) {
        retranslate();
        emit expandToggled(on);
    });
    retranslate();
}

void StageHeader::setVerdict(const QString& text, const QColor& background,
                             const QColor& foreground) {
    verdict_->setText(text);
    static_cast<Banner*>(verdict_)->background = background;
    QPalette p = verdict_->palette();
    p.setColor(QPalette::WindowText, foreground);
    verdict_->setPalette(p);
    verdict_->update();
    verdict_->setAccessibleName(text);
}

void StageHeader::setVerdictDescription(const QString& description) {
    verdict_->setAccessibleDescription(description);
    verdict_->setToolTip(description);
}

void StageHeader::setAlert(const QString& text) {
    if (text == alert_->text())
        return;
    const bool was = !alert_->text().isEmpty();
    alert_->setText(text);
    alert_->setToolTip(text);
    alert_->setAccessibleName(text);
    alert_->setVisible(!text.isEmpty());
    if (was != !text.isEmpty())
        emit alertChanged(!text.isEmpty());
}

QString StageHeader::alertText() const {
    return alert_->text();
}

void StageHeader::setVerdictShown(bool shown) {
    verdict_->setVisible(shown);
}

bool StageHeader::isVerdictShown() const {
    return verdict_->isVisibleTo(this);
}

void StageHeader::setSettings(const QString& summary) {
    settings_->setText(summary);
    settings_->setToolTip(summary);
}

void StageHeader::setExpanded(bool expanded) {
    expand_->setChecked(expanded);
}

QString StageHeader::verdictText() const {
    return verdict_->text();
}

QString StageHeader::settingsText() const {
    return settings_->text();
}

void StageHeader::retranslate() {
    expand_->setText(expand_->isChecked() ? tr("Settin&gs ◂") : tr("Settin&gs ▸"));
    expand_->setToolTip(tr("Show or hide the scenario list and the fire panel (Ctrl+1)"));
    expand_->setAccessibleName(tr("Show the scenario list and the fire panel"));
}

void StageHeader::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace idem
