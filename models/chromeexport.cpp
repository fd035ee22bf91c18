// Chrome's trace-event JSON (opens in Perfetto and chrome://tracing): one
// track per actor, virtual time as time, attempts and work as spans.
#include "exporttext.h"
#include "tracewriters.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace idem {

namespace {

constexpr qint64 kMicrosPerMs = 1000;
constexpr int kPid = 1;

// The event's own fields and, for a statement, what it ran and got.
QJsonObject eventArgs(const TraceEvent& e) {
    QJsonObject args{{"seq", e.seq}, {"intent", e.intent}, {"attempt", e.attempt}};
    if (e.is(EventKind::Sql)) {
        args.insert("connection", e.connectionName());
        args.insert("sql", e.sql);
        args.insert("params", paramsText(e.params));
        if (const char* key = e.rowsKey())
            args.insert(QLatin1String(key), e.rows);
        if (e.failed())
            args.insert("error", e.errorText());
    }
    for (const Field& f : e.fields)
        args.insert(QLatin1String(f.key.name), QJsonValue::fromVariant(f.value));
    return args;
}

// A short name for the slice: "sql: SELECT id FROM orders WHERE …", "guard: claimed".
QString sliceName(const TraceEvent& e) {
    QString name = e.kindId();
    if (e.is(EventKind::Sql)) {
        QString sql = e.sql.simplified();
        if (sql.size() > 60)
            sql = sql.left(59) + QStringLiteral("…");
        name += QStringLiteral(": ") + sql;
    } else if (e.fields.contains("decision")) {
        name += QStringLiteral(": ") + e.fields.text("decision");
    } else if (e.fields.contains("response")) {
        name += QStringLiteral(": ") + e.fields.text("response");
    } else if (e.fields.contains("verdict")) {
        name += QStringLiteral(": ") + e.fields.text("verdict");
    }
    return name;
}

}  // namespace

QByteArray traceToChromeTrace(const Trace::Loaded& trace) {
    QJsonArray events;
    QMap<QString, int> tids;  // actor → track
    QStringList actors;
    auto tid = [&](const QString& actor) {
        const QString name = actor.isEmpty() ? QStringLiteral("database") : actor;
        if (!tids.contains(name)) {
            tids.insert(name, int(actors.size()) + 1);
            actors << name;
        }
        return tids.value(name);
    };
    // Attempts open when fired and close with their answer; keyed by intent and attempt.
    QMap<QString, int> openAttempts;
    for (const TraceEvent& e : trace.events) {
        const qint64 ts = e.tMs * kMicrosPerMs;
        const int track = tid(e.actorName());
        const QString attemptId = QStringLiteral("i%1#%2").arg(e.intent + 1).arg(e.attempt);
        if (e.is(EventKind::Fire) && e.attempt > 0 && !openAttempts.contains(attemptId)) {
            const int to = tid(e.fields.text("receiver"));
            openAttempts.insert(attemptId, to);
            events.append(QJsonObject{
                {"ph", "b"},
                {"cat", "attempt"},
                {"id", attemptId},
                {"name",
                 QStringLiteral("attempt %1 (%2)").arg(attemptId, e.fields.text("attempt_kind"))},
                {"ts", ts},
                {"pid", kPid},
                {"tid", to}});
        }
        if (e.is(EventKind::Work) || e.is(EventKind::Pause)) {
            // A span of its own: work of concurrent attempts may overlap.
            const QString id = QStringLiteral("work-%1").arg(e.seq);
            const qint64 dur = std::max<qint64>(0, e.fields.number("ms")) * kMicrosPerMs;
            const QString name = e.kindId() + (e.fields.contains("what")
                                                   ? QStringLiteral(": ") + e.fields.text("what")
                                                   : QString());
            QJsonObject begin{
                {"ph", "b"}, {"cat", e.kindId()}, {"id", id},     {"name", name},
                {"ts", ts},  {"pid", kPid},       {"tid", track}, {"args", eventArgs(e)}};
            events.append(begin);
            events.append(QJsonObject{{"ph", "e"},
                                      {"cat", e.kindId()},
                                      {"id", id},
                                      {"name", name},
                                      {"ts", ts + dur},
                                      {"pid", kPid},
                                      {"tid", track}});
            continue;
        }
        events.append(QJsonObject{{"ph", "i"},
                                  {"s", "t"},
                                  {"cat", e.kindId()},
                                  {"name", sliceName(e)},
                                  {"ts", ts},
                                  {"pid", kPid},
                                  {"tid", track},
                                  {"args", eventArgs(e)}});
        if (e.is(EventKind::Response) && openAttempts.contains(attemptId)) {
            events.append(
                QJsonObject{{"ph", "e"},
                            {"cat", "attempt"},
                            {"id", attemptId},
                            {"name", QStringLiteral("attempt %1").arg(attemptId)},
                            {"ts", ts},
                            {"pid", kPid},
                            {"tid", openAttempts.take(attemptId)},
                            {"args", QJsonObject{{"response", e.fields.text("response")}}}});
        }
    }
    // Attempts that never got an answer end with the run.
    const qint64 end = trace.events.isEmpty() ? 0 : trace.events.last().tMs * kMicrosPerMs;
    for (auto it = openAttempts.cbegin(); it != openAttempts.cend(); ++it) {
        events.append(QJsonObject{{"ph", "e"},
                                  {"cat", "attempt"},
                                  {"id", it.key()},
                                  {"name", QStringLiteral("attempt %1").arg(it.key())},
                                  {"ts", end},
                                  {"pid", kPid},
                                  {"tid", it.value()},
                                  {"args", QJsonObject{{"response", "none"}}}});
    }
    // Names first: the process, then each actor's track in order of appearance.
    QJsonArray all{QJsonObject{
        {"ph", "M"},
        {"name", "process_name"},
        {"pid", kPid},
        {"tid", 0},
        {"args", QJsonObject{{"name", QStringLiteral("idemlab %1/%2")
                                          .arg(trace.config.value("scenario").toString(),
                                               trace.config.value("variant").toString())}}}}};
    for (qsizetype i = 0; i < actors.size(); ++i) {
        all.append(QJsonObject{{"ph", "M"},
                               {"name", "thread_name"},
                               {"pid", kPid},
                               {"tid", int(i) + 1},
                               {"args", QJsonObject{{"name", actors[i]}}}});
        all.append(QJsonObject{{"ph", "M"},
                               {"name", "thread_sort_index"},
                               {"pid", kPid},
                               {"tid", int(i) + 1},
                               {"args", QJsonObject{{"sort_index", int(i) + 1}}}});
    }
    for (const QJsonValue& v : std::as_const(events)) all.append(v);
    return QJsonDocument(QJsonObject{{"displayTimeUnit", "ms"}, {"traceEvents", all}})
               .toJson(QJsonDocument::Compact) +
           '\n';
}

}  // namespace idem
