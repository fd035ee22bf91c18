#include "tracewriters.h"

#include "csv.h"
#include "exporttext.h"
#include "narration.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace idem {

QString paramsText(const QVariantList& params) {
    QStringList parts;
    for (const QVariant& v : params) parts << (v.isNull() ? QStringLiteral("NULL") : v.toString());
    return parts.join(QStringLiteral(", "));
}

QString eventDataText(const TraceEvent& e) {
    if (e.fields.isEmpty())
        return {};
    QJsonObject o;
    for (const Field& f : e.fields)
        o.insert(QLatin1String(f.key.name), QJsonValue::fromVariant(f.value));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString rowsText(const TraceEvent& e) {
    if (!e.is(EventKind::Sql))
        return {};
    switch (e.counts) {
        case RowCount::Returned:
            return e.rows == 1 ? QStringLiteral("1 row returned")
                               : QStringLiteral("%1 rows returned").arg(e.rows);
        case RowCount::Changed:
            return e.rows == 1 ? QStringLiteral("1 row changed")
                               : QStringLiteral("%1 rows changed").arg(e.rows);
        case RowCount::None:
            break;
    }
    return {};
}

// One readable line describing an event, for ShiViz and HTML.
QString describeEvent(const TraceEvent& e) {
    if (e.is(EventKind::Sql)) {
        QString s = e.sql.simplified();
        if (!e.params.isEmpty())
            s += QStringLiteral(" [%1]").arg(paramsText(e.params));
        if (e.failed())
            s += QStringLiteral(" → ") + e.errorText();
        else if (const QString rows = rowsText(e); !rows.isEmpty())
            s += QStringLiteral(" → ") + rows;
        return s;
    }
    QString s = e.kindId();
    const QString d = eventDataText(e);
    if (!d.isEmpty())
        s += QLatin1Char(' ') + d;
    return s;
}

// ShiViz reads a log line by line (and its "." stops at JavaScript's line
// terminators): text from a trace keeps every character visible on one line.
QString oneLine(const QString& s) {
    QString out;
    out.reserve(s.size());
    for (QChar ch : s) {
        switch (ch.unicode()) {
            case '\\':
                out += QLatin1String("\\\\");
                break;
            case '\n':
                out += QLatin1String("\\n");
                break;
            case '\r':
                out += QLatin1String("\\r");
                break;
            case 0x2028:
                out += QLatin1String("\\u2028");
                break;
            case 0x2029:
                out += QLatin1String("\\u2029");
                break;
            default:
                out += ch;
        }
    }
    return out;
}

namespace {

QString escape(const QString& s) {
    return s.toHtmlEscaped();
}

}  // namespace

// How many intents a run's events speak of (captions name the intent when
// there are several).
static int intentCount(const QList<TraceEvent>& events) {
    int most = 0;
    for (const TraceEvent& e : events) most = std::max(most, e.intent + 1);
    return std::max(most, 1);
}

// A CSV cell for one of the two counts: the number when the event has that kind of count.
static QString countCell(const TraceEvent& e, RowCount counts) {
    return e.is(EventKind::Sql) && e.counts == counts ? QString::number(e.rows) : QString();
}

QByteArray traceToCsv(const QList<TraceEvent>& events, bool excel) {
    QStringList lines{
        QStringLiteral("seq,t_ms,intent,attempt,actor,kind,connection,sql,params,rows_returned,"
                       "rows_changed,error,data,caption")};
    Narrator narrator(intentCount(events));
    for (const TraceEvent& e : events) {
        lines << QStringList{QString::number(e.seq),          QString::number(e.tMs),
                             QString::number(e.intent),       QString::number(e.attempt),
                             csvText(e.actorName()),          csvText(e.kindId()),
                             csvText(e.connectionName()),     csvText(e.sql),
                             csvText(paramsText(e.params)),   countCell(e, RowCount::Returned),
                             countCell(e, RowCount::Changed), csvText(e.errorText()),
                             csvText(eventDataText(e)),       csvText(narrator.caption(e))}
                     .join(QLatin1Char(','));
    }
    const QByteArray bom = excel ? QByteArray("\xEF\xBB\xBF") : QByteArray();
    return bom + (lines.join(QStringLiteral("\r\n")) + QStringLiteral("\r\n")).toUtf8();
}

namespace {

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
    "figure svg{width:100%;max-height:265mm}"
    "table{width:100%}thead{display:table-header-group}"
    "tr{break-inside:avoid;page-break-inside:avoid}}";

QString headerRow(const QStringList& cells) {
    QString h = QStringLiteral("<thead><tr>");
    for (const QString& c : cells) h += QStringLiteral("<th>%1</th>").arg(escape(c));
    return h + QStringLiteral("</tr></thead><tbody>");
}

}  // namespace

QByteArray traceToHtml(const Trace::Loaded& trace, const QList<ReportDiagram>& diagrams,
                       const ReportOptions& options) {
    const QJsonObject& s = trace.summary;
    QString h;
    h += QStringLiteral(
             "<!DOCTYPE html><html lang='%1'><head><meta charset='utf-8'><title>%2</title>"
             "<style>%3</style></head><body>")
             .arg(escape(options.lang), escape(HtmlReport::tr("Idempotency Lab report")),
                  QLatin1String(kReportStyle));
    h += QStringLiteral("<h1>%1</h1>")
             .arg(escape(HtmlReport::tr("Idempotency Lab — %1 / %2")
                             .arg(s.value("scenario").toString(), s.value("variant").toString())));
    if (!options.warning.isEmpty()) {
        h += QStringLiteral("<p class='warning'>%1</p>")
                 .arg(escape(
                     HtmlReport::tr("This trace cannot be trusted: %1").arg(options.warning)));
    }
    const QString verdict = s.value("verdict").toString();
    // The window's colours, one per verdict.
    static const QMap<QString, QString> kColours{
        {"exactly-once", "#27ae60"}, {"stuck", "#f0a202"},        {"lost", "#8e44ad"},
        {"misanswered", "#c0396b"},  {"inconsistent", "#e67e22"}, {"duplicated", "#d63031"}};
    const bool tolerated = s.value("tolerated").toBool();
    h += QStringLiteral("<p class='verdict' style='background:%1'>%2%3</p>")
             .arg(kColours.value(verdict, "#e67e22"),
                  escape(options.verdictText.isEmpty() ? verdict : options.verdictText),
                  tolerated ? escape(HtmlReport::tr(" — accepted cost")) : QString());
    // What the callers were told that the database contradicts.
    const QJsonArray wrong = s.value("wrong_answers").toArray();
    if (!wrong.isEmpty()) {
        h += QStringLiteral("<h2>%1</h2><table>").arg(escape(HtmlReport::tr("Wrong answers")));
        h += headerRow({HtmlReport::tr("intent"), HtmlReport::tr("attempt"), HtmlReport::tr("told"),
                        HtmlReport::tr("result"), HtmlReport::tr("the database shows")});
        for (const QJsonValue& v : wrong) {
            const QJsonObject w = v.toObject();
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                     .arg(w.value("intent").toInt())
                     .arg(w.value("attempt").toInt())
                     .arg(escape(w.value("told").toString()), escape(w.value("result").toString()),
                          escape(w.value("database").toString()));
        }
        h += QStringLiteral("</tbody></table>");
    }
    const QJsonArray alerts = s.value("alerts").toArray();
    if (!alerts.isEmpty()) {
        h += QStringLiteral("<h2>%1</h2><table>").arg(escape(HtmlReport::tr("Alerts")));
        h += headerRow({HtmlReport::tr("t (ms)"), HtmlReport::tr("key"),
                        HtmlReport::tr("count when it fired"), HtmlReport::tr("final count"),
                        HtmlReport::tr("message")});
        for (const QJsonValue& v : alerts) {
            const QJsonObject a = v.toObject();
            const QJsonValue final = a.value("final_count");
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                     .arg(a.value("t_ms").toInteger())
                     .arg(escape(a.value("key").toString()))
                     .arg(a.value("count").toInteger())
                     .arg(final.isUndefined() ? QStringLiteral("—")
                                              : QString::number(final.toInteger()),
                          escape(a.value("message").toString()));
        }
        h += QStringLiteral("</tbody></table>");
    }
    h += QStringLiteral("<h2>%1</h2><table><tbody>").arg(escape(HtmlReport::tr("Configuration")));
    for (auto it = trace.config.begin(); it != trace.config.end(); ++it) {
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
    Narrator narrator(intentCount(trace.events));
    for (const TraceEvent& e : trace.events) {
        h += QStringLiteral(
                 "<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td>"
                 "<td>%8</td><td><code>%9</code></td></tr>")
                 .arg(e.failed() ? QStringLiteral(" class='err'") : QString())
                 .arg(e.seq)
                 .arg(e.tMs)
                 .arg(e.intent)
                 .arg(e.attempt)
                 .arg(escape(e.actorName()), escape(e.kindId()), escape(narrator.caption(e)),
                      escape(describeEvent(e)));
    }
    h += QStringLiteral("</tbody></table></body></html>\n");
    return h.toUtf8();
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    // The system's words for what went wrong: errno right after the failing
    // call (QSaveFile often reports only "Unknown error" for a full disk).
    auto osWords = [](int err, const QFileDevice& file) {
        if (err != 0)
            return QString::fromLocal8Bit(std::strerror(err));
        return file.errorString();
    };
    QSaveFile file(path);
    errno = 0;
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, osWords(errno, file));
        return false;
    }
    // A short write (a full disk) must not be committed: QSaveFile would keep
    // the part that fit and replace the old file with it.
    errno = 0;
    const qint64 written = file.write(bytes);
    if (written != bytes.size()) {
        const int err = errno;
        file.cancelWriting();
        *error = QStringLiteral(
                     "cannot write %1: %2 (%3 of %4 bytes written; the file is "
                     "left as it was)")
                     .arg(path, osWords(err, file))
                     .arg(std::max<qint64>(written, 0))
                     .arg(bytes.size());
        return false;
    }
    errno = 0;
    if (!file.commit()) {
        *error = QStringLiteral("cannot write %1: %2 (the file is left as it was)")
                     .arg(path, osWords(errno, file));
        return false;
    }
    return true;
}

}  // namespace idem
