// The ShiViz log: hosts, messages and vector clocks for a run, so that ShiViz
// draws concurrent attempts side by side and every message as an arrow.
#include "exporttext.h"
#include "tracewriters.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

namespace idem {

const char* const kShiVizParser = "(?<event>.*)\\n(?<host>\\S*) (?<clock>{.*})";
const char* const kShiVizDelimiter = "=== (?<trace>.*) ===";

namespace {

const QString kDatabase = QStringLiteral("database");
const QString kJudge = QStringLiteral("judge");
// Where an answer that never arrived goes: ShiViz draws only messages that
// someone receives.
const QString kLost = QStringLiteral("lost");

// A ShiViz host is one word before the clock ("\S*" in JavaScript): spaces,
// line breaks and the byte-order mark become "_".
QString hostWord(const QString& name) {
    QString host = name;
    for (QChar& ch : host) {
        if (ch.isSpace() || ch.unicode() == 0xfeff || ch.category() == QChar::Separator_Line ||
            ch.category() == QChar::Separator_Paragraph) {
            ch = QLatin1Char('_');
        }
    }
    return host.isEmpty() ? QStringLiteral("_") : host;
}

QString statementText(const TraceEvent& e) {
    QString s = e.sql.simplified();
    if (!e.params.isEmpty())
        s += QStringLiteral(" [%1]").arg(paramsText(e.params));
    return s;
}

QString resultText(const TraceEvent& e) {
    if (e.failed())
        return e.errorText();
    const QString rows = rowsText(e);
    return rows.isEmpty() ? QStringLiteral("ok") : rows;
}

// One run as ShiViz lines: a clock per host, merged where a message arrives.
class ShiVizLog {
public:
    explicit ShiVizLog(const QList<TraceEvent>& events) {
        for (const TraceEvent& e : events) {
            if (e.intent > 0)
                manyIntents_ = true;
            if (e.is(EventKind::Fire) && e.attempt > 0 && !e.fields.text("receiver").isEmpty())
                perAttempt_.insert(e.fields.text("receiver"));
        }
        for (const TraceEvent& e : events) add(e);
    }
    const QByteArray& text() const { return out_; }

private:
    // An actor that handles attempts has one host per attempt: each attempt
    // is a process of its own (a request thread, a consumer's delivery).
    QString host(const QString& actor, const TraceEvent& e) const {
        if (actor.isEmpty())
            return kDatabase;
        if (!perAttempt_.contains(actor) || e.attempt <= 0)
            return hostWord(actor);
        return hostWord(
            manyIntents_ ? QStringLiteral("%1-i%2#%3").arg(actor).arg(e.intent + 1).arg(e.attempt)
                         : QStringLiteral("%1#%2").arg(actor).arg(e.attempt));
    }

    QString prefix(const TraceEvent& e) const {
        QString p = QStringLiteral("t=%1").arg(e.tMs);
        if (e.attempt > 0) {
            p += manyIntents_ ? QStringLiteral(" i%1#%2").arg(e.intent + 1).arg(e.attempt)
                              : QStringLiteral(" #%1").arg(e.attempt);
        }
        return p + QLatin1Char(' ');
    }

    void event(const QString& host, const QString& text) {
        QMap<QString, qint64>& clock = clocks_[host];
        clock[host] += 1;
        QJsonObject json;
        for (auto it = clock.cbegin(); it != clock.cend(); ++it) json.insert(it.key(), it.value());
        out_ += oneLine(text).toUtf8() + '\n' + host.toUtf8() + ' ' +
                QJsonDocument(json).toJson(QJsonDocument::Compact) + '\n';
    }

    // An event that receives a message sent by the last event of `from`.
    void receive(const QString& host, const QString& from, const QString& text) {
        const QMap<QString, qint64> sent = clocks_.value(from);
        QMap<QString, qint64>& clock = clocks_[host];
        for (auto it = sent.cbegin(); it != sent.cend(); ++it)
            clock[it.key()] = std::max(clock.value(it.key()), it.value());
        event(host, text);
    }

    void add(const TraceEvent& e) {
        const QString p = prefix(e);
        const QString actor = e.actorName();
        if (e.is(EventKind::Sql)) {
            if (actor.isEmpty() || actor == kDatabase) {
                event(kDatabase, p + e.connectionName() + QLatin1Char(' ') + describeEvent(e));
                return;
            }
            // Statement sent, run by the database, result returned.
            const QString h = host(actor, e);
            event(h,
                  p + QStringLiteral("sends on %1: %2").arg(e.connectionName(), statementText(e)));
            receive(kDatabase, h,
                    p + QStringLiteral("%1 from %2: %3 → %4")
                            .arg(e.connectionName(), h, statementText(e), resultText(e)));
            receive(h, kDatabase, p + QStringLiteral("gets %1").arg(resultText(e)));
            return;
        }
        if (actor == kJudge && !judged_) {
            // The judge counts what the database holds at the end.
            judged_ = true;
            if (clocks_.contains(kDatabase)) {
                receive(kJudge, kDatabase, p + describeEvent(e));
                return;
            }
        }
        const QString sender = e.fields.text("sender").isEmpty() ? actor : e.fields.text("sender");
        const QString receiver = e.fields.text("receiver");
        const bool lost =
            e.fields.flag("lost") ||
            (e.is(EventKind::Response) && e.fields.text("response") == QLatin1String("none")) ||
            (receiver.isEmpty() && e.kindId().endsWith(QLatin1String("-lost")));
        const QString from = host(sender, e);
        event(from, p + describeEvent(e));
        if (lost) {
            receive(
                kLost, from,
                p + QStringLiteral("%1 from %2 never arrived%3")
                        .arg(e.kindId(), sender,
                             receiver.isEmpty() ? QString() : QStringLiteral(" at ") + receiver));
        } else if (!receiver.isEmpty() && receiver != sender) {
            receive(host(receiver, e), from,
                    p + QStringLiteral("receives %1 from %2").arg(e.kindId(), sender));
        }
    }

    QSet<QString> perAttempt_;
    bool manyIntents_ = false;
    bool judged_ = false;
    QHash<QString, QMap<QString, qint64>> clocks_;
    QByteArray out_;
};

}  // namespace

QByteArray traceToShiViz(const QList<TraceEvent>& events) {
    return runsToShiViz({ShiVizRun{QString(), events}});
}

QByteArray runsToShiViz(const QList<ShiVizRun>& runs) {
    // ShiViz's upload takes the first line as the parser and the second as
    // the delimiter between executions (none: an empty line).
    QByteArray out = QByteArray(kShiVizParser) + '\n';
    out += runs.size() > 1 ? QByteArray(kShiVizDelimiter) + '\n' : QByteArray("\n");
    for (const ShiVizRun& run : runs) {
        if (runs.size() > 1)
            out += "=== " + oneLine(run.label).toUtf8() + " ===\n";
        out += ShiVizLog(run.events).text();
    }
    return out;
}

}  // namespace idem
