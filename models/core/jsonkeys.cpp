#include "jsonkeys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QList>
#include <QSet>

namespace idem::json {

namespace {

// One object or list being read: where it is, and an object's keys so far.
struct Level {
    bool object = false;
    QString path;
    QSet<QString> keys;
    QString lastKey;
    qint64 items = 0;
    bool expectKey = false;
};

// A string's text from its bytes between the quotes, escapes undone.
QString decoded(const QByteArray& raw) {
    if (!raw.contains('\\'))
        return QString::fromUtf8(raw);
    const QJsonDocument doc = QJsonDocument::fromJson("[\"" + raw + "\"]");
    return doc.isArray() ? doc.array().at(0).toString() : QString::fromUtf8(raw);
}

QString childPath(const Level& parent) {
    if (parent.object)
        return parent.path.isEmpty() ? parent.lastKey
                                     : parent.path + QLatin1Char('.') + parent.lastKey;
    return QStringLiteral("%1[%2]").arg(parent.path).arg(parent.items);
}

}  // namespace

QString duplicateKey(const QByteArray& text, const QString& prefix) {
    QList<Level> levels;
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '{' || c == '[') {
            Level level;
            level.object = c == '{';
            level.expectKey = level.object;
            level.path = levels.isEmpty() ? prefix : childPath(levels.last());
            levels.append(level);
        } else if (c == '}' || c == ']') {
            if (!levels.isEmpty())
                levels.removeLast();
        } else if (c == ',') {
            if (!levels.isEmpty()) {
                Level& top = levels.last();
                top.expectKey = top.object;
                ++top.items;
            }
        } else if (c == '"') {
            const qsizetype start = i + 1;
            for (++i; i < n && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    ++i;
            }
            if (levels.isEmpty() || !levels.last().expectKey)
                continue;
            Level& top = levels.last();
            top.expectKey = false;
            top.lastKey = decoded(text.mid(start, i - start));
            if (top.keys.contains(top.lastKey))
                return top.path.isEmpty() ? top.lastKey : top.path + QLatin1Char('.') + top.lastKey;
            top.keys.insert(top.lastKey);
        }
    }
    return {};
}

}  // namespace idem::json
