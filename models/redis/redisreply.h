// What Redis answered to one command, in the five kinds RESP2 has (hiredis
// 0.14 speaks no RESP3), and the command and answer as redis-cli shows them:
// the text the SQL log, the trace and the captions carry.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace idem {

struct RedisReply {
    enum class Type : quint8 { Status, Error, Integer, Nil, String, Array };
    Type type = Type::Nil;
    QString text;                // Status, Error, String
    qint64 integer = 0;          // Integer
    QList<RedisReply> elements;  // Array

    bool isError() const { return type == Type::Error; }
    bool isNil() const { return type == Type::Nil; }
    bool isOk() const { return type == Type::Status && text == QLatin1String("OK"); }

    static RedisReply error(const QString& message) { return {Type::Error, message, 0, {}}; }

    // "OK", "(nil)", "(integer) -2", "\"PROCESSING\"", "(error) ERR ...",
    // an array's elements numbered on one line: "1) \"a\" 2) \"b\"".
    QString shown() const;
    // "status", "error", "integer", "nil", "string", "array": the trace's reply_type.
    const char* typeId() const;
    // The reply as a trace keeps it (a string, a number, null, a list), and back.
    QVariant value() const;
    static bool fromTrace(const QString& typeId, const QVariant& value, RedisReply* out);
};

// SET dedup:points:O1 PROCESSING NX PX 1000: each argument as redis-cli
// takes it, quoted where it holds a space, a quote or nothing.
QString commandText(const QStringList& arguments);

// Where a command's keys are among its arguments: EVAL and EVALSHA name
// theirs after the script and their count, XGROUP and XINFO after their
// subcommand, XREADGROUP and XREAD after STREAMS; the others the lab sends
// take one key, first.
QList<qsizetype> keyPositions(const QStringList& arguments);

}  // namespace idem
