#!/usr/bin/env bash
# Fails when the Chinese translation lacks a string the code shows.
set -euo pipefail
ts="$(dirname "${BASH_SOURCE[0]}")/../resources/translations/idemlab_zh_CN.ts"
missing=$(grep -c 'type="unfinished"' "$ts" || true)
if [ "$missing" -ne 0 ]; then
    echo "idemlab_zh_CN.ts: $missing untranslated strings (run the update_translations target, then translate them)"
    grep -B2 'type="unfinished"' "$ts" | grep '<source>' | head -20
    exit 1
fi
echo "translations: complete"
