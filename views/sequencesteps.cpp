#include "sequencesteps.h"

#include "sqlstatement.h"

#include "opentransactions.h"

#include "names.h"
#include "redisreply.h"
#include "scenario.h"
#include "sqlconnection.h"
#include "sqllogmodel.h"
#include "trace.h"
#include "tracewords.h"

namespace idem {

namespace {

using Shape = SequenceStep::Shape;
using Tone = SequenceStep::Tone;

const QString kDatabase = QStringLiteral("database");
const QString kRedis = QStringLiteral("Redis");

bool isSetupSql(const TraceEvent& e) {
    return e.isSetup();
}

// Schema, seed rows and the states the seed rows start in: the events before
// the first attempt, drawn as one box on the database lane.
qsizetype setupLength(const QList<TraceEvent>& events) {
    qsizetype n = 0;
    while (n < events.size() && SequenceSteps::isSetupEvent(events[n])) ++n;
    return n;
}

// "PAYING→PAID"; a move allowed from any state (its from is "*") says so.
QString moveText(const TraceEvent& e) {
    const QString from = e.fields.text("from_state");
    const QString shown = from.isEmpty()               ? QStringLiteral("●")
                          : from == QLatin1String("*") ? SequenceSteps::tr("any state")
                                                       : from;
    return shown + QStringLiteral("→") + e.fields.text("to_state");
}

QString shortError(const TraceEvent& e) {
    const QString& error = e.error;
    switch (e.outcome()) {
        case SqlOutcome::Deadlock:
            return SequenceSteps::tr("deadlock: victim, rolled back");
        case SqlOutcome::SerializationFailure:
            return SequenceSteps::tr("serialization failure: refused");
        case SqlOutcome::LockTimeout:
            return SequenceSteps::tr("lock timeout: gave up waiting");
        case SqlOutcome::UniqueViolation:
            return SequenceSteps::tr("UNIQUE violation");
        default:
            break;
    }
    if (error.contains(QLatin1String("UNIQUE")))
        return SequenceSteps::tr("UNIQUE violation");
    if (error.contains(QLatin1String("CHECK")))
        return SequenceSteps::tr("CHECK failed");
    return error.section(QStringLiteral(" ("), 0, 0);
}

QString intentPrefix(const TraceEvent& e, bool manyIntents) {
    return manyIntents ? QStringLiteral("i%1 ").arg(e.intent + 1) : QString();
}

// "#2" (or "R2" for a helper's own number), "i3#2" when the run has several
// intents: which process did this, so that concurrent ones on one lane can
// be told apart.
QString attemptTag(const TraceEvent& e, bool manyIntents) {
    const QString number = processTag(e.attempt, e.actorName());
    return manyIntents ? QStringLiteral("i%1").arg(e.intent + 1) + number : number;
}

}  // namespace

QString SequenceSteps::tooltip(const TraceEvent& e) {
    QStringList lines{
        tr("%1 at %2, %3").arg(e.kindId(), SqlLogModel::formatTime(e.tMs), e.actorName())};
    if (e.intent >= 0) {
        if (e.attempt > 0)
            lines << tr("intent %1, attempt #%2").arg(e.intent + 1).arg(e.attempt);
        else if (e.attempt < 0)
            lines << tr("intent %1, %2").arg(e.intent + 1).arg(attemptTag(e, false));
        else
            lines << tr("intent %1, set-up").arg(e.intent + 1);
    }
    if (e.is(EventKind::Sql)) {
        lines << e.connectionName() + QStringLiteral(": ") + e.sql;
        if (!e.params.isEmpty())
            lines << tr("values: %1").arg(SqlLogModel::formatParams(e.params));
        if (e.failed())
            lines << tr("error: %1").arg(e.errorText());
        else if (e.counts == RowCount::Returned)
            lines << tr("rows returned: %1").arg(e.rows);
        else if (e.counts == RowCount::Changed)
            lines << tr("rows changed: %1").arg(e.rows);
    }
    for (const Field& f : e.fields) {
        lines << QLatin1String(f.key.name) + QStringLiteral(": ") + f.value.toString();
    }
    return lines.join(QLatin1Char('\n'));
}

// A command to the run's Redis (SPEC section 10), on a lane of its own:
// "SET → OK", "GET → \"1\"", a wait for expiry as "PTTL → (integer) -2 (expired)".
SequenceStep SequenceSteps::redisStep(const TraceEvent& e) {
    SequenceStep s;
    s.shape = Shape::Arrow;
    s.from = e.actorName();
    s.to = kRedis;
    RedisReply reply;
    RedisReply::fromTrace(e.fields.text("reply_type"), e.fields.value("reply"), &reply);
    const QString head = e.fields.text("command").section(QLatin1Char(' '), 0, 0);
    QString shown = reply.shown();
    if (shown.size() > 24)
        shown = shown.left(23) + QChar(0x2026);
    s.label = head + QStringLiteral(" → ") + shown;
    if (reply.isError())
        s.tone = Tone::Bad;
    else if (e.fields.text("cause") == QLatin1String("expiry")) {
        s.tone = Tone::Warn;
        s.hourglass = true;
        s.label += QLatin1Char(' ') + tr("(expired)");
    }
    return s;
}

SequenceStep SequenceSteps::sqlStep(const TraceEvent& e) {
    SequenceStep s;
    s.shape = Shape::Arrow;
    s.from = e.actorName();
    s.to = kDatabase;
    const QString head = statementHead(e.sql);
    // BEGIN, COMMIT, ROLLBACK: no count of their own.
    const bool control = e.counts == RowCount::None;
    const QString cause = e.fields.text("cause");
    if (e.outcome() == SqlOutcome::LockBusy) {
        s.tone = Tone::Warn;
        s.dashed = true;
        s.hourglass = true;
        s.label = head + QStringLiteral(" → ") + tr("locked");
    } else if (e.failed()) {
        s.tone = Tone::Bad;
        s.label = head + QStringLiteral(" → ") + shortError(e);
    } else if (control) {
        s.tone = cause.isEmpty() ? Tone::Muted : Tone::Bad;
        s.label = cause == QLatin1String("crash") ? tr("%1 (crash)").arg(head) : head;
    } else {
        // The verb says what the count is (a SELECT's rows returned, an
        // UPDATE's rows changed): the label stays short enough for the lanes.
        s.label =
            head + QStringLiteral(" → ") + (e.rows == 1 ? tr("1 row") : tr("%1 rows").arg(e.rows));
    }
    return s;
}

SequenceStep SequenceSteps::responseStep(const TraceEvent& e) {
    SequenceStep s;
    s.shape = Shape::Arrow;
    s.from = e.actorName();
    s.to = e.fields.text("receiver");
    s.counted = true;
    const QString response = e.fields.text("response");
    const QString result = e.fields.phrase("result").translated();
    s.label = responseName(response);
    if (!result.isEmpty())
        s.label += QStringLiteral(" · ") + result;
    if (response == toId(Response::Success)) {
        s.tone = Tone::Good;
    } else if (response == toId(Response::InProgress)) {
        s.tone = Tone::Warn;
    } else {
        s.tone = Tone::Bad;
    }
    if (e.fields.flag("lost") || response == toId(Response::None)) {
        s.lost = true;
        s.dashed = true;
        s.label = tr("no answer (lost)");
    }
    return s;
}

QString SequenceSteps::lockWaitLabel(const TraceEvent& e, bool manyIntents,
                                     const Context& context) {
    const QString holder = e.fields.text("holder");
    if (!isServerLockWait(e)) {
        return holder.isEmpty() ? tr("%1 waits: database locked").arg(e.fields.text("connection"))
                                : tr("%1 waits for %2").arg(e.fields.text("connection"), holder);
    }
    QStringList holders;
    for (const AttemptRef& a : context.holders) {
        const QString number = processTag(a.attempt, nameOf(a.actor));
        holders << (manyIntents ? QStringLiteral("i%1").arg(a.intent + 1) + number : number);
    }
    if (holders.isEmpty())
        holders << holder;
    return tr("waits for %1 · %2").arg(holders.join(tr(", ")), lockLabel(e.fields.text("lock")));
}

SequenceStep SequenceSteps::step(const TraceEvent& e, bool manyIntents,
                                 const ScenarioInfo* scenario, const Context& context) {
    const ScenarioWords& words = scenario ? scenario->words : ScenarioWords::none();
    const QStringList askKeys = scenario ? scenario->askKeys : QStringList();
    const Fields& d = e.fields;
    auto text = [&](const char* key) {
        return d.text(key);
    };
    SequenceStep s;
    s.from = e.actorName();
    const EventKind k = e.kind;
    if (k == EventKind::Fire) {
        s.shape = Shape::Arrow;
        s.counted = true;
        if (!text("sender").isEmpty())
            s.from = text("sender");
        s.to = text("receiver");
        s.label =
            attemptTag(e, manyIntents) + QLatin1Char(' ') + attemptKindName(text("attempt_kind"));
        const QVariantMap payload = d.value("payload").toMap();
        for (const QString& key : askKeys) {
            if (payload.contains(key))
                s.label += QStringLiteral(" · ") + payload.value(key).toString();
        }
    } else if (k == EventKind::Retry) {
        s.shape = Shape::Loop;
        s.counted = true;
        s.tone = Tone::Warn;
        s.label = tr("↻ retry %1/%2").arg(text("retry"), text("of"));
    } else if (k == EventKind::Sql) {
        s = sqlStep(e);
    } else if (k == EventKind::Response) {
        s = responseStep(e);
    } else if (k == EventKind::LockWait) {
        s.tone = Tone::Warn;
        s.dashed = true;
        s.hourglass = true;
        s.label = lockWaitLabel(e, manyIntents, context);
    } else if (k == EventKind::Guard) {
        s.label = words.guardName(text("guard")) + QStringLiteral(": ") +
                  words.decisionName(text("decision"));
    } else if (k == EventKind::Transition) {
        const bool ok = d.flag("accepted");
        s.tone = ok ? Tone::Good : Tone::Bad;
        s.label = moveText(e) + (ok ? QStringLiteral(" ✓") : QStringLiteral(" ✗"));
    } else if (k == EventKind::Work) {
        s.tone = Tone::Muted;
        s.label = QStringLiteral("⋯ %1 %2").arg(SqlLogModel::formatTime(d.number("ms")),
                                                d.phrase("what").translated());
    } else if (k == EventKind::Pause) {
        s.shape = Shape::Bar;
        s.tone = Tone::Warn;
        s.label = tr("❚❚ paused %1").arg(SqlLogModel::formatTime(d.number("ms")));
    } else if (k == EventKind::Resume) {
        s.tone = Tone::Muted;
        s.label = tr("▶ resumes");
    } else if (k == EventKind::Crash) {
        s.shape = Shape::Cross;
        s.tone = Tone::Bad;
        const std::optional<CrashPoint> point = crashPointFromId(text("point"));
        s.label = tr("✕ crash: %1").arg(point ? crashPointName(*point) : text("point"));
    } else if (k == EventKind::Alert) {
        s.tone = Tone::Bad;
        s.label =
            tr("⚑ alert: %1")
                .arg(text("message").isEmpty() ? text("key") : d.phrase("message").translated());
    } else if (k == EventKind::Effect) {
        s.shape = Shape::Banner;
        s.tone = Tone::Muted;
        s.label =
            intentPrefix(e, manyIntents) +
            tr("effect %1: %2 (expected %3)").arg(text("effect"), text("count"), text("expected"));
    } else if (k == EventKind::Verdict) {
        s.shape = Shape::Banner;
        s.tone = text("verdict") == QLatin1String("exactly-once") ? Tone::Good : Tone::Bad;
        s.label =
            intentPrefix(e, manyIntents) + tr("verdict: %1").arg(verdictName(text("verdict")));
    } else if (e.kindId() == QLatin1String("redis")) {
        s = redisStep(e);
    } else if (!text("sender").isEmpty() && !text("receiver").isEmpty() &&
               text("sender") != text("receiver")) {
        // A scenario's own message between lanes (a downstream call and its answer).
        s.shape = Shape::Arrow;
        s.counted = true;
        s.from = text("sender");
        s.to = text("receiver");
        s.lost = d.flag("lost");
        s.dashed = s.lost;
        s.tone = s.lost ? Tone::Bad : Tone::Normal;
        s.label = words.noteLabel(e.kindId());
        if (d.contains("call"))
            s.label += QLatin1Char(' ') + tr("(call %1)").arg(text("call"));
    } else {
        s.tone = Tone::Muted;
        s.label = words.noteLabel(e.kindId());
    }
    return s;
}

bool SequenceSteps::isSetupEvent(const TraceEvent& e) {
    return isSetupSql(e) || (e.is(EventKind::Transition) && e.attempt == 0);
}

SequenceStep SequenceSteps::setupStep(const QStringList& heads, const QStringList& lines,
                                      const QString& state) {
    SequenceStep s;
    s.from = kDatabase;
    s.tone = Tone::Muted;
    s.setup = true;
    if (heads.size() == 1 && state.isEmpty()) {
        s.label = tr("set-up: %1").arg(heads.first());
    } else if (heads.isEmpty()) {
        s.label = tr("set-up: %1").arg(lines.join(QStringLiteral(", ")));
    } else {
        s.label = tr("set-up: %1 statements").arg(heads.size());
        if (!state.isEmpty())
            s.label += QStringLiteral(" → ") + state;
    }
    s.tooltip =
        tr("Set-up before the first attempt:") + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
    return s;
}

SequenceStep SequenceSteps::eventStep(const TraceEvent& e, bool manyIntents,
                                      const ScenarioInfo* scenario, const Context& context) {
    SequenceStep s = step(e, manyIntents, scenario, context);
    const bool tagged = e.is(EventKind::Fire) || e.is(EventKind::Retry) || s.shape == Shape::Banner;
    if (e.attempt != 0 && !tagged)
        s.label = attemptTag(e, manyIntents) + QLatin1Char(' ') + s.label;
    s.tMs = e.tMs;
    s.tooltip = tooltip(e);
    if (s.from.isEmpty())
        s.from = kDatabase;
    return s;
}

QList<SequenceStep> SequenceSteps::build(const QList<TraceEvent>& events, qsizetype from,
                                         qsizetype upTo, qsizetype freshFrom,
                                         const ScenarioInfo* scenario) {
    QList<SequenceStep> steps;
    upTo = std::min(upTo, events.size());
    // Whether attempts are tagged with their intent: any intent beyond the
    // first among the first events (each intent fires early), so that a step
    // late in a long run does not rescan the trace.
    const auto head = events.cbegin() + std::min<qsizetype>(events.size(), kIntentLookAhead);
    const bool manyIntents =
        std::any_of(events.cbegin(), head, [](const TraceEvent& e) { return e.intent > 0; }) ||
        std::any_of(events.cbegin() + std::max<qsizetype>(0, from), events.cbegin() + upTo,
                    [](const TraceEvent& e) { return e.intent > 0; });
    const qsizetype setupEnd = std::min(setupLength(events), upTo);
    for (qsizetype i = std::max<qsizetype>(0, from); i < upTo; ++i) {
        const TraceEvent& e = events[i];
        if (i < setupEnd) {
            const qsizetype last = setupEnd - 1;
            QStringList heads, lines;
            QString state;
            for (qsizetype j = i; j <= last; ++j) {
                if (isSetupSql(events[j])) {
                    heads << statementHead(events[j].sql);
                    lines << heads.last();
                } else {
                    state = events[j].fields.text("to_state");
                    lines << moveText(events[j]);
                }
            }
            SequenceStep s = setupStep(heads, lines, state);
            s.tMs = e.tMs;
            s.fresh = last >= freshFrom;
            s.event = i;
            steps << s;
            i = last;
            continue;
        }
        if (e.isSnapshot())
            continue;  // not a step of the story: the Locks and table views show it
        Context context;
        if (isServerLockWait(e))
            context.holders = lockHolders(events, i);
        SequenceStep s = eventStep(e, manyIntents, scenario, context);
        s.fresh = i >= freshFrom;
        s.event = i;
        s.waitedFrom = releasedWait(events, i);
        if (s.waitedFrom >= 0)
            s.label += QStringLiteral(" · ") + tr("after the wait");
        steps << s;
        if (e.is(EventKind::Crash) && droppedAtCrash(events, i) >= 0) {
            SequenceStep undone = serverRollbackStep(e, manyIntents);
            undone.fresh = s.fresh;
            undone.event = i;
            steps << undone;
        }
    }
    return steps;
}

SequenceStep SequenceSteps::serverRollbackStep(const TraceEvent& crash, bool manyIntents) {
    SequenceStep s;
    s.shape = Shape::Arrow;
    s.from = crash.actorName();
    s.to = kDatabase;
    s.tone = Tone::Bad;
    s.dashed = true;  // no statement: the connection closed
    s.label = attemptTag(crash, manyIntents) + QLatin1Char(' ') +
              tr("↺ ROLLBACK (connection closed by the crash)");
    s.tMs = crash.tMs;
    s.tooltip =
        tr("The process died with its transaction open. Its connection closed with it, "
           "and the server rolled the transaction back: nothing it wrote there stays. "
           "No ROLLBACK statement was sent.");
    return s;
}

SequenceSteps::Stream::Stream(bool manyIntents, const ScenarioInfo* scenario)
    : manyIntents_(manyIntents), scenario_(scenario) {}

void SequenceSteps::Stream::closeSetup(QList<SequenceStep>* steps) {
    inSetup_ = false;
    if (seen_ == 0)
        return;
    SequenceStep s = setupStep(heads_, lines_, state_);
    s.tMs = setupMs_;
    s.event = 0;
    *steps << s;
    heads_.clear();
    lines_.clear();
}

void SequenceSteps::Stream::add(const TraceEvent& e, QList<SequenceStep>* steps) {
    if (inSetup_ && isSetupEvent(e)) {
        if (seen_++ == 0)
            setupMs_ = e.tMs;
        if (isSetupSql(e)) {
            heads_ << statementHead(e.sql);
            lines_ << heads_.last();
        } else {
            state_ = e.fields.text("to_state");
            lines_ << moveText(e);
        }
        return;
    }
    if (e.isSnapshot())
        return;
    if (inSetup_)
        closeSetup(steps);
    addDropped(&e, steps);
    transactions_.follow(e);
    if (e.is(EventKind::Crash)) {
        crash_ = e;
        crashStep_ = seen_;
    }
    Context context;
    const QString attempt =
        QStringLiteral("%1/%2/%3").arg(e.intent).arg(e.attempt).arg(e.actorName());
    if (isServerLockWait(e))
        context.holders = sessions_.holders(e);
    SequenceStep s = eventStep(e, manyIntents_, scenario_, context);
    s.event = seen_++;
    if (e.attempt != 0) {
        if (e.is(EventKind::Sql))
            s.waitedFrom = waiting_.value(attempt, -1);
        if (s.waitedFrom >= 0)
            s.label += QStringLiteral(" · ") + tr("after the wait");
        waiting_.remove(attempt);
        if (isServerLockWait(e))
            waiting_.insert(attempt, s.event);
    }
    sessions_.follow(e);
    *steps << s;
}

void SequenceSteps::Stream::addDropped(const TraceEvent* next, QList<SequenceStep>* steps) {
    if (transactions_.droppedBefore(next) < 0)
        return;
    SequenceStep undone = serverRollbackStep(crash_, manyIntents_);
    undone.event = crashStep_;
    *steps << undone;
}

void SequenceSteps::Stream::finish(QList<SequenceStep>* steps) {
    if (inSetup_)
        closeSetup(steps);
    addDropped(nullptr, steps);
}

QStringList SequenceSteps::lanes(const QList<SequenceStep>& steps, const QStringList& order) {
    QStringList used;
    for (const SequenceStep& s : steps) {
        if (s.shape == Shape::Banner)
            continue;
        for (const QString& lane : {s.from, s.to}) {
            if (!lane.isEmpty() && !used.contains(lane))
                used << lane;
        }
    }
    QStringList lanes;
    for (const QString& known : order) {
        if (used.contains(known) && known != kDatabase)
            lanes << known;
    }
    for (const QString& other : std::as_const(used)) {
        if (!order.contains(other) && other != kDatabase)
            lanes << other;
    }
    if (used.contains(kDatabase))
        lanes << kDatabase;
    return lanes;
}

}  // namespace idem
