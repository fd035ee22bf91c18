// The trace as a spreadsheet: an Office Open XML workbook (.xlsx) that
// LibreOffice, Excel, Numbers and Google Sheets open by double-click with
// every character right, in either language (the text is UTF-8 by the
// format's definition: no import dialog, no byte-order mark to guess from).
// Sheet "events": EventTable's columns, a row per event, the header row
// bold, frozen and filtered, numbers as numbers; a trace longer than a
// sheet's 1,048,576 rows goes on in "events 2", "events 3" ... Sheet "run":
// the configuration and the summary, a setting per row. Written as the
// trace is read, compressed as it goes (zipwriter.h).
#pragma once

#include "eventtable.h"
#include "traceexport.h"
#include "zipwriter.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace idem {

class XlsxExport : public TraceExport {
public:
    explicit XlsxExport(const ScenarioWords* words = nullptr) : table_(words) {}
    ~XlsxExport() override;
    void begin(const ExportRun& run, ExportOutput& out) override;
    void add(const TraceEvent& e, ExportOutput& out) override;
    void end(ExportOutput& out) override;

    // The rows of one events sheet, its header included (Excel's limit);
    // smaller in tests.
    void setRowsPerSheet(int rows) { rowsPerSheet_ = rows; }

private:
    void openEventsSheet(ExportOutput& out);
    void closeEventsSheet(ExportOutput& out);

    EventTable table_;
    ZipWriter zip_;
    QByteArrayList columns_;
    QByteArray runSheet_;  // written last, as sheet n + 1
    int rowsPerSheet_ = 1048576;
    int sheets_ = 0;       // events sheets opened
    int row_ = 0;          // rows in the open one
    QList<int> lastRows_;  // each closed events sheet's last row
};

// The mark of a workbook the lab wrote: its first entry, stored as is, names
// the lab as the application (labfiles.cpp reads it).
inline constexpr char kXlsxApplication[] = "<Application>idemlab</Application>";

}  // namespace idem
