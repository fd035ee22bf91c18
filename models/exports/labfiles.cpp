#include "labfiles.h"

#include "tracewriters.h"
#include "xlsxexport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

namespace idem::labfiles {

namespace {

// Enough for every mark: a trace's or an export's first lines, a PNG's
// chunks before its pixels.
constexpr qint64 kHeadBytes = 8192;

QList<QByteArray> firstLines(const QByteArray& head, int n) {
    QList<QByteArray> lines = head.split('\n');
    for (QByteArray& line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
    }
    return lines.mid(0, n);
}

// A PNG whose chunks before the pixels hold Software = idemlab.
bool pngMarked(const QByteArray& head) {
    if (!head.startsWith("\x89PNG\r\n\x1a\n"))
        return false;
    for (qsizetype at = 8; at + 8 <= head.size();) {
        const quint32 length = (quint32(quint8(head[at])) << 24) |
                               (quint32(quint8(head[at + 1])) << 16) |
                               (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
        const QByteArray type = head.mid(at + 4, 4);
        if (type == "IDAT" || type == "IEND" || length > quint32(head.size()))
            return false;
        if (type == "tEXt" &&
            head.mid(at + 8, length) == QByteArray(kPngKey) + '\0' + QByteArray(kPngValue))
            return true;
        at += 12 + qsizetype(length);
    }
    return false;
}

// A Jepsen-style history's first line: an operation with the lab's fields.
bool historyLine(const QByteArray& line) {
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    for (const char* key : {"index", "type", "f", "process", "time", "intent", "attempt"}) {
        if (!o.contains(QLatin1String(key)))
            return false;
    }
    return true;
}

}  // namespace

bool looksWrittenByLab(const QByteArray& bytes) {
    QByteArray head = bytes;
    if (head.startsWith("\xEF\xBB\xBF"))  // CSV for Excel
        head.remove(0, 3);
    if (pngMarked(head))
        return true;
    // A workbook: a ZIP whose first entry, stored as it is, names the lab.
    if (head.startsWith("PK\x03\x04") && head.contains(kXlsxApplication))
        return true;
    if (head.startsWith(R"({"format":"idemlab-trace")"))
        return true;
    if (head.startsWith("<!DOCTYPE html>") && head.left(1024).contains(kHtmlGenerator))
        return true;
    if (head.startsWith(R"({"displayTimeUnit":"ms","traceEvents":[)") &&
        head.left(1024).contains(R"("name":"idemlab )"))
        return true;
    const QList<QByteArray> lines = firstLines(head, 3);
    if (lines.size() < 2)
        return false;
    if (lines[0].startsWith("seq,t_ms,intent,attempt,actor,kind,connection,sql,"))
        return true;
    if (lines[0] == "sequenceDiagram" && lines[1] == kMermaidComment)
        return true;
    if (lines[0] == "@startuml" && lines[1] == kPlantUmlComment)
        return true;
    // ShiViz's parser, the delimiter line, then an event of the lab's: "t=…"
    // or an execution's label.
    if (lines[0] == kShiVizParser && lines.size() == 3 &&
        (lines[2].startsWith("t=") || lines[2].startsWith("=== ")))
        return true;
    return historyLine(lines[0]);
}

bool writtenByLab(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return looksWrittenByLab(file.read(kHeadBytes));
}

}  // namespace idem::labfiles
