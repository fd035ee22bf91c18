#include "xlsxexport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <functional>

namespace idem {

namespace {

constexpr char kXmlHead[] = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
constexpr char kMain[] = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr char kRels[] = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr char kPackageRels[] = "http://schemas.openxmlformats.org/package/2006/relationships";
// What one cell holds at most (Excel's limit).
constexpr qsizetype kCellChars = 32767;

// Text as XML character data: the markup characters escaped, a carriage
// return kept as a reference (an XML reader turns a bare one into a line
// feed), and the characters XML 1.0 cannot carry (most controls) replaced by
// U+FFFD.
QByteArray xmlText(const QString& text) {
    QString s;
    s.reserve(text.size());
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u == '&')
            s += QLatin1String("&amp;");
        else if (u == '<')
            s += QLatin1String("&lt;");
        else if (u == '>')
            s += QLatin1String("&gt;");
        else if (u == '"')
            s += QLatin1String("&quot;");
        else if ((u < 0x20 && u != '\t' && u != '\n' && u != '\r') || u == 0xfffe || u == 0xffff)
            s += QChar(0xfffd);
        else if (u == '\r')
            s += QLatin1String("&#13;");
        else
            s += c;
    }
    return s.toUtf8();
}

// "A", "B", ... "Z", "AA": a column's letters.
QByteArray columnName(int index) {
    QByteArray name;
    for (int n = index + 1; n > 0; n = (n - 1) / 26) name.prepend(char('A' + (n - 1) % 26));
    return name;
}

QByteArray cellXml(int column, int row, const TableCell& cell, bool bold = false) {
    const QByteArray ref = columnName(column) + QByteArray::number(row);
    switch (cell.kind) {
        case TableCell::Kind::Empty:
            return {};
        case TableCell::Kind::Number:
            return "<c r=\"" + ref + "\"><v>" + cell.text.toLatin1() + "</v></c>";
        case TableCell::Kind::Text:
            break;
    }
    if (cell.text.isEmpty())
        return {};
    QString text = cell.text;
    if (text.size() > kCellChars)
        text = text.left(kCellChars - 1) + QChar(0x2026);
    const bool padded = text.front().isSpace() || text.back().isSpace();
    return "<c r=\"" + ref + "\" t=\"inlineStr\"" + (bold ? " s=\"1\"" : "") + "><is><t" +
           (padded ? " xml:space=\"preserve\"" : "") + ">" + xmlText(text) + "</t></is></c>";
}

QByteArray rowXml(int row, const QByteArray& cells) {
    return "<row r=\"" + QByteArray::number(row) + "\">" + cells + "</row>";
}

// How wide each column is drawn, in characters: the long texts wide.
double columnWidth(const QByteArray& column) {
    if (column == "sql" || column == "caption")
        return 60;
    if (column == "data" || column == "error" || column == "lock" || column == "params")
        return 30;
    if (column == "actor" || column == "kind" || column == "connection" ||
        column == "waiting_for" || column == "outcome")
        return 16;
    return 10;
}

QByteArray sheetStart(const QByteArray& columns) {
    return QByteArray(kXmlHead) + "<worksheet xmlns=\"" + kMain + "\" xmlns:r=\"" + kRels +
           "\"><sheetViews><sheetView workbookViewId=\"0\"><pane ySplit=\"1\" "
           "topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/></sheetView>"
           "</sheetViews>" +
           columns + "<sheetData>";
}

// A setting's value as a cell: numbers stay numbers, the rest is text
// (an object or a list as compact JSON).
TableCell valueCell(const QJsonValue& v) {
    if (v.isDouble())
        return {TableCell::Kind::Number,
                QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest)};
    if (v.isBool())
        return {TableCell::Kind::Text,
                v.toBool() ? QStringLiteral("true") : QStringLiteral("false")};
    if (v.isString())
        return {TableCell::Kind::Text, v.toString()};
    if (v.isArray())
        return {TableCell::Kind::Text,
                QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact))};
    if (v.isObject())
        return {TableCell::Kind::Text,
                QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact))};
    return {};
}

// The "run" sheet: a row per setting of the configuration and the summary
// ("config.scenario", "summary.verdict" ...), nested objects flattened.
QByteArray runSheet(const ExportRun& run) {
    QByteArray rows;
    int row = 1;
    const auto add = [&](const QString& name, const TableCell& value, bool bold = false) {
        rows += rowXml(row, cellXml(0, row, {TableCell::Kind::Text, name}, bold) +
                                cellXml(1, row, value, bold));
        ++row;
    };
    add(QStringLiteral("setting"), {TableCell::Kind::Text, QStringLiteral("value")}, true);
    std::function<void(const QString&, const QJsonObject&)> walk = [&](const QString& prefix,
                                                                       const QJsonObject& o) {
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString name = prefix + QLatin1Char('.') + it.key();
            if (it.value().isObject())
                walk(name, it.value().toObject());
            else
                add(name, valueCell(it.value()));
        }
    };
    walk(QStringLiteral("config"), run.config);
    walk(QStringLiteral("summary"), run.summary);
    return sheetStart(
               "<cols><col min=\"1\" max=\"1\" width=\"36\" customWidth=\"1\"/>"
               "<col min=\"2\" max=\"2\" width=\"60\" customWidth=\"1\"/></cols>") +
           rows + "</sheetData></worksheet>";
}

QByteArray sheetName(int n) {
    return n == 1 ? QByteArray("events") : "events " + QByteArray::number(n);
}

}  // namespace

XlsxExport::~XlsxExport() = default;

void XlsxExport::begin(const ExportRun& run, ExportOutput& out) {
    if (!columns_.isEmpty())
        return;  // one run per workbook
    zip_.add(out, "docProps/app.xml",
             QByteArray(kXmlHead) +
                 "<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                 "extended-properties\">" +
                 kXlsxApplication + "</Properties>",
             false);
    columns_ = table_.begin(run);
    runSheet_ = runSheet(run);
    openEventsSheet(out);
}

void XlsxExport::openEventsSheet(ExportOutput& out) {
    ++sheets_;
    zip_.open(out, "xl/worksheets/sheet" + QByteArray::number(sheets_) + ".xml");
    QByteArray cols = "<cols>";
    QByteArray header;
    for (int i = 0; i < columns_.size(); ++i) {
        const QByteArray n = QByteArray::number(i + 1);
        cols += "<col min=\"" + n + "\" max=\"" + n + "\" width=\"" +
                QByteArray::number(columnWidth(columns_[i])) + "\" customWidth=\"1\"/>";
        header += cellXml(i, 1, {TableCell::Kind::Text, QString::fromLatin1(columns_[i])}, true);
    }
    zip_.write(out, sheetStart(cols + "</cols>") + rowXml(1, header));
    row_ = 1;
}

void XlsxExport::closeEventsSheet(ExportOutput& out) {
    const QByteArray last = columnName(int(columns_.size()) - 1) + QByteArray::number(row_);
    zip_.write(out, "</sheetData><autoFilter ref=\"A1:" + last + "\"/></worksheet>");
    lastRows_.append(row_);
    zip_.close(out);
}

void XlsxExport::add(const TraceEvent& e, ExportOutput& out) {
    if (row_ >= rowsPerSheet_) {
        closeEventsSheet(out);
        openEventsSheet(out);
    }
    ++row_;
    QByteArray cells;
    int column = 0;
    table_.cells(e, [&](const TableCell& cell) { cells += cellXml(column++, row_, cell); });
    zip_.write(out, rowXml(row_, cells));
}

void XlsxExport::end(ExportOutput& out) {
    if (columns_.isEmpty() || out.failed())
        return;
    closeEventsSheet(out);
    const int runSheet = sheets_ + 1;
    zip_.add(out, "xl/worksheets/sheet" + QByteArray::number(runSheet) + ".xml", runSheet_);

    QByteArray types = QByteArray(kXmlHead) +
                       "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
                       "content-types\"><Default Extension=\"rels\" ContentType=\"application/"
                       "vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" "
                       "ContentType=\"application/xml\"/><Override PartName=\"/xl/workbook.xml\" "
                       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml."
                       "sheet.main+xml\"/><Override PartName=\"/xl/styles.xml\" "
                       "ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml."
                       "styles+xml\"/><Override PartName=\"/docProps/app.xml\" "
                       "ContentType=\"application/vnd.openxmlformats-officedocument.extended-"
                       "properties+xml\"/>";
    QByteArray sheets;
    QByteArray rels = QByteArray(kXmlHead) + "<Relationships xmlns=\"" + kPackageRels + "\">";
    for (int n = 1; n <= runSheet; ++n) {
        const QByteArray id = QByteArray::number(n);
        types += "<Override PartName=\"/xl/worksheets/sheet" + id +
                 ".xml\" ContentType=\"application/vnd.openxmlformats-officedocument."
                 "spreadsheetml.worksheet+xml\"/>";
        sheets += "<sheet name=\"" + (n == runSheet ? QByteArray("run") : sheetName(n)) +
                  "\" sheetId=\"" + id + "\" r:id=\"rId" + id + "\"/>";
        rels += "<Relationship Id=\"rId" + id + "\" Type=\"" + kRels +
                "/worksheet\" Target=\"worksheets/sheet" + id + ".xml\"/>";
    }
    rels += "<Relationship Id=\"rId" + QByteArray::number(runSheet + 1) + "\" Type=\"" + kRels +
            "/styles\" Target=\"styles.xml\"/></Relationships>";
    // The events sheets' header filters, as Excel names them.
    QByteArray names;
    for (int n = 1; n <= sheets_; ++n) {
        names += "<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"" +
                 QByteArray::number(n - 1) + "\" hidden=\"1\">'" + sheetName(n) + "'!$A$1:$" +
                 columnName(int(columns_.size()) - 1) + "$" + QByteArray::number(lastRows_[n - 1]) +
                 "</definedName>";
    }
    zip_.add(out, "xl/workbook.xml",
             QByteArray(kXmlHead) + "<workbook xmlns=\"" + kMain + "\" xmlns:r=\"" + kRels +
                 "\"><sheets>" + sheets + "</sheets><definedNames>" + names +
                 "</definedNames></workbook>");
    zip_.add(out, "xl/_rels/workbook.xml.rels", rels);
    zip_.add(out, "xl/styles.xml",
             QByteArray(kXmlHead) + "<styleSheet xmlns=\"" + kMain +
                 "\"><fonts count=\"2\"><font><sz val=\"11\"/><name val=\"Calibri\"/></font>"
                 "<font><b/><sz val=\"11\"/><name val=\"Calibri\"/></font></fonts>"
                 "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill><fill>"
                 "<patternFill patternType=\"gray125\"/></fill></fills><borders count=\"1\">"
                 "<border><left/><right/><top/><bottom/><diagonal/></border></borders>"
                 "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
                 "borderId=\"0\"/></cellStyleXfs><cellXfs count=\"2\"><xf numFmtId=\"0\" "
                 "fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/><xf numFmtId=\"0\" "
                 "fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyFont=\"1\"/>"
                 "</cellXfs><cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" "
                 "builtinId=\"0\"/></cellStyles></styleSheet>");
    zip_.add(out, "[Content_Types].xml", types + "</Types>");
    zip_.add(out, "_rels/.rels",
             QByteArray(kXmlHead) + "<Relationships xmlns=\"" + kPackageRels +
                 "\"><Relationship Id=\"rId1\" Type=\"" + kRels +
                 "/officeDocument\" Target=\"xl/workbook.xml\"/><Relationship Id=\"rId2\" "
                 "Type=\"" +
                 kRels + "/extended-properties\" Target=\"docProps/app.xml\"/></Relationships>");
    QString error;
    if (!zip_.finish(out, &error))
        out.fail(error);
}

}  // namespace idem
