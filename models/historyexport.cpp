// A Jepsen-style history: per attempt an invoke when it is fired and its
// completion when the caller gets an answer (ok, fail), or info when it gets
// none — Jepsen's indeterminate outcome, exactly what an idemlab "none" is.
#include "tracewriters.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace idem {

namespace {

struct Attempt {
    qint64 process = 0;
    QString f;
    bool completed = false;
};

QString attemptKey(const TraceEvent& e) {
    return QStringLiteral("%1#%2").arg(e.intent).arg(e.attempt);
}

}  // namespace

QByteArray traceToHistory(const Trace::Loaded& trace) {
    const QString scenario = trace.config.value("scenario").toString();
    QHash<QString, Attempt> attempts;
    QList<QString> order;  // attempts in the order they were fired
    QByteArray out;
    qint64 index = 0;
    qint64 endMs = 0;
    auto line = [&](const char* type, const Attempt& a, const TraceEvent& e, QJsonObject more) {
        QJsonObject o{{"index", index++},     {"type", QLatin1String(type)}, {"f", a.f},
                      {"process", a.process}, {"time", e.tMs * 1'000'000},   {"intent", e.intent},
                      {"attempt", e.attempt}};
        for (auto it = more.begin(); it != more.end(); ++it) o.insert(it.key(), it.value());
        out += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    };
    for (const TraceEvent& e : trace.events) {
        endMs = std::max(endMs, e.tMs);
        if (e.intent < 0 || e.attempt <= 0)
            continue;
        const QString key = attemptKey(e);
        if (e.is(EventKind::Fire) && !attempts.contains(key)) {
            // f: what the attempt asks for (a TCC phase), else the scenario.
            const QVariantMap payload = e.fields.value("payload").toMap();
            const QString op = payload.value(QStringLiteral("op")).toString();
            Attempt a{qint64(order.size()), op.isEmpty() ? scenario : op, false};
            attempts.insert(key, a);
            order << key;
            line(
                "invoke", a, e,
                {{"value", payload.isEmpty() ? QJsonValue() : QJsonObject::fromVariantMap(payload)},
                 {"attempt_kind", e.fields.text("attempt_kind")},
                 {"source", e.fields.text("source")}});
        } else if (e.is(EventKind::Response) && attempts.contains(key) &&
                   !attempts[key].completed) {
            Attempt& a = attempts[key];
            a.completed = true;
            const QString response = e.fields.text("response");
            const QJsonValue result =
                e.fields.contains("result") ? QJsonValue(e.fields.text("result")) : QJsonValue();
            if (response == QLatin1String("success")) {
                line("ok", a, e, {{"value", result}});
            } else if (response == QLatin1String("none") || e.fields.flag("lost")) {
                line("info", a, e,
                     {{"value", QJsonValue()}, {"error", QStringLiteral("no-answer")}});
            } else {
                line("fail", a, e, {{"value", result}, {"error", response}});
            }
        }
    }
    // An attempt that never got any answer: indeterminate at the run's end.
    for (const QString& key : std::as_const(order)) {
        const Attempt& a = attempts[key];
        if (a.completed)
            continue;
        TraceEvent end;
        end.tMs = endMs;
        end.intent = key.section(QLatin1Char('#'), 0, 0).toInt();
        end.attempt = key.section(QLatin1Char('#'), 1).toInt();
        line("info", a, end, {{"value", QJsonValue()}, {"error", QStringLiteral("no-answer")}});
    }
    return out;
}

}  // namespace idem
