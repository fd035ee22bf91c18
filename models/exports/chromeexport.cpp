// Chrome's trace-event JSON (opens in Perfetto and chrome://tracing): one
// track per actor, virtual time as time, attempts and work as spans.
#include "exporttext.h"
#include "sqlconnection.h"
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

QString attemptIdOf(qint32 intent, qint32 attempt) {
    return QStringLiteral("i%1#%2").arg(intent + 1).arg(attempt);
}

QString attemptIdOf(const TraceEvent& e) {
    return attemptIdOf(e.intent, e.attempt);
}

QString attemptIdOf(const AttemptRef& a) {
    return attemptIdOf(a.intent, a.attempt);
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
// meets them: an event's own actor, and the receiver of an attempt opened;
// on a server, it learns which holder's statement let each wait go.
void ChromeExport::look(const TraceEvent& e) {
    track(e.actorName());
    const QString attemptId = attemptIdOf(e);
    if (e.is(EventKind::Fire) && e.attempt > 0 && !open_.contains(attemptId)) {
        open_.insert(attemptId, {track(e.fields.text("receiver")), {}});
        attemptTracks_.insert(attemptId, track(e.fields.text("receiver")));
    }
    if (e.is(EventKind::Response))
        open_.remove(attemptId);
    const LockStep step = lookLocks_.follow(e);
    if (step.ended && step.ended->letGo() && step.ended->releasedBy.attempt != 0) {
        const LockEpisode& w = *step.ended;
        releases_[w.releasedSeq] << Release{w.seq, w.releasedBy, w.who};
    }
}

void ChromeExport::append(ExportOutput& out, const QJsonObject& o) {
    out.write(first_ ? QByteArray() : QByteArray(","));
    out.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    first_ = false;
}

void ChromeExport::begin(const ExportRun& run, ExportOutput& out) {
    open_.clear();
    waits_.clear();
    locks_.clear();
    locks_.setBackend(run.config.value("backend").toString());
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
    lockEvents(e, out);
    releases(e, out);
    if (e.is(EventKind::Response) && open_.contains(attemptId)) {
        // A wait still open when the attempt answers ends with it.
        if (waits_.contains(attemptId))
            endWait(attemptId, e.tMs, {{"outcome", "answered"}}, out);
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

// A server's lock waits as complete slices on the waiting attempts' tracks,
// written when they end; refusals as instants on the attempts' own async
// tracks (the attempt's category and id, so that they nest in its span).
void ChromeExport::lockEvents(const TraceEvent& e, ExportOutput& out) {
    const LockStep step = locks_.follow(e);
    if (!step.any())
        return;
    const qint64 ts = e.tMs * kMicrosPerMs;
    const auto trackOf = [this, &e](const QString& attemptId) {
        return attemptTracks_.value(attemptId, track(e.actorName()));
    };
    if (step.ended) {
        const LockEpisode& w = *step.ended;
        const QString waiter = attemptIdOf(w.who);
        const bool letGo = w.releasedBy.attempt != 0 && w.letGo();
        QJsonObject more{{"outcome", outcomeId(w.endOutcome)},
                         {"until_seq", w.endSeq},
                         {"ended", locks_.releaseText(w)}};
        if (letGo)
            more.insert("released_by", locks_.name(w.releasedBy));
        endWait(waiter, e.tMs, more, out);
        if (letGo) {
            // The arrow from the holder's statement ends here, at the grant:
            // on a slice of its own, so that it binds to it ("bp": "e").
            append(out,
                   QJsonObject{{"ph", "X"},
                               {"cat", "lock"},
                               {"name", "lock granted"},
                               {"ts", ts},
                               {"dur", 0},
                               {"pid", kPid},
                               {"tid", trackOf(waiter)},
                               {"args", QJsonObject{{"attempt_id", waiter},
                                                    {"released_by", locks_.name(w.releasedBy)}}}});
            append(out, QJsonObject{{"ph", "f"},
                                    {"bp", "e"},
                                    {"cat", "lock"},
                                    {"name", "lock released"},
                                    {"id", w.seq},
                                    {"ts", ts},
                                    {"pid", kPid},
                                    {"tid", trackOf(waiter)}});
        }
    }
    if (step.began) {
        const LockEpisode& w = *step.began;
        const QString waiter = attemptIdOf(w.who);
        QJsonArray holders;
        for (const AttemptRef& a : w.holders) holders.append(locks_.name(a));
        waits_.insert(waiter,
                      OpenWait{trackOf(waiter), e.tMs,
                               QStringLiteral("lock wait: %1").arg(LockStory::lockText(w.lock)),
                               QJsonObject{{"attempt_id", waiter},
                                           {"waiting", locks_.name(w.who)},
                                           {"holders", holders},
                                           {"sessions", w.holderSessions},
                                           {"connection", w.session},
                                           {"lock", w.lock},
                                           {"text", locks_.waitText(w)}}});
    }
    if (step.refused) {
        const LockEpisode& r = *step.refused;
        const QString victim = attemptIdOf(r.who);
        const char* what = r.kind == LockEpisode::Kind::Deadlock      ? "deadlock"
                           : r.kind == LockEpisode::Kind::LockTimeout ? "lock timeout"
                                                                      : "serialization failure";
        append(out, QJsonObject{{"ph", "n"},
                                {"cat", "attempt"},
                                {"id", victim},
                                {"name", QLatin1String(what)},
                                {"ts", ts},
                                {"pid", kPid},
                                {"tid", trackOf(victim)},
                                {"args", QJsonObject{{"victim", locks_.name(r.who)},
                                                     {"code", r.code},
                                                     {"state", r.state},
                                                     {"error", r.error},
                                                     {"text", locks_.refusalText(r)}}}});
    }
}

// A wait, whole: from the blocked statement to `endMs`, with what ended it.
void ChromeExport::endWait(const QString& waiter, qint64 endMs, const QJsonObject& more,
                           ExportOutput& out) {
    const OpenWait wait = waits_.take(waiter);
    if (wait.name.isEmpty())
        return;
    QJsonObject args = wait.args;
    for (auto it = more.constBegin(); it != more.constEnd(); ++it)
        args.insert(it.key(), it.value());
    append(out, QJsonObject{{"ph", "X"},
                            {"cat", "lock"},
                            {"name", wait.name},
                            {"ts", wait.startMs * kMicrosPerMs},
                            {"dur", (endMs - wait.startMs) * kMicrosPerMs},
                            {"pid", kPid},
                            {"tid", wait.track},
                            {"args", args}});
}

// The holder's statement that let waits go (learnt in the first pass): the
// arrows to their grants leave it, from a slice of its own on the holder's
// track, before the holder's span ends.
void ChromeExport::releases(const TraceEvent& e, ExportOutput& out) {
    const auto found = releases_.constFind(e.seq);
    if (found == releases_.cend())
        return;
    const qint64 ts = e.tMs * kMicrosPerMs;
    for (const Release& r : *found) {
        const QString holder = attemptIdOf(r.holder);
        const int tid = attemptTracks_.value(holder, track(e.actorName()));
        append(out, QJsonObject{{"ph", "X"},
                                {"cat", "lock"},
                                {"name", "lock released"},
                                {"ts", ts},
                                {"dur", 0},
                                {"pid", kPid},
                                {"tid", tid},
                                {"args", QJsonObject{{"attempt_id", holder},
                                                     {"lets_go", lookLocks_.name(r.waiter)}}}});
        append(out, QJsonObject{{"ph", "s"},
                                {"cat", "lock"},
                                {"name", "lock released"},
                                {"id", r.wait},
                                {"ts", ts},
                                {"pid", kPid},
                                {"tid", tid}});
    }
}

void ChromeExport::end(ExportOutput& out) {
    // Waits and attempts that never ended end with the run.
    const qint64 end = lastMs_ * kMicrosPerMs;
    while (!waits_.isEmpty()) endWait(waits_.firstKey(), lastMs_, {{"outcome", "run ended"}}, out);
    attemptTracks_.clear();
    releases_.clear();
    lookLocks_.clear();
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
