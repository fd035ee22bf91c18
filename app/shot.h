// `idemlab shot`: runs a scenario in the real main window off screen and
// saves a PNG of one view, in a chosen language, theme and size.
#pragma once

#include <QStringList>

namespace idem::cli {

int shot(const QStringList& args);
// The views --alone shows, and the themes --theme takes (the completion
// offers them).
QStringList aloneViewIds();
QStringList themeIds();

}  // namespace idem::cli
