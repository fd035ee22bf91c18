#!/usr/bin/env bash
# Every string the code shows has its Chinese translation: run lupdate on a
# copy of the .ts and fail if it finds a new or unfinished string.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/resources/translations/idemlab_zh_CN.ts" "$tmp/zh.ts"
# The rooms of models/ at any depth, as app/CMakeLists.txt finds them.
mapfile -t models < <(find "$root/models" -name '*.cpp' | sort)
"${LUPDATE:?set LUPDATE}" -silent -no-obsolete -locations none \
    "$root"/app/*.cpp "$root"/views/*.cpp "${models[@]}" "$root"/scenarios/*.cpp \
    "$root"/workbench/*.cpp \
    -ts "$tmp/zh.ts"
missing=$(grep -c 'type="unfinished"' "$tmp/zh.ts" || true)
if [ "$missing" -ne 0 ]; then
    echo "untranslated strings: $missing"
    grep -B2 'type="unfinished"' "$tmp/zh.ts" | grep '<source>'
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
