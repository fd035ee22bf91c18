#include "jsonbytes.h"

#include <QLocale>

#include <charconv>
#include <cmath>

namespace idem::json {

namespace {

// Runs of bytes that need no escape (nearly all of a trace) are copied whole.
void appendEscapedUtf8(QByteArray& out, QByteArrayView utf8) {
    static const char hex[] = "0123456789abcdef";
    const char* const data = utf8.data();
    const qsizetype n = utf8.size();
    qsizetype clean = 0;  // start of the run not yet copied
    for (qsizetype i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(data + clean, i - clean);
        clean = i + 1;
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
            default: {
                const char u[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
                out.append(u, sizeof u);
            }
        }
    }
    out.append(data + clean, n - clean);
}

}  // namespace

void appendString(QByteArray& out, QStringView text) {
    // Most of a trace is ASCII that needs no escape (SQL on one line, ids,
    // names): written straight into the buffer, without a UTF-8 copy.
    const qsizetype n = text.size();
    const char16_t* const units = text.utf16();
    qsizetype i = 0;
    while (i < n && units[i] >= 0x20 && units[i] < 0x80 && units[i] != '"' && units[i] != '\\') ++i;
    if (i == n) {
        const qsizetype at = out.size();
        out.resize(at + n + 2);
        char* p = out.data() + at;
        *p++ = '"';
        for (qsizetype k = 0; k < n; ++k) *p++ = static_cast<char>(units[k]);
        *p = '"';
        return;
    }
    while (i < n && units[i] < 0x80) ++i;
    out += '"';
    // ASCII (a statement over several lines): Latin-1 is the same bytes, and
    // Qt converts to it much faster than to UTF-8.
    appendEscapedUtf8(out, i == n ? text.toLatin1() : text.toUtf8());
    out += '"';
}

void appendInteger(QByteArray& out, qint64 value) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end - digits);
}

void appendLatin1String(QByteArray& out, const char* text) {
    out += '"';
    appendEscapedUtf8(out, QByteArrayView(text, qsizetype(qstrlen(text))));
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
            appendInteger(out, value.toLongLong());
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
            const QVariantList& list = value.typeId() == QMetaType::QVariantList
                                           ? *static_cast<const QVariantList*>(value.constData())
                                           : value.toList();
            for (const QVariant& v : list) {
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
