#include "outcomepanel.h"

#include "names.h"
#include "statusdelegate.h"

#include <QEvent>
#include <QJsonArray>
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
    QFont f = verdict_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.8);
    verdict_->setFont(f);
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(alert_);
    layout->addWidget(verdict_);
    layout->addWidget(details_, 1);
    render();
}

void OutcomePanel::showSummary(const QJsonObject& summary, bool final) {
    summary_ = summary;
    final_ = final;
    render();
}

QString OutcomePanel::verdictText() const {
    return verdict_->text();
}
bool OutcomePanel::alertVisible() const {
    return !alert_->isHidden();
}

void OutcomePanel::render() {
    if (summary_.isEmpty()) {
        verdict_->setText(tr("Fire to start a run"));
        verdict_->setPalette(palette());
        details_->clear();
        alert_->hide();
        return;
    }
    const QString verdict = summary_.value("verdict").toString();
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

    // One line per fact (name: value), which wraps well in a narrow dock
    // and in presenter-size fonts.
    QString html;
    auto row = [&html](const QString& k, const QString& v) {
        html +=
            QStringLiteral("<p style='margin:2px 0'><b>%1</b>: %2</p>").arg(k.toHtmlEscaped(), v);
    };
    row(tr("Intents"), QString::number(summary_.value("intents").toInt()));
    row(tr("Attempts"), QString::number(summary_.value("attempts").toInt()));
    const QJsonObject effects = summary_.value("effects").toObject();
    const QJsonObject expected = summary_.value("expected_effects").toObject();
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const qint64 got = effects.value(it.key()).toInteger();
        const qint64 want = it.value().toInteger();
        const QString colour = got == want ? "#27ae60" : "#d63031";
        row(tr("Effect “%1”").arg(it.key()),
            tr("<span style='color:%1'><b>%2</b></span> (expected %3)")
                .arg(colour)
                .arg(got)
                .arg(want));
    }
    QStringList responses;
    const QJsonObject r = summary_.value("responses").toObject();
    for (const char* id : {"success", "in-progress", "rejected", "error", "none"}) {
        const int n = r.value(QLatin1String(id)).toInt();
        if (n > 0)
            responses << QStringLiteral("%1 × %2").arg(responseName(QLatin1String(id))).arg(n);
    }
    row(tr("Responses"), responses.isEmpty() ? QStringLiteral("—") : responses.join(", "));
    const QJsonObject verdicts = summary_.value("verdicts").toObject();
    if (summary_.value("intents").toInt() > 1) {
        QStringList parts;
        for (auto it = verdicts.begin(); it != verdicts.end(); ++it) {
            parts << QStringLiteral("%1 × %2").arg(verdictName(it.key())).arg(it.value().toInt());
        }
        row(tr("Per intent"), parts.join(", "));
    }
    for (const QJsonValue& why : summary_.value("inconsistencies").toArray()) {
        row(tr("Inconsistent"), why.toString().toHtmlEscaped());
    }
    if (summary_.contains("integrity")) {
        row(tr("Integrity check"), summary_.value("integrity").toString().toHtmlEscaped());
    }
    details_->setText(html);

    const QJsonArray alerts = summary_.value("alerts").toArray();
    if (alerts.isEmpty()) {
        alert_->hide();
    } else {
        QStringList lines;
        for (const QJsonValue& a : alerts) {
            const QJsonObject o = a.toObject();
            lines << tr("⚠ ALERT: %1 duplicates of %2 — %3")
                         .arg(o.value("count").toInteger())
                         .arg(o.value("key").toString(), o.value("message").toString());
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
