// `idemlab lesson list | check`: the lessons without the window.
#pragma once

#include <QStringList>

namespace idem::cli {

int lesson(const QStringList& args);

}  // namespace idem::cli
