// The headless subcommands of SPEC section 4; none of them needs a display.
#pragma once

#include <QStringList>

class QCommandLineParser;
class QTextStream;

namespace idem::cli {

// 130: stopped by Ctrl+C (the shell's convention for SIGINT).
enum Exit { Ok = 0, Failure = 1, BadInput = 2, UnexpectedVerdict = 3, Interrupted = 130 };

// Prints "idemlab: message" on stderr and returns code: the one line a
// command ends with. After an allocation failed it prints nothing: the
// program says so once, in its own words (outofmemory.h, main.cpp).
int failWith(const QString& message, int code);
// failWith(message, BadInput).
int badInput(const QString& message);
// Standard output, one stream for every subcommand (its buffer is flushed
// at Qt::endl / Qt::flush, so the commands' lines never interleave).
QTextStream& out();

// Parses a subcommand's `args` (without the program name) as `idemlab
// COMMAND`; unknown options are bad input (false, with the parser's message).
bool parse(QCommandLineParser& parser, const QString& command, const QStringList& args,
           QString* error);

// args: the subcommand's own arguments, without the program name.
int list(const QStringList& args);
int run(const QStringList& args);
int experiment(const QStringList& args);
int printHelp();

}  // namespace idem::cli
