#!/usr/bin/env bash
# scripts/check.sh holds on the tree as it is, and fails on a planted
# violation of each rule it checks (docs/ARCHITECTURE.md), naming the rule.
# usage: rules_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# A scratch copy of the tracked files, as a repository of its own.
fresh() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    (cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$work/tree")
    (cd "$work/tree" && git init -q && git add -A)
}

# expect_failure NAME SKIP MESSAGE: check.sh (leaving out the rules in SKIP)
# fails, and says MESSAGE.
expect_failure() {
    (cd "$work/tree" && git add -A)
    if IDEM_CHECK_SKIP=$2 "$work/tree/scripts/check.sh" 2>"$work/out"; then
        echo "rules: $1 planted, yet check.sh passed"
        failures=$((failures + 1))
    elif ! grep -qF "$3" "$work/out"; then
        echo "rules: $1 planted; check.sh failed without saying \"$3\":"
        cat "$work/out"
        failures=$((failures + 1))
    else
        echo "rules: $1 caught"
    fi
}

fresh
if ! "$work/tree/scripts/check.sh" 2>"$work/out"; then
    echo "rules: check.sh fails on the tree as it is:"
    cat "$work/out"
    failures=$((failures + 1))
fi

fresh
printf 'namespace idem {  int   badlyFormatted( ) ;}\n' >>"$work/tree/models/core/phrase.h"
expect_failure "an unformatted line" "" "not clang-formatted"

fresh
echo '#include <QWidget>' >>"$work/tree/models/engine/run.cpp"
expect_failure "a widget header in models/" "format" "must not include widget"

fresh
for i in $(seq 1 620); do echo "// line $i"; done >>"$work/tree/scenarios/bolton.cpp"
expect_failure "a source file of 600+ lines" "format" "over 600 lines"

fresh
echo '#include <sqlite3.h>' >>"$work/tree/models/engine/judge.cpp"
expect_failure "libsqlite3 outside the SQLite backend" "format" "<sqlite3.h> is for its backend"

fresh
echo '#include <libpq-fe.h>' >>"$work/tree/models/database/serverconnection.cpp"
expect_failure "libpq outside the PostgreSQL session" "format" "<libpq-fe.h> is for its backend"

fresh
echo '#include "scheduler.h"' >>"$work/tree/views/tableview.cpp"
expect_failure "an engine header in views/" "format" "views/ must not include"

[ $failures -eq 0 ] && echo "rules: every planted violation caught; the tree passes"
exit $((failures > 0))
