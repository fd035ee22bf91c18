#include "tracewriters.h"

#include "csv.h"
#include "exporttext.h"
#include "narration.h"
#include "outofmemory.h"

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

CsvExport::~CsvExport() = default;

void CsvExport::begin(const ExportRun& run, ExportOutput& out) {
    if (excel_)
        out.write(QByteArray("\xEF\xBB\xBF"));
    out.write(table_.begin(run).join(',') + "\r\n");
}

void CsvExport::add(const TraceEvent& e, ExportOutput& out) {
    // Appended cell by cell: a string that cannot grow throws (std::bad_alloc,
    // the command's "out of memory"), where a list built from an initializer
    // list writes through a null block when its allocation fails.
    QString line;
    bool first = true;
    table_.cells(e, [&](const TableCell& cell) {
        if (!first)
            line += QLatin1Char(',');
        first = false;
        line += cell.kind == TableCell::Kind::Text ? csvText(cell.text) : cell.text;
    });
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
