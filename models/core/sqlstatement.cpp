#include "sqlstatement.h"

#include <QRegularExpression>

#include <algorithm>

namespace idem {

SqlVerb sqlVerb(QStringView sql) {
    const QStringView head = sql.trimmed();
    auto starts = [&](QStringView word) {
        return head.startsWith(word, Qt::CaseInsensitive) &&
               (head.size() == word.size() || !head[word.size()].isLetterOrNumber());
    };
    if (starts(u"SELECT"))
        return SqlVerb::Select;
    if (starts(u"WITH"))
        return SqlVerb::With;
    if (starts(u"VALUES"))
        return SqlVerb::Values;
    if (starts(u"INSERT"))
        return SqlVerb::Insert;
    if (starts(u"REPLACE"))
        return SqlVerb::Replace;
    if (starts(u"UPDATE"))
        return SqlVerb::Update;
    if (starts(u"DELETE"))
        return SqlVerb::Delete;
    if (starts(u"BEGIN") || starts(u"START TRANSACTION"))
        return SqlVerb::Begin;
    if (starts(u"COMMIT") || starts(u"END"))
        return SqlVerb::Commit;
    if (starts(u"ROLLBACK"))
        return head.mid(8).trimmed().startsWith(u"TO", Qt::CaseInsensitive) ? SqlVerb::RollbackTo
                                                                            : SqlVerb::Rollback;
    if (starts(u"SAVEPOINT"))
        return SqlVerb::Savepoint;
    if (starts(u"RELEASE"))
        return SqlVerb::Release;
    if (starts(u"CREATE"))
        return SqlVerb::Create;
    if (starts(u"PRAGMA"))
        return SqlVerb::Pragma;
    return SqlVerb::Other;
}

QStringList outerWords(QStringView sql) {
    QStringList words;
    int depth = 0;
    const qsizetype n = sql.size();
    for (qsizetype i = 0; i < n;) {
        const QChar c = sql[i];
        const QChar next = i + 1 < n ? sql[i + 1] : QChar();
        if (c == QLatin1Char('-') && next == QLatin1Char('-')) {
            while (i < n && sql[i] != QLatin1Char('\n')) ++i;
        } else if (c == QLatin1Char('/') && next == QLatin1Char('*')) {
            const qsizetype end = sql.indexOf(QLatin1String("*/"), i + 2);
            i = end < 0 ? n : end + 2;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"') || c == QLatin1Char('`') ||
                   c == QLatin1Char('[')) {
            const QChar close = c == QLatin1Char('[') ? QLatin1Char(']') : c;
            const qsizetype end = sql.indexOf(close, i + 1);
            i = end < 0 ? n : end + 1;  // a doubled quote is two quoted pieces: no word
        } else if (c == QLatin1Char('(')) {
            ++depth;
            ++i;
        } else if (c == QLatin1Char(')')) {
            depth = std::max(0, depth - 1);
            ++i;
        } else if (c.isLetter() || c == QLatin1Char('_')) {
            const qsizetype start = i;
            while (i < n && (sql[i].isLetterOrNumber() || sql[i] == QLatin1Char('_'))) ++i;
            if (depth == 0)
                words << sql.mid(start, i - start).toString().toUpper();
        } else {
            ++i;
        }
    }
    return words;
}

QString statementHead(const QString& sql) {
    const QStringList w = sql.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (w.isEmpty())
        return {};
    auto name = [&](qsizetype i) {
        return i < w.size() ? w[i].section(QLatin1Char('('), 0, 0) : QString();
    };
    auto indexOf = [&](const char* word) {
        for (qsizetype i = 0; i < w.size(); ++i) {
            if (w[i].compare(QLatin1String(word), Qt::CaseInsensitive) == 0)
                return i;
        }
        return qsizetype(-1);
    };
    const QString verb = w[0].toUpper();
    QString head;
    if (verb == QLatin1String("INSERT") || verb == QLatin1String("REPLACE")) {
        const qsizetype into = indexOf("INTO");
        head = into > 0 ? (w.mid(0, into + 1) << name(into + 1)).join(QLatin1Char(' ')) : verb;
    } else if (verb == QLatin1String("UPDATE")) {
        head = verb + QLatin1Char(' ') + name(1);
    } else if (verb == QLatin1String("DELETE")) {
        head = QStringLiteral("DELETE FROM ") + name(indexOf("FROM") + 1);
    } else if (verb == QLatin1String("SELECT") || verb == QLatin1String("WITH")) {
        const qsizetype from = indexOf("FROM");
        head = from > 0 ? verb + QStringLiteral(" … FROM ") + name(from + 1)
                        : w.mid(0, 3).join(QLatin1Char(' '));
    } else if (verb == QLatin1String("BEGIN") || verb == QLatin1String("PRAGMA")) {
        head = w.mid(0, 2).join(QLatin1Char(' '));
    } else if (verb == QLatin1String("CREATE")) {
        qsizetype end = 1;
        while (end < w.size() && end < 5 && !w[end - 1].contains(QLatin1Char('('))) ++end;
        head = w.mid(0, end).join(QLatin1Char(' ')).section(QLatin1Char('('), 0, 0).trimmed();
    } else {
        head = w.mid(0, 3).join(QLatin1Char(' '));
    }
    return head;
}

// A statement without its common table expressions: `WITH n AS (...)
// INSERT INTO t ...` is an INSERT into t. The main statement is the first
// word outside the parentheses after WITH's names.
QString mainStatement(const QString& sql) {
    const QString trimmed = sql.trimmed();
    if (!trimmed.startsWith(QLatin1String("WITH"), Qt::CaseInsensitive))
        return trimmed;
    static const QRegularExpression verb(QStringLiteral(R"(^(INSERT|UPDATE|DELETE|SELECT)\b)"),
                                         QRegularExpression::CaseInsensitiveOption);
    int depth = 0;
    for (qsizetype i = 4; i < trimmed.size(); ++i) {
        const QChar c = trimmed.at(i);
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        else if (depth == 0 && c.isLetter() && !trimmed.at(i - 1).isLetterOrNumber() &&
                 trimmed.mid(i).contains(verb))
            return trimmed.mid(i);
    }
    return trimmed;
}

// The table a statement works on: INSERT INTO t, UPDATE t, DELETE FROM t,
// SELECT … FROM t; empty for anything else.
QString statementTable(const QString& sql) {
    static const QRegularExpression pattern(
        QStringLiteral(
            R"(^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|SELECT\b.*?\bFROM)\s+(\w+))"),
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = pattern.match(sql);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString statementVerb(const QString& sql) {
    const QString trimmed = sql.trimmed();
    // MariaDB's START TRANSACTION is BEGIN as the captions tell it.
    if (trimmed.startsWith(QLatin1String("START TRANSACTION"), Qt::CaseInsensitive))
        return QStringLiteral("BEGIN");
    // The first word, found without a regular expression: one compiled per
    // call could fail under memory pressure and say so on stderr.
    const auto space =
        std::find_if(trimmed.cbegin(), trimmed.cend(), [](QChar ch) { return ch.isSpace(); });
    return trimmed.left(space - trimmed.cbegin()).toUpper();
}

}  // namespace idem
