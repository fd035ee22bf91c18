// A font relative to the application's (a verdict 1.8 times as large, a bold
// caption): kept relative when presenter mode or zoom changes the
// application's font, which a widget's own setFont() would otherwise freeze.
#pragma once

class QWidget;

namespace idem {

void setRelativeFont(QWidget* widget, double factor, bool bold = false);

}  // namespace idem
