// RFC 4180 CSV fields that are safe to open in a spreadsheet, shared by the
// trace export and the tables' "copy as CSV".
#pragma once

#include <QString>
#include <QVariant>

namespace idem {

// A text cell. Text that a spreadsheet would run as a formula (it begins with
// =, +, -, @, a tab or a carriage return: =HYPERLINK(...), -2+3) gets a
// leading single quote, as OWASP recommends against CSV injection; then the
// field is quoted when it holds a comma, a quote or a line break.
QString csvText(const QString& text);
// A cell from a typed value: integers and real numbers stay numbers (a rows
// count of -1 is written -1), NULL is an empty cell, anything else is text.
QString csvValue(const QVariant& value);

}  // namespace idem
