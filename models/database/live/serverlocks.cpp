#include "serverlocks.h"

#include <QRegularExpression>

#include <algorithm>

namespace idem::live {

// --- InnoDB ------------------------------------------------------------------

namespace {

// One lock as SHOW ENGINE INNODB STATUS prints it.
struct InnodbLock {
    qint64 trx = -1;     // the transaction's place in the list
    qint64 thread = -1;  // its connection
    bool table = false;
    QString tableName;
    QString index;
    QString mode;  // X, S, IX, IS, AUTO-INC
    bool gap = false;
    bool recordOnly = false;
    bool insertIntention = false;
    bool waiting = false;
    // record locks: which record
    QString space, page;
    int heap = -1;
    QString record;
};

// "`idemlab_0a1b2c`.`orders`" → "orders": the run's database is the only one.
QString tableOf(QString name) {
    name = name.section(QStringLiteral(" /*"), 0, 0).trimmed();
    const qsizetype dot = name.lastIndexOf(QLatin1String("`.`"));
    if (dot >= 0)
        name = name.mid(dot + 2);
    name.remove(QLatin1Char('`'));
    return name;
}

// "lock_mode X locks gap before rec insert intention waiting", "lock mode IX".
void readMode(const QString& text, InnodbLock* lock) {
    static const QRegularExpression mode(QStringLiteral("lock[_ ]mode ([A-Z-]+)"));
    if (const QRegularExpressionMatch m = mode.match(text); m.hasMatch())
        lock->mode = m.captured(1);
    lock->gap = text.contains(QLatin1String("locks gap before rec"));
    lock->recordOnly = text.contains(QLatin1String("locks rec but not gap"));
    lock->insertIntention = text.contains(QLatin1String("insert intention"));
    lock->waiting = text.endsWith(QLatin1String(" waiting"));
}

bool tableModesCompatible(const QString& a, const QString& b) {
    static const QStringList order{"IS", "IX", "S", "X", "AUTO-INC"};
    // InnoDB's lock_compatibility_matrix.
    static const bool compatible[5][5] = {
        {true, true, true, false, true},      // IS
        {true, true, false, false, true},     // IX
        {true, false, true, false, false},    // S
        {false, false, false, false, false},  // X
        {true, true, false, false, false},    // AUTO-INC
    };
    const qsizetype i = order.indexOf(a), j = order.indexOf(b);
    return i >= 0 && j >= 0 && compatible[i][j];
}

// Whether `waiter` must wait for `held` on the same record
// (lock_rec_has_to_wait); an insert intention is a gap lock too.
bool recordConflict(const InnodbLock& waiter, const InnodbLock& held) {
    if (waiter.mode == QLatin1String("S") && held.mode == QLatin1String("S"))
        return false;
    const bool supremum = waiter.heap == 1;
    const bool waiterGap = waiter.gap || waiter.insertIntention;
    const bool heldGap = held.gap || held.insertIntention;
    if ((supremum || waiterGap) && !waiter.insertIntention)
        return false;
    if (!waiter.insertIntention && heldGap)
        return false;
    if (waiterGap && held.recordOnly)
        return false;
    return !held.insertIntention;
}

QString recordText(const QString& index, int heap, const QList<QByteArray>& fields) {
    if (heap == 1)
        return QStringLiteral("supremum");
    if (heap == 0)
        return QStringLiteral("infimum");
    // The clustered index holds the whole row after its key (and the
    // transaction id and roll pointer InnoDB keeps): the key says which.
    const bool clustered =
        index == QLatin1String("PRIMARY") || index == QLatin1String("GEN_CLUST_INDEX");
    QStringList parts;
    for (qsizetype i = 0; i < fields.size() && (!clustered || i < 1); ++i)
        parts << innodbFieldText(fields[i]);
    return parts.join(QStringLiteral(", "));
}

QString kindOf(const InnodbLock& lock) {
    if (lock.table)
        return lock.mode.startsWith(QLatin1Char('I'))
                   ? QString::fromLatin1(lockkind::kTableIntention)
                   : QString::fromLatin1(lockkind::kTable);
    if (lock.insertIntention)
        return QString::fromLatin1(lockkind::kInsertIntention);
    // The supremum is no record: a lock on it covers the gap after the
    // index's last key alone.
    if (lock.gap || lock.heap == 1)
        return QString::fromLatin1(lockkind::kGap);
    if (lock.recordOnly)
        return QString::fromLatin1(lockkind::kRow);
    return QString::fromLatin1(lockkind::kNextKey);
}

}  // namespace

QString innodbFieldText(const QByteArray& bytes) {
    const bool printable = std::all_of(bytes.cbegin(), bytes.cend(),
                                       [](char c) { return uchar(c) >= 0x20 && uchar(c) < 0x7f; });
    if (printable)
        return QLatin1Char('\'') + QString::fromLatin1(bytes) + QLatin1Char('\'');
    const qsizetype n = bytes.size();
    if (n == 1 || n == 2 || n == 3 || n == 4 || n == 8) {
        quint64 value = 0;
        for (char c : bytes) value = (value << 8) | uchar(c);
        const int bits = int(n * 8);
        value ^= quint64(1) << (bits - 1);
        // Sign-extend from `bits`.
        qint64 signedValue = qint64(value);
        if (bits < 64 && (value & (quint64(1) << (bits - 1))))
            signedValue = qint64(value | (~quint64(0) << bits));
        return QString::number(signedValue);
    }
    return QStringLiteral("0x") + QString::fromLatin1(bytes.toHex());
}

InnodbLocks innodbLocks(const QString& status, const QHash<qint64, QString>& sessionOf) {
    InnodbLocks out;
    const qsizetype start = status.indexOf(QLatin1String("LIST OF TRANSACTIONS FOR EACH SESSION:"));
    if (start < 0)
        return out;
    static const QRegularExpression thread(QStringLiteral("(?:MariaDB|MySQL) thread id (\\d+)"));
    static const QRegularExpression tableLock(
        QStringLiteral("^TABLE LOCK table (.+) trx id \\S+ (lock mode .*)$"));
    static const QRegularExpression recordLocks(QStringLiteral(
        "^RECORD LOCKS space id (\\d+) page no (\\d+) n bits \\d+ index (\\S+) of table (.+) "
        "trx id \\S+ (lock.*)$"));
    static const QRegularExpression recordLine(QStringLiteral("^Record lock, heap no (\\d+)"));
    static const QRegularExpression field(
        QStringLiteral("^\\s*\\d+: (?:SQL NULL|len \\d+; hex ([0-9a-f]*))"));

    QList<InnodbLock> locks;
    qint64 trx = -1, threadId = -1;
    bool inWait = false;
    InnodbLock header;  // the RECORD LOCKS line the records below belong to
    bool inRecord = false;
    QList<QByteArray> fields;
    auto endRecord = [&] {
        if (!inRecord)
            return;
        InnodbLock lock = header;
        lock.record = recordText(lock.index, lock.heap, fields);
        locks << lock;
        inRecord = false;
        fields.clear();
    };
    const QStringList lines = status.mid(start).split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (line == QLatin1String("--------"))
            break;  // the section's end
        if (inWait) {
            // The awaited lock is printed again with the transaction's own.
            inWait = !line.startsWith(QLatin1String("------------------"));
            continue;
        }
        if (line.startsWith(QLatin1String("---TRANSACTION "))) {
            endRecord();
            ++trx;
            threadId = -1;
            continue;
        }
        if (line.startsWith(QLatin1String("------- TRX HAS BEEN WAITING"))) {
            endRecord();
            inWait = true;
            continue;
        }
        if (const QRegularExpressionMatch m = thread.match(line); m.hasMatch() && threadId < 0) {
            threadId = m.captured(1).toLongLong();
            continue;
        }
        if (line.contains(QLatin1String("LOCKS PRINTED FOR THIS TRX"))) {
            endRecord();
            if (sessionOf.contains(threadId))
                out.truncated = true;
            continue;
        }
        if (const QRegularExpressionMatch m = tableLock.match(line); m.hasMatch()) {
            endRecord();
            InnodbLock lock;
            lock.trx = trx;
            lock.thread = threadId;
            lock.table = true;
            lock.tableName = tableOf(m.captured(1));
            readMode(m.captured(2), &lock);
            locks << lock;
            continue;
        }
        if (const QRegularExpressionMatch m = recordLocks.match(line); m.hasMatch()) {
            endRecord();
            header = InnodbLock();
            header.trx = trx;
            header.thread = threadId;
            header.space = m.captured(1);
            header.page = m.captured(2);
            header.index = m.captured(3).remove(QLatin1Char('`'));
            header.tableName = tableOf(m.captured(4));
            readMode(m.captured(5), &header);
            continue;
        }
        if (const QRegularExpressionMatch m = recordLine.match(line); m.hasMatch()) {
            endRecord();
            inRecord = true;
            header.heap = m.captured(1).toInt();
            continue;
        }
        if (inRecord) {
            if (const QRegularExpressionMatch m = field.match(line); m.hasMatch())
                fields << QByteArray::fromHex(m.captured(1).toLatin1());
        }
    }
    endRecord();

    for (const InnodbLock& lock : std::as_const(locks)) {
        const QString session = sessionOf.value(lock.thread);
        if (session.isEmpty())
            continue;
        LockRow row;
        row.session = session;
        row.kind = kindOf(lock);
        row.mode = lock.mode;
        row.table = lock.tableName;
        row.index = lock.index;
        row.record = lock.record;
        row.granted = !lock.waiting;
        if (lock.waiting) {
            for (const InnodbLock& held : std::as_const(locks)) {
                if (held.trx == lock.trx || held.waiting || held.table != lock.table)
                    continue;
                const bool conflict =
                    lock.table ? held.tableName == lock.tableName &&
                                     !tableModesCompatible(lock.mode, held.mode)
                               : held.space == lock.space && held.page == lock.page &&
                                     held.heap == lock.heap && recordConflict(lock, held);
                if (!conflict)
                    continue;
                const QString holder = sessionOf.value(held.thread);
                if (holder.isEmpty())
                    row.waitsForOthers = true;
                else if (!row.waitsFor.contains(holder))
                    row.waitsFor << holder;
            }
        }
        if (!out.rows.contains(row))
            out.rows << row;
    }
    sortLockRows(&out.rows);
    return out;
}

// --- PostgreSQL --------------------------------------------------------------

namespace {

// Modes that only announce row locks inside the table (they conflict with
// nothing a row-level statement takes).
bool intentionMode(const QString& mode) {
    return mode == QLatin1String("RowShareLock") || mode == QLatin1String("RowExclusiveLock");
}

int modeStrength(const QString& mode) {
    static const QStringList order{
        "AccessShareLock", "RowShareLock",          "RowExclusiveLock", "ShareUpdateExclusiveLock",
        "ShareLock",       "ShareRowExclusiveLock", "ExclusiveLock",    "AccessExclusiveLock"};
    return int(order.indexOf(mode));
}

}  // namespace

LockRows pgLocks(const QList<PgLockEntry>& locks, const QList<PgRowLockEntry>& rowLocks,
                 const QHash<qint64, QString>& sessionOf,
                 const QHash<QPair<QString, QString>, QString>& rowText) {
    LockRows rows;
    auto waitsFor = [&sessionOf](const QList<qint64>& blockers, LockRow* row) {
        for (qint64 pid : blockers) {
            const QString holder = sessionOf.value(pid);
            if (holder.isEmpty())
                row->waitsForOthers = true;
            else if (!row->waitsFor.contains(holder))
                row->waitsFor << holder;
        }
    };
    auto rowOf = [&rowText](const QString& table, const QString& ctid) {
        const QString values = rowText.value({table, ctid});
        return values.isEmpty() ? ctid : values;
    };
    // Whose transaction an id is: the backend holding it exclusively.
    QHash<qint64, QString> transactionOf;
    for (const PgLockEntry& l : locks) {
        if (l.locktype == QLatin1String("transactionid") && l.granted &&
            l.mode == QLatin1String("ExclusiveLock"))
            transactionOf.insert(l.xid, sessionOf.value(l.pid));
    }
    // A table's modes held by one session, one row.
    QHash<QPair<QString, QString>, QStringList> tableModes;
    for (const PgLockEntry& l : locks) {
        const QString session = sessionOf.value(l.pid);
        if (session.isEmpty())
            continue;
        if (l.locktype == QLatin1String("relation")) {
            // Indexes, sequences and catalogs are locked alongside: the
            // tables are what a statement names.
            if (l.relkind != QLatin1String("r") && l.relkind != QLatin1String("p"))
                continue;
            if (l.granted) {
                tableModes[{session, l.table}] << l.mode;
                continue;
            }
            LockRow row;
            row.session = session;
            row.kind = QString::fromLatin1(intentionMode(l.mode) ? lockkind::kTableIntention
                                                                 : lockkind::kTable);
            row.mode = l.mode;
            row.table = l.table;
            row.granted = false;
            waitsFor(l.blockers, &row);
            rows << row;
        } else if (l.locktype == QLatin1String("transactionid")) {
            LockRow row;
            row.session = session;
            row.kind = QString::fromLatin1(lockkind::kTransaction);
            row.mode = l.mode;
            row.xid = l.xid;
            row.of = transactionOf.value(l.xid);
            row.granted = l.granted;
            if (!l.granted)
                waitsFor(l.blockers, &row);
            rows << row;
        } else if (l.locktype == QLatin1String("tuple")) {
            LockRow row;
            row.session = session;
            row.kind = QString::fromLatin1(lockkind::kTuple);
            row.mode = l.mode;
            row.table = l.table;
            row.record = rowOf(l.table, l.ctid);
            row.granted = l.granted;
            if (!l.granted)
                waitsFor(l.blockers, &row);
            rows << row;
        }
    }
    for (auto it = tableModes.begin(); it != tableModes.end(); ++it) {
        QStringList modes = it.value();
        modes.removeDuplicates();
        std::sort(modes.begin(), modes.end(), [](const QString& a, const QString& b) {
            return modeStrength(a) > modeStrength(b);
        });
        LockRow row;
        row.session = it.key().first;
        row.table = it.key().second;
        row.mode = modes.join(QStringLiteral(", "));
        // AccessShareLock (a plain read) beside an intention adds nothing a
        // row statement would wait for.
        const bool intention = std::any_of(modes.cbegin(), modes.cend(), intentionMode) &&
                               std::all_of(modes.cbegin(), modes.cend(), [](const QString& m) {
                                   return intentionMode(m) || m == QLatin1String("AccessShareLock");
                               });
        row.kind = QString::fromLatin1(intention ? lockkind::kTableIntention : lockkind::kTable);
        rows << row;
    }
    for (const PgRowLockEntry& r : rowLocks) {
        for (qint64 pid : r.pids) {
            const QString session = sessionOf.value(pid);
            if (session.isEmpty())
                continue;
            LockRow row;
            row.session = session;
            row.kind = QString::fromLatin1(lockkind::kRow);
            row.mode = r.modes.join(QStringLiteral(", "));
            row.table = r.table;
            row.record = rowOf(r.table, r.ctid);
            rows << row;
        }
    }
    sortLockRows(&rows);
    return rows;
}

void sortLockRows(LockRows* rows) {
    static const QStringList kinds{lockkind::kDatabase,
                                   lockkind::kTable,
                                   lockkind::kTableIntention,
                                   lockkind::kTransaction,
                                   lockkind::kRow,
                                   lockkind::kNextKey,
                                   lockkind::kGap,
                                   lockkind::kInsertIntention,
                                   lockkind::kTuple};
    auto number = [](const QString& session) {
        bool ok = false;
        const int n = session.mid(1).toInt(&ok);
        return ok ? n : 1 << 30;
    };
    std::stable_sort(rows->begin(), rows->end(), [&](const LockRow& a, const LockRow& b) {
        if (number(a.session) != number(b.session))
            return number(a.session) < number(b.session);
        if (a.session != b.session)
            return a.session < b.session;
        if (a.kind != b.kind)
            return kinds.indexOf(a.kind) < kinds.indexOf(b.kind);
        if (a.table != b.table)
            return a.table < b.table;
        if (a.index != b.index)
            return a.index < b.index;
        if (a.record != b.record)
            return a.record < b.record;
        if (a.granted != b.granted)
            return a.granted;
        if (a.mode != b.mode)
            return a.mode < b.mode;
        // A session's own transaction ids (its transaction's and a
        // savepoint's) come from the server in no fixed order.
        return a.xid < b.xid;
    });
}

}  // namespace idem::live
