#include "sequenceexport.h"

#include "labfiles.h"
#include "names.h"
#include "scenario.h"
#include "sequencesteps.h"
#include "trace.h"
#include "tracewriters.h"

#include <QHash>

namespace idem {

namespace {

using Shape = SequenceStep::Shape;

}  // namespace

// What differs between the two languages: how a lane is declared, how each
// kind of arrow and a note are written, and how text is kept safe.
struct SequenceDiagramExport::Syntax {
    // A lane's declaration: its alias, its id (which picks PlantUML's shape)
    // and its name in the export's language.
    QString (*participant)(const QString& alias, const QString& id, const QString& name);
    const char* solid;       // an arrow
    const char* dashed;      // an answer
    const char* lost;        // an arrow that never arrives
    const char* lostDashed;  // an answer that never arrives
    QString (*note)(const QString& lanes, const QString& text);
    QString (*text)(const QString& s);
    QString separator;  // between the two lanes of a note over both
    QString message;    // from, arrow, to, text
};

// Mermaid reads "#…;" as a character entity and ";" as the end of a
// statement: both, and angle brackets, are written as entities.
namespace {

using Syntax = SequenceDiagramExport::Syntax;

QString mermaidText(const QString& s) {
    QString out;
    for (QChar ch : s.simplified()) {
        switch (ch.unicode()) {
            case '#':
                out += QLatin1String("#35;");
                break;
            case ';':
                out += QLatin1String("#59;");
                break;
            case '<':
                out += QLatin1String("#lt;");
                break;
            case '>':
                out += QLatin1String("#gt;");
                break;
            default:
                out += ch;
        }
    }
    return out.isEmpty() ? QStringLiteral(" ") : out;
}

// PlantUML takes "\n" in a label as a line break and creole markup ("--",
// "**", "<b>", "#" at the start: a numbered list) as formatting; "~" shows the
// next character as it is.
QString plantUmlText(const QString& s) {
    QString out;
    for (QChar ch : s.simplified()) {
        if (ch == QLatin1Char('\\') || ch == QLatin1Char('~') || ch == QLatin1Char('<') ||
            ch == QLatin1Char('*') || ch == QLatin1Char('-') || ch == QLatin1Char('_') ||
            ch == QLatin1Char('"') || ch == QLatin1Char('#')) {
            out += QLatin1Char('~');
        }
        out += ch;
    }
    return out.isEmpty() ? QStringLiteral(" ") : out;
}

QString nameText(const QString& s) {
    QString out = s.simplified();
    out.replace(QLatin1Char('"'), QLatin1Char('\''));
    return out;
}

const Syntax kMermaid{
    [](const QString& alias, const QString&, const QString& name) {
        return QStringLiteral("    participant %1 as %2").arg(alias, mermaidText(name));
    },
    "->>",
    "-->>",
    "-x",
    "--x",
    [](const QString& lanes, const QString& text) {
        return QStringLiteral("    Note over %1: %2").arg(lanes, text);
    },
    mermaidText,
    QStringLiteral(","),
    QStringLiteral("    %1%2%3: %4"),
};

const Syntax kPlantUml{
    [](const QString& alias, const QString& id, const QString& name) {
        const char* kind = id == QLatin1String("database") ? "database"
                           : id == QLatin1String("client") ? "actor"
                                                           : "participant";
        return QStringLiteral("%1 \"%2\" as %3").arg(QLatin1String(kind), nameText(name), alias);
    },
    " -> ",
    " --> ",
    " ->x ",
    " -->x ",
    [](const QString& lanes, const QString& text) {
        return QStringLiteral("note over %1 : %2").arg(lanes, text);
    },
    plantUmlText,
    QStringLiteral(", "),
    QStringLiteral("%1%2%3 : %4"),
};

}  // namespace

SequenceDiagramExport::SequenceDiagramExport(Language language, const ScenarioInfo* scenario,
                                             QString title)
    : syntax_(language == Language::Mermaid ? &kMermaid : &kPlantUml),
      mermaid_(language == Language::Mermaid),
      title_(std::move(title)),
      order_(scenario ? scenario->lanes : QStringList()),
      scenario_(scenario),
      looking_(false, scenario) {}

SequenceDiagramExport::~SequenceDiagramExport() = default;

void SequenceDiagramExport::see(const QList<SequenceStep>& steps) {
    for (const SequenceStep& s : steps) {
        if (s.shape == Shape::Banner)
            continue;
        for (const QString& lane : {s.from, s.to}) {
            if (!lane.isEmpty() && !used_.contains(lane)) {
                used_.insert(lane);
                firstSeen_ << lane;
            }
        }
    }
}

void SequenceDiagramExport::look(const TraceEvent& e) {
    manyIntents_ = manyIntents_ || e.intent > 0;
    QList<SequenceStep> steps;
    looking_.add(e, &steps);
    see(steps);
}

void SequenceDiagramExport::begin(const ExportRun& run, ExportOutput& out) {
    rowsOnPage_ = 0;
    page_ = 1;
    locks_.clear();
    locks_.setBackend(run.config.value("backend").toString());
    QList<SequenceStep> steps;
    looking_.finish(&steps);
    see(steps);
    // As SequenceSteps::lanes: the scenario's order, then the others, the database last.
    const QString database = QStringLiteral("database");
    for (const QString& known : std::as_const(order_)) {
        if (used_.contains(known) && known != database)
            lanes_ << known;
    }
    for (const QString& other : std::as_const(firstSeen_)) {
        if (!order_.contains(other) && other != database)
            lanes_ << other;
    }
    if (used_.contains(database))
        lanes_ << database;
    // The diagram's first line, then the lab's mark (labfiles.h).
    QStringList lines{
        mermaid_ ? QStringLiteral("sequenceDiagram") : QStringLiteral("@startuml"),
        QLatin1String(mermaid_ ? labfiles::kMermaidComment : labfiles::kPlantUmlComment)};
    if (!title_.isEmpty()) {
        lines << (mermaid_ ? QStringLiteral("    title ") + mermaidText(title_)
                           : QStringLiteral("title ") + plantUmlText(title_));
    }
    for (qsizetype i = 0; i < lanes_.size(); ++i) {
        alias_.insert(lanes_[i], QStringLiteral("p%1").arg(i));
        const QString name =
            scenario_ ? scenario_->words.actorName(lanes_[i]) : actorName(lanes_[i]);
        lines << syntax_->participant(alias_[lanes_[i]], lanes_[i], name);
    }
    out.write(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    writing_ = std::make_unique<SequenceSteps::Stream>(manyIntents_, scenario_);
}

QString SequenceDiagramExport::lane(const QString& name) const {
    return alias_.value(name, alias_.value(QStringLiteral("database"), QStringLiteral("p0")));
}

void SequenceDiagramExport::write(const QList<SequenceStep>& steps, ExportOutput& out) {
    for (const SequenceStep& s : steps) {
        if (!mermaid_ && rowsOnPage_ == kPlantUmlRowsPerPage) {
            ++page_;
            rowsOnPage_ = 0;
            const QString heading = title_.isEmpty()
                                        ? QStringLiteral("(%1)").arg(page_)
                                        : QStringLiteral("%1 (%2)").arg(title_).arg(page_);
            out.write(QStringLiteral("newpage ") + plantUmlText(heading) + QLatin1Char('\n'));
        }
        ++rowsOnPage_;
        const QString text = syntax_->text(s.label);
        QString line;
        switch (s.shape) {
            case Shape::Arrow:
            case Shape::Loop: {
                const QString to = s.shape == Shape::Loop || s.to.isEmpty() ? s.from : s.to;
                const char* arrow = s.lost     ? (s.dashed ? syntax_->lostDashed : syntax_->lost)
                                    : s.dashed ? syntax_->dashed
                                               : syntax_->solid;
                line = syntax_->message.arg(lane(s.from), QLatin1String(arrow), lane(to), text);
                break;
            }
            case Shape::Tag:
            case Shape::Bar:
            case Shape::Cross:
                line = syntax_->note(lane(s.from), text);
                break;
            case Shape::Banner:
                line = syntax_->note(lanes_.size() > 1 ? lane(lanes_.first()) + syntax_->separator +
                                                             lane(lanes_.last())
                                                       : lane(lanes_.value(0)),
                                     text);
                break;
        }
        out.write(line + QLatin1Char('\n'));
    }
}

void SequenceDiagramExport::add(const TraceEvent& e, ExportOutput& out) {
    const LockStep lockStep = locks_.follow(e);
    const auto note = [&e](const QString& text, SequenceStep::Tone tone) {
        SequenceStep s;
        s.shape = Shape::Tag;
        s.tone = tone;
        s.from = e.actorName();
        s.label = text;
        s.tMs = e.tMs;
        return s;
    };
    QList<SequenceStep> steps;
    // The holder lets go before the statement it held returns.
    if (lockStep.ended && lockStep.ended->letGo())
        steps << note(locks_.releaseText(*lockStep.ended), SequenceStep::Tone::Normal);
    writing_->add(e, &steps);
    if (lockStep.began) {
        // The wait in the words of the exports: who waits for whom, on what.
        for (SequenceStep& s : steps) {
            if (s.event >= 0 && s.hourglass)
                s.label = locks_.waitText(*lockStep.began);
        }
    }
    if (lockStep.refused)
        steps << note(locks_.refusalText(*lockStep.refused), SequenceStep::Tone::Bad);
    write(steps, out);
}

void SequenceDiagramExport::end(ExportOutput& out) {
    QList<SequenceStep> steps;
    writing_->finish(&steps);
    write(steps, out);
    if (!mermaid_)
        out.write(QByteArray("@enduml\n"));
}

}  // namespace idem
