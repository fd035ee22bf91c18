#!/usr/bin/env bash
# One case of cases.txt against its golden output:
#   run_case.sh IDEMLAB NAME          compare; exit 1 with a diff if it differs
#   run_case.sh --update IDEMLAB      write every golden file anew
# The case runs in an empty temporary folder, so relative paths in a case
# never touch the source tree.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

args_of() {  # the arguments of case $1, as written in cases.txt
    sed -n "s/^$1: //p" "$here/cases.txt"
}

# exit code, stdout and stderr of case $2 run with binary $1, in one text
output_of() {
    local bin="$1" name="$2" work
    work=$(mktemp -d)
    local line
    line=$(args_of "$name")
    [ -n "$line" ] || { echo "no case named $name in cases.txt" >&2; rm -rf "$work"; return 2; }
    (
        cd "$work" || exit 2
        eval "set -- $line"
        "$bin" "$@" >"$work/.out" 2>"$work/.err"
        echo "exit $?"
        echo "--- stdout"
        cat "$work/.out"
        echo "--- stderr"
        cat "$work/.err"
    )
    rm -rf "$work"
}

if [ "${1:-}" = "--update" ]; then
    bin="$(realpath "${2:?usage: run_case.sh --update IDEMLAB}")"
    mkdir -p "$here/golden"
    rm -f "$here/golden"/*.txt
    for name in $(sed -n 's/^\([a-z0-9-]*\): .*/\1/p' "$here/cases.txt"); do
        output_of "$bin" "$name" >"$here/golden/$name.txt"
    done
    echo "wrote $(ls "$here/golden" | wc -l) golden files"
    exit 0
fi

bin="$(realpath "${1:?usage: run_case.sh IDEMLAB NAME}")"
name="${2:?usage: run_case.sh IDEMLAB NAME}"
golden="$here/golden/$name.txt"
[ -f "$golden" ] || { echo "no golden output $golden; run run_case.sh --update" >&2; exit 1; }
if ! diff -u --label "golden/$name.txt" --label "idemlab $(args_of "$name")" "$golden" <(output_of "$bin" "$name"); then
    exit 1
fi
