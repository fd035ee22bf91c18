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

QString attemptIdOf(const TraceEvent& e) {
    return QStringLiteral("i%1#%2").arg(e.intent + 1).arg(e.attempt);
}

}  // namespace

int ChromeExport::track(const QString& actor) {
    const QString name = actor.isEmpty() ? QStringLiteral("database") : actor;
    if (!tracks_.contains(name)) {
        tracks_.insert(name, int(actors_.size()) + 1);
        actors_ << name;
    }
    return tracks_.value(name);
}

// The first pass gives each actor its track in the order the second one
// meets them: an event's own actor, and the receiver of an attempt opened.
void ChromeExport::look(const TraceEvent& e) {
    track(e.actorName());
    const QString attemptId = attemptIdOf(e);
    if (e.is(EventKind::Fire) && e.attempt > 0 && !open_.contains(attemptId))
        open_.insert(attemptId, {track(e.fields.text("receiver")), {}});
    if (e.is(EventKind::Response))
        open_.remove(attemptId);
}

void ChromeExport::append(ExportOutput& out, const QJsonObject& o) {
    out.write(first_ ? QByteArray() : QByteArray(","));
    out.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    first_ = false;
}

void ChromeExport::begin(const ExportRun& run, ExportOutput& out) {
    open_.clear();
    first_ = true;
    lastMs_ = 0;
    out.write(QByteArray(R"({"displayTimeUnit":"ms","traceEvents":[)"));
    // Names first: the process, then each actor's track in order of appearance.
    append(out,
           QJsonObject{
               {"ph", "M"},
               {"name", "process_name"},
               {"pid", kPid},
               {"tid", 0},
               {"args", QJsonObject{{"name", QStringLiteral("idemlab %1/%2")
                                                 .arg(run.config.value("scenario").toString(),
                                                      run.config.value("variant").toString())}}}});
    for (qsizetype i = 0; i < actors_.size(); ++i) {
        append(out, QJsonObject{{"ph", "M"},
                                {"name", "thread_name"},
                                {"pid", kPid},
                                {"tid", int(i) + 1},
                                {"args", QJsonObject{{"name", actors_[i]}}}});
        append(out, QJsonObject{{"ph", "M"},
                                {"name", "thread_sort_index"},
                                {"pid", kPid},
                                {"tid", int(i) + 1},
                                {"args", QJsonObject{{"sort_index", int(i) + 1}}}});
    }
}

void ChromeExport::add(const TraceEvent& e, ExportOutput& out) {
    const qint64 ts = e.tMs * kMicrosPerMs;
    lastMs_ = e.tMs;
    const int onTrack = track(e.actorName());
    const QString attemptId = attemptIdOf(e);
    // Attempts open when fired and close with their answer.
    if (e.is(EventKind::Fire) && e.attempt > 0 && !open_.contains(attemptId)) {
        const int to = track(e.fields.text("receiver"));
        const QString name =
            QStringLiteral("attempt %1 (%2)").arg(attemptId, e.fields.text("attempt_kind"));
        open_.insert(attemptId, {to, name});
        append(out, QJsonObject{{"ph", "b"},
                                {"cat", "attempt"},
                                {"id", attemptId},
                                {"name", name},
                                {"ts", ts},
                                {"pid", kPid},
                                {"tid", to}});
    }
    if (e.is(EventKind::Work) || e.is(EventKind::Pause)) {
        // A span of its own: work of concurrent attempts may overlap.
        const QString id = QStringLiteral("work-%1").arg(e.seq);
        const qint64 dur = std::max<qint64>(0, e.fields.number("ms")) * kMicrosPerMs;
        const QString name =
            e.kindId() +
            (e.fields.contains("what") ? QStringLiteral(": ") + e.fields.text("what") : QString());
        append(out, QJsonObject{{"ph", "b"},
                                {"cat", e.kindId()},
                                {"id", id},
                                {"name", name},
                                {"ts", ts},
                                {"pid", kPid},
                                {"tid", onTrack},
                                {"args", eventArgs(e)}});
        append(out, QJsonObject{{"ph", "e"},
                                {"cat", e.kindId()},
                                {"id", id},
                                {"name", name},
                                {"ts", ts + dur},
                                {"pid", kPid},
                                {"tid", onTrack}});
        return;
    }
    append(out, QJsonObject{{"ph", "i"},
                            {"s", "t"},
                            {"cat", e.kindId()},
                            {"name", sliceName(e)},
                            {"ts", ts},
                            {"pid", kPid},
                            {"tid", onTrack},
                            {"args", eventArgs(e)}});
    if (e.is(EventKind::Response) && open_.contains(attemptId)) {
        const OpenSpan span = open_.take(attemptId);
        append(out, QJsonObject{{"ph", "e"},
                                {"cat", "attempt"},
                                {"id", attemptId},
                                {"name", span.name},
                                {"ts", ts},
                                {"pid", kPid},
                                {"tid", span.track},
                                {"args", QJsonObject{{"response", e.fields.text("response")}}}});
    }
}

void ChromeExport::end(ExportOutput& out) {
    // Attempts that never got an answer end with the run.
    const qint64 end = lastMs_ * kMicrosPerMs;
    for (auto it = open_.cbegin(); it != open_.cend(); ++it) {
        append(out, QJsonObject{{"ph", "e"},
                                {"cat", "attempt"},
                                {"id", it.key()},
                                {"name", it.value().name},
                                {"ts", end},
                                {"pid", kPid},
                                {"tid", it.value().track},
                                {"args", QJsonObject{{"response", "none"}}}});
    }
    out.write(QByteArray("]}\n"));
    open_.clear();
    tracks_.clear();
    actors_.clear();
}

QByteArray traceToChromeTrace(const Trace::Loaded& trace) {
    ChromeExport chrome;
    ExportRun run;
    run.config = trace.config;
    return exportEvents(trace.events, chrome, run);
}

}  // namespace idem
