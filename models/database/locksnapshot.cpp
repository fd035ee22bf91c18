#include "locksnapshot.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace idem {

namespace {

const char* const kContext = "idem::Locks";

QString say(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

}  // namespace

QVariantList lockRowsToValue(const LockRows& rows) {
    QVariantList list;
    list.reserve(rows.size());
    for (const LockRow& r : rows) {
        // Only what a row has: a trace stays small.
        QVariantMap m;
        m.insert(QStringLiteral("session"), r.session);
        m.insert(QStringLiteral("lock"), r.kind);
        if (!r.mode.isEmpty())
            m.insert(QStringLiteral("mode"), r.mode);
        if (!r.table.isEmpty())
            m.insert(QStringLiteral("table"), r.table);
        if (!r.index.isEmpty())
            m.insert(QStringLiteral("index"), r.index);
        if (!r.record.isEmpty())
            m.insert(QStringLiteral("record"), r.record);
        m.insert(QStringLiteral("granted"), r.granted);
        if (!r.waitsFor.isEmpty())
            m.insert(QStringLiteral("waits_for"), r.waitsFor);
        if (r.waitsForOthers)
            m.insert(QStringLiteral("waits_for_others"), true);
        if (!r.of.isEmpty())
            m.insert(QStringLiteral("of"), r.of);
        if (r.xid != 0)
            m.insert(QStringLiteral("xid"), r.xid);
        list << m;
    }
    return list;
}

LockRows lockRowsFromValue(const QVariant& value) {
    LockRows rows;
    for (const QVariant& v : value.toList()) {
        const QVariantMap m = v.toMap();
        LockRow r;
        r.session = m.value(QStringLiteral("session")).toString();
        r.kind = m.value(QStringLiteral("lock")).toString();
        r.mode = m.value(QStringLiteral("mode")).toString();
        r.table = m.value(QStringLiteral("table")).toString();
        r.index = m.value(QStringLiteral("index")).toString();
        r.record = m.value(QStringLiteral("record")).toString();
        r.granted = m.value(QStringLiteral("granted"), true).toBool();
        r.waitsFor = m.value(QStringLiteral("waits_for")).toStringList();
        r.waitsForOthers = m.value(QStringLiteral("waits_for_others")).toBool();
        r.of = m.value(QStringLiteral("of")).toString();
        r.xid = m.value(QStringLiteral("xid")).toLongLong();
        rows << r;
    }
    return rows;
}

TraceEvent locksEvent(const LockRows& rows, bool truncated) {
    TraceEvent e;
    e.kind = EventKind::Locks;
    e.actor = nameId(u"database");
    e.fields.set("locks", lockRowsToValue(rows));
    if (truncated)
        e.fields.set("truncated", true);
    return e;
}

QJsonObject withoutServerIds(const QJsonObject& event) {
    const QString kind = event.value(QLatin1String("kind")).toString();
    if (kind == QLatin1String("redis") &&
        event.value(QLatin1String("command")).toString().startsWith(QLatin1String("XPENDING "))) {
        // [[id, consumer, idle ms, deliveries], ...], each element as
        // [type, value]: the idle time is Redis's clock, another each run.
        QJsonArray entries = event.value(QLatin1String("reply")).toArray();
        for (qsizetype i = 0; i < entries.size(); ++i) {
            QJsonArray typed = entries.at(i).toArray();
            QJsonArray entry = typed.at(1).toArray();
            if (entry.size() != 4)
                continue;
            entry.replace(2, QJsonArray{QStringLiteral("integer"), QJsonValue()});
            typed.replace(1, entry);
            entries.replace(i, typed);
        }
        QJsonObject out = event;
        out.insert(QLatin1String("reply"), entries);
        return out;
    }
    if (kind != QLatin1String("locks"))
        return event;
    QJsonObject out = event;
    QJsonArray rows = out.value(QLatin1String("locks")).toArray();
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject row = rows.at(i).toObject();
        row.remove(QLatin1String("xid"));
        rows.replace(i, row);
    }
    out.insert(QLatin1String("locks"), rows);
    return out;
}

QString lockKindName(const QString& kind) {
    if (kind == QLatin1String(lockkind::kRow))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "row lock"));
    if (kind == QLatin1String(lockkind::kGap))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "gap lock"));
    if (kind == QLatin1String(lockkind::kNextKey))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "next-key lock"));
    if (kind == QLatin1String(lockkind::kInsertIntention))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "insert intention"));
    if (kind == QLatin1String(lockkind::kTable))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "table lock"));
    if (kind == QLatin1String(lockkind::kTableIntention))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "table intention"));
    if (kind == QLatin1String(lockkind::kTransaction))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "transaction id"));
    if (kind == QLatin1String(lockkind::kTuple))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "place in the row's queue"));
    if (kind == QLatin1String(lockkind::kDatabase))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "write lock (whole database)"));
    return kind;
}

QString lockKindHelp(const QString& kind) {
    if (kind == QLatin1String(lockkind::kRow))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "The record itself, not the gap before it: another "
                                     "transaction cannot change or lock this row."));
    if (kind == QLatin1String(lockkind::kGap))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "The gap before a key (or after the last one): nobody may "
                                     "insert there. Gap locks do not conflict with each other, "
                                     "so two transactions can hold the same gap."));
    if (kind == QLatin1String(lockkind::kNextKey))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "The record and the gap before it: a locking read at "
                                     "repeatable read takes these so that no row appears in "
                                     "what it read."));
    if (kind == QLatin1String(lockkind::kInsertIntention))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "An INSERT asking to put a key into a gap: it waits while "
                                     "another transaction holds a gap or next-key lock there."));
    if (kind == QLatin1String(lockkind::kTable))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "A lock on the whole table."));
    if (kind == QLatin1String(lockkind::kTableIntention))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "Says that the transaction locks rows in this table; "
                                     "such locks do not block each other."));
    if (kind == QLatin1String(lockkind::kTransaction))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "Every writing transaction holds its own id. PostgreSQL "
                                     "keeps row locks in the rows, so a transaction that needs "
                                     "a row another one changed waits for that one's id: for "
                                     "its end."));
    if (kind == QLatin1String(lockkind::kTuple))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "PostgreSQL's tuple lock: the first in line for a row "
                                     "holds it while it waits for the row's transaction."));
    if (kind == QLatin1String(lockkind::kDatabase))
        return say(QT_TRANSLATE_NOOP("idem::Locks",
                                     "SQLite has one writer at a time: BEGIN IMMEDIATE takes "
                                     "the write lock of the whole database until COMMIT or "
                                     "ROLLBACK."));
    return {};
}

QString lockRecordText(const QString& record) {
    if (record == QLatin1String("supremum"))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "after the last key (supremum)"));
    if (record == QLatin1String("infimum"))
        return say(QT_TRANSLATE_NOOP("idem::Locks", "before the first key (infimum)"));
    return record;
}

QString attemptName(const AttemptRef& ref, bool manyIntents) {
    if (ref.attempt <= 0)
        return {};
    const QString number = QStringLiteral("#%1").arg(ref.attempt);
    return manyIntents ? QStringLiteral("i%1").arg(ref.intent + 1) + number : number;
}

// --- following a run ---------------------------------------------------------

void LockFollower::clear() {
    sessions_.clear();
    locks_.clear();
    truncated_ = false;
    sawSnapshot_ = false;
    manyIntents_ = false;
    followed_ = 0;
    waiting_.clear();
}

void LockFollower::followRange(const QList<TraceEvent>& events, qsizetype from, qsizetype to) {
    to = std::min(to, events.size());
    for (qsizetype i = std::max<qsizetype>(from, 0); i < to; ++i) follow(events[i]);
}

void LockFollower::follow(const TraceEvent& e) {
    ++followed_;
    if (e.intent > 0)
        manyIntents_ = true;
    if (e.is(EventKind::Locks)) {
        locks_ = lockRowsFromValue(e.fields.value("locks"));
        truncated_ = e.fields.flag("truncated");
        sawSnapshot_ = true;
        return;
    }
    if (e.attempt <= 0)
        return;
    sessions_.follow(e);
    const AttemptRef ref{e.intent, e.attempt};
    // Any later event of a waiting attempt means it goes on.
    waiting_.removeIf([&ref](const Waiting& w) { return w.attempt == ref; });
    if (e.is(EventKind::LockWait) && !isServerLockWait(e))
        waiting_ << Waiting{ref, e.fields.text("connection"), e.fields.text("holder")};
}

LockRows LockFollower::sqliteLocks(const QString& writer) const {
    LockRows rows;
    if (!writer.isEmpty()) {
        LockRow held;
        held.session = writer;
        held.kind = QString::fromLatin1(lockkind::kDatabase);
        held.mode = QStringLiteral("BEGIN IMMEDIATE");
        rows << held;
    }
    for (const Waiting& w : waiting_) {
        LockRow row;
        row.session = w.session;
        row.kind = QString::fromLatin1(lockkind::kDatabase);
        row.granted = false;
        // The writer now, else the one the wait named.
        const QString holder = writer.isEmpty() ? w.holder : writer;
        if (!holder.isEmpty() && holder != w.session)
            row.waitsFor << holder;
        rows << row;
    }
    return rows;
}

}  // namespace idem
