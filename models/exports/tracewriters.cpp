#include "tracewriters.h"

#include "csv.h"
#include "exporttext.h"
#include "narration.h"
#include "outofmemory.h"
#include "sqlconnection.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <cerrno>
#include <cstring>

namespace idem {

QString paramsText(const QVariantList& params) {
    QStringList parts;
    for (const QVariant& v : params) parts << (v.isNull() ? QStringLiteral("NULL") : v.toString());
    return parts.join(QStringLiteral(", "));
}

QString eventDataText(const TraceEvent& e) {
    if (e.fields.isEmpty())
        return {};
    QJsonObject o;
    for (const Field& f : e.fields)
        o.insert(QLatin1String(f.key.name), QJsonValue::fromVariant(f.value));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString rowsText(const TraceEvent& e) {
    if (!e.is(EventKind::Sql))
        return {};
    switch (e.counts) {
        case RowCount::Returned:
            return e.rows == 1 ? QStringLiteral("1 row returned")
                               : QStringLiteral("%1 rows returned").arg(e.rows);
        case RowCount::Changed:
            return e.rows == 1 ? QStringLiteral("1 row changed")
                               : QStringLiteral("%1 rows changed").arg(e.rows);
        case RowCount::None:
            break;
    }
    return {};
}

// One readable line describing an event, for ShiViz and HTML.
QString describeEvent(const TraceEvent& e) {
    if (e.is(EventKind::Sql)) {
        QString s = e.sql.simplified();
        if (!e.params.isEmpty())
            s += QStringLiteral(" [%1]").arg(paramsText(e.params));
        if (e.failed())
            s += QStringLiteral(" → ") + e.errorText();
        else if (const QString rows = rowsText(e); !rows.isEmpty())
            s += QStringLiteral(" → ") + rows;
        return s;
    }
    QString s = e.kindId();
    const QString d = eventDataText(e);
    if (!d.isEmpty())
        s += QLatin1Char(' ') + d;
    return s;
}

// ShiViz reads a log line by line (and its "." stops at JavaScript's line
// terminators): text from a trace keeps every character visible on one line.
QString oneLine(const QString& s) {
    QString out;
    out.reserve(s.size());
    for (QChar ch : s) {
        switch (ch.unicode()) {
            case '\\':
                out += QLatin1String("\\\\");
                break;
            case '\n':
                out += QLatin1String("\\n");
                break;
            case '\r':
                out += QLatin1String("\\r");
                break;
            case 0x2028:
                out += QLatin1String("\\u2028");
                break;
            case 0x2029:
                out += QLatin1String("\\u2029");
                break;
            default:
                out += ch;
        }
    }
    return out;
}

int intentCount(const QList<TraceEvent>& events) {
    int most = 0;
    for (const TraceEvent& e : events) most = std::max(most, e.intent + 1);
    return std::max(most, 1);
}

// A CSV cell for one of the two counts: the number when the event has that kind of count.
static QString countCell(const TraceEvent& e, RowCount counts) {
    return e.is(EventKind::Sql) && e.counts == counts ? QString::number(e.rows) : QString();
}

CsvExport::~CsvExport() = default;

void CsvExport::begin(const ExportRun& run, ExportOutput& out) {
    if (excel_)
        out.write(QByteArray("\xEF\xBB\xBF"));
    const QString backend = run.config.value("backend").toString();
    server_ = !backend.isEmpty() && backend != QLatin1String("sqlite");
    out.write(QByteArray("seq,t_ms,intent,attempt,actor,kind,connection,sql,params,rows_returned,"
                         "rows_changed,error,data,caption") +
              (server_ ? QByteArray(",outcome,waiting_for,lock,waited_ms") : QByteArray()) +
              "\r\n");
    narrator_ = std::make_unique<Narrator>(run.intents, words_);
    locks_.clear();
    locks_.setBackend(backend);
}

void CsvExport::add(const TraceEvent& e, ExportOutput& out) {
    // Appended cell by cell: a string that cannot grow throws (std::bad_alloc,
    // the command's "out of memory"), where a list built from an initializer
    // list writes through a null block when its allocation fails.
    QString line = QString::number(e.seq);
    for (const QString& cell :
         {QString::number(e.tMs), QString::number(e.intent), QString::number(e.attempt),
          csvText(e.actorName()), csvText(e.kindId()), csvText(e.connectionName()), csvText(e.sql),
          csvText(paramsText(e.params)), countCell(e, RowCount::Returned),
          countCell(e, RowCount::Changed), csvText(e.errorText()), csvText(eventDataText(e)),
          csvText(narrator_->caption(e))}) {
        line += QLatin1Char(',');
        line += cell;
    }
    if (server_) {
        const LockStep step = locks_.follow(e);
        QString waitingFor;
        QString lock;
        QString waited;
        if (step.began) {
            QStringList holders;
            for (const AttemptRef& a : step.began->holders) holders << locks_.name(a);
            waitingFor = holders.join(QStringLiteral(", "));
            lock = LockStory::lockText(step.began->lock);
        }
        if (step.ended)
            waited = QString::number(step.ended->endMs - step.ended->tMs);
        for (const QString& cell :
             {e.is(EventKind::Sql) ? QString::fromLatin1(outcomeId(e.outcome())) : QString(),
              csvText(waitingFor), csvText(lock), waited}) {
            line += QLatin1Char(',');
            line += cell;
        }
    }
    line += QLatin1String("\r\n");
    out.write(line);
}

QByteArray traceToCsv(const QList<TraceEvent>& events, bool excel, const ScenarioWords* words) {
    CsvExport csv(excel, words);
    ExportRun run;
    run.intents = intentCount(events);
    return exportEvents(events, csv, run);
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    OutputFile file(path);
    return writeFileAtomically(file, bytes, error);
}

bool writeFileAtomically(OutputFile& file, const QByteArray& bytes, QString* error) {
    const QString& path = file.path();
    QString why;
    if (!file.open(&why)) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        return false;
    }
    // A short write (a full disk) must not be committed: the path would get
    // the part that fit. Bytes the device buffers are written by commit(),
    // which checks them as well.
    errno = 0;
    const qint64 written = file.device().write(bytes);
    if (written != bytes.size()) {
        const int err = errno;
        why = err != 0 ? QString::fromLocal8Bit(std::strerror(err)) : file.device().errorString();
        file.cancel();
        *error = QStringLiteral(
                     "cannot write %1: %2 (%3 of %4 bytes written; the file is "
                     "left as it was)")
                     .arg(path, why)
                     .arg(std::max<qint64>(written, 0))
                     .arg(bytes.size());
        return false;
    }
    if (memory::allocationFailed()) {
        file.cancel();
        *error = QStringLiteral("cannot write %1: %2").arg(path, memory::kOutOfMemory);
        return false;
    }
    if (!file.commit(&why)) {
        *error =
            file.refused()
                ? why
                : QStringLiteral("cannot write %1: %2 (the file is left as it was)").arg(path, why);
        return false;
    }
    return true;
}

}  // namespace idem
