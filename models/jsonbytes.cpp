#include "jsonbytes.h"

#include <QLocale>

#include <cmath>

namespace idem::json {

namespace {

void appendEscapedUtf8(QByteArray& out, const QByteArray& utf8) {
    static const char hex[] = "0123456789abcdef";
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 0xf];
                } else {
                    out += ch;
                }
        }
    }
}

}  // namespace

void appendString(QByteArray& out, QStringView text) {
    out += '"';
    appendEscapedUtf8(out, text.toUtf8());
    out += '"';
}

void appendLatin1String(QByteArray& out, const char* text) {
    out += '"';
    appendEscapedUtf8(out, QByteArray::fromRawData(text, qsizetype(qstrlen(text))));
    out += '"';
}

void appendValue(QByteArray& out, const QVariant& value) {
    if (value.isNull() && value.typeId() != QMetaType::QString) {
        out += "null";
        return;
    }
    switch (value.typeId()) {
        case QMetaType::Bool:
            out += value.toBool() ? "true" : "false";
            return;
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::Long:
        case QMetaType::Short:
            out += QByteArray::number(value.toLongLong());
            return;
        case QMetaType::ULongLong:
        case QMetaType::ULong:
            out += QByteArray::number(value.toULongLong());
            return;
        case QMetaType::Double:
        case QMetaType::Float: {
            const double d = value.toDouble();
            if (!std::isfinite(d)) {
                out += "null";
                return;
            }
            // A whole number keeps a fraction so that it reads back as a double.
            QByteArray n = QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
            if (!n.contains('.') && !n.contains('e'))
                n += ".0";
            out += n;
            return;
        }
        case QMetaType::QVariantList:
        case QMetaType::QStringList: {
            out += '[';
            bool first = true;
            for (const QVariant& v : value.toList()) {
                if (!first)
                    out += ',';
                first = false;
                appendValue(out, v);
            }
            out += ']';
            return;
        }
        case QMetaType::QVariantMap: {
            const QVariantMap map = value.toMap();
            out += '{';
            bool first = true;
            for (auto it = map.cbegin(); it != map.cend(); ++it) {
                if (!first)
                    out += ',';
                first = false;
                appendString(out, it.key());
                out += ':';
                appendValue(out, it.value());
            }
            out += '}';
            return;
        }
        default:
            appendString(out, value.toString());
    }
}

}  // namespace idem::json
