#include "lockwaits.h"

#include "traceevent.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace idem {

void SessionAttempts::follow(const TraceEvent& e) {
    if (e.attempt != 0 && e.connection >= 0)
        bySession_.insert(e.connectionName(), {e.intent, e.attempt, e.actor});
}

QList<AttemptRef> SessionAttempts::holders(const TraceEvent& lockWait) const {
    QList<AttemptRef> list;
    const QStringList sessions =
        lockWait.fields.text("holder").split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& session : sessions) {
        const AttemptRef ref = of(session.trimmed());
        if (ref.attempt != 0 && !list.contains(ref))
            list << ref;
    }
    return list;
}

QList<AttemptRef> lockHolders(const QList<TraceEvent>& events, qsizetype index,
                              qsizetype lookBack) {
    if (index < 0 || index >= events.size())
        return {};
    const TraceEvent& wait = events[index];
    QStringList sessions;
    for (const QString& s : wait.fields.text("holder").split(QLatin1Char(','), Qt::SkipEmptyParts))
        sessions << s.trimmed();
    QHash<QString, AttemptRef> found;
    const qsizetype stop = std::max<qsizetype>(0, index - lookBack);
    for (qsizetype i = index - 1; i >= stop && found.size() < sessions.size(); --i) {
        const TraceEvent& e = events[i];
        if (e.attempt == 0 || e.connection < 0)
            continue;
        const QString session = e.connectionName();
        if (sessions.contains(session) && !found.contains(session))
            found.insert(session, {e.intent, e.attempt, e.actor});
    }
    QList<AttemptRef> list;
    for (const QString& s : sessions) {
        const AttemptRef ref = found.value(s);
        if (ref.attempt != 0 && !list.contains(ref))
            list << ref;
    }
    return list;
}

namespace {

// PostgreSQL's lock words in the reader's: a writer waits on the holder's
// transaction id, for a row it locked ("… on orders row (0,1)") or, with no
// row, for a key the holder wrote and has not committed (a unique check).
QString postgresLockLabel(const QString& lock, const QString& serverWords) {
    static const QRegularExpression table(QStringLiteral("\\bon\\s+([A-Za-z0-9_.$\"]+)"));
    static const QRegularExpression row(QStringLiteral("\\brow\\s+(\\(\\d+,\\d+\\))"));
    const QString on = table.match(lock).captured(1);
    const QString at = row.match(lock).captured(1);
    const auto say = [](const char* text) {
        return QCoreApplication::translate("idem::LockWaits", text);
    };
    if (serverWords.startsWith(QLatin1String("transactionid")) ||
        serverWords.startsWith(QLatin1String("tuple"))) {
        if (!on.isEmpty() && !at.isEmpty())
            return say(QT_TRANSLATE_NOOP("idem::LockWaits", "row lock on %1 %2")).arg(on, at);
        if (serverWords.startsWith(QLatin1String("transactionid")))
            return say(QT_TRANSLATE_NOOP("idem::LockWaits", "the same key, not committed yet"));
    }
    if (serverWords.startsWith(QLatin1String("relation")) && !on.isEmpty())
        return say(QT_TRANSLATE_NOOP("idem::LockWaits", "table lock on %1")).arg(on);
    return serverWords;
}

}  // namespace

bool isServerLockWait(const TraceEvent& e) {
    return e.is(EventKind::LockWait) && !e.fields.text("lock").isEmpty();
}

QString lockName(const QString& lock) {
    static const QRegularExpression index(QStringLiteral("\\bindex\\s+`?([A-Za-z0-9_$]+)`?"));
    if (const QRegularExpressionMatch m = index.match(lock); m.hasMatch())
        return m.captured(1);
    // "waits for c1: transactionid ShareLock": the lock without the sessions.
    QString words = lock;
    if (words.startsWith(QLatin1String("waits for ")) && words.contains(QLatin1String(": ")))
        words = words.section(QStringLiteral(": "), 1);
    return words.section(QStringLiteral(", held as"), 0, 0).trimmed();
}

QString lockLabel(const QString& lock) {
    const QString name = lockName(lock);
    if (!lock.contains(QLatin1String(" index ")))
        return postgresLockLabel(lock, name);
    return (isGapLock(lock) ? QCoreApplication::translate("idem::LockWaits", "gap lock on %1")
                            : QCoreApplication::translate("idem::LockWaits", "lock on %1"))
        .arg(name);
}

bool isGapLock(const QString& lock) {
    return lock.contains(QLatin1String("supremum"), Qt::CaseInsensitive) ||
           lock.contains(QLatin1String("GAP"));
}

qsizetype releasedWait(const QList<TraceEvent>& events, qsizetype index, qsizetype lookBack) {
    if (index <= 0 || index >= events.size())
        return -1;
    const TraceEvent& e = events[index];
    if (!e.is(EventKind::Sql) || e.attempt <= 0)
        return -1;
    const qsizetype stop = std::max<qsizetype>(0, index - lookBack);
    for (qsizetype i = index - 1; i >= stop; --i) {
        const TraceEvent& before = events[i];
        if (before.intent != e.intent || before.attempt != e.attempt)
            continue;
        return isServerLockWait(before) ? i : -1;
    }
    return -1;
}

}  // namespace idem
