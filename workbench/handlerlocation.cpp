#include "handlerlocation.h"

#include <QJSValue>
#include <QRegularExpression>

namespace idem {

QString wrappedHandler(const QString& source) {
    return QStringLiteral("(function () {") + source +
           QStringLiteral(
               "\n;return { handle: typeof handle === \"function\" ? handle : undefined, "
               "generator: typeof handle === \"function\" && Object.getPrototypeOf(handle) === "
               "Object.getPrototypeOf(function* () {}), "
               "schema: typeof schema === \"undefined\" ? undefined : schema };\n})");
}

int syntaxErrorColumn(QJSEngine& engine, const QString& source, const QString& fileName, int line,
                      const QString& message) {
    QStringList lines = source.split(QLatin1Char('\n'));
    if (line < 1 || line > lines.size())
        return 1;
    const QString text = lines[line - 1];
    auto sameError = [&](int from) {
        QStringList blanked = lines;
        blanked[line - 1] = text.left(from) + QString(text.size() - from, QLatin1Char(' '));
        const QJSValue r =
            engine.evaluate(wrappedHandler(blanked.join(QLatin1Char('\n'))), fileName, 1);
        return r.isError() && r.property(QStringLiteral("lineNumber")).toInt() == line &&
               r.toString() == message;
    };
    // The first column whose blanking still leaves the error: the blank has
    // not reached the token the engine stopped at.
    int column = int(text.size());
    while (column > 0 && sameError(column - 1)) --column;
    // On the first line the wrapper's opening stands before the file's text.
    return std::max(1, column);
}

std::optional<SyntaxError> syntaxError(QJSEngine& engine, const QString& source,
                                       const QString& fileName) {
    const QJSValue r = engine.evaluate(wrappedHandler(source), fileName, 1);
    if (!r.isError())
        return std::nullopt;
    SyntaxError e;
    e.line = r.property(QStringLiteral("lineNumber")).toInt();
    e.message = r.toString();
    e.column = syntaxErrorColumn(engine, source, fileName, e.line, e.message);
    return e;
}

int handlerLine(const QString& source) {
    static const QRegularExpression declared(QStringLiteral("function\\s*\\*\\s*handle\\b"));
    const QRegularExpressionMatch m = declared.match(source);
    if (!m.hasMatch())
        return 1;
    return int(source.left(m.capturedStart()).count(QLatin1Char('\n'))) + 1;
}

}  // namespace idem
