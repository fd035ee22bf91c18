#include "pausesentence.h"

#include "lesson.h"
#include "names.h"
#include "scenariowords.h"
#include "vocabulary.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <QRegularExpression>

namespace idem {

namespace {

QString say(const char* source, int n = -1) {
    return QCoreApplication::translate("idem::PauseSentence", source, nullptr, n);
}

QString valueText(const QJsonValue& v) {
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toInteger());
    return v.toString();
}

// The pause's fields, each read once; what is left over is said at the end.
class Fields {
public:
    explicit Fields(const QJsonObject& o) : left_(o) {}
    bool has(const char* key) const { return left_.contains(QLatin1String(key)); }
    QJsonValue take(const char* key) { return left_.take(QLatin1String(key)); }
    QString takeText(const char* key) { return has(key) ? valueText(take(key)) : QString(); }
    const QJsonObject& left() const { return left_; }

private:
    QJsonObject left_;
};

// One sentence with a subject ("#2 crashes") and one without ("a process
// crashes"), for a pause that names no attempt.
QString either(const QString& who, const char* with, const char* without) {
    return who.isEmpty() ? say(without) : say(with).arg(who);
}

// Who the event is about: an attempt, a helper's own process, an actor.
QString subject(Fields& f, const ScenarioWords& words) {
    const QString actor = f.takeText("actor");
    QString who;
    if (f.has("attempt")) {
        const int n = f.take("attempt").toInt();
        if (n > 0)
            who = say(QT_TRANSLATE_NOOP("idem::PauseSentence", "attempt #%1")).arg(n);
        else if (n < 0)
            who = say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the %1 %2"))
                      .arg(words.actorName(actor), processTag(n, actor));
    }
    if (who.isEmpty() && !actor.isEmpty())
        who = say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the %1")).arg(words.actorName(actor));
    if (f.has("intent")) {
        const QString intent = f.takeText("intent");
        who =
            who.isEmpty()
                ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "an attempt of intent %1"))
                      .arg(intent)
                : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 of intent %2")).arg(who, intent);
    }
    return who;
}

// A statement: what ran, whether the database refused it, what it counted.
QString statementClause(Fields& f, const QString& who) {
    const QString sql = f.takeText("sql");
    QString clause;
    if (f.has("code")) {
        QString statement;
        if (!sql.isEmpty()) {
            statement =
                who.isEmpty()
                    ? sql
                    : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1's %2")).arg(who, sql);
        } else {
            statement = either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "a statement of %1"),
                               QT_TRANSLATE_NOOP("idem::PauseSentence", "a statement"));
        }
        const qint64 code = f.take("code").toInteger();
        // SQLite's extended codes, and the servers' own for the same refusal.
        const char* refusal =
            code == 2067 || code == 1555 || code == 23505 || code == 1062
                ? QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 hits a unique key (error code %2)")
            : code == 275 || code == 23514
                ? QT_TRANSLATE_NOOP("idem::PauseSentence",
                                    "%1 fails a CHECK constraint (error code %2)")
                : QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 fails with error code %2");
        clause = say(refusal).arg(statement).arg(code);
    } else if (!sql.isEmpty()) {
        clause = who.isEmpty()
                     ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 runs")).arg(sql)
                     : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 runs %2")).arg(who, sql);
    } else {
        clause = either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 runs a statement"),
                        QT_TRANSLATE_NOOP("idem::PauseSentence", "a statement runs"));
    }
    // English says one row and n rows; Chinese has one form for both.
    const auto rows = [&f](const char* key, const char* one, const char* many) {
        const int n = f.take(key).toInt();
        return say(n == 1 ? one : many).arg(n);
    };
    if (f.has("rows_changed")) {
        clause +=
            rows("rows_changed", QT_TRANSLATE_NOOP("idem::PauseSentence", ", changing %1 row"),
                 QT_TRANSLATE_NOOP("idem::PauseSentence", ", changing %1 rows"));
    } else if (f.has("rows_returned")) {
        clause +=
            rows("rows_returned", QT_TRANSLATE_NOOP("idem::PauseSentence", ", reading %1 row"),
                 QT_TRANSLATE_NOOP("idem::PauseSentence", ", reading %1 rows"));
    } else if (f.has("rows")) {
        clause += rows("rows", QT_TRANSLATE_NOOP("idem::PauseSentence", ", touching %1 row"),
                       QT_TRANSLATE_NOOP("idem::PauseSentence", ", touching %1 rows"));
    }
    return clause;
}

QString guardClause(Fields& f, const QString& who, const ScenarioWords& words) {
    const QString guard = f.has("guard") ? words.guardName(f.takeText("guard")) : QString();
    if (!f.has("decision")) {
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1's check decides"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "a check decides"));
    }
    const QString decision = words.decisionName(f.takeText("decision"));
    if (guard.isEmpty()) {
        return who.isEmpty()
                   ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "a check ends in “%1”"))
                         .arg(decision)
                   : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1's check ends in “%2”"))
                         .arg(who, decision);
    }
    return who.isEmpty()
               ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "a %1 check ends in “%2”"))
                     .arg(guard, decision)
               : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1's %2 check ends in “%3”"))
                     .arg(who, guard, decision);
}

QString transitionClause(Fields& f, const QString& who) {
    const QString from = f.takeText("from_state");
    const QString to = f.takeText("to_state");
    const bool refused = f.has("accepted") && !f.take("accepted").toBool();
    if (from.isEmpty() && to.isEmpty()) {  // any change of state
        if (refused) {
            return either(
                who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1's change of state is refused"),
                QT_TRANSLATE_NOOP("idem::PauseSentence", "a change of state is refused"));
        }
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 changes a state"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "a state changes"));
    }
    QString change;
    if (!from.isEmpty() && !to.isEmpty())
        change = say(QT_TRANSLATE_NOOP("idem::PauseSentence", " from %1 to %2")).arg(from, to);
    else if (!to.isEmpty())
        change = say(QT_TRANSLATE_NOOP("idem::PauseSentence", " to %1")).arg(to);
    else
        change = say(QT_TRANSLATE_NOOP("idem::PauseSentence", " away from %1")).arg(from);
    if (refused) {
        return who.isEmpty() ? say(QT_TRANSLATE_NOOP("idem::PauseSentence",
                                                     "a move of the state%1 is refused"))
                                   .arg(change)
                             : say(QT_TRANSLATE_NOOP("idem::PauseSentence",
                                                     "%1 tries to move the state%2 and is refused"))
                                   .arg(who, change);
    }
    return who.isEmpty()
               ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the state moves%1")).arg(change)
               : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 moves the state%2"))
                     .arg(who, change);
}

QString eventClause(Fields& f, const ScenarioWords& words) {
    const QString kind = f.takeText("kind");
    const QString who = subject(f, words);
    if (kind == QLatin1String("fire"))
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 is sent"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "the first request is sent"));
    if (kind == QLatin1String("retry")) {
        if (!f.has("after")) {
            return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 is sent as a retry"),
                          QT_TRANSLATE_NOOP("idem::PauseSentence", "the caller retries"));
        }
        const QString after = responseName(f.takeText("after"));
        return who.isEmpty() ? say(QT_TRANSLATE_NOOP("idem::PauseSentence",
                                                     "the caller retries after the answer “%1”"))
                                   .arg(after)
                             : say(QT_TRANSLATE_NOOP("idem::PauseSentence",
                                                     "%1 is sent as a retry after the answer "
                                                     "“%2”"))
                                   .arg(who, after);
    }
    if (kind == QLatin1String("sql"))
        return statementClause(f, who);
    if (kind == QLatin1String("guard"))
        return guardClause(f, who, words);
    if (kind == QLatin1String("transition"))
        return transitionClause(f, who);
    if (kind == QLatin1String("crash")) {
        QString clause = either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 crashes"),
                                QT_TRANSLATE_NOOP("idem::PauseSentence", "a process crashes"));
        if (f.has("point")) {
            const auto point = crashPointFromId(f.takeText("point"));
            clause += say(QT_TRANSLATE_NOOP("idem::PauseSentence", " at the point “%1”"))
                          .arg(point ? crashPointName(*point) : QString());
        }
        return clause;
    }
    if (kind == QLatin1String("lock-wait"))
        return either(
            who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 has to wait for a lock"),
            QT_TRANSLATE_NOOP("idem::PauseSentence", "a statement has to wait for a lock"));
    if (kind == QLatin1String("pause"))
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 stalls"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "a process stalls"));
    if (kind == QLatin1String("resume"))
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 wakes up and goes on"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "the stalled process wakes up"));
    if (kind == QLatin1String("alert"))
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 raises an alert"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "the first alert is raised"));
    if (kind == QLatin1String("work"))
        return either(
            who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 starts work outside the database"),
            QT_TRANSLATE_NOOP("idem::PauseSentence", "work outside the database starts"));
    if (kind == QLatin1String("response")) {
        if (!f.has("response")) {
            return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 gets its answer"),
                          QT_TRANSLATE_NOOP("idem::PauseSentence", "the first answer arrives"));
        }
        const QString response = responseName(f.takeText("response"));
        return who.isEmpty()
                   ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "a caller is answered “%1”"))
                         .arg(response)
                   : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 is answered “%2”"))
                         .arg(who, response);
    }
    if (kind == QLatin1String("redis")) {
        // The wait for a key Redis itself let go (the scheduler's PTTL).
        if (f.has("cause") && f.takeText("cause") == QLatin1String("expiry")) {
            return either(
                who,
                QT_TRANSLATE_NOOP("idem::PauseSentence", "Redis tells %1 that a key has expired"),
                QT_TRANSLATE_NOOP("idem::PauseSentence", "Redis first reports a key expired"));
        }
        return either(who, QT_TRANSLATE_NOOP("idem::PauseSentence", "%1 sends Redis a command"),
                      QT_TRANSLATE_NOOP("idem::PauseSentence", "the first command goes to Redis"));
    }
    if (kind == QLatin1String("effect"))
        return say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the judge counts the effects"));
    if (kind == QLatin1String("verdict"))
        return say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the judge gives its verdict"));
    // A scenario's own note, by the name the sequence diagram gives it.
    const QString note = words.noteLabel(kind);
    return who.isEmpty()
               ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", "the first “%1” happens")).arg(note)
               : say(QT_TRANSLATE_NOOP("idem::PauseSentence", "“%1” happens to %2")).arg(note, who);
}

// Fields no clause took: where (a page), how (a retry), or as they are.
QString leftOver(Fields& f) {
    QString more;
    if (f.has("page"))
        more +=
            say(QT_TRANSLATE_NOOP("idem::PauseSentence", " on page %1")).arg(f.takeText("page"));
    if (f.has("retry")) {
        more += f.take("retry").toBool()
                    ? say(QT_TRANSLATE_NOOP("idem::PauseSentence", " on a retry"))
                    : say(QT_TRANSLATE_NOOP("idem::PauseSentence", " on the first try"));
    }
    const QJsonObject& left = f.left();
    for (auto it = left.begin(); it != left.end(); ++it) {
        more += say(QT_TRANSLATE_NOOP("idem::PauseSentence", " (%1: %2)"))
                    .arg(it.key(), valueText(it.value()));
    }
    return more;
}

}  // namespace

QString pauseSentence(const PausePoint& pause, const ScenarioWords& words) {
    switch (pause.kind) {
        case PausePoint::Kind::Start:
            return say(
                QT_TRANSLATE_NOOP("idem::PauseSentence", "The run stops before its first step."));
        case PausePoint::Kind::Step:
            return say(QT_TRANSLATE_NOOP("idem::PauseSentence", "The run stops after step %1."))
                .arg(pause.step);
        case PausePoint::Kind::End:
            return say(QT_TRANSLATE_NOOP("idem::PauseSentence", "The run goes on to its end."));
        case PausePoint::Kind::Event:
            break;
    }
    Fields f(pause.event);
    QString clause = eventClause(f, words);
    clause += leftOver(f);  // after the clause took its fields
    QString sentence =
        say(QT_TRANSLATE_NOOP("idem::PauseSentence", "The run stops as soon as %1.")).arg(clause);
    // Chinese keeps a space between its own words and a Latin word (a
    // table, a statement) on either side, as the translations write it.
    static const QRegularExpression kHanLatin(
        QStringLiteral("([\\x{4e00}-\\x{9fff}])([A-Za-z])|([A-Za-z])([\\x{4e00}-\\x{9fff}])"));
    sentence.replace(kHanLatin, QStringLiteral("\\1\\3 \\2\\4"));
    return sentence;
}

}  // namespace idem
