#include "replay.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <deque>

namespace idem {

namespace {

// Collects the fresh run's events until the comparison takes them.
class Queue : public TraceSink {
public:
    void add(const TraceEvent& event) override { events.push_back(event); }
    std::deque<TraceEvent> events;
};

QString shown(const QJsonValue& v) {
    if (v.isUndefined())
        return QStringLiteral("(absent)");
    if (v.isString())
        return QLatin1Char('"') + v.toString().left(120) + QLatin1Char('"');
    if (v.isObject() || v.isArray()) {
        const QByteArray json = v.isObject()
                                    ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
                                    : QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(json.left(160));
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

}  // namespace

QString firstDifference(const QJsonValue& stored, const QJsonValue& fresh, const QString& path) {
    auto differs = [&] {
        return QStringLiteral("%1: stored %2, replay %3").arg(path, shown(stored), shown(fresh));
    };
    if (stored.type() != fresh.type())
        return differs();
    switch (stored.type()) {
        case QJsonValue::Double:
            // A whole number and a fraction are different types in a trace.
            if (stored.toVariant().typeId() != fresh.toVariant().typeId() ||
                stored.toVariant() != fresh.toVariant())
                return differs();
            return {};
        case QJsonValue::Array: {
            const QJsonArray a = stored.toArray(), b = fresh.toArray();
            for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
                const QString d =
                    firstDifference(i < a.size() ? a.at(i) : QJsonValue(QJsonValue::Undefined),
                                    i < b.size() ? b.at(i) : QJsonValue(QJsonValue::Undefined),
                                    QStringLiteral("%1[%2]").arg(path).arg(i));
                if (!d.isEmpty())
                    return d;
            }
            return {};
        }
        case QJsonValue::Object: {
            const QJsonObject a = stored.toObject(), b = fresh.toObject();
            QStringList keys = a.keys();
            for (const QString& k : b.keys()) {
                if (!a.contains(k))
                    keys << k;
            }
            for (const QString& k : keys) {
                const QString d = firstDifference(a.value(k), b.value(k),
                                                  path.isEmpty() ? k : path + QLatin1Char('.') + k);
                if (!d.isEmpty())
                    return d;
            }
            return {};
        }
        default:
            return stored == fresh ? QString() : differs();
    }
}

ReplayOutcome replayTrace(TraceReader& reader, const TraceReader::Header& header,
                          const RunConfig& config, const Scenario& scenario,
                          const std::atomic<bool>* cancel) {
    ReplayOutcome out;
    Queue fresh;
    RunOptions options;
    options.keepTrace = false;
    options.sink = &fresh;
    options.cancel = cancel;
    reader.setCancel(cancel);
    options.formatVersion = header.version;
    Run run(config, scenario, options);
    QString error;
    if (!run.start(&error)) {
        out.failure = run.failure();
        out.error = error;
        return out;
    }
    bool finished = false;
    auto finish = [&] {
        finished = true;
        QString why;
        if (!run.finish(&why)) {
            out.failure = run.failure();
            out.error = why;
        }
    };
    // Take the next fresh event, running the engine as far as needed.
    auto next = [&]() -> std::optional<TraceEvent> {
        while (fresh.events.empty()) {
            if (!run.step()) {
                if (finished || run.failure() == RunFailure::Cancelled)
                    return std::nullopt;
                finish();
            }
        }
        TraceEvent e = std::move(fresh.events.front());
        fresh.events.pop_front();
        return e;
    };
    bool digestMatches = false;
    const bool read = reader.readEvents(
        [&](TraceEvent&&, const QJsonObject& stored) {
            ++out.events;
            const std::optional<TraceEvent> e = next();
            if (run.failure() == RunFailure::Cancelled) {
                out.failure = RunFailure::Cancelled;
                out.error = run.failureMessage();
                return false;
            }
            const QJsonValue mine =
                e ? QJsonValue(e->toJson(header.version)) : QJsonValue(QJsonValue::Undefined);
            const QString d = firstDifference(stored, mine, QString());
            if (!d.isEmpty()) {
                out.difference = QStringLiteral("event %1, %2").arg(out.events).arg(d);
                return false;
            }
            return true;
        },
        &digestMatches, &out.error);
    if (reader.cancelled())
        out.failure = RunFailure::Cancelled;
    if (!read && out.difference.isEmpty())
        return out;
    if (!out.difference.isEmpty())
        return out;
    if (const std::optional<TraceEvent> extra = next()) {
        out.difference = QStringLiteral("event %1: the trace ends here, the replay goes on with %2")
                             .arg(out.events + 1)
                             .arg(QString::fromUtf8(extra->toJsonBytes().left(160)));
        return out;
    }
    if (!finished)
        finish();
    if (out.failure != RunFailure::None)
        return out;
    out.summary = run.summary();
    if (!header.hasSummary) {
        out.difference = QStringLiteral("the trace has no summary");
        return out;
    }
    const QString d = firstDifference(header.summary, run.summary().toJson(header.version),
                                      QStringLiteral("summary"));
    if (!d.isEmpty()) {
        out.difference = d;
        return out;
    }
    if (header.version >= 2 && !digestMatches) {
        out.difference = QStringLiteral(
            "every event and the summary match, but the digest does not: the file was "
            "re-formatted or its digest edited");
        return out;
    }
    out.identical = true;
    return out;
}

}  // namespace idem
