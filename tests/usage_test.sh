#!/usr/bin/env bash
# Command-line manners: --version, --help and SUBCOMMAND --help exit 0 and
# list every option; unknown options stay bad input; the man page describes
# every option and id the program knows.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
VERSION="${VERSION:?set VERSION to the project version}"
MAN="${MAN:?set MAN to the generated man page}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$B" --version >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "idemlab $VERSION" ] && [ ! -s "$tmp/err" ] && ok ||
    bad "--version printed '$(cat "$tmp/out")' (want 'idemlab $VERSION')"

commands="list run lesson challenge check replay export shot"
for h in --help help -h; do
    "$B" $h >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "$h exited $rc"
    for c in $commands; do
        grep -q "^  idemlab $c " "$tmp/out" && ok || bad "$h does not list $c"
    done
done

# The options SPEC section 4 gives run (and shot, which takes run's options).
run_options="scenario variant duplicates timing source crash crash-attempt interval-ms max-retries
    param intents seed expiry-ms retention-ms ttl-ms lease-ms visibility-ms"
for c in $commands; do
    "$B" $c --help >"$tmp/$c" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "$c --help exited $rc: $(cat "$tmp/err")"
    head -1 "$tmp/$c" | grep -q "^Usage: idemlab $c" && ok || bad "$c --help: $(head -1 "$tmp/$c")"
    grep -q -- "--help" "$tmp/$c" && grep -q "^Exit codes: 0" "$tmp/$c" && ok || bad "$c --help lacks --help or exit codes"
    # Every option the help lists is described in the man page.
    for o in $(grep -oE '^  (-\w, )?--[a-z-]+' "$tmp/$c" | grep -oE -- '--[a-z-]+$'); do
        grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$MAN" && ok || bad "man page lacks $o ($c)"
    done
    "$B" $c --frobnicate >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q frobnicate "$tmp/err" && ok || bad "$c --frobnicate exited $rc"
done
for c in run shot; do
    for o in $run_options; do
        grep -q -- "--$o " "$tmp/$c" && ok || bad "$c --help lacks --$o"
    done
done
for o in db trace json expect; do
    grep -q -- "--$o" "$tmp/run" && ok || bad "run --help lacks --$o"
done
for o in view out lang theme presenter size step; do
    grep -q -- "--$o" "$tmp/shot" && ok || bad "shot --help lacks --$o"
done
grep -q -- "--json" "$tmp/list" && ok || bad "list --help lacks --json"
grep -q -- "--format" "$tmp/export" && grep -q -- "--out" "$tmp/export" && ok || bad "export --help lacks --format or --out"
grep -q TRACE "$tmp/replay" && ok || bad "replay --help lacks TRACE"
# lesson export: its own options, each in the man page.
"$B" lesson export --help >"$tmp/lesson-export" 2>"$tmp/err"
[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && head -1 "$tmp/lesson-export" | grep -q "^Usage: idemlab lesson .*export ID|FILE" && ok ||
    bad "lesson export --help: $(head -1 "$tmp/lesson-export") $(cat "$tmp/err")"
for o in format lang out; do
    grep -q -- "--$o" "$tmp/lesson-export" && ok || bad "lesson export --help lacks --$o"
done
for o in $(grep -oE '^  (-\w, )?--[a-z-]+' "$tmp/lesson-export" | grep -oE -- '--[a-z-]+$'); do
    grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$MAN" && ok || bad "man page lacks $o (lesson export)"
done
grep -q -- "--json" "$tmp/lesson" && ok || bad "lesson --help lacks --json"
grep -qF 'lesson export' "$MAN" && ok || bad "man page lacks lesson export"

# The man page names every id the program accepts, and the exit codes.
"$B" list --json >"$tmp/list.json"
for id in $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(d["sources"] + d["timings"] + d["crash_points"] + d["verdicts"]))' "$tmp/list.json"); do
    grep -qF -- "$(echo "$id" | sed 's/-/\\-/g')" "$MAN" && ok || bad "man page lacks $id"
done
for view in $(sed -n 's/.*View to capture: \(.*\)/\1/p' "$tmp/shot" | tr -d ','); do
    grep -qE "(^|[ \"])$view([ \"]|$)" "$MAN" && ok || bad "man page lacks the view $view"
done
for code in 0 1 2 3; do
    sed -n '/^\.SH EXIT STATUS/,/^\.SH/p' "$MAN" | grep -qx "\.B $code" && ok || bad "man page lacks exit code $code"
done
grep -q "^\.TH IDEMLAB 1 .*idemlab $VERSION" "$MAN" && ok || bad "man page version"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
