#include "lesson.h"

#include "run.h"
#include "summary.h"
#include "traceevent.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace idem {

namespace {

const QStringList kAnswerKinds{QStringLiteral("verdict"),
                               QStringLiteral("effect:"),
                               QStringLiteral("responses:"),
                               QStringLiteral("wrong-answers"),
                               QStringLiteral("alerts"),
                               QStringLiteral("tolerated"),
                               QStringLiteral("lock-waits"),
                               QStringLiteral("deadlocks"),
                               QStringLiteral("serialization-failures"),
                               QStringLiteral("any:lock-waits"),
                               QStringLiteral("any:deadlocks"),
                               QStringLiteral("any:serialization-failures")};

// What a server did to the run's transactions (SPEC section 8's summary
// counts; 0 on SQLite): -1 when `name` is none of them.
qint64 serverCount(QStringView name, const Summary& summary) {
    if (name == QLatin1String("lock-waits"))
        return summary.cost.lockWaits;
    if (name == QLatin1String("deadlocks"))
        return summary.cost.deadlocks;
    if (name == QLatin1String("serialization-failures"))
        return summary.cost.serializationFailures;
    return -1;
}

// Reading one lesson file: the frame being read names every message.
class LessonReader {
public:
    explicit LessonReader(QString* error) : error_(error) {}

    bool fail(const QString& where, const QString& what) {
        *error_ = frame_ > 0 ? QStringLiteral("frame %1, %2: %3").arg(frame_).arg(where, what)
                             : QStringLiteral("%1: %2").arg(where, what);
        return false;
    }
    void enterFrame(int frame) { frame_ = frame; }

    bool text(const QJsonObject& parent, const char* key, bool required, LessonText* out) {
        const QJsonValue v = parent.value(QLatin1String(key));
        if (v.isUndefined() && !required)
            return true;
        if (!v.isObject())
            return fail(QLatin1String(key),
                        QStringLiteral("must be an object {\"zh\": …, \"en\": …}"));
        const QJsonObject o = v.toObject();
        if (!o.value(QLatin1String("zh")).isString() || !o.value(QLatin1String("en")).isString() ||
            o.value(QLatin1String("zh")).toString().trimmed().isEmpty() ||
            o.value(QLatin1String("en")).toString().trimmed().isEmpty()) {
            return fail(QLatin1String(key), QStringLiteral("needs both \"zh\" and \"en\" texts"));
        }
        out->zh = o.value(QLatin1String("zh")).toString();
        out->en = o.value(QLatin1String("en")).toString();
        return true;
    }

    bool pause(const QJsonValue& v, PausePoint* out) {
        if (v.isUndefined() || v == QJsonValue(QStringLiteral("end"))) {
            out->kind = PausePoint::Kind::End;
            return true;
        }
        if (v == QJsonValue(QStringLiteral("start"))) {
            out->kind = PausePoint::Kind::Start;
            return true;
        }
        if (v.isDouble()) {
            const double step = v.toDouble();
            if (step < 0 || step != double(qint64(step)) || step > 10'000'000)
                return fail(QStringLiteral("pause"),
                            QStringLiteral("a step must be a whole number ≥ 0"));
            out->kind = PausePoint::Kind::Step;
            out->step = int(step);
            return true;
        }
        if (v.isObject() && v.toObject().value(QLatin1String("kind")).isString()) {
            const QString kind = v.toObject().value(QLatin1String("kind")).toString();
            if (kind == QLatin1String("effect") || kind == QLatin1String("verdict"))
                return fail(QStringLiteral("pause.kind"),
                            QStringLiteral("the judge speaks at the end: pause at \"end\""));
            out->kind = PausePoint::Kind::Event;
            out->event = v.toObject();
            return true;
        }
        return fail(QStringLiteral("pause"),
                    QStringLiteral("must be \"start\", \"end\", a step number, or an event "
                                   "{\"kind\": …, …}"));
    }

    bool question(const QJsonValue& v, std::optional<LessonQuestion>* out) {
        if (v.isUndefined())
            return true;
        if (!v.isObject())
            return fail(QStringLiteral("question"), QStringLiteral("must be an object"));
        const QJsonObject o = v.toObject();
        LessonQuestion q;
        if (!text(o, "prompt", true, &q.prompt) || !text(o, "why", false, &q.why))
            return false;
        q.answer = o.value(QLatin1String("answer")).toString();
        bool known = false;
        for (const QString& kind : kAnswerKinds)
            known = known || (kind.endsWith(QLatin1Char(':'))
                                  ? q.answer.startsWith(kind) && q.answer.size() > kind.size()
                                  : q.answer == kind);
        if (!known) {
            return fail(QStringLiteral("question.answer"),
                        QStringLiteral("\"%1\" is not something a run can answer (allowed: "
                                       "verdict, effect:NAME, responses:ID, wrong-answers, "
                                       "alerts, tolerated, lock-waits, deadlocks, "
                                       "serialization-failures, any:lock-waits, "
                                       "any:deadlocks, any:serialization-failures)")
                            .arg(q.answer));
        }
        const QJsonArray choices = o.value(QLatin1String("choices")).toArray();
        if (choices.size() < 2)
            return fail(QStringLiteral("question.choices"),
                        QStringLiteral("needs at least two choices"));
        for (int i = 0; i < choices.size(); ++i) {
            const QJsonObject c = choices.at(i).toObject();
            LessonChoice choice;
            const QString where = QStringLiteral("question.choices[%1]").arg(i + 1);
            if (!c.value(QLatin1String("value")).isString() &&
                !c.value(QLatin1String("value")).isDouble())
                return fail(where, QStringLiteral("needs a \"value\""));
            choice.value = c.value(QLatin1String("value")).toVariant().toString();
            if (!text(c, "label", true, &choice.label))
                return fail(where, *error_);
            q.choices << choice;
        }
        *out = q;
        return true;
    }

    bool workbench(const QJsonValue& v, std::optional<LessonWorkbench>* out) {
        if (v.isUndefined())
            return true;
        const QJsonObject o = v.toObject();
        if (!v.isObject() || !o.value(QLatin1String("challenge")).isString() ||
            o.value(QLatin1String("challenge")).toString().isEmpty())
            return fail(QStringLiteral("workbench"),
                        QStringLiteral("must be an object with a \"challenge\" (an id of "
                                       "`idemlab challenge list`)"));
        LessonWorkbench w;
        w.challenge = o.value(QLatin1String("challenge")).toString();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("challenge"))
                continue;
            if (it.key() != QLatin1String("starter") && it.key() != QLatin1String("check"))
                return fail(QStringLiteral("workbench"),
                            QStringLiteral("unknown field \"%1\" (allowed: challenge, "
                                           "starter, check)")
                                .arg(it.key()));
            if (!it.value().isBool())
                return fail(QStringLiteral("workbench.") + it.key(),
                            QStringLiteral("must be true or false"));
            (it.key() == QLatin1String("starter") ? w.starter : w.check) = it.value().toBool();
        }
        *out = w;
        return true;
    }

private:
    QString* error_;
    int frame_ = 0;
};

QString fieldText(const QVariant& v) {
    if (v.typeId() == QMetaType::Bool)
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return v.toString();
}

}  // namespace

QString LessonText::in(const QString& lang) const {
    const QString& wanted = lang == QLatin1String("zh") ? zh : en;
    return wanted.isEmpty() ? (lang == QLatin1String("zh") ? en : zh) : wanted;
}

bool PausePoint::matches(const TraceEvent& e) const {
    if (kind != Kind::Event)
        return false;
    for (auto it = event.begin(); it != event.end(); ++it) {
        const QString key = it.key();
        QString want = fieldText(it.value().toVariant());
        QString have;
        if (key == QLatin1String("kind"))
            have = e.kindId();
        else if (key == QLatin1String("attempt"))
            have = QString::number(e.attempt);
        else if (key == QLatin1String("intent"))
            have = QString::number(e.intent + 1);
        else if (key == QLatin1String("actor"))
            have = e.actorName();
        else if (const char* rows = e.rowsKey(); rows && key == QLatin1String(rows))
            have = QString::number(e.rows);
        else if (key == QLatin1String("rows") && e.is(EventKind::Sql) &&
                 e.counts != RowCount::None)  // the name before trace version 3
            have = QString::number(e.rows);
        else if (key == QLatin1String("code") && e.is(EventKind::Sql))
            have = QString::number(e.code);
        else if (key == QLatin1String("sql") && e.is(EventKind::Sql)) {
            // A statement's beginning names it, whatever its line breaks.
            want = want.simplified();
            have = e.sql.simplified().left(want.size());
        } else if (const Key k = internKey(key); e.fields.contains(k))
            have = fieldText(e.fields.value(k));
        else
            return false;
        if (have != want)
            return false;
    }
    return true;
}

QString PausePoint::describe() const {
    switch (kind) {
        case Kind::Start:
            return QStringLiteral("the start");
        case Kind::Step:
            return QStringLiteral("step %1").arg(step);
        case Kind::End:
            return QStringLiteral("the end");
        case Kind::Event: {
            QStringList parts;
            for (auto it = event.begin(); it != event.end(); ++it)
                parts << QStringLiteral("%1 %2").arg(it.key(), fieldText(it.value().toVariant()));
            return QStringLiteral("the first event with %1").arg(parts.join(QStringLiteral(", ")));
        }
    }
    return {};
}

int Lesson::questionCount() const {
    int n = 0;
    for (const LessonFrame& f : frames) n += f.question.has_value();
    return n;
}

QString lessonAnswer(const QString& answer, const Summary& summary) {
    if (answer == QLatin1String("verdict"))
        return summary.verdictId();
    if (answer.startsWith(QLatin1String("effect:"))) {
        const QString name = answer.mid(7);
        if (!summary.effects.contains(name) && !summary.expectedEffects.contains(name))
            return {};
        return QString::number(summary.effects.value(name));
    }
    if (answer.startsWith(QLatin1String("responses:"))) {
        const auto r = responseFromId(answer.mid(10));
        return r ? QString::number(summary.responseCount(*r)) : QString();
    }
    if (answer == QLatin1String("wrong-answers"))
        return QString::number(summary.wrongAnswers.size());
    if (answer == QLatin1String("alerts"))
        return QString::number(summary.alerts.size());
    if (answer == QLatin1String("tolerated"))
        return summary.tolerated ? QStringLiteral("yes") : QStringLiteral("no");
    if (const qint64 n = serverCount(answer, summary); n >= 0)
        return QString::number(n);
    if (answer.startsWith(QLatin1String("any:"))) {
        if (const qint64 n = serverCount(QStringView(answer).mid(4), summary); n >= 0)
            return n > 0 ? QStringLiteral("yes") : QStringLiteral("no");
    }
    return {};
}

QString lessonAnswerLabel(const LessonQuestion& question, const QString& value,
                          const QString& lang) {
    for (const LessonChoice& c : question.choices)
        if (c.value == value)
            return c.label.in(lang);
    return value;
}

bool readLesson(const QJsonObject& json, ConfigResolver resolve, Lesson* out, QString* error) {
    LessonReader r(error);
    if (json.value(QLatin1String("format")).toString() != QLatin1String("idemlab-lesson"))
        return r.fail(QStringLiteral("format"), QStringLiteral("must be \"idemlab-lesson\""));
    if (json.value(QLatin1String("version")).toInt() != 1)
        return r.fail(QStringLiteral("version"), QStringLiteral("this program reads version 1"));
    Lesson lesson;
    lesson.id = json.value(QLatin1String("id")).toString();
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9][a-z0-9-]*$"));
    if (!idPattern.match(lesson.id).hasMatch())
        return r.fail(QStringLiteral("id"),
                      QStringLiteral("must be lower-case letters, digits and dashes"));
    lesson.order = json.value(QLatin1String("order")).toInt(999);
    if (!r.text(json, "title", true, &lesson.title) ||
        !r.text(json, "summary", true, &lesson.summary))
        return false;
    const QJsonArray frames = json.value(QLatin1String("frames")).toArray();
    if (frames.isEmpty())
        return r.fail(QStringLiteral("frames"),
                      QStringLiteral("a lesson needs at least one frame"));
    bool haveRun = false;
    for (int i = 0; i < frames.size(); ++i) {
        r.enterFrame(i + 1);
        if (!frames.at(i).isObject())
            return r.fail(QStringLiteral("frame"), QStringLiteral("must be an object"));
        const QJsonObject f = frames.at(i).toObject();
        LessonFrame frame;
        if (!r.text(f, "title", true, &frame.title) ||
            !r.text(f, "narration", true, &frame.narration))
            return false;
        if (f.contains(QLatin1String("load"))) {
            if (!f.value(QLatin1String("load")).isObject())
                return r.fail(QStringLiteral("load"), QStringLiteral("must be an object"));
            RunConfig config;
            QString why;
            if (!resolve(f.value(QLatin1String("load")).toObject(), &config, &why))
                return r.fail(QStringLiteral("load"), why);
            frame.load = config;
            frame.fire = f.value(QLatin1String("fire")).toBool(true);
            haveRun = true;
        }
        if (!r.workbench(f.value(QLatin1String("workbench")), &frame.workbench))
            return false;
        // A page of words before any run stops at no run's start.
        if (frame.workbench && !haveRun && !f.contains(QLatin1String("pause")))
            frame.pause.kind = PausePoint::Kind::Start;
        else if (!r.pause(f.value(QLatin1String("pause")), &frame.pause))
            return false;
        if (frame.pause.kind != PausePoint::Kind::Start && !haveRun)
            return r.fail(QStringLiteral("pause"),
                          QStringLiteral("no run is loaded yet (add \"load\")"));
        const QJsonObject h = f.value(QLatin1String("highlight")).toObject();
        frame.highlight.table = h.value(QLatin1String("table")).toString();
        frame.highlight.state = h.value(QLatin1String("state")).toString();
        frame.highlight.lane = h.value(QLatin1String("lane")).toString();
        frame.highlight.locks = h.value(QLatin1String("locks")).toBool(false);
        frame.highlight.sqlLog = h.value(QLatin1String("sql")).toBool(false);
        if (!r.question(f.value(QLatin1String("question")), &frame.question))
            return false;
        if (frame.question && !haveRun)
            return r.fail(QStringLiteral("question"),
                          QStringLiteral("no run is loaded to answer it"));
        frame.revealOutcome = f.value(QLatin1String("reveal")).toBool(false);
        if (frame.workbench && (frame.question || !frame.highlight.isEmpty()))
            return r.fail(QStringLiteral("workbench"),
                          QStringLiteral("a frame on the Workbench page has no question or "
                                         "highlight of the stage's (put them on a frame of "
                                         "its own)"));
        lesson.frames << frame;
    }
    *out = lesson;
    return true;
}

int runToPause(Run& run, const PausePoint& pause, qsizetype* lastStepBegin) {
    if (lastStepBegin)
        *lastStepBegin = 0;
    // One step, remembering where its events begin.
    const auto step = [&] {
        const qsizetype before = run.trace().size();
        if (!run.step())
            return false;
        if (lastStepBegin)
            *lastStepBegin = before;
        return true;
    };
    int steps = 0;
    switch (pause.kind) {
        case PausePoint::Kind::Start:
            return 0;
        case PausePoint::Kind::Step:
            while (steps < pause.step && step()) ++steps;
            return steps == pause.step ? steps : -1;
        case PausePoint::Kind::End:
            while (step()) ++steps;
            return steps;
        case PausePoint::Kind::Event: {
            qsizetype seen = run.trace().size();
            for (qsizetype i = 0; i < seen; ++i)
                if (pause.matches(run.trace().events().at(i)))
                    return 0;
            while (step()) {
                ++steps;
                const QList<TraceEvent>& events = run.trace().events();
                for (; seen < events.size(); ++seen)
                    if (pause.matches(events.at(seen)))
                        return steps;
            }
            return -1;
        }
    }
    return -1;
}

}  // namespace idem
