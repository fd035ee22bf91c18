#include "outcomepanel.h"

#include "names.h"
#include "relativefont.h"
#include "statusdelegate.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace idem {

OutcomePanel::OutcomePanel(QWidget* parent)
    : QWidget(parent),
      alert_(new QLabel(this)),
      verdict_(new QLabel(this)),
      details_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    alert_->setWordWrap(true);
    alert_->setAutoFillBackground(true);
    alert_->setMargin(6);
    QPalette red = alert_->palette();
    red.setColor(QPalette::Window, QColor(0xd6, 0x30, 0x31));
    red.setColor(QPalette::WindowText, Qt::white);
    alert_->setPalette(red);
    alert_->hide();
    verdict_->setAlignment(Qt::AlignCenter);
    verdict_->setWordWrap(true);
    verdict_->setAutoFillBackground(true);
    verdict_->setMargin(8);
    setRelativeFont(verdict_, 1.8, true);
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(alert_);
    layout->addWidget(verdict_);
    layout->addWidget(details_, 1);
    render();
}

void OutcomePanel::showSummary(const Summary& summary, bool final) {
    summary_ = summary;
    final_ = final;
    render();
}

void OutcomePanel::clear() {
    summary_.reset();
    final_ = false;
    render();
}

QString OutcomePanel::verdictText() const {
    return verdict_->text();
}
bool OutcomePanel::alertVisible() const {
    return !alert_->isHidden();
}

void OutcomePanel::setVerdictVisible(bool visible) {
    verdict_->setVisible(visible);
}

void OutcomePanel::render() {
    if (!summary_) {
        verdict_->setText(tr("Fire to start a run"));
        verdict_->setPalette(palette());
        details_->clear();
        alert_->hide();
        emit verdictShown(verdict_->text(), palette().color(QPalette::AlternateBase),
                          palette().color(QPalette::WindowText));
        return;
    }
    const Summary& s = *summary_;
    const QString verdict = toId(s.verdict);
    QPalette p = verdict_->palette();
    // Mid-run, only a duplicate is already certain: lost or stuck can still
    // turn out well before the run ends.
    if (final_ || verdict == QLatin1String("duplicated")) {
        verdict_->setText(final_ ? verdictName(verdict)
                                 : tr("so far: %1").arg(verdictName(verdict)));
        const QColor c = verdictColor(verdict);
        p.setColor(QPalette::Window, final_ ? c : c.lighter(125));
        p.setColor(QPalette::WindowText, Qt::white);
    } else {
        verdict_->setText(tr("running… the verdict comes at the end"));
        p.setColor(QPalette::Window, palette().color(QPalette::AlternateBase));
        p.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
    }
    verdict_->setPalette(p);
    emit verdictShown(verdict_->text(), p.color(QPalette::Window), p.color(QPalette::WindowText));

    // One line per fact (name: value), which wraps well in a narrow dock
    // and in presenter-size fonts.
    QString html;
    auto row = [&html](const QString& k, const QString& v) {
        html +=
            QStringLiteral("<p style='margin:2px 0'><b>%1</b>: %2</p>").arg(k.toHtmlEscaped(), v);
    };
    row(tr("Intents"), QString::number(s.intents));
    row(tr("Attempts"), QString::number(s.attempts));
    for (auto it = s.expectedEffects.cbegin(); it != s.expectedEffects.cend(); ++it) {
        const qint64 got = s.effects.value(it.key());
        const qint64 want = it.value();
        const QString colour = got == want ? "#27ae60" : "#d63031";
        row(tr("Effect “%1”").arg(it.key()),
            tr("<span style='color:%1'><b>%2</b></span> (expected %3)")
                .arg(colour)
                .arg(got)
                .arg(want));
    }
    QStringList responses;
    for (std::size_t r = 0; r < s.responses.size(); ++r) {
        if (s.responses[r] > 0) {
            responses << QStringLiteral("%1 × %2")
                             .arg(responseName(toId(Response(r))))
                             .arg(s.responses[r]);
        }
    }
    row(tr("Responses"), responses.isEmpty() ? QStringLiteral("—") : responses.join(", "));
    if (s.intents > 1) {
        QStringList parts;
        for (std::size_t v = 0; v < s.verdicts.size(); ++v) {
            if (s.verdicts[v] > 0) {
                parts << QStringLiteral("%1 × %2")
                             .arg(verdictName(toId(Verdict(v))))
                             .arg(s.verdicts[v]);
            }
        }
        row(tr("Per intent"), parts.join(", "));
    }
    for (const QString& why : s.inconsistencies) row(tr("Inconsistent"), why.toHtmlEscaped());
    if (!s.integrity.isEmpty())
        row(tr("Integrity check"), s.integrity.toHtmlEscaped());
    details_->setText(html);

    if (s.alerts.isEmpty()) {
        alert_->hide();
    } else {
        QStringList lines;
        for (const AlertRecord& a : s.alerts) {
            lines << tr("⚠ ALERT: %1 duplicates of %2 — %3").arg(a.count).arg(a.key, a.message);
        }
        alert_->setText(lines.join('\n'));
        alert_->show();
    }
}

void OutcomePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        render();
    QWidget::changeEvent(event);
}

}  // namespace idem
