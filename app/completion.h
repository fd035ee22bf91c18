// `idemlab completion bash`: prints the bash completion script. It is
// generated from the scenario registry and from what each subcommand's --help
// lists, so it offers exactly what the program accepts.
#pragma once

#include <QStringList>

namespace idem::cli {

int completion(const QStringList& args);

}  // namespace idem::cli
