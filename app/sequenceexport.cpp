#include "sequenceexport.h"

#include "scenario.h"
#include "sequencesteps.h"
#include "trace.h"

#include <QHash>

namespace idem {

namespace {

using Shape = SequenceStep::Shape;

// What differs between the two languages: how a lane is declared, how each
// kind of arrow and a note are written, and how text is kept safe.
struct Syntax {
    QString (*participant)(const QString& alias, const QString& name);
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
    [](const QString& alias, const QString& name) {
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
    [](const QString& alias, const QString& name) {
        const char* kind = name == QLatin1String("database") ? "database"
                           : name == QLatin1String("client") ? "actor"
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

// The steps of the window's sequence diagram, written in one syntax.
QStringList diagramLines(const QList<TraceEvent>& events, const ScenarioInfo* scenario,
                         const Syntax& syntax) {
    const QStringList askKeys = scenario ? scenario->askKeys : QStringList();
    const QList<SequenceStep> steps =
        SequenceSteps::build(events, 0, events.size(), events.size(), askKeys);
    const QStringList lanes =
        SequenceSteps::lanes(steps, scenario ? scenario->lanes : QStringList());
    QHash<QString, QString> alias;
    QStringList lines;
    for (qsizetype i = 0; i < lanes.size(); ++i) {
        alias.insert(lanes[i], QStringLiteral("p%1").arg(i));
        lines << syntax.participant(alias[lanes[i]], lanes[i]);
    }
    auto lane = [&](const QString& name) {
        return alias.value(name, alias.value(QStringLiteral("database"), QStringLiteral("p0")));
    };
    for (const SequenceStep& s : steps) {
        const QString text = syntax.text(s.label);
        switch (s.shape) {
            case Shape::Arrow:
            case Shape::Loop: {
                const QString to = s.shape == Shape::Loop || s.to.isEmpty() ? s.from : s.to;
                const char* arrow = s.lost     ? (s.dashed ? syntax.lostDashed : syntax.lost)
                                    : s.dashed ? syntax.dashed
                                               : syntax.solid;
                lines << syntax.message.arg(lane(s.from), QLatin1String(arrow), lane(to), text);
                break;
            }
            case Shape::Tag:
            case Shape::Bar:
            case Shape::Cross:
                lines << syntax.note(lane(s.from), text);
                break;
            case Shape::Banner:
                lines << syntax.note(
                    lanes.size() > 1 ? lane(lanes.first()) + syntax.separator + lane(lanes.last())
                                     : lane(lanes.value(0)),
                    text);
                break;
        }
    }
    return lines;
}

}  // namespace

QByteArray traceToMermaid(const QList<TraceEvent>& events, const ScenarioInfo* scenario,
                          const QString& title) {
    QStringList lines{QStringLiteral("sequenceDiagram")};
    if (!title.isEmpty())
        lines << QStringLiteral("    title ") + mermaidText(title);
    lines << diagramLines(events, scenario, kMermaid);
    return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

QByteArray traceToPlantUml(const QList<TraceEvent>& events, const ScenarioInfo* scenario,
                           const QString& title) {
    QStringList lines{QStringLiteral("@startuml")};
    if (!title.isEmpty())
        lines << QStringLiteral("title ") + plantUmlText(title);
    lines << diagramLines(events, scenario, kPlantUml) << QStringLiteral("@enduml");
    return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

}  // namespace idem
