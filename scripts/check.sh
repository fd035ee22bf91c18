#!/usr/bin/env bash
# Habits the code keeps, checked by CI before the build: every C++ source is
# clang-formatted, and the engine and the scenarios include no widget, GUI or
# chart header (docs/ARCHITECTURE.md, the include rule).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
status=0

mapfile -t sources < <(git ls-files '*.cpp' '*.h')
if ! clang-format --dry-run -Werror "${sources[@]}" 2>/tmp/idem-format.$$; then
    echo "check: not clang-formatted (run clang-format -i on these):" >&2
    grep -oE '^[^:]+\.(cpp|h)' /tmp/idem-format.$$ | sort -u >&2
    status=1
fi
rm -f /tmp/idem-format.$$

widgets=$(grep -rnE '#include *<(QtWidgets|QtGui|QtCharts|QtSvg|QWidget|QMainWindow|QApplication|QGraphics[A-Za-z]*|QChart[A-Za-z]*|QPainter|QColor|QFont|QPixmap|QImage|QIcon|QPalette)[/>]' \
    models scenarios || true)
if [ -n "$widgets" ]; then
    echo "check: models/ and scenarios/ must not include widget, GUI or chart headers:" >&2
    echo "$widgets" >&2
    status=1
fi

[ $status -eq 0 ] && echo "check: formatting and the include rule hold" >&2
exit $status
