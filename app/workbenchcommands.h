// `idemlab challenge list|show|start` and `idemlab check FILE`: the
// workbench without the window (SPEC section 9).
#pragma once

#include <QStringList>

namespace idem::cli {

int challenge(const QStringList& args);
// Exit 0 passed, 1 a counterexample, 2 bad input (a syntax error as
// file:line:column, an unknown challenge, a handler the lab had to stop).
int check(const QStringList& args);

}  // namespace idem::cli
