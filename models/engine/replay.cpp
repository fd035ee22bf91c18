#include "replay.h"

#include "locksnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <deque>

namespace idem {

namespace {

// Enough for the sentences of any run a report is made of; a run of many
// intents whose results are all different keeps its first ones.
constexpr qsizetype kPhrasesKept = 100'000;

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

// The run's own schema on a private PostgreSQL is named afresh every run
// (idemlab_e5c5bb), as a server names its transactions: what its sessions
// were told is compared with that name left out.
QJsonObject withoutRunNames(QJsonObject summary) {
    const QJsonValue told = summary.value(QLatin1String("session_settings"));
    if (!told.isArray())
        return summary;
    static const QRegularExpression runName(QStringLiteral("\\bidemlab_[0-9a-f]+\\b"));
    QJsonArray masked;
    for (const QJsonValue& v : told.toArray())
        masked.append(v.toString().replace(runName, QStringLiteral("idemlab_…")));
    summary.insert(QLatin1String("session_settings"), masked);
    return summary;
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

class ReplayCheck::Queue : public TraceSink {
public:
    void add(const TraceEvent& event) override { events.push_back(event); }
    std::deque<TraceEvent> events;
};

ReplayCheck::ReplayCheck(const TraceReader::Header& header, const RunConfig& config,
                         const Scenario& scenario, const std::atomic<bool>* cancel)
    : header_(header), fresh_(std::make_unique<Queue>()) {
    RunOptions options;
    options.keepTrace = false;
    options.sink = fresh_.get();
    options.cancel = cancel;
    options.formatVersion = header.version;
    run_ = std::make_unique<Run>(config, scenario, options);
}

ReplayCheck::~ReplayCheck() = default;

bool ReplayCheck::start() {
    QString error;
    if (run_->start(&error))
        return true;
    out_.failure = run_->failure();
    out_.error = error;
    decided_ = true;
    return false;
}

void ReplayCheck::finishRun() {
    finished_ = true;
    QString why;
    if (!run_->finish(&why)) {
        out_.failure = run_->failure();
        out_.error = why;
    }
}

// The next fresh event, running the engine as far as needed.
std::optional<TraceEvent> ReplayCheck::next() {
    while (fresh_->events.empty()) {
        if (!run_->step()) {
            if (finished_ || run_->failure() == RunFailure::Cancelled)
                return std::nullopt;
            finishRun();
        }
    }
    TraceEvent e = std::move(fresh_->events.front());
    fresh_->events.pop_front();
    return e;
}

bool ReplayCheck::compare(const QJsonObject& stored) {
    if (decided_)
        return false;
    ++out_.events;
    const std::optional<TraceEvent> e = next();
    if (run_->failure() == RunFailure::Cancelled) {
        out_.failure = RunFailure::Cancelled;
        out_.error = run_->failureMessage();
        decided_ = true;
        return false;
    }
    // A server hands out its transaction ids afresh every run.
    const QJsonValue mine = e ? QJsonValue(withoutServerIds(e->toJson(header_.version)))
                              : QJsonValue(QJsonValue::Undefined);
    const QString d = firstDifference(withoutServerIds(stored), mine, QString());
    if (!d.isEmpty()) {
        out_.difference = QStringLiteral("event %1, %2").arg(out_.events).arg(d);
        decided_ = true;
        return false;
    }
    for (const Field& f : e->fields) {
        if (f.value.metaType() == QMetaType::fromType<Phrase>() &&
            out_.phrases.size() < kPhrasesKept) {
            const Phrase p = f.value.value<Phrase>();
            out_.phrases.insert(p.english(), p);
        }
    }
    return true;
}

const ReplayOutcome& ReplayCheck::finish(bool read, const QString& readError, bool digestMatches) {
    if (!read && out_.error.isEmpty() && out_.difference.isEmpty())
        out_.error = readError;
    if (decided_ || !read)
        return out_;
    decided_ = true;
    if (const std::optional<TraceEvent> extra = next()) {
        out_.difference =
            QStringLiteral("event %1: the trace ends here, the replay goes on with %2")
                .arg(out_.events + 1)
                .arg(QString::fromUtf8(extra->toJsonBytes().left(160)));
        return out_;
    }
    if (!finished_)
        finishRun();
    if (out_.failure != RunFailure::None)
        return out_;
    out_.summary = run_->summary();
    if (!header_.hasSummary) {
        out_.difference = QStringLiteral("the trace has no summary");
        return out_;
    }
    const QString d = firstDifference(withoutRunNames(header_.summary),
                                      withoutRunNames(run_->summary().toJson(header_.version)),
                                      QStringLiteral("summary"));
    if (!d.isEmpty()) {
        out_.difference = d;
        return out_;
    }
    if (header_.version >= 2 && !digestMatches) {
        out_.difference = QStringLiteral(
            "every event and the summary match, but the digest does not: the file was "
            "re-formatted or its digest edited");
        return out_;
    }
    out_.identical = true;
    return out_;
}

ReplayOutcome replayTrace(TraceReader& reader, const TraceReader::Header& header,
                          const RunConfig& config, const Scenario& scenario,
                          const std::atomic<bool>* cancel) {
    ReplayCheck check(header, config, scenario, cancel);
    reader.setCancel(cancel);
    if (!check.start())
        return check.outcome();
    bool digestMatches = false;
    QString error;
    const bool read = reader.readEvents(
        [&check](TraceEvent&&, const QJsonObject& stored) { return check.compare(stored); },
        &digestMatches, &error);
    ReplayOutcome out = check.finish(read || !check.outcome().difference.isEmpty() ||
                                         check.outcome().failure != RunFailure::None,
                                     error, digestMatches);
    if (reader.cancelled())
        out.failure = RunFailure::Cancelled;
    return out;
}

}  // namespace idem
