// What `idemlab --help`, `idemlab SUBCOMMAND --help` and `idemlab --version`
// print. A subcommand's usage comes from the parser it parses with, so it lists
// every option the subcommand accepts.
#pragma once

#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace idem::cli {

struct Command {
    const char* name;
    const char* synopsis;  // what follows "idemlab NAME" in the usage line
    const char* summary;
    const char* exitCodes;
};

// The subcommands, in the order the help lists them.
const QList<Command>& commands();

// Adds -h, --help to a subcommand's parser.
void addHelpFlag(QCommandLineParser& parser);
// When the parsed arguments ask for help, prints the usage of `command` on
// stdout and returns true: the subcommand then exits Ok.
bool printedUsage(const QCommandLineParser& parser, const QString& command);

int printVersion();

}  // namespace idem::cli
