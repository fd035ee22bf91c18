// A Jepsen-style history: per attempt an invoke when it is fired and its
// completion when the caller gets an answer (ok, fail), or info when it gets
// none — Jepsen's indeterminate outcome, exactly what an idemlab "none" is.
#include "tracewriters.h"

#include <QJsonDocument>

#include <algorithm>
#include <vector>

namespace idem {

namespace {

qint64 attemptKey(int intent, int attempt) {
    return (qint64(intent) << 32) | quint32(attempt);
}

}  // namespace

void HistoryExport::begin(const ExportRun& run, ExportOutput&) {
    scenario_ = run.config.value("scenario").toString();
    operations_.clear();
    index_ = 0;
    endMs_ = 0;
    locks_.clear();
    locks_.setBackend(run.config.value("backend").toString());
}

void HistoryExport::line(ExportOutput& out, const char* type, const Operation& op, qint64 tMs,
                         int intent, int attempt, const QJsonObject& more) {
    QJsonObject o{{"index", index_++},     {"type", QLatin1String(type)}, {"f", op.f},
                  {"process", op.process}, {"time", tMs * 1'000'000},     {"intent", intent},
                  {"attempt", attempt}};
    for (auto it = more.begin(); it != more.end(); ++it) o.insert(it.key(), it.value());
    out.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
}

void HistoryExport::add(const TraceEvent& e, ExportOutput& out) {
    endMs_ = std::max(endMs_, e.tMs);
    const LockStep step = locks_.follow(e);
    if (e.intent < 0 || e.attempt <= 0)
        return;
    const qint64 key = attemptKey(e.intent, e.attempt);
    const auto known = operations_.find(key);
    if (known != operations_.end() && !known->completed) {
        if (step.ended) {
            const LockEpisode& w = *step.ended;
            QJsonArray holders;
            for (const AttemptRef& a : w.holders) holders.append(locks_.name(a));
            known->waits.append(QJsonObject{
                {"holders", holders},
                {"lock", LockStory::lockText(w.lock)},
                {"from", w.tMs * 1'000'000},
                {"to", w.endMs * 1'000'000},
                {"released_by", w.releasedBy.attempt != 0 ? QJsonValue(locks_.name(w.releasedBy))
                                                          : QJsonValue()}});
        }
        if (step.refused) {
            const LockEpisode& r = *step.refused;
            known->refused = QJsonObject{
                {"error", QLatin1String(r.kind == LockEpisode::Kind::Deadlock ? "deadlock"
                                        : r.kind == LockEpisode::Kind::LockTimeout
                                            ? "lock-timeout"
                                            : "serialization-failure")},
                {"code", r.code},
                {"state", r.state},
                {"message", r.error}};
        }
    }
    if (e.is(EventKind::Fire) && known == operations_.end()) {
        // f: what the attempt asks for (a TCC phase), else the scenario.
        const QVariantMap payload = e.fields.value("payload").toMap();
        const QString op = payload.value(QStringLiteral("op")).toString();
        const Operation o{qint64(operations_.size()), op.isEmpty() ? scenario_ : op, false, {}, {}};
        operations_.insert(key, o);
        line(out, "invoke", o, e.tMs, e.intent, e.attempt,
             {{"value", payload.isEmpty() ? QJsonValue() : QJsonObject::fromVariantMap(payload)},
              {"attempt_kind", e.fields.text("attempt_kind")},
              {"source", e.fields.text("source")}});
    } else if (e.is(EventKind::Response) && known != operations_.end() && !known->completed) {
        known->completed = true;
        const QString response = e.fields.text("response");
        const QJsonValue result =
            e.fields.contains("result") ? QJsonValue(e.fields.text("result")) : QJsonValue();
        QJsonObject more;
        if (!known->waits.isEmpty())
            more.insert("lock_waits", known->waits);
        if (response == QLatin1String("success")) {
            more.insert("value", result);
            line(out, "ok", *known, e.tMs, e.intent, e.attempt, more);
        } else if (response == QLatin1String("none") || e.fields.flag("lost")) {
            more.insert("value", QJsonValue());
            more.insert("error", QStringLiteral("no-answer"));
            line(out, "info", *known, e.tMs, e.intent, e.attempt, more);
        } else if (!known->refused.isEmpty()) {
            // The server refused the transaction: it did nothing, a definite fail.
            more.insert("value", result);
            for (auto it = known->refused.begin(); it != known->refused.end(); ++it)
                more.insert(it.key(), it.value());
            line(out, "fail", *known, e.tMs, e.intent, e.attempt, more);
        } else {
            more.insert("value", result);
            more.insert("error", response);
            line(out, "fail", *known, e.tMs, e.intent, e.attempt, more);
        }
    }
}

void HistoryExport::end(ExportOutput& out) {
    // An attempt that never got any answer: indeterminate at the run's end,
    // in the order the attempts were fired.
    std::vector<std::pair<qint64, qint64>> open;  // process, key
    for (auto it = operations_.cbegin(); it != operations_.cend(); ++it) {
        if (!it->completed)
            open.emplace_back(it->process, it.key());
    }
    std::sort(open.begin(), open.end());
    for (const auto& [process, key] : open) {
        line(out, "info", operations_.value(key), endMs_, int(key >> 32), int(quint32(key)),
             {{"value", QJsonValue()}, {"error", QStringLiteral("no-answer")}});
    }
    operations_.clear();
}

}  // namespace idem
