#include "verdictglossary.h"

#include "names.h"
#include "statusdelegate.h"
#include "vocabulary.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace idem {

QString verdictMeaning(const QString& verdict) {
    if (verdict == QLatin1String("exactly-once"))
        return VerdictGlossary::tr(
            "The business effect happened once, the state agrees with it, and every caller was "
            "told what the database holds. This is what idempotency promises.");
    if (verdict == QLatin1String("duplicated"))
        return VerdictGlossary::tr(
            "The business effect happened more than once: a second order, a second credit, a "
            "second coupon. The database holds the repeat.");
    if (verdict == QLatin1String("inconsistent"))
        return VerdictGlossary::tr(
            "Effects and state disagree: money recorded for an order that is not paid, a status "
            "that moved backwards, stock that lost an update.");
    if (verdict == QLatin1String("misanswered"))
        return VerdictGlossary::tr(
            "A caller was told something the database contradicts: \"rejected\" although the "
            "effect happened, or success with another request's result.");
    if (verdict == QLatin1String("lost"))
        return VerdictGlossary::tr(
            "The effect never happened, and no retry can make it happen any more.");
    if (verdict == QLatin1String("stuck"))
        return VerdictGlossary::tr(
            "The effect happened, or still may, but the caller can never get a final answer (a "
            "record left \"in progress\" for ever).");
    return {};
}

VerdictGlossary::VerdictGlossary(QWidget* parent) : QDialog(parent), text_(new QLabel(this)) {
    setObjectName(QStringLiteral("verdictGlossary"));
    auto* layout = new QVBoxLayout(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    text_->setMargin(8);
    scroll->setWidget(text_);
    layout->addWidget(scroll, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(fontMetrics().averageCharWidth() * 80, fontMetrics().height() * 30);
    retranslate();
}

void VerdictGlossary::retranslate() {
    setWindowTitle(tr("The six verdicts"));
    QString html =
        QStringLiteral("<p>%1</p>")
            .arg(
                tr("The lab reads each verdict from the final database and from the answers "
                   "callers "
                   "got, never from the code that ran. For each intent the worst one wins, in this "
                   "order:")
                    .toHtmlEscaped());
    // Worst first, as the judge weighs them (SPEC section 2).
    for (const QString& id : {QStringLiteral("duplicated"), QStringLiteral("inconsistent"),
                              QStringLiteral("misanswered"), QStringLiteral("lost"),
                              QStringLiteral("stuck"), QStringLiteral("exactly-once")}) {
        html += QStringLiteral(
                    "<p><span style='background:%1;color:white'>&nbsp;<b>%2</b>&nbsp;</span>"
                    "&nbsp;<tt>%3</tt><br>%4</p>")
                    .arg(verdictColor(id).name(), verdictName(id).toHtmlEscaped(), id,
                         verdictMeaning(id).toHtmlEscaped());
    }
    html += QStringLiteral("<p>%1</p>")
                .arg(tr("\"Duplicated — accepted cost\" is a repeat the business chose to "
                        "tolerate (a second notification): still a repeat, and said so.")
                         .toHtmlEscaped());
    text_->setText(html);
    text_->setAccessibleName(tr("The six verdicts"));
}

void VerdictGlossary::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

}  // namespace idem
