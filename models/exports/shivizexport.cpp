// The ShiViz log: hosts, messages and vector clocks for a run, so that ShiViz
// draws concurrent attempts side by side and every message as an arrow.
#include "exporttext.h"
#include "names.h"
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

}  // namespace

void ShiVizExport::look(const TraceEvent& e) {
    if (e.intent > 0)
        manyIntents_ = true;
    if (e.is(EventKind::Fire) && e.attempt > 0 && !e.fields.text("receiver").isEmpty())
        perAttempt_.insert(e.fields.text("receiver"));
}

// An actor that handles attempts has one host per attempt: each attempt is a
// process of its own (a request thread, a consumer's delivery).
QString ShiVizExport::host(const QString& actor, const TraceEvent& e) const {
    if (actor.isEmpty())
        return kDatabase;
    if (!perAttempt_.contains(actor) || e.attempt <= 0)
        return hostWord(actor);
    return hostWord(manyIntents_
                        ? QStringLiteral("%1-i%2#%3").arg(actor).arg(e.intent + 1).arg(e.attempt)
                        : QStringLiteral("%1#%2").arg(actor).arg(e.attempt));
}

QString ShiVizExport::host(const AttemptRef& a) const {
    TraceEvent e;
    e.intent = a.intent;
    e.attempt = a.attempt;
    e.actor = a.actor;
    return host(nameOf(a.actor), e);
}

// "t=12 #2 ": the time, and the attempt unless the line already names it
// (its host is the attempt's own, "service#2", or its text names that host).
QString ShiVizExport::prefix(const TraceEvent& e, const QString& host, const QString& text) const {
    QString p = QStringLiteral("t=%1").arg(e.tMs);
    if (e.attempt != 0) {
        const QString tag = processTag(e.attempt, e.actorName());
        const QString number =
            manyIntents_ ? QStringLiteral("i%1%2").arg(e.intent + 1).arg(tag) : tag;
        const QString own = this->host(e.actorName(), e);
        const bool named =
            host.endsWith(number) || (own.contains(QLatin1Char('#')) && text.contains(own));
        if (!named)
            p += QLatin1Char(' ') + number;
    }
    return p + QLatin1Char(' ');
}

// An event of `host` about `e`; with `from`, it receives the message the
// latest event of `from` sent: the host's clock first takes in everything
// the sender's had, then counts the event.
void ShiVizExport::event(ExportOutput& out, const QString& host, const TraceEvent& e,
                         const QString& text, const QString& from) {
    QJsonObject& clock = clocks_[host];
    const auto sent = from.isEmpty() || from == host ? clocks_.cend() : clocks_.constFind(from);
    if (sent != clocks_.cend()) {
        for (auto it = sent->constBegin(); it != sent->constEnd(); ++it) {
            if (it.value().toInteger() > clock.value(it.key()).toInteger())
                clock.insert(it.key(), it.value());
        }
    }
    clock.insert(host, clock.value(host).toInteger() + 1);
    out.write(oneLine(prefix(e, host, text) + text).toUtf8() + '\n' + host.toUtf8() + ' ' +
              QJsonDocument(clock).toJson(QJsonDocument::Compact) + '\n');
}

void ShiVizExport::begin(const ExportRun& run, ExportOutput& out) {
    // ShiViz's upload takes the first line as the parser and the second as
    // the delimiter between executions (none: an empty line).
    if (!started_) {
        started_ = true;
        out.write(QByteArray(kShiVizParser) + '\n');
        out.write(runs_ > 1 ? QByteArray(kShiVizDelimiter) + '\n' : QByteArray("\n"));
    }
    if (runs_ > 1)
        out.write("=== " + oneLine(run.label).toUtf8() + " ===\n");
    judged_ = false;
    clocks_.clear();
    locks_.clear();
    locks_.setBackend(run.config.value("backend").toString());
}

void ShiVizExport::add(const TraceEvent& e, ExportOutput& out) {
    const QString actor = e.actorName();
    const LockStep lockStep = locks_.follow(e);
    if (lockStep.began && !actor.isEmpty() && actor != kDatabase) {
        // The statement is sent and blocks: the wait is its attempt's.
        const LockEpisode& w = *lockStep.began;
        event(out, host(actor, e), e,
              QStringLiteral("sends on %1 and waits: %2 [%3]")
                  .arg(w.session, locks_.waitText(w), w.lock));
        return;
    }
    if (e.is(EventKind::Sql)) {
        if (actor.isEmpty() || actor == kDatabase) {
            event(out, kDatabase, e, e.connectionName() + QLatin1Char(' ') + describeEvent(e));
            return;
        }
        const QString h = host(actor, e);
        if (lockStep.ended) {
            // Sent when it blocked; let go by the holder whose transaction ended.
            const LockEpisode& w = *lockStep.ended;
            const QString holder = w.releasedBy.attempt != 0 ? host(w.releasedBy) : QString();
            event(out, h, e, locks_.releaseText(w),
                  clocks_.contains(holder) && holder != h ? holder : QString());
        } else {
            // Statement sent, run by the database, result returned.
            event(out, h, e,
                  QStringLiteral("sends on %1: %2").arg(e.connectionName(), statementText(e)));
        }
        event(out, kDatabase, e,
              QStringLiteral("%1 from %2: %3 → %4")
                  .arg(e.connectionName(), h, statementText(e), resultText(e)),
              h);
        event(out, h, e, QStringLiteral("gets %1").arg(resultText(e)), kDatabase);
        if (lockStep.refused)
            event(out, h, e, locks_.refusalText(*lockStep.refused));
        return;
    }
    if (actor == kJudge && !judged_) {
        // The judge counts what the database holds at the end.
        judged_ = true;
        if (clocks_.contains(kDatabase)) {
            event(out, kJudge, e, describeEvent(e), kDatabase);
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
    event(out, from, e, describeEvent(e));
    if (lost) {
        event(out, kLost, e,
              QStringLiteral("%1 from %2 never arrived%3")
                  .arg(e.kindId(), from,
                       receiver.isEmpty() ? QString() : QStringLiteral(" at ") + receiver),
              from);
    } else if (!receiver.isEmpty() && receiver != sender) {
        event(out, host(receiver, e), e,
              QStringLiteral("receives %1 from %2").arg(e.kindId(), from), from);
    }
}

void ShiVizExport::end(ExportOutput&) {
    // The next run's hosts are learnt afresh.
    perAttempt_.clear();
    manyIntents_ = false;
    clocks_.clear();
}

QByteArray traceToShiViz(const QList<TraceEvent>& events) {
    return runsToShiViz({ShiVizRun{QString(), events}});
}

QByteArray runsToShiViz(const QList<ShiVizRun>& runs) {
    ShiVizExport shiviz(int(runs.size()));
    QList<QPair<ExportRun, QList<TraceEvent>>> all;
    for (const ShiVizRun& r : runs) {
        ExportRun run;
        run.label = r.label;
        all.append({run, r.events});
    }
    return exportEvents(all, shiviz);
}

}  // namespace idem
