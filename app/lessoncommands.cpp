#include "lessoncommands.h"

#include "cli.h"
#include "interruption.h"
#include "lessonbook.h"
#include "outofmemory.h"
#include "usage.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace idem::cli {

namespace {

int fail(const QString& message, int code) {
    return failWith(message, code);
}

QJsonObject lessonJson(const Lesson& l) {
    return {{"id", l.id},
            {"title", QJsonObject{{"zh", l.title.zh}, {"en", l.title.en}}},
            {"summary", QJsonObject{{"zh", l.summary.zh}, {"en", l.summary.en}}},
            {"frames", int(l.frames.size())},
            {"questions", l.questionCount()}};
}

int listLessons(bool json) {
    if (const QStringList errors = bundledLessonErrors(); !errors.isEmpty())
        return fail(QStringLiteral("a bundled lesson does not read: %1").arg(errors.first()),
                    Failure);
    if (json) {
        QJsonArray lessons;
        for (const Lesson& l : bundledLessons()) lessons.append(lessonJson(l));
        out() << QJsonDocument(QJsonObject{{"lessons", lessons}}).toJson(QJsonDocument::Compact)
              << Qt::endl;
        return Ok;
    }
    for (const Lesson& l : bundledLessons()) {
        out() << QStringLiteral("%1  %2 frames, %3 questions\n    %4\n    %5\n")
                     .arg(l.id, -24)
                     .arg(l.frames.size(), 2)
                     .arg(l.questionCount())
                     .arg(l.title.en, l.title.zh);
    }
    out() << Qt::flush;
    return Ok;
}

// What a question asks and the answer its run gives, for --json.
QJsonObject questionJson(const Lesson& l, int frame, const QString& answer) {
    const LessonQuestion& q = *l.frames.at(frame).question;
    QJsonObject o{{"frame", frame + 1},
                  {"asks", q.answer},
                  {"prompt", QJsonObject{{"zh", q.prompt.zh}, {"en", q.prompt.en}}}};
    if (answer.isEmpty()) {
        o.insert("answer", QJsonValue::Null);
        return o;
    }
    o.insert("answer", answer);
    o.insert("label", QJsonObject{{"zh", lessonAnswerLabel(q, answer, QStringLiteral("zh"))},
                                  {"en", lessonAnswerLabel(q, answer, QStringLiteral("en"))}});
    return o;
}

// One lesson by id or file, or every bundled lesson when none is named.
// json: one object with each lesson's problems and each question's answer
// read from the run.
int checkLessons(const QStringList& names, bool json, bool allowLarge) {
    QList<Lesson> lessons;
    if (names.isEmpty()) {
        if (const QStringList errors = bundledLessonErrors(); !errors.isEmpty())
            return fail(errors.first(), BadInput);
        lessons = bundledLessons();
    }
    for (const QString& name : names) {
        Lesson lesson;
        QString error;
        int code = BadInput;
        if (!namedLesson(name, &lesson, &error, &code))
            return fail(error, code);
        if (const QString large = lessonTooLarge(name, lesson); !allowLarge && !large.isEmpty())
            return fail(large, BadInput);
        lessons << lesson;
    }
    int bad = 0;
    QJsonArray checked;
    const Interruption interruption;
    for (const Lesson& l : lessons) {
        QStringList problems;
        QStringList notRun;  // frames on a server this machine lacks
        QJsonArray questions;
        for (int i = 0; i < l.frames.size(); ++i) {
            const FrameCheck frame = checkFrame(l, i, {}, Interruption::flag());
            if (frame.cancelled || Interruption::requested())
                return fail(
                    QStringLiteral("stopped before the end: lesson %1 was not checked").arg(l.id),
                    Interruption::exitCode());
            // The machine, not the lesson: exit 1 with the path and its words.
            if (!frame.failure.isEmpty())
                return fail(QStringLiteral("lesson %1, %2").arg(l.id, frame.failure), Failure);
            problems << frame.problems;
            if (!frame.notRun.isEmpty())
                notRun << frame.notRun;
            if (l.frames.at(i).question)
                questions.append(questionJson(l, i, frame.answer));
        }
        if (json) {
            checked.append(QJsonObject{{"id", l.id},
                                       {"ok", problems.isEmpty()},
                                       {"frames", int(l.frames.size())},
                                       {"problems", QJsonArray::fromStringList(problems)},
                                       {"not_run", QJsonArray::fromStringList(notRun)},
                                       {"questions", questions}});
        }
        for (const QString& n : notRun)
            QTextStream(stderr) << "idemlab: lesson " << l.id << ", " << n << Qt::endl;
        if (memory::allocationFailed())
            return Failure;  // main says so: an answer read after it proves nothing
        if (problems.isEmpty()) {
            if (!json && notRun.isEmpty()) {
                out() << QStringLiteral("%1: %2 frames, %3 questions: ok\n")
                             .arg(l.id)
                             .arg(l.frames.size())
                             .arg(l.questionCount());
            } else if (!json) {
                out() << QStringLiteral(
                             "%1: %2 frames, %3 questions: ok, but %4 of the frames "
                             "not run here (their server is not installed)\n")
                             .arg(l.id)
                             .arg(l.frames.size())
                             .arg(l.questionCount())
                             .arg(notRun.size());
            }
            continue;
        }
        ++bad;
        for (const QString& p : problems)
            QTextStream(stderr) << "idemlab: lesson " << l.id << ", " << p << Qt::endl;
    }
    if (json)
        out() << QJsonDocument(QJsonObject{{"lessons", checked}}).toJson(QJsonDocument::Compact)
              << Qt::endl;
    out() << Qt::flush;
    return bad == 0 ? Ok : BadInput;
}

}  // namespace

bool namedLesson(const QString& name, Lesson* out, QString* error, int* code) {
    if (code)
        *code = BadInput;
    if (const Lesson* bundled = findLesson(name)) {
        *out = *bundled;
        return true;
    }
    if (!QFileInfo(name).isFile()) {
        QStringList ids;
        for (const Lesson& l : bundledLessons()) ids << l.id;
        *error = QStringLiteral("\"%1\" is neither a lesson file nor a lesson id (ids: %2)")
                     .arg(name, ids.join(", "));
        return false;
    }
    bool ioError = false;
    const bool read = readLessonFile(name, out, error, &ioError);
    if (code && ioError)
        *code = Failure;
    return read;
}

QString lessonTooLarge(const QString& name, const Lesson& lesson) {
    const QString problem = lessonCostProblem(lesson);
    if (problem.isEmpty())
        return {};
    return QStringLiteral("%1: %2; add --allow-large to run it anyway").arg(name, problem);
}

int lesson(const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(
        "action", "list, check [FILE|ID]..., or export ID|FILE (see lesson export --help)");
    parser.addOption({"json",
                      "With list: the lessons as one JSON object; with check: each lesson's "
                      "problems and each question's answer read from the run."});
    parser.addOption(
        {"allow-large", "With check: run even a frame whose estimated cost is above the limit."});
    addHelpFlag(parser);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("idemlab lesson")} + args))
        return fail(parser.errorText(), BadInput);
    if (printedUsage(parser, QStringLiteral("lesson")))
        return Ok;
    const QStringList positional = parser.positionalArguments();
    const QString action = positional.value(0);
    if (action == QLatin1String("list")) {
        if (positional.size() > 1)
            return fail(QStringLiteral("unexpected argument \"%1\"").arg(positional.at(1)),
                        BadInput);
        return listLessons(parser.isSet("json"));
    }
    if (action == QLatin1String("check"))
        return checkLessons(positional.mid(1), parser.isSet("json"), parser.isSet("allow-large"));
    if (action == QLatin1String("export"))
        return fail(QStringLiteral("lesson export takes its options after \"export\""), BadInput);
    return fail(
        QStringLiteral("unknown lesson action \"%1\" (allowed: list, check, export)").arg(action),
        BadInput);
}

}  // namespace idem::cli
