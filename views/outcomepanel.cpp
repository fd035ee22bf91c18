#include "outcomepanel.h"

#include "sqlstatement.h"

#include "contrast.h"
#include "drawthrottle.h"
#include "labelholder.h"
#include "names.h"
#include "outcometexts.h"
#include "relativefont.h"
#include "serverinstall.h"
#include "sqlconnection.h"
#include "statusdelegate.h"
#include "texts.h"
#include "traceevent.h"
#include "verdictglossary.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace idem {

namespace {

// A variant as the fire panel names it ("偏移量分页"), its id when it has no title.
QString variantShown(const RunConfig& c) {
    const QString title = Texts::instance().variantTitle(c.scenario, c.variant);
    return title.isEmpty() ? c.variant : title;
}

}  // namespace

OutcomePanel::OutcomePanel(QWidget* parent)
    : QWidget(parent),
      alert_(new QLabel(this)),
      verdict_(new QLabel(this)),
      details_(new QLabel(this)),
      drawing_(new DrawThrottle([this] { render(); }, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    alert_->setWordWrap(true);
    alert_->setAutoFillBackground(true);
    alert_->setMargin(6);
    QPalette red = alert_->palette();
    red.setColor(QPalette::Window, verdictColor(QStringLiteral("duplicated")));
    red.setColor(QPalette::WindowText, Qt::white);
    alert_->setPalette(red);
    alert_->hide();
    verdict_->setAlignment(Qt::AlignCenter);
    verdict_->setWordWrap(true);
    verdict_->setAutoFillBackground(true);
    verdict_->setMargin(8);
    // Reached with Tab, so that a screen reader reads the verdict and its meaning.
    verdict_->setFocusPolicy(Qt::TabFocus);
    verdict_->setObjectName(QStringLiteral("verdict"));
    setRelativeFont(verdict_, 1.8, true);
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(alert_);
    layout->addWidget(verdict_);
    layout->addWidget(new LabelHolder(details_, this), 1);
    render();
}

bool OutcomePanel::repeatWrote(const QList<TraceEvent>& events, qsizetype from, qsizetype to,
                               const QStringList& internalLanes) {
    for (qsizetype i = std::max<qsizetype>(from, 0); i < std::min(to, events.size()); ++i) {
        const TraceEvent& e = events[i];
        if (!e.is(EventKind::Sql) || e.attempt < 2 || e.failed() || e.rows <= 0 ||
            internalLanes.contains(e.actorName())) {
            continue;
        }
        if (changesRows(e.sql))
            return true;
    }
    return false;
}

void OutcomePanel::showSummary(const Summary& summary, bool final, bool repeatsWrote) {
    summary_ = summary;
    final_ = final;
    repeatsWrote_ = repeatsWrote;
    if (final)
        drawing_->drawNow();
    else
        drawing_->request();
}

void OutcomePanel::setRedrawInterval(int ms, int offsetMs) {
    drawing_->setInterval(ms, offsetMs);
}

void OutcomePanel::clear() {
    summary_.reset();
    final_ = false;
    alsoJudged_.clear();
    alertCountsAtEnd_.clear();
    counterpart_.reset();
    render();
}

void OutcomePanel::setCounterpart(const RunCost& cost, const QString& backend) {
    counterpart_ = std::make_pair(cost, backend);
    render();
}

QString OutcomePanel::conflictsText(const RunCost& cost) const {
    const QColor ground = palette().color(QPalette::Window);
    const QColor more = verdictColor(QStringLiteral("duplicated"));
    struct Count {
        qint64 mine;
        qint64 theirs;
        QString text;
    };
    const qint64 none = 0;
    const bool other = counterpart_.has_value();
    const RunCost& them = other ? counterpart_->first : cost;
    const Count counts[] = {
        {cost.lockWaits, them.lockWaits, tr("lock waits: %1").arg(cost.lockWaits)},
        {cost.deadlocks, them.deadlocks, tr("deadlocks: %1").arg(cost.deadlocks)},
        {cost.serializationFailures, them.serializationFailures,
         tr("serialization failures: %1").arg(cost.serializationFailures)},
    };
    QStringList parts;
    for (const Count& c : counts) {
        QString part = c.text.toHtmlEscaped();
        // Where the two databases differ, this side's count stands out
        // (more of it: in the colour of trouble) beside the other's.
        if (other && c.mine != c.theirs) {
            part = QStringLiteral("<span style='color:%1'><b>%2</b></span>")
                       .arg(readableOn(c.mine > c.theirs ? more : palette().color(QPalette::Text),
                                       ground)
                                .name(),
                            part) +
                   QLatin1Char(' ') +
                   tr("(%1 on %2)")
                       .arg(c.theirs)
                       .arg(backendName(counterpart_->second))
                       .toHtmlEscaped();
        } else if (c.mine == none && !other) {
            part = QStringLiteral("<span style='color:%1'>%2</span>")
                       .arg(palette().color(QPalette::PlaceholderText).name(), part);
        }
        parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

void OutcomePanel::setAlsoJudged(const QList<QPair<QString, QString>>& verdicts) {
    alsoJudged_ = verdicts;
    render();
}

void OutcomePanel::setAlertCountsAtEnd(const QMap<QString, qint64>& counts) {
    alertCountsAtEnd_ = counts;
    renderAlerts();
}

QString OutcomePanel::verdictText() const {
    return verdict_->text();
}

QString OutcomePanel::verdictDescription() const {
    return verdict_->accessibleDescription();
}

QString OutcomePanel::detailsText() const {
    return details_->text();
}

QString OutcomePanel::alertText() const {
    return alert_->isHidden() ? QString() : alert_->text();
}

bool OutcomePanel::alertVisible() const {
    return !alert_->isHidden();
}

void OutcomePanel::setVerdictVisible(bool visible) {
    verdict_->setVisible(visible);
}

QString OutcomePanel::spokenVerdict(const Summary& s, const QString& name,
                                    const QString& verdict) const {
    QString said = tr("Verdict: %1. %2")
                       .arg(final_ ? name.simplified() : tr("so far %1").arg(name.simplified()),
                            verdictMeaning(verdict));
    // What the database shows, which the verdict was read from.
    QStringList counts;
    for (auto it = s.expectedEffects.cbegin(); it != s.expectedEffects.cend(); ++it) {
        const qint64 got = s.effects.value(it.key());
        const QString effect = effectName(it.key());
        const qint64 want = it.value();
        if (got == 0)
            counts << tr("the effect “%1” never happened, expected %2").arg(effect).arg(want);
        else if (got == 1)
            counts << tr("the effect “%1” happened once, expected %2").arg(effect).arg(want);
        else
            counts << tr("the effect “%1” happened %2 times, expected %3")
                          .arg(effect)
                          .arg(got)
                          .arg(want);
    }
    if (!counts.isEmpty())
        said += QLatin1Char(' ') + tr("In the database, %1.").arg(counts.join(tr("; ")));
    return said;
}

void OutcomePanel::render() {
    QPalette p = verdict_->palette();
    if (!summary_) {
        verdict_->setText(tr("Fire to start a run"));
        p.setColor(QPalette::Window, palette().color(QPalette::AlternateBase));
        p.setColor(QPalette::WindowText, palette().color(QPalette::WindowText));
        verdict_->setPalette(p);
        details_->clear();
        alert_->hide();
        emit verdictShown(verdict_->text(), p.color(QPalette::Window),
                          p.color(QPalette::WindowText));
        return;
    }
    const Summary& s = *summary_;
    const QString verdict = toId(s.verdict);
    // Mid-run only a duplicate a repeat has written is certain: a count
    // below the expected one may still grow, lost or stuck may still turn
    // out well, and before any repeat wrote, an excess cannot be a repeat's.
    const bool certain = final_ || (verdict == QLatin1String("duplicated") && repeatsWrote_);
    if (certain) {
        // Repeats of an effect the business accepts (SPEC 2, Tolerated effects).
        const QString name = s.tolerated ? tr("%1\n— accepted cost").arg(verdictName(verdict))
                                         : verdictName(verdict);
        QString text = final_ ? name : tr("so far: %1").arg(name);
        // With other variants judged beside it, say which one this is.
        if (!alsoJudged_.isEmpty())
            text = QStringLiteral("%1: %2").arg(variantShown(s.config), text);
        verdict_->setText(text);
        p.setColor(QPalette::Window, verdictColor(verdict));
        p.setColor(QPalette::WindowText, Qt::white);
        // What the word means, on hover and for a screen reader.
        verdict_->setToolTip(verdictMeaning(verdict) + QLatin1Char('\n') +
                             tr("All six: Help → The six verdicts"));
        // ... and, read out, what the database shows.
        verdict_->setAccessibleDescription(spokenVerdict(s, name, verdict));
    } else {
        verdict_->setToolTip(tr("The verdict is read from the database when the run ends"));
        verdict_->setAccessibleDescription(verdict_->toolTip());
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
    const QColor ground = palette().color(QPalette::Window);
    auto coloured = [&ground](const QString& text, const QColor& c) {
        return QStringLiteral("<span style='color:%1'><b>%2</b></span>")
            .arg(readableOn(c, ground).name(), text);
    };
    // The variant as the fire panel names it, its id beside it for the CLI.
    const QString title = Texts::instance().variantTitle(s.config.scenario, s.config.variant);
    row(tr("Variant judged"),
        title.isEmpty() || title == s.config.variant
            ? s.config.variant.toHtmlEscaped()
            : QStringLiteral("%1 <tt>(%2)</tt>")
                  .arg(title.toHtmlEscaped(), s.config.variant.toHtmlEscaped()));
    row(tr("Intents"), QString::number(s.intents));
    row(tr("Attempts"), QString::number(s.attempts));
    const QColor good = verdictColor(QStringLiteral("exactly-once"));
    const QColor bad = verdictColor(QStringLiteral("duplicated"));
    for (auto it = s.expectedEffects.cbegin(); it != s.expectedEffects.cend(); ++it) {
        const qint64 got = s.effects.value(it.key());
        const qint64 want = it.value();
        // Coloured only once it is certain: at the end, or a repeat's excess.
        QString count = QStringLiteral("<b>%1</b>").arg(got);
        if (final_)
            count = coloured(QString::number(got), got == want ? good : bad);
        else if (got > want && repeatsWrote_)
            count = coloured(QString::number(got), bad);
        row(tr("Effect “%1”").arg(effectName(it.key())),
            tr("%1 (expected %2)").arg(count).arg(want));
    }
    QStringList responses;
    for (std::size_t r = 0; r < s.responses.size(); ++r) {
        if (s.responses[r] > 0) {
            responses << QStringLiteral("%1 × %2")
                             .arg(responseName(toId(Response(r))))
                             .arg(s.responses[r]);
        }
    }
    row(tr("Responses"), responses.isEmpty() ? QStringLiteral("—") : responses.join(tr(", ")));
    // What the technique costs the database: the article's "a generic scheme
    // is heavy", side by side in Compare.
    if (s.cost.statements > 0) {
        const double n = std::max(1, s.intents);
        // Whole numbers as such ("3 rows", not "3.0"); a share of several
        // intents with one decimal.
        const auto per = [n](qint64 total) {
            const double each = total / n;
            return each == std::floor(each) ? QLocale().toString(qint64(each))
                                            : QLocale().toString(each, 'f', 1);
        };
        // No transaction of its own: each statement commits by itself.
        const QString transactions =
            s.cost.transactions == 0 ? tr("no transaction opened (each statement commits alone)")
                                     : tr("%1 transactions").arg(per(s.cost.transactions));
        QString cost = tr("%1 statements · %2 · %3 rows written")
                           .arg(per(s.cost.statements), transactions, per(s.cost.rowsWritten));
        if (s.cost.lockWaits > 0)
            cost += tr(" · %1 lock waits").arg(per(s.cost.lockWaits));
        row(tr("Cost per intent"), cost.toHtmlEscaped());
    }
    // What the database itself did to the transactions: waits, the cycles
    // it broke, the orders it could not serialize (none on SQLite, whose
    // one writer waits for nobody's rows).
    if (s.config.backend != QLatin1String("sqlite") || counterpart_)
        row(tr("The database's conflicts"), conflictsText(s.cost));
    if (final_ && s.intents > 1) {
        QStringList parts;
        for (std::size_t v = 0; v < s.verdicts.size(); ++v) {
            if (s.verdicts[v] > 0) {
                parts << QStringLiteral("%1 × %2")
                             .arg(verdictName(toId(Verdict(v))))
                             .arg(s.verdicts[v]);
            }
        }
        row(tr("Per intent"), parts.join(tr(", ")));
    }
    if (final_ && !alsoJudged_.isEmpty()) {
        QStringList parts;
        for (const auto& [variant, v] : std::as_const(alsoJudged_)) {
            RunConfig judged = s.config;
            judged.variant = variant;
            parts << variantShown(judged).toHtmlEscaped() + QLatin1Char(' ') +
                         coloured(verdictName(v).toHtmlEscaped(), verdictColor(v));
        }
        row(tr("Each strategy"), parts.join(QStringLiteral(" · ")));
    }
    if (final_) {
        for (const Phrase& why : s.inconsistencies)
            row(tr("Inconsistent"), why.translated().toHtmlEscaped());
        // SPEC section 2, Answers: what callers were told that is not so.
        constexpr int kShownWrong = 5;
        for (int i = 0; i < s.wrongAnswers.size() && i < kShownWrong; ++i)
            row(tr("Wrong answer"), wrongAnswerText(s.wrongAnswers[i]).toHtmlEscaped());
        if (s.wrongAnswers.size() > kShownWrong)
            row(tr("Wrong answer"), tr("… and %1 more").arg(s.wrongAnswers.size() - kShownWrong));
        if (!s.integrity.isEmpty())
            row(tr("Integrity check"), s.integrity.toHtmlEscaped());
    }
    details_->setText(html);
    renderAlerts();
}

void OutcomePanel::renderAlerts() {
    if (!summary_ || summary_->alerts.isEmpty()) {
        alert_->hide();
        return;
    }
    QStringList lines;
    for (const AlertRecord& a : summary_->alerts) {
        QString line = tr("⚠ ALERT: raised at %1 duplicates of %2 — %3")
                           .arg(a.count)
                           .arg(a.key, a.message.translated());
        // The judge's count of the alert's window, else the alerts table's.
        const qint64 atEnd = a.finalCount >= 0 ? a.finalCount : alertCountsAtEnd_.value(a.key, -1);
        if (final_ && atEnd >= 0)
            line += QLatin1Char(' ') + tr("(%1 by the end of the run)").arg(atEnd);
        lines << line;
    }
    alert_->setText(lines.join('\n'));
    alert_->show();
}

void OutcomePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QWidget::changeEvent(event);
}

}  // namespace idem
