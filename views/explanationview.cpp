#include "explanationview.h"

#include "texts.h"

#include <QEvent>
#include <QFontInfo>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextDocument>

namespace idem {

namespace {
QString paragraphs(const QString& text) {
    QString html;
    for (const QString& p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts)) {
        html += QStringLiteral("<p>%1</p>").arg(p.toHtmlEscaped());
    }
    return html;
}

// The scenario's title: a paragraph in a size of its own.
constexpr char kTitle[] =
    "<p style=\"font-size:%1px; font-weight:700; margin-top:10px; margin-bottom:10px\">%2</p>";

// The pixel size at which a heading's longest word fits `width` (at most
// `scale` times the body font, at least the body font): a narrow dock
// shrinks a heading rather than breaking "Transactional" in the middle.
// Measured by laying the word out as the document will (a paragraph, as
// Qt's rich text keeps an <h2>'s own size whatever its style says).
int headingPixels(const QString& text, const QFont& body, double scale, double width) {
    const int bodyPx = body.pixelSize() > 0 ? body.pixelSize() : QFontInfo(body).pixelSize();
    QString longest;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (word.size() > longest.size())
            longest = word;
    int px = int(bodyPx * scale);
    QTextDocument scratch;
    scratch.setDefaultFont(body);
    scratch.setDocumentMargin(0);
    for (; px > bodyPx; --px) {
        scratch.setHtml(QString::fromLatin1(kTitle).arg(px).arg(longest.toHtmlEscaped()));
        if (scratch.idealWidth() <= width)
            break;
    }
    return px;
}

}  // namespace

ExplanationView::ExplanationView(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(false);
    setTabChangesFocus(true);
    setAccessibleName(tr("Explanation"));
}

void ExplanationView::showFor(const RunConfig& config) {
    config_ = config;
    render();
}

void ExplanationView::setHeld(bool held) {
    held_ = held;
    if (!held_ && stale_ && isVisible())
        render();
}

void ExplanationView::render() {
    if (!isVisible() || held_) {
        stale_ = true;
        return;
    }
    stale_ = false;
    const Texts& t = Texts::instance();
    const QString id = config_.scenario;
    if (id.isEmpty()) {
        shownHtml_.clear();
        setHtml(tr("<p>Pick a scenario on the left.</p>"));
        return;
    }
    const QString title = t.get(id, "title");
    headingPx_ = titlePixels();
    QString html = QString::fromLatin1(kTitle).arg(headingPx_).arg(title.toHtmlEscaped());
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
    // Fired again with other counts: the same text, laid out already and
    // perhaps scrolled by the reader; it stays as it is.
    if (html == shownHtml_)
        return;
    shownHtml_ = html;
    setHtml(html);
}

int ExplanationView::titlePixels() const {
    // The room a line has: the widget less its frame, a scroll bar (whether
    // shown or not, so that one coming and going changes nothing) and the
    // document's margins.
    const double room = width() - 2 * frameWidth() - verticalScrollBar()->sizeHint().width() -
                        2 * document()->documentMargin() - 4;
    return headingPixels(Texts::instance().get(config_.scenario, "title"), font(), 1.5, room);
}

void ExplanationView::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    // The title's size follows the width; the text is laid out again only
    // when that size changes (not at every step of a splitter's drag).
    if (!config_.scenario.isEmpty() && isVisible() && (stale_ || titlePixels() != headingPx_)) {
        const int scroll = verticalScrollBar()->value();
        render();
        verticalScrollBar()->setValue(scroll);
    }
}

void ExplanationView::showEvent(QShowEvent* event) {
    // Shown for the first time, the view is given its size just after: the
    // text is laid out then, once, at that size (see resizeEvent), or at the
    // latest before the next paint.
    if (stale_) {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (stale_ && isVisible())
                    render();
            },
            Qt::QueuedConnection);
    }
    QTextBrowser::showEvent(event);
}

void ExplanationView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        setAccessibleName(tr("Explanation"));
        render();
    }
    QTextBrowser::changeEvent(event);
}

}  // namespace idem
