#include "redisreply.h"

namespace idem {

namespace {

QString quoted(const QString& s) {
    QString out = s;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

}  // namespace

QString RedisReply::shown() const {
    switch (type) {
        case Type::Status:
            return text;
        case Type::Error:
            return QStringLiteral("(error) ") + text;
        case Type::Integer:
            return QStringLiteral("(integer) %1").arg(integer);
        case Type::Nil:
            return QStringLiteral("(nil)");
        case Type::String:
            return quoted(text);
        case Type::Array: {
            if (elements.isEmpty())
                return QStringLiteral("(empty array)");
            QStringList parts;
            for (qsizetype i = 0; i < elements.size(); ++i)
                parts << QStringLiteral("%1) %2").arg(i + 1).arg(elements[i].shown());
            return parts.join(QLatin1Char(' '));
        }
    }
    return {};
}

const char* RedisReply::typeId() const {
    switch (type) {
        case Type::Status:
            return "status";
        case Type::Error:
            return "error";
        case Type::Integer:
            return "integer";
        case Type::Nil:
            return "nil";
        case Type::String:
            return "string";
        case Type::Array:
            return "array";
    }
    return "nil";
}

QVariant RedisReply::value() const {
    switch (type) {
        case Type::Status:
        case Type::Error:
        case Type::String:
            return text;
        case Type::Integer:
            return integer;
        case Type::Nil:
            return QVariant();
        case Type::Array: {
            // Each element as [type, value]: an array may mix them.
            QVariantList list;
            for (const RedisReply& e : elements)
                list << QVariant(QVariantList{QString::fromLatin1(e.typeId()), e.value()});
            return list;
        }
    }
    return {};
}

bool RedisReply::fromTrace(const QString& typeId, const QVariant& value, RedisReply* out) {
    RedisReply r;
    if (typeId == QLatin1String("status"))
        r.type = Type::Status;
    else if (typeId == QLatin1String("error"))
        r.type = Type::Error;
    else if (typeId == QLatin1String("integer"))
        r.type = Type::Integer;
    else if (typeId == QLatin1String("nil"))
        r.type = Type::Nil;
    else if (typeId == QLatin1String("string"))
        r.type = Type::String;
    else if (typeId == QLatin1String("array"))
        r.type = Type::Array;
    else
        return false;
    if (r.type == Type::Integer)
        r.integer = value.toLongLong();
    else if (r.type == Type::Array) {
        for (const QVariant& element : value.toList()) {
            const QVariantList pair = element.toList();
            RedisReply e;
            if (pair.size() != 2 || !fromTrace(pair[0].toString(), pair[1], &e))
                return false;
            r.elements << e;
        }
    } else if (r.type != Type::Nil)
        r.text = value.toString();
    *out = r;
    return true;
}

QString commandText(const QStringList& arguments) {
    QStringList parts;
    for (const QString& a : arguments) {
        const bool plain = !a.isEmpty() && !a.contains(QLatin1Char(' ')) &&
                           !a.contains(QLatin1Char('"')) && !a.contains(QLatin1Char('\''));
        parts << (plain ? a : quoted(a));
    }
    return parts.join(QLatin1Char(' '));
}

QList<qsizetype> keyPositions(const QStringList& arguments) {
    const QString name = arguments.value(0).toUpper();
    if (name == QLatin1String("EVAL") || name == QLatin1String("EVALSHA")) {
        const qsizetype count = arguments.value(2).toLongLong();
        QList<qsizetype> keys;
        for (qsizetype i = 3; i < 3 + count && i < arguments.size(); ++i) keys << i;
        return keys;
    }
    // XGROUP CREATE key group ..., XINFO STREAM key: after the subcommand.
    if (name == QLatin1String("XGROUP") || name == QLatin1String("XINFO"))
        return arguments.size() > 2 ? QList<qsizetype>{2} : QList<qsizetype>{};
    // XREADGROUP GROUP g c COUNT 1 STREAMS key1 key2 id1 id2: half of what
    // follows STREAMS.
    if (name == QLatin1String("XREADGROUP") || name == QLatin1String("XREAD")) {
        qsizetype streams = arguments.size() - 1;
        while (streams > 0 &&
               arguments[streams].compare(QLatin1String("STREAMS"), Qt::CaseInsensitive) != 0)
            --streams;
        if (streams <= 0)
            return {};
        QList<qsizetype> keys;
        const qsizetype count = (arguments.size() - streams - 1) / 2;
        for (qsizetype i = streams + 1; i <= streams + count; ++i) keys << i;
        return keys;
    }
    if (arguments.size() < 2)
        return {};
    return {1};
}

}  // namespace idem
