// Where things are in a handler's text: the column of a syntax error (the
// engine names only its line), and the line of `function* handle`.
#pragma once

#include <QJSEngine>
#include <QString>

#include <optional>

namespace idem {

// The source as the lab compiles it: the file's top level inside a
// function on the file's first line, so that its lines stay where they are
// and evaluating it runs nothing.
QString wrappedHandler(const QString& source);
// The column of the syntax error `message` that the engine found on `line`:
// blanking the line from a column on keeps the same error until the blank
// reaches the offending token. 1 when it cannot be told. Compiles only: the
// file's code does not run.
int syntaxErrorColumn(QJSEngine& engine, const QString& source, const QString& fileName, int line,
                      const QString& message);
struct SyntaxError {
    int line = 0;
    int column = 0;
    QString message;  // the engine's words
};
// The first syntax error in `source`, compiled as the lab compiles it and
// run not at all (the editor asks as the student types); none when it parses.
std::optional<SyntaxError> syntaxError(QJSEngine& engine, const QString& source,
                                       const QString& fileName);

// The line where `function* handle` is declared; 1 when not found.
int handlerLine(const QString& source);

}  // namespace idem
