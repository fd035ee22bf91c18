// The headless subcommands of SPEC section 4; none of them needs a display.
#pragma once

#include <QStringList>

namespace idem::cli {

enum Exit { Ok = 0, Failure = 1, BadInput = 2, UnexpectedVerdict = 3 };

// args: the subcommand's own arguments, without the program name.
int list(const QStringList& args);
int run(const QStringList& args);
int printHelp();

}  // namespace idem::cli
