#include "lockstory.h"

#include "locksnapshot.h"
#include "sqlconnection.h"

namespace idem {

namespace {

QString attemptKey(const TraceEvent& e) {
    return QStringLiteral("%1/%2").arg(e.intent).arg(e.attempt);
}

QString escape(const QString& s) {
    return s.toHtmlEscaped();
}

}  // namespace

void LockStory::clear() {
    sessions_.clear();
    open_.clear();
    ends_.clear();
    episodes_.clear();
    awaitingLocks_ = -1;
    locks_.clear();
    sawLocks_ = false;
    manyIntents_ = false;
    count_ = waits_ = deadlocks_ = serializationFailures_ = 0;
}

QStringList LockStory::attemptsOf(const LockRows& rows) const {
    QStringList names;
    for (const LockRow& r : rows) {
        const AttemptRef a = sessions_.of(r.session);
        names << (a.attempt != 0 ? name(a) : r.session);
    }
    return names;
}

LockStep LockStory::follow(const TraceEvent& e) {
    LockStep step;
    if (e.intent > 0)
        manyIntents_ = true;
    if (e.is(EventKind::Locks)) {
        locks_ = lockRowsFromValue(e.fields.value("locks"));
        sawLocks_ = true;
        if (awaitingLocks_ >= 0 && awaitingLocks_ < episodes_.size()) {
            LockEpisode& w = episodes_[awaitingLocks_];
            w.locks = locks_;
            w.lockAttempts = attemptsOf(locks_);
            w.locksKnown = true;
        }
        awaitingLocks_ = -1;
        return step;
    }
    if (e.attempt == 0)
        return step;
    const QString key = attemptKey(e);
    if (isServerLockWait(e)) {
        LockEpisode w;
        w.kind = LockEpisode::Kind::Wait;
        w.seq = e.seq;
        w.tMs = e.tMs;
        w.who = {e.intent, e.attempt, e.actor};
        w.session = e.fields.text("connection");
        w.holders = sessions_.holders(e);
        w.holderSessions = e.fields.text("holder");
        w.lock = e.fields.text("lock");
        open_.insert(key, w);
        ++count_;
        ++waits_;
        awaitingLocks_ = -1;
        if (episodes_.size() < keep_) {
            episodes_ << w;
            awaitingLocks_ = episodes_.size() - 1;
        }
        step.began = w;
        sessions_.follow(e);
        return step;
    }
    if (!e.is(EventKind::Sql)) {
        sessions_.follow(e);
        return step;
    }
    // The statement a wait held has ended: the holder whose statement came
    // last let it go.
    if (auto it = open_.find(key); it != open_.end()) {
        LockEpisode w = it.value();
        open_.erase(it);
        w.endSeq = e.seq;
        w.endMs = e.tMs;
        w.endOutcome = e.outcome();
        qint64 latest = -1;
        for (const QString& s : w.holderSessions.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const LastEnd last = ends_.value(s.trimmed());
            if (last.seq > w.seq && last.seq > latest) {
                latest = last.seq;
                w.releasedBy = last.attempt;
                w.releasedMs = last.tMs;
                w.releasedSeq = last.seq;
            }
        }
        for (LockEpisode& kept : episodes_) {
            if (kept.seq == w.seq && kept.isWait()) {
                const LockRows rows = kept.locks;
                const QStringList names = kept.lockAttempts;
                const bool known = kept.locksKnown;
                kept = w;
                kept.locks = rows;
                kept.lockAttempts = names;
                kept.locksKnown = known;
                break;
            }
        }
        step.ended = w;
    }
    const SqlOutcome outcome = e.outcome();
    if (outcome == SqlOutcome::Deadlock || outcome == SqlOutcome::SerializationFailure ||
        outcome == SqlOutcome::LockTimeout) {
        LockEpisode r;
        r.kind = outcome == SqlOutcome::Deadlock      ? LockEpisode::Kind::Deadlock
                 : outcome == SqlOutcome::LockTimeout ? LockEpisode::Kind::LockTimeout
                                                      : LockEpisode::Kind::SerializationFailure;
        r.seq = e.seq;
        r.tMs = e.tMs;
        r.who = {e.intent, e.attempt, e.actor};
        r.session = e.connectionName();
        r.code = e.code;
        r.state = e.fields.text("state");
        r.error = e.error;
        r.cause = e.fields.text("cause");
        r.locks = locks_;
        r.lockAttempts = attemptsOf(locks_);
        r.locksKnown = sawLocks_;
        ++count_;
        if (outcome == SqlOutcome::Deadlock)
            ++deadlocks_;
        if (outcome == SqlOutcome::SerializationFailure)
            ++serializationFailures_;
        if (episodes_.size() < keep_)
            episodes_ << r;
        step.refused = r;
    }
    sessions_.follow(e);
    if (e.connection >= 0)
        ends_.insert(e.connectionName(), {{e.intent, e.attempt, e.actor}, e.seq, e.tMs});
    return step;
}

QString LockStory::server() const {
    if (backend_ == QLatin1String("mariadb"))
        return QStringLiteral("InnoDB");
    if (backend_ == QLatin1String("postgres"))
        return QStringLiteral("PostgreSQL");
    return tr("the server");
}

QString LockStory::lockText(const QString& lock) {
    return lockLabel(lock);
}

QString LockStory::waitText(const LockEpisode& w) const {
    QStringList holders;
    for (const AttemptRef& a : w.holders) holders << name(a);
    if (holders.isEmpty())
        holders << (w.holderSessions.isEmpty() ? tr("another transaction") : w.holderSessions);
    //: "#1 waits for #2, #3: gap lock on uk_orders_request_id"
    return tr("%1 waits for %2: %3").arg(name(w.who), holders.join(tr(", ")), lockText(w.lock));
}

QString LockStory::releaseText(const LockEpisode& w) const {
    if (!w.ended())
        return tr("%1 still waits at the end of the run").arg(name(w.who));
    switch (w.endOutcome) {
        case SqlOutcome::Deadlock:
            return tr("%1 stops waiting: its statement ends the wait in a deadlock")
                .arg(name(w.who));
        case SqlOutcome::LockTimeout:
            return tr("%1 gives up waiting (lock timeout)").arg(name(w.who));
        case SqlOutcome::SerializationFailure:
            return tr("%1 stops waiting: the server refuses its statement (serialization "
                      "failure)")
                .arg(name(w.who));
        default:
            break;
    }
    if (w.releasedBy.attempt != 0)
        //: "#1 goes on: #3's transaction ended"
        return tr("%1 goes on: %2's transaction ended").arg(name(w.who), name(w.releasedBy));
    return tr("%1 goes on: the lock was let go").arg(name(w.who));
}

QString LockStory::refusalText(const LockEpisode& r) const {
    const QString code = r.code != 0 ? QStringLiteral(" (%1)").arg(r.code) : QString();
    switch (r.kind) {
        case LockEpisode::Kind::Deadlock:
            //: "Deadlock: InnoDB rolled back #3's transaction (1213)"
            return tr("Deadlock: %1 rolled back %2's transaction%3")
                .arg(server(), name(r.who), code);
        case LockEpisode::Kind::SerializationFailure:
            return tr("Serialization failure: %1 refused %2's statement%3")
                .arg(server(), name(r.who), code);
        case LockEpisode::Kind::LockTimeout:
            if (r.cause == QLatin1String("lab-cancel"))
                //: the code is the cancel's (1317, 57014), not a timeout's
                return tr("The lab cancelled %1's wait%2: every session of the run was "
                          "waiting and nothing was left to send")
                    .arg(name(r.who), code);
            if (r.cause == QLatin1String("lock-timeout"))
                return tr("Lock timeout: the lab cancelled %1's wait at the timeout you "
                          "set%2")
                    .arg(name(r.who), code);
            return tr("Lock timeout: %1 gave up waiting%2").arg(name(r.who), code);
        case LockEpisode::Kind::Wait:
            break;
    }
    return waitText(r);
}

QString LockStory::storyText(const LockEpisode& e) const {
    if (!e.isWait())
        return tr("%1 ms: %2").arg(e.tMs).arg(refusalText(e));
    if (!e.ended() || e.endMs == e.tMs)
        return tr("%1 ms: %2; %3").arg(e.tMs).arg(waitText(e), releaseText(e));
    return tr("%1–%2 ms: %3; %4").arg(e.tMs).arg(e.endMs).arg(waitText(e), releaseText(e));
}

QString LockStory::locksHtml(const LockRows& rows, const QStringList& attempts) {
    if (rows.isEmpty())
        return QStringLiteral("<p class='locks-none'>%1</p>")
            .arg(escape(tr("The server holds no lock for the run's transactions.")));
    QString h = QStringLiteral("<table class='locks'><thead><tr>");
    for (const QString& c : {tr("Attempt"), tr("Lock"), tr("Mode"), tr("Table"), tr("Index"),
                             tr("Record"), tr("State")})
        h += QStringLiteral("<th>%1</th>").arg(escape(c));
    h += QStringLiteral("</tr></thead><tbody>");
    QHash<QString, QString> attemptOf;
    for (qsizetype i = 0; i < rows.size(); ++i)
        attemptOf.insert(rows[i].session, attempts.value(i, rows[i].session));
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const LockRow& r = rows[i];
        QString record = lockRecordText(r.record);
        if (r.kind == QLatin1String(lockkind::kTransaction))
            record = tr("of %1").arg(r.of.isEmpty() ? tr("another connection")
                                                    : attemptOf.value(r.of, r.of));
        QString state = tr("held");
        if (!r.granted) {
            QStringList holders;
            for (const QString& s : r.waitsFor) holders << attemptOf.value(s, s);
            if (r.waitsForOthers)
                holders << tr("a connection outside the run");
            state =
                holders.isEmpty() ? tr("waits") : tr("waits for %1").arg(holders.join(tr(", ")));
        }
        h += QStringLiteral(
                 "<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td>"
                 "<td>%7</td><td>%8</td></tr>")
                 .arg(r.granted ? QString() : QStringLiteral(" class='waiting'"),
                      escape(attempts.value(i, r.session)), escape(lockKindName(r.kind)),
                      escape(r.mode), escape(r.table), escape(r.index), escape(record),
                      escape(state));
    }
    return h + QStringLiteral("</tbody></table>");
}

const char* const LockStory::kStyle =
    ".lock-story table.locks{margin:.2em 0 .8em 0}"
    ".lock-story tr.waiting td{background:#fff0c2;font-weight:bold}"
    ".lock-story li.refused>p:first-child{color:#b00020;font-weight:bold}"
    ".lock-story .locks-title{margin:.3em 0 0 0;font-style:italic}"
    ".lock-story li{break-inside:avoid;page-break-inside:avoid}";

QString LockStory::storyHtml(const QString& currentTitle) const {
    if (!told())
        return {};
    QString h = QStringLiteral("<div class='lock-story'>");
    if (count_ == 0) {
        h += QStringLiteral("<p>%1</p>").arg(escape(tr("No statement waited for a lock.")));
    } else {
        h += QStringLiteral("<p>%1</p>")
                 .arg(escape(tr("Lock waits: %1 · deadlocks: %2 · serialization failures: %3")
                                 .arg(waits_)
                                 .arg(deadlocks_)
                                 .arg(serializationFailures_)));
        h += QStringLiteral("<ol class='lock-episodes'>");
        for (const LockEpisode& e : episodes_) {
            h += QStringLiteral("<li class='%1'><p>%2</p>")
                     .arg(e.isWait() ? QStringLiteral("wait") : QStringLiteral("refused"),
                          escape(storyText(e)));
            if (e.locksKnown) {
                h += QStringLiteral("<p class='locks-title'>%1</p>")
                         .arg(escape(e.isWait() ? tr("Locks while it waits:")
                                                : tr("Locks just before:")));
                h += locksHtml(e.locks, e.lockAttempts);
            }
            h += QStringLiteral("</li>");
        }
        h += QStringLiteral("</ol>");
        if (count_ > episodes_.size())
            h += QStringLiteral("<p class='note'>%1</p>")
                     .arg(escape(
                         tr("… and %1 more not listed here.").arg(count_ - episodes_.size())));
    }
    if (!currentTitle.isEmpty() && sawLocks_) {
        h += QStringLiteral("<p class='locks-title'>%1</p>").arg(escape(currentTitle));
        h += locksHtml(locks_, lockAttempts());
    }
    return h + QStringLiteral("</div>");
}

}  // namespace idem
