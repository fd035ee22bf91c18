#include "sqllogmodel.h"

#include "csv.h"
#include "lockwaits.h"
#include "names.h"
#include "redisreply.h"
#include "sweeper.h"

#include <algorithm>

namespace idem {

namespace {
// A command to the run's Redis (SPEC section 10): logged beside the SQL.
bool isRedis(const TraceEvent& e) {
    return e.is(EventKind::Note) && e.kindId() == QLatin1String("redis");
}

bool logged(const TraceEvent& e) {
    return e.is(EventKind::Sql) || e.is(EventKind::LockWait) || isRedis(e);
}

// A Redis command's row: the command as the statement, its reply beside it.
TraceEvent redisRow(const TraceEvent& e) {
    TraceEvent row;
    row.seq = e.seq;
    row.tMs = e.tMs;
    row.intent = e.intent;
    row.attempt = e.attempt;
    row.actor = e.actor;
    row.note = e.note;
    row.kind = e.kind;
    row.sql = e.fields.text("command");
    RedisReply reply;
    RedisReply::fromTrace(e.fields.text("reply_type"), e.fields.value("reply"), &reply);
    if (reply.isError())
        row.error = reply.text;
    row.fields.set("connection", e.fields.text("connection"));
    row.fields.set("reply", reply.isError() ? QString() : reply.shown());
    return row;
}

// The parts of an event a row of the log shows. A statement's own fields
// (phase, cause) stay behind: copying them would allocate for every row, and
// a run of 50 x 1000 logs 300,000 rows at once when it jumps to its end.
TraceEvent logRow(const QList<TraceEvent>& events, qsizetype index) {
    const TraceEvent& e = events[index];
    if (isRedis(e))
        return redisRow(e);
    if (e.is(EventKind::LockWait)) {
        // Its connection and holder are fields; a server's holders are
        // sessions ("c3, c2"), which the row names as the attempts they
        // served then ("#3、#2"), as the captions do.
        TraceEvent wait = e;
        QStringList tags;
        for (const AttemptRef& a : lockHolders(events, index))
            tags << processTag(a.attempt, nameOf(a.actor));
        if (!tags.isEmpty())
            wait.fields.set("holder_attempts", tags);
        return wait;
    }
    TraceEvent row;
    row.seq = e.seq;
    row.tMs = e.tMs;
    row.intent = e.intent;
    row.attempt = e.attempt;
    row.actor = e.actor;
    row.note = e.note;
    row.kind = e.kind;
    row.connection = e.connection;
    row.rows = e.rows;
    row.code = e.code;
    row.counts = e.counts;
    row.sql = e.sql;
    row.error = e.error;
    row.params = e.params;
    // MariaDB's statement as the server received it, the values in it.
    if (const QVariant sent = e.fields.value("sent"); sent.isValid())
        row.fields.set("sent", sent);
    return row;
}
// The statement as the database received it: MariaDB's with the values in
// the text (its client inlines them), every other as the trace writes it.
QString statementText(const TraceEvent& e) {
    const QString sent = e.fields.text("sent");
    return sent.isEmpty() ? e.sql : sent;
}
}  // namespace

SqlLogModel::SqlLogModel(QObject* parent)
    : QAbstractTableModel(parent), sweeper_(new Sweeper(this)) {}

QList<TraceEvent> SqlLogModel::rowsOf(const QList<TraceEvent>& events, qsizetype from,
                                      qsizetype to) {
    QList<TraceEvent> rows;
    for (qsizetype i = std::max<qsizetype>(0, from); i < to && i < events.size(); ++i) {
        if (logged(events[i]))
            rows << logRow(events, i);
    }
    return rows;
}

void SqlLogModel::append(const Trace& trace, qsizetype from, qsizetype to) {
    appendRows(rowsOf(trace.events(), from, to));
}

void SqlLogModel::rebuild(const Trace& trace) {
    resetRows(rowsOf(trace.events(), 0, trace.size()));
}

void SqlLogModel::appendRows(QList<TraceEvent> rows) {
    if (rows.isEmpty())
        return;
    const qsizetype count = totalRows();
    const qsizetype added = rows.size();
    const qsizetype first = std::max<qsizetype>(0, count + added - kShownRows);
    const qsizetype before = first_;
    auto store = [&] {
        // A step's few rows join the last piece; a long seek's come as a piece of their own.
        constexpr qsizetype kPiece = 4096;
        if (!chunks_.empty() && added < kPiece && chunks_.back().size() < kPiece) {
            chunks_.back().append(std::move(rows));
            ends_.back() += added;
        } else {
            chunks_.push_back(std::move(rows));
            ends_.push_back(count + added);
        }
    };
    if (first - first_ >= kShownRows / 2 || first > count) {
        // Most of what is shown changes, or all of it and some of the new
        // rows too (a seek past more rows than are listed): the table
        // starts over.
        beginResetModel();
        store();
        first_ = first;
        endResetModel();
    } else {
        // The earliest rows shown give way to the newest.
        if (first > first_) {
            beginRemoveRows({}, 0, int(first - first_) - 1);
            first_ = first;
            endRemoveRows();
        }
        const int shown = int(count - first_);
        beginInsertRows({}, shown, shown + int(added) - 1);
        store();
        endInsertRows();
    }
    if (first_ != before)
        emit leftOutChanged(first_);
}

void SqlLogModel::resetRows(QList<TraceEvent> rows) {
    const qsizetype before = first_;
    beginResetModel();
    dropRows();
    first_ = std::max<qsizetype>(0, rows.size() - kShownRows);
    if (!rows.isEmpty()) {
        ends_.push_back(rows.size());
        chunks_.push_back(std::move(rows));
    }
    endResetModel();
    if (first_ != before)
        emit leftOutChanged(first_);
}

// A log of a long run holds hundreds of thousands of rows: they are let go
// of a slice at a time, between frames (sweeper.h).
void SqlLogModel::dropRows() {
    const qsizetype count = totalRows();
    ends_.clear();
    if (count >= 10'000)
        sweeper_->take(std::move(chunks_));
    chunks_.clear();
}

const TraceEvent& SqlLogModel::stored(qsizetype i) const {
    const auto piece = std::upper_bound(ends_.begin(), ends_.end(), i);
    const std::size_t c = std::size_t(piece - ends_.begin());
    return chunks_[c][i - (c == 0 ? 0 : ends_[c - 1])];
}

int SqlLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(totalRows() - first_);
}

int SqlLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString SqlLogModel::formatParams(const QVariantList& params) {
    QStringList parts;
    for (const QVariant& v : params) {
        if (v.isNull()) {
            parts << QStringLiteral("NULL");
        } else if (v.typeId() == QMetaType::QString) {
            parts << QLatin1Char('\'') + v.toString() + QLatin1Char('\'');
        } else {
            parts << v.toString();
        }
    }
    return parts.join(QStringLiteral(", "));
}

QString SqlLogModel::formatTime(qint64 ms) {
    if (ms < 10'000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 600'000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 3);
    const qint64 s = ms / 1000;
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
}

QVariant SqlLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const TraceEvent& e = row(index.row());
    const bool wait = e.is(EventKind::LockWait);
    const bool redis = isRedis(e);
    if (role == KindRole)
        return e.kindId();
    if (role == FailedRole)
        return wait || e.failed() || (redis && !e.error.isEmpty());
    if (role == ActorRole)
        return e.actorName();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
        case Time:
            return formatTime(e.tMs);
        case Attempt:
            return e.attempt == 0 ? QStringLiteral("setup") : processTag(e.attempt, e.actorName());
        case Connection:
            return wait || redis ? e.fields.text("connection") : e.connectionName();
        case Statement:
            if (wait) {
                // A server names the lock: the sessions holding it and where it is.
                const QString lock = e.fields.text("lock");
                if (!lock.isEmpty()) {
                    const QStringList tags = e.fields.value("holder_attempts").toStringList();
                    QString holders =
                        tags.isEmpty() ? e.fields.text("holder") : tags.join(tr(", "));
                    // Another client of the server, as the server names it.
                    const QString outside = e.fields.text("outside");
                    if (!outside.isEmpty())
                        holders = holders.isEmpty()
                                      ? tr("a connection outside the run (%1)").arg(outside)
                                      : tr("%1, behind a connection outside the run (%2)")
                                            .arg(holders, outside);
                    return role == Qt::ToolTipRole
                               ? (outside.isEmpty() ? lock : lock + QLatin1Char('\n') + outside)
                               : tr("waits for %1: %2").arg(holders, lockLabel(lock));
                }
                return tr("waits: the database is locked by %1").arg(e.fields.text("holder"));
            }
            return role == Qt::ToolTipRole ? statementText(e) : statementText(e).simplified();
        case Params:
            return formatParams(e.params);
        case Rows:
            if (redis)
                return e.fields.text("reply");
            // BEGIN, COMMIT and the like have no count of their own.
            if (wait || e.counts == RowCount::None)
                return {};
            if (role == Qt::ToolTipRole) {
                return e.counts == RowCount::Returned ? tr("rows returned: %1").arg(e.rows)
                                                      : tr("rows changed: %1").arg(e.rows);
            }
            return e.counts == RowCount::Returned ? tr("%1 returned").arg(e.rows)
                                                  : tr("%1 changed").arg(e.rows);
        case Error:
            return redis ? e.error : e.errorText();
        default:
            return {};
    }
}

QVariant SqlLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
        case Time:
            return tr("Time");
        case Attempt:
            return tr("Attempt");
        case Connection:
            return tr("Conn.");
        case Statement:
            return tr("Statement");
        case Params:
            return tr("Values");
        case Rows:
            return tr("Rows");
        case Error:
            return tr("Error");
        default:
            return {};
    }
}

QString SqlLogModel::toCsv() const {
    QStringList lines{
        QStringLiteral("t_ms,attempt,connection,sql,params,rows_returned,rows_changed,error")};
    auto count = [](const TraceEvent& e, RowCount counts) {
        return e.counts == counts ? QString::number(e.rows) : QString();
    };
    for (const QList<TraceEvent>& piece : chunks_) {
        for (const TraceEvent& e : piece) {
            lines << QStringList{QString::number(e.tMs),
                                 QString::number(e.attempt),
                                 csvText(isRedis(e) ? e.fields.text("connection")
                                                    : e.connectionName()),
                                 csvText(statementText(e)),
                                 csvText(formatParams(e.params)),
                                 count(e, RowCount::Returned),
                                 count(e, RowCount::Changed),
                                 csvText(isRedis(e) ? e.error : e.errorText())}
                         .join(QLatin1Char(','));
        }
    }
    return lines.join(QLatin1String("\r\n")) + QLatin1String("\r\n");
}

}  // namespace idem
