#!/usr/bin/env bash
# Habits the code keeps, checked by CI and before every stop; each rule is
# stated in docs/ARCHITECTURE.md and planted broken by tests/rules_test.sh:
#   format    every C++ source is clang-formatted
#   gui       models/ and scenarios/ include no widget, GUI or chart header
#   size      no source file of the program is over 600 lines
#   clients   libsqlite3, libpq, libmariadb and hiredis are included only by
#             their own backend's files
#   views     views/ include none of the headers that run a run or a statement
# IDEM_CHECK_SKIP=format (or a comma-separated list) leaves rules out.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
status=0
skip=",${IDEM_CHECK_SKIP:-},"
fail() {
    echo "check: $1" >&2
    shift
    printf '%s\n' "$@" >&2
    status=1
}

mapfile -t sources < <(git ls-files '*.cpp' '*.h')

if [[ $skip != *,format,* ]]; then
    if ! printf '%s\0' "${sources[@]}" |
        xargs -0 -n 40 -P "$(nproc)" clang-format --dry-run -Werror 2>/tmp/idem-format.$$; then
        mapfile -t unformatted < <(grep -oE '^[^:]+\.(cpp|h)' /tmp/idem-format.$$ | sort -u)
        fail "not clang-formatted (run clang-format -i on these):" "${unformatted[@]}"
    fi
    rm -f /tmp/idem-format.$$
fi

if [[ $skip != *,gui,* ]]; then
    widgets=$(grep -rnE '#include *<(QtWidgets|QtGui|QtCharts|QtSvg|QWidget|QMainWindow|QApplication|QGraphics[A-Za-z]*|QChart[A-Za-z]*|QPainter|QColor|QFont|QPixmap|QImage|QIcon|QPalette)[/>]' \
        models scenarios || true)
    [ -z "$widgets" ] ||
        fail "models/ and scenarios/ must not include widget, GUI or chart headers:" "$widgets"
fi

# The program's own sources; tests are whole stories and may run longer, and
# the benchmarks time the client libraries bare.
program=()
for f in "${sources[@]}"; do
    case $f in models/* | scenarios/* | views/* | app/* | workbench/*) program+=("$f") ;; esac
done
if [[ $skip != *,size,* ]]; then
    # One wc for every file (a process per file took seconds on a busy machine).
    mapfile -t long < <(wc -l -- "${program[@]}" | awk '$2 != "total" && $1 > 600 { print $2 ": " $1 " lines" }')
    [ ${#long[@]} -eq 0 ] || fail "source files over 600 lines (split them by what they do):" "${long[@]}"
fi

# Each client library, and the files allowed to include it.
if [[ $skip != *,clients,* ]]; then
    declare -A owners=(
        ['sqlite3.h']='^models/database/(sqliteconnection\.cpp|rundatabase\.cpp)$'
        ['libpq-fe.h']='^models/database/live/pg[a-z]*\.cpp$'
        ['mysql.h']='^models/database/live/maria[a-z]*\.cpp$'
        ['hiredis.h']='^models/redis/redisclient\.cpp$'
    )
    for header in "${!owners[@]}"; do
        while IFS= read -r hit; do
            [ -n "$hit" ] || continue
            file=${hit%%:*}
            [[ $file =~ ${owners[$header]} ]] ||
                fail "<$header> is for its backend's own files only:" "$hit"
        done < <(grep -nE "#include *<([a-z]+/)?${header//./\\.}>" "${program[@]}" || true)
    done
fi

# What the views may not include: the headers that start, step or finish a
# run, or open a session on a database. They are handed what they show.
if [[ $skip != *,views,* ]]; then
    engine='run|runner|runinputs|scheduler|attempt|authoring|replay|backend|serverbackend|sqlitebackend|sqliteconnection|serverconnection|rundatabase|session|pgsession|mariasession|privateserver|observer'
    hits=$(grep -nE "#include *\"($engine)\\.h\"" views/*.cpp views/*.h || true)
    [ -z "$hits" ] || fail "views/ must not include the engine's or a session's headers:" "$hits"
fi

[ $status -eq 0 ] && echo "check: formatting, includes, sizes and client libraries hold" >&2
exit $status
