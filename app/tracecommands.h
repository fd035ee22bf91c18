// `idemlab replay TRACE` and `idemlab export TRACE --format csv|shiviz|html`.
#pragma once

#include <QStringList>

namespace idem::cli {

int replay(const QStringList& args);
// The formats `idemlab export --format` writes.
QStringList exportFormats();
// html embeds the state and sequence diagrams, drawn off screen.
int exportTrace(const QStringList& args);

}  // namespace idem::cli
