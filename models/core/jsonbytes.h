// Appends JSON text to a byte buffer: the trace writer streams millions of
// events, and building a QJsonDocument for each would cost more than running
// the SQL they record. Output is compact, UTF-8, and what QJsonDocument reads.
#pragma once

#include <QByteArray>
#include <QStringView>
#include <QVariant>

namespace idem::json {

void appendString(QByteArray& out, QStringView text);
void appendLatin1String(QByteArray& out, const char* text);
void appendInteger(QByteArray& out, qint64 value);
// null, booleans, integers, doubles, strings, lists and maps (keys sorted,
// as QVariantMap keeps them).
void appendValue(QByteArray& out, const QVariant& value);

}  // namespace idem::json
