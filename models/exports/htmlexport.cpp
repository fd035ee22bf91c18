// The HTML report, written as the trace is read.
#include "exporttext.h"
#include "labfiles.h"
#include "lockstory.h"
#include "names.h"
#include "narration.h"
#include "tracewriters.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace idem {

namespace {

QString escape(const QString& s) {
    return s.toHtmlEscaped();
}

// The report's words, translated under one context.
class HtmlReport {
    Q_DECLARE_TR_FUNCTIONS(idem::HtmlReport)
};

// On screen a page of its own width; on paper every diagram part scaled to
// the page's width and kept whole, table headers repeated, rows never split.
constexpr const char* kReportStyle =
    "body{font-family:sans-serif;margin:2em;max-width:80em}"
    "table{border-collapse:collapse;font-size:90%}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
    "th{background:#eee}.err{background:#fdd}"
    ".verdict{font-size:150%;font-weight:bold;padding:.3em .6em;color:#fff;display:inline-block}"
    ".warning{background:#d63031;color:#fff;padding:.6em;font-weight:bold}"
    "code{font-family:monospace;white-space:pre-wrap;word-break:break-all}"
    "figure{margin:0 0 .5em 0}figure svg{display:block;max-width:100%;height:auto}"
    "@page{size:A4;margin:12mm}"
    "@media print{"
    "body{margin:0;max-width:none;font-size:10pt}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "h1,h2{break-after:avoid;page-break-after:avoid}"
    "figure{break-inside:avoid;page-break-inside:avoid}"
    "figure svg{width:auto;max-width:100%;height:auto;max-height:265mm}"
    "table{width:100%}thead{display:table-header-group}"
    "tr{break-inside:avoid;page-break-inside:avoid}}";

QString headerRow(const QStringList& cells) {
    QString h = QStringLiteral("<thead><tr>");
    for (const QString& c : cells) h += QStringLiteral("<th>%1</th>").arg(escape(c));
    return h + QStringLiteral("</tr></thead><tbody>");
}

// The verdict in its colour, the wrong answers and the alerts: the judged
// summary's sentences in the report's language when the run is at hand,
// else the trace's English.
QString summaryHtml(const QJsonObject& s, const std::optional<Summary>& judged,
                    const QString& verdictText) {
    QString h;
    const QString verdict = s.value("verdict").toString();
    // The window's colours, one per verdict.
    static const QMap<QString, QString> kColours{
        {"exactly-once", "#27ae60"}, {"stuck", "#f0a202"},        {"lost", "#8e44ad"},
        {"misanswered", "#c0396b"},  {"inconsistent", "#e67e22"}, {"duplicated", "#d63031"}};
    const bool tolerated = s.value("tolerated").toBool();
    h += QStringLiteral("<p class='verdict' style='background:%1'>%2%3</p>")
             .arg(kColours.value(verdict, "#e67e22"),
                  escape(verdictText.isEmpty() ? verdict : verdictText),
                  tolerated ? escape(HtmlReport::tr(" — accepted cost")) : QString());
    // What the callers were told that the database contradicts.
    const QJsonArray wrong = s.value("wrong_answers").toArray();
    if (!wrong.isEmpty()) {
        h += QStringLiteral("<h2>%1</h2><table>").arg(escape(HtmlReport::tr("Wrong answers")));
        h += headerRow({HtmlReport::tr("intent"), HtmlReport::tr("attempt"), HtmlReport::tr("told"),
                        HtmlReport::tr("result"), HtmlReport::tr("the database shows")});
        const auto row = [&h](int intent, int attempt, const QString& told, const QString& result,
                              const QString& database) {
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                     .arg(intent)
                     .arg(attempt)
                     .arg(escape(told), escape(result), escape(database));
        };
        if (judged) {
            for (const WrongAnswer& w : judged->wrongAnswers)
                row(w.intent, w.attempt, responseName(toId(w.told)), w.result.translated(),
                    w.database.translated());
        } else {
            for (const QJsonValue& v : wrong) {
                const QJsonObject w = v.toObject();
                row(w.value("intent").toInt(), w.value("attempt").toInt(),
                    responseName(w.value("told").toString()), w.value("result").toString(),
                    w.value("database").toString());
            }
        }
        h += QStringLiteral("</tbody></table>");
    }
    const QJsonArray alerts = s.value("alerts").toArray();
    if (!alerts.isEmpty()) {
        h += QStringLiteral("<h2>%1</h2><table>").arg(escape(HtmlReport::tr("Alerts")));
        h += headerRow({HtmlReport::tr("t (ms)"), HtmlReport::tr("key"),
                        HtmlReport::tr("count when it fired"), HtmlReport::tr("final count"),
                        HtmlReport::tr("message")});
        for (qsizetype i = 0; i < alerts.size(); ++i) {
            const QJsonObject a = alerts.at(i).toObject();
            const QString message = judged && i < judged->alerts.size()
                                        ? judged->alerts.at(i).message.translated()
                                        : a.value("message").toString();
            const QJsonValue final = a.value("final_count");
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                     .arg(a.value("t_ms").toInteger())
                     .arg(escape(a.value("key").toString()))
                     .arg(a.value("count").toInteger())
                     .arg(final.isUndefined() ? QStringLiteral("—")
                                              : QString::number(final.toInteger()),
                          escape(message));
        }
        h += QStringLiteral("</tbody></table>");
    }
    return h;
}

}  // namespace

HtmlExport::HtmlExport(ReportOptions options, const StateMachineInfo& machine, ReportDrawing draw,
                       qsizetype head, qsizetype tail)
    : options_(std::move(options)), draw_(std::move(draw)), head_(head), tail_(tail) {
    seen_.tally.setMachine(machine);
}

HtmlExport::~HtmlExport() = default;

void HtmlExport::look(const TraceEvent& e) {
    seen_.tally.add(e, false);
    locks_.follow(e);
    if (seen_.recent.size() < head_) {
        seen_.recent.append(e);
        return;
    }
    latest_.push_back(e);
    if (qsizetype(latest_.size()) > tail_)
        latest_.pop_front();
}

void HtmlExport::begin(const ExportRun& run, ExportOutput& out) {
    for (TraceEvent& e : latest_) seen_.recent.append(std::move(e));
    latest_.clear();
    const QList<ReportDiagram> diagrams = draw_(run, seen_);
    seen_.recent.clear();
    const QJsonObject& s = run.summary;
    QString h;
    h += QStringLiteral(
             "<!DOCTYPE html><html lang='%1'><head><meta charset='utf-8'>%2<title>%3</title>"
             "<style>%4</style></head><body>")
             .arg(escape(options_.lang), QLatin1String(labfiles::kHtmlGenerator),
                  escape(HtmlReport::tr("Idempotency Lab report")),
                  QString::fromLatin1(kReportStyle) +
                      QLatin1String(locks_.told() ? LockStory::kStyle : ""));
    h += QStringLiteral("<h1>%1</h1>")
             .arg(escape(HtmlReport::tr("Idempotency Lab — %1 / %2")
                             .arg(s.value("scenario").toString(), s.value("variant").toString())));
    if (!options_.warning.isEmpty()) {
        h += QStringLiteral("<p class='warning'>%1</p>")
                 .arg(escape(
                     HtmlReport::tr("This trace cannot be trusted: %1").arg(options_.warning)));
    }
    h += summaryHtml(s, judged_, options_.verdictText);
    h += QStringLiteral("<h2>%1</h2><table><tbody>").arg(escape(HtmlReport::tr("Configuration")));
    for (auto it = run.config.begin(); it != run.config.end(); ++it) {
        const QString value =
            it.value().isObject()
                ? QString::fromUtf8(
                      QJsonDocument(it.value().toObject()).toJson(QJsonDocument::Compact))
                : it.value().toVariant().toString();
        h += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(escape(it.key()), escape(value));
    }
    h += QStringLiteral("</tbody></table><h2>%1</h2><table><tbody>")
             .arg(escape(HtmlReport::tr("Summary")));
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString value =
            it.value().isObject() || it.value().isArray()
                ? QString::fromUtf8(QJsonDocument::fromVariant(it.value().toVariant())
                                        .toJson(QJsonDocument::Compact))
                : it.value().toVariant().toString();
        h += QStringLiteral("<tr><th>%1</th><td><code>%2</code></td></tr>")
                 .arg(escape(it.key()), escape(value.left(4000)));
    }
    h += QStringLiteral("</tbody></table>");
    locks_.setBackend(run.config.value("backend").toString());
    if (locks_.told()) {
        h += QStringLiteral("<h2>%1</h2>")
                 .arg(escape(HtmlReport::tr("Locks: waits, deadlocks and serialization failures")));
        h += locks_.storyHtml(HtmlReport::tr("Locks at the end of the run:"));
    }
    locks_.clear();
    for (const ReportDiagram& d : diagrams) {
        h += QStringLiteral("<h2>%1</h2>").arg(escape(d.title));
        for (const QByteArray& svg : d.parts) {
            const qsizetype start = svg.indexOf("<svg");
            h += QStringLiteral("<figure>") + QString::fromUtf8(start > 0 ? svg.mid(start) : svg) +
                 QStringLiteral("</figure>");
        }
    }
    h += QStringLiteral("<h2>%1</h2><table>").arg(escape(HtmlReport::tr("Events")));
    h += headerRow({HtmlReport::tr("seq"), HtmlReport::tr("t (ms)"), HtmlReport::tr("intent"),
                    HtmlReport::tr("attempt"), HtmlReport::tr("actor"), HtmlReport::tr("kind"),
                    HtmlReport::tr("what happened"), HtmlReport::tr("what")});
    out.write(h);
    narrator_ = std::make_unique<Narrator>(run.intents, options_.words);
}

void HtmlExport::add(const TraceEvent& stored, ExportOutput& out) {
    // A stored event holds the English of the run's sentences: the caption
    // says them as the run wrote them.
    std::optional<TraceEvent> typed;
    for (const Field& f : stored.fields) {
        if (f.value.typeId() != QMetaType::QString)
            continue;
        const auto p = phrases_.constFind(f.value.toString());
        if (p == phrases_.cend())
            continue;
        if (!typed)
            typed = stored;
        typed->fields.set(f.key, p->toVariant());
    }
    const TraceEvent& e = typed ? *typed : stored;
    out.write(
        QStringLiteral("<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td>"
                       "<td>%8</td><td><code>%9</code></td></tr>")
            .arg(e.failed() ? QStringLiteral(" class='err'") : QString())
            .arg(e.seq)
            .arg(e.tMs)
            .arg(e.intent)
            .arg(e.attempt < 0 ? processTag(e.attempt, e.actorName()) : QString::number(e.attempt))
            .arg(escape(e.actorName()), escape(e.kindId()), escape(narrator_->caption(e)),
                 escape(describeEvent(e))));
}

void HtmlExport::end(ExportOutput& out) {
    out.write(QByteArray("</tbody></table></body></html>\n"));
}

}  // namespace idem
