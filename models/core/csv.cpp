#include "csv.h"

#include <QLocale>

namespace idem {

QString csvText(const QString& text) {
    QString field = text;
    if (!field.isEmpty()) {
        const QChar first = field.front();
        if (first == QLatin1Char('=') || first == QLatin1Char('+') || first == QLatin1Char('-') ||
            first == QLatin1Char('@') || first == QLatin1Char('\t') || first == QLatin1Char('\r')) {
            field.prepend(QLatin1Char('\''));
        }
    }
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r'))) {
        return field;
    }
    field.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + field + QLatin1Char('"');
}

QString csvValue(const QVariant& value) {
    if (value.isNull())
        return {};
    switch (value.typeId()) {
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::Long:
        case QMetaType::ULong:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
        case QMetaType::Short:
        case QMetaType::UShort:
            return value.toString();
        case QMetaType::Double:
        case QMetaType::Float:
            // Shortest text that reads back as the same number.
            return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
        default:
            return csvText(value.toString());
    }
}

}  // namespace idem
