#include "explanationview.h"

#include "texts.h"

#include <QEvent>

namespace idem {

namespace {
QString paragraphs(const QString& text) {
    QString html;
    for (const QString& p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts)) {
        html += QStringLiteral("<p>%1</p>").arg(p.toHtmlEscaped());
    }
    return html;
}
}  // namespace

ExplanationView::ExplanationView(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(false);
    setTabChangesFocus(true);
}

void ExplanationView::showFor(const RunConfig& config) {
    config_ = config;
    render();
}

void ExplanationView::render() {
    const Texts& t = Texts::instance();
    const QString id = config_.scenario;
    if (id.isEmpty()) {
        setHtml(tr("<p>Pick a scenario on the left.</p>"));
        return;
    }
    QString html = QStringLiteral("<h2>%1</h2>").arg(t.get(id, "title").toHtmlEscaped());
    html += QStringLiteral("<p><i>%1 — %2</i></p>")
                .arg(t.get(id, "technique").toHtmlEscaped(), t.get(id, "reason").toHtmlEscaped());
    html += paragraphs(t.get(id, "business"));
    html += QStringLiteral("<h3>%1</h3>").arg(tr("Where the duplicates come from"));
    html += paragraphs(t.get(id, "duplicates"));
    const QString variantTitle = t.variantTitle(id, config_.variant);
    html += QStringLiteral("<h3>%1: %2</h3>")
                .arg(tr("This variant"),
                     (variantTitle.isEmpty() ? config_.variant : variantTitle).toHtmlEscaped());
    html += paragraphs(t.variantText(id, config_.variant));
    if (config_.crash != CrashPoint::None) {
        const QString crash =
            Texts::pick(t.scenario(id).value("crash_points").toObject().value(toId(config_.crash)));
        if (!crash.isEmpty()) {
            html += QStringLiteral("<h3>%1</h3>").arg(tr("The crash point"));
            html += paragraphs(crash);
        }
    }
    html += QStringLiteral("<h3>%1</h3>").arg(tr("What to watch"));
    html += paragraphs(t.get(id, "watch"));
    setHtml(html);
}

void ExplanationView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("Explanation"));
        render();
    }
    QTextBrowser::changeEvent(event);
}

}  // namespace idem
