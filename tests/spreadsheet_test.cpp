// The spreadsheet export's container, read back entry by entry with zlib: a
// ZIP whose every entry inflates to its recorded size and CRC, the lab's mark
// first and stored, a long trace split into sheets of at most the rows a
// sheet holds (each with its header), the run's settings on the last sheet,
// text escaped for XML and numbers as numbers. openpyxl and LibreOffice
// read real exports in tests/xlsx_test.py.
#include "labfiles.h"
#include "testsupport.h"
#include "traceexport.h"
#include "xlsxexport.h"

#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QTest>

#include <zlib.h>

using namespace idem;

namespace {

quint32 le(const QByteArray& b, qsizetype at, int bytes) {
    quint32 v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | quint8(b[at + i]);
    return v;
}

struct Entry {
    QByteArray name;
    QByteArray data;
    quint16 method = 0;
};

// Every entry of `zip` by its central directory; a failure names the entry.
QList<Entry> unzip(const QByteArray& zip, QString* error) {
    QList<Entry> entries;
    const qsizetype end = zip.lastIndexOf(QByteArray("PK\x05\x06", 4));
    if (end < 0) {
        *error = QStringLiteral("no end of central directory");
        return {};
    }
    const quint32 count = le(zip, end + 10, 2);
    qsizetype at = le(zip, end + 16, 4);
    for (quint32 i = 0; i < count; ++i) {
        if (le(zip, at, 4) != 0x02014b50) {
            *error = QStringLiteral("central directory entry %1 has no signature").arg(i);
            return {};
        }
        Entry e;
        e.method = quint16(le(zip, at + 10, 2));
        const quint32 crc = le(zip, at + 16, 4);
        const quint32 packed = le(zip, at + 20, 4);
        const quint32 size = le(zip, at + 24, 4);
        const quint32 nameLength = le(zip, at + 28, 2);
        const quint32 local = le(zip, at + 42, 4);
        e.name = zip.mid(at + 46, nameLength);
        at += 46 + nameLength + le(zip, at + 30, 2) + le(zip, at + 32, 2);
        if (le(zip, local, 4) != 0x04034b50 ||
            zip.mid(local + 30, le(zip, local + 26, 2)) != e.name) {
            *error = QStringLiteral("%1: its local header does not match").arg(e.name);
            return {};
        }
        const QByteArray raw =
            zip.mid(local + 30 + le(zip, local + 26, 2) + le(zip, local + 28, 2), packed);
        if (e.method == 0) {
            e.data = raw;
        } else {
            z_stream s{};
            inflateInit2(&s, -MAX_WBITS);
            e.data.resize(size);
            s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
            s.avail_in = uInt(raw.size());
            s.next_out = reinterpret_cast<Bytef*>(e.data.data());
            s.avail_out = uInt(size);
            const int status = inflate(&s, Z_FINISH);
            inflateEnd(&s);
            if (status != Z_STREAM_END || s.total_out != size) {
                *error = QStringLiteral("%1: does not inflate to %2 bytes").arg(e.name).arg(size);
                return {};
            }
        }
        if (e.data.size() != qsizetype(size) ||
            quint32(crc32(0, reinterpret_cast<const Bytef*>(e.data.constData()),
                          uInt(e.data.size()))) != crc) {
            *error = QStringLiteral("%1: its size or CRC is wrong").arg(e.name);
            return {};
        }
        entries.append(e);
    }
    return entries;
}

QByteArray entry(const QList<Entry>& entries, const QByteArray& name) {
    for (const Entry& e : entries) {
        if (e.name == name)
            return e.data;
    }
    return {};
}

TraceEvent statement(int seq, const QString& sql) {
    TraceEvent e;
    e.seq = seq;
    e.tMs = 10 * seq;
    e.intent = 0;
    e.attempt = 1;
    e.actor = nameId(u"service");
    e.kind = EventKind::Sql;
    e.connection = 1;
    e.sql = sql;
    e.rows = 1;
    e.counts = RowCount::Changed;
    return e;
}

}  // namespace

class SpreadsheetTest : public QObject {
    Q_OBJECT
private slots:
    void aLongTraceGoesOnInMoreSheets();
    void textIsEscapedAndNumbersStayNumbers();
};

void SpreadsheetTest::aLongTraceGoesOnInMoreSheets() {
    QList<TraceEvent> events;
    for (int i = 1; i <= 5; ++i)
        events << statement(i, QStringLiteral("UPDATE t SET n = %1").arg(i));
    XlsxExport xlsx;
    xlsx.setRowsPerSheet(3);  // the header and two events
    ExportRun run;
    run.config = QJsonObject{{"scenario", "order-create"}, {"seed", 7}};
    run.summary = QJsonObject{{"verdict", "pass"}};
    const QByteArray zip = exportEvents(events, xlsx, run);
    QVERIFY(labfiles::looksWrittenByLab(zip.left(8192)));
    QString error;
    const QList<Entry> entries = unzip(zip, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(entries.first().name, QByteArray("docProps/app.xml"));
    QCOMPARE(entries.first().method, quint16(0));

    const QByteArray book = entry(entries, "xl/workbook.xml");
    const QRegularExpression sheet(QStringLiteral("<sheet name=\"([^\"]+)\""));
    QStringList names;
    for (const auto& m : sheet.globalMatch(QString::fromUtf8(book))) names << m.captured(1);
    QCOMPARE(names, (QStringList{"events", "events 2", "events 3", "run"}));
    // Each events sheet starts with the header; the events follow in order.
    const QRegularExpression row(QStringLiteral(
        "<row r=\"(\\d+)\"><c r=\"A\\d+\"[^>]*>(?:<v>(\\d+)</v>|<is><t>(\\w+)</t>)"));
    QStringList firsts;
    for (int n = 1; n <= 3; ++n) {
        const QByteArray xml =
            entry(entries, "xl/worksheets/sheet" + QByteArray::number(n) + ".xml");
        QVERIFY2(xml.endsWith("</worksheet>"), xml.right(80).constData());
        QStringList cells;
        for (const auto& m : row.globalMatch(QString::fromUtf8(xml)))
            cells << m.captured(2) + m.captured(3);
        firsts << cells.join(QLatin1Char(' '));
    }
    QCOMPARE(firsts, (QStringList{"seq 1 2", "seq 3 4", "seq 5"}));
    QVERIFY(entry(entries, "xl/worksheets/sheet3.xml").contains("<autoFilter ref=\"A1:N2\"/>"));
    const QByteArray settings = entry(entries, "xl/worksheets/sheet4.xml");
    QVERIFY2(settings.contains("<t>config.scenario</t></is></c><c r=\"B2\" t=\"inlineStr\"><is><t>"
                               "order-create</t>"),
             settings.constData());
    QVERIFY(settings.contains("<t>config.seed</t></is></c><c r=\"B3\"><v>7</v></c>"));
    QVERIFY(settings.contains(
        "<t>summary.verdict</t></is></c><c r=\"B4\" t=\"inlineStr\"><is><t>pass"));
    QVERIFY(entry(entries, "[Content_Types].xml").contains("/xl/worksheets/sheet4.xml"));
}

void SpreadsheetTest::textIsEscapedAndNumbersStayNumbers() {
    XlsxExport xlsx;
    const QByteArray zip =
        exportEvents({statement(1, QStringLiteral("SELECT '<a & b>' -- \"x\"\x01 下单 ")),
                      statement(2, QStringLiteral("=cmd"))},
                     xlsx);
    QString error;
    const QList<Entry> entries = unzip(zip, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString xml = QString::fromUtf8(entry(entries, "xl/worksheets/sheet1.xml"));
    QVERIFY2(
        xml.contains(QStringLiteral("<c r=\"H2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">"
                                    "SELECT '&lt;a &amp; b&gt;' -- &quot;x&quot;\uFFFD 下单 </t>")),
        qPrintable(xml));
    // A formula's text is text in a workbook: no guard is needed.
    QVERIFY(xml.contains(QStringLiteral("<c r=\"H3\" t=\"inlineStr\"><is><t>=cmd</t>")));
    QVERIFY(xml.contains(QStringLiteral("<c r=\"A3\"><v>2</v></c><c r=\"B3\"><v>20</v></c>")));
    QVERIFY(xml.contains(QStringLiteral("<c r=\"K3\"><v>1</v></c>")));  // rows_changed
}

QTEST_GUILESS_MAIN(SpreadsheetTest)
#include "spreadsheet_test.moc"
