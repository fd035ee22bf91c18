#include "reportdiagrams.h"

#include "names.h"
#include "registry.h"
#include "runconfig.h"
#include "scenario.h"
#include "sequenceexport.h"
#include "sequencesteps.h"
#include "sequenceview.h"
#include "statemachineview.h"
#include "xlsxexport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>

namespace idem {

namespace cli {

// The report's words for the diagrams (their titles).
class ReportWords {
    Q_DECLARE_TR_FUNCTIONS(idem::cli::ReportWords)
};

}  // namespace cli

namespace {

constexpr double kMargin = 16;

QColor backgroundOf(QGraphicsScene* scene) {
    const QBrush b = scene->backgroundBrush();
    return b.style() == Qt::NoBrush ? QColor(Qt::white) : b.color();
}

// Where the scene may be cut: heights no item but the lanes' own lines
// (which run through every row) crosses.
QList<QPair<double, double>> occupied(QGraphicsScene* scene, double from, double tallest) {
    QList<QPair<double, double>> spans;
    for (const QGraphicsItem* item : scene->items()) {
        const QRectF r = item->sceneBoundingRect();
        if (r.height() > tallest || r.bottom() <= from)
            continue;
        spans.append({r.top(), r.bottom()});
    }
    std::sort(spans.begin(), spans.end());
    QList<QPair<double, double>> merged;
    for (const auto& s : std::as_const(spans)) {
        if (!merged.isEmpty() && s.first <= merged.last().second)
            merged.last().second = std::max(merged.last().second, s.second);
        else
            merged.append(s);
    }
    return merged;
}

// The lowest free height in (from, limit], or limit when a row is taller
// than a whole part.
double cutBefore(const QList<QPair<double, double>>& busy, double from, double limit) {
    double best = -1;
    double free = from;  // the bottom of the busy span before the gap
    for (const auto& [top, bottom] : busy) {
        if (top > limit)
            break;
        if (top > free && free > from)
            best = (free + top) / 2;
        free = std::max(free, bottom);
    }
    if (free <= limit && free > from)
        best = std::max(best, free);
    return best > from ? best : limit;
}

QByteArray part(QGraphicsScene* scene, const QString& title, const QRectF& header,
                const QRectF& rows) {
    const QSizeF size(rows.width(), header.height() + rows.height());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), size));
    // The scene's coordinates are the screen's pixels (96 per inch): at the
    // generator's default 72 the text is written a quarter too small for the
    // places its words were laid out at, and runs of words drift apart.
    svg.setResolution(96);
    svg.setTitle(title);
    QPainter painter(&svg);
    painter.fillRect(QRectF(QPointF(0, 0), size), backgroundOf(scene));
    if (!header.isEmpty())
        scene->render(&painter, QRectF(0, 0, header.width(), header.height()), header);
    scene->render(&painter, QRectF(0, header.height(), rows.width(), rows.height()), rows);
    painter.end();
    return bytes;
}

}  // namespace

double laneHeaderHeight(QGraphicsScene* scene) {
    // The lane names are drawn on top of the rows (they stay in sight while
    // the window scrolls): the items above the others that start at the top.
    double bottom = 0;
    for (const QGraphicsItem* item : scene->items()) {
        const QRectF r = item->sceneBoundingRect();
        if (item->zValue() >= 5 && r.top() <= 1 && !item->parentItem())
            bottom = std::max(bottom, r.bottom());
    }
    return bottom;
}

QList<QByteArray> sceneToSvgParts(QGraphicsScene* scene, const QString& title, double headerHeight,
                                  double maxAspect) {
    if (!scene || scene->items().isEmpty())
        return {};
    const QRectF all = scene->itemsBoundingRect().adjusted(-kMargin, -kMargin, kMargin, kMargin);
    const double width = all.width();
    const QRectF header = headerHeight > 0
                              ? QRectF(all.left(), all.top(), width, headerHeight - all.top())
                              : QRectF();
    const double rowsTop = headerHeight > 0 ? headerHeight : all.top();
    const double room = std::max(width * maxAspect - header.height(), 100.0);
    const QList<QPair<double, double>> busy = occupied(scene, rowsTop, all.height() * 0.25);
    QList<QByteArray> parts;
    for (double top = rowsTop; top < all.bottom() - 1;) {
        const double limit = top + room;
        const double bottom = limit >= all.bottom() ? all.bottom() : cutBefore(busy, top, limit);
        parts.append(part(scene, title, header, QRectF(all.left(), top, width, bottom - top)));
        top = bottom;
    }
    return parts;
}

qsizetype reportHeadEvents() {
    return SequenceSteps::kIntentLookAhead;
}

qsizetype reportTailEvents() {
    return SequenceView::kMaxEvents;
}

QList<ReportDiagram> RunDiagrams::drawn() const {
    QList<ReportDiagram> diagrams;
    for (const ReportDiagram* d : {&state, &sequence})
        if (!d->parts.isEmpty())
            diagrams.append(*d);
    return diagrams;
}

namespace {

// Both diagrams drawn: their scenes cut for the printed page.
RunDiagrams drawnDiagrams(StateMachineView& state, SequenceView& sequence) {
    // A part at most 1.3 times as tall as wide: it fits an A4 or Letter page
    // at the page's width, with a heading above it.
    constexpr double kPageAspect = 1.3;
    return {{cli::ReportWords::tr("State diagram"),
             sceneToSvgParts(state.scene(), QStringLiteral("State"), 0, 100)},
            {cli::ReportWords::tr("Sequence diagram"),
             // Before the first request there is nothing to draw (only the
             // window's "fire a run" hint, which means nothing on paper).
             sequence.lanes().isEmpty()
                 ? QList<QByteArray>{}
                 : sceneToSvgParts(sequence.scene(), QStringLiteral("Sequence"),
                                   laneHeaderHeight(sequence.scene()), kPageAspect)}};
}

}  // namespace

RunDiagrams runDiagrams(const ScenarioInfo& info, const QString& variant, const Trace& trace,
                        qsizetype upTo, qsizetype freshFrom) {
    StateMachineView state;
    state.resize(1000, 600);
    state.setMachine(info, variant);
    state.showTrace(trace, upTo, freshFrom);
    SequenceView sequence;
    sequence.resize(1200, 800);
    sequence.setCast(info);
    sequence.showTrace(trace, upTo, freshFrom);
    return drawnDiagrams(state, sequence);
}

RunDiagrams runDiagrams(const ScenarioInfo& info, const QString& variant,
                        const ReportEvents& seen) {
    StateMachineView state;
    state.resize(1000, 600);
    state.setMachine(info, variant);
    state.showTally(seen.tally);
    SequenceView sequence;
    sequence.resize(1200, 800);
    sequence.setCast(info);
    sequence.showTrace(seen.recent, seen.recent.size(), seen.recent.size());
    return drawnDiagrams(state, sequence);
}

std::unique_ptr<TraceExport> traceExportFor(const QString& format, const RunConfig& config,
                                            const QJsonObject& summary, bool excel,
                                            const QString& lang, int traces) {
    const Scenario& scenario = *findScenario(config.scenario);
    const QString title = QStringLiteral("%1 / %2").arg(config.scenario, config.variant);
    if (format == QLatin1String("csv"))
        return std::make_unique<CsvExport>(excel, &scenario.info().words);
    if (format == QLatin1String("xlsx"))
        return std::make_unique<XlsxExport>(&scenario.info().words);
    if (format == QLatin1String("shiviz"))
        return std::make_unique<ShiVizExport>(traces);
    if (format == QLatin1String("mermaid"))
        return std::make_unique<SequenceDiagramExport>(SequenceDiagramExport::Language::Mermaid,
                                                       &scenario.info(), title);
    if (format == QLatin1String("plantuml"))
        return std::make_unique<SequenceDiagramExport>(SequenceDiagramExport::Language::PlantUml,
                                                       &scenario.info(), title);
    if (format == QLatin1String("history"))
        return std::make_unique<HistoryExport>();
    if (format == QLatin1String("chrome"))
        return std::make_unique<ChromeExport>();
    ReportOptions options;
    options.lang = lang == QLatin1String("zh") ? QStringLiteral("zh-CN") : QStringLiteral("en");
    options.words = &scenario.info().words;
    Summary judged;
    QString ignored;  // the trace was checked when it was read
    if (Summary::fromJson(summary, &judged, &ignored))
        options.verdictText = verdictName(judged.verdictId());
    // The diagrams, drawn off screen from what the export kept.
    const QString variant = config.variant;
    return std::make_unique<HtmlExport>(
        options, scenario.info().stateMachine,
        [&scenario, variant](const ExportRun&, const ReportEvents& seen) {
            return runDiagrams(scenario.info(), variant, seen).drawn();
        },
        reportHeadEvents(), reportTailEvents());
}

}  // namespace idem
