#!/usr/bin/env bash
# `idemlab FILE`, as a file manager starts it (the menu entry's %f): the window
# opens on the trace and replays it, which adds it to File → Open recent (the
# settings file says so). A command's name is still the command, even where a
# file of that name exists; a trace that is not there is named.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
tmp=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$B" run --scenario payment-callback --variant none --trace "$tmp/callback.idemlab.json" >/dev/null &&
    ok || bad "run --trace"

# The window, off screen, with settings of its own.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" QT_QPA_PLATFORM=offscreen
mkdir -p "$XDG_CONFIG_HOME"
conf="$XDG_CONFIG_HOME/Idempotency Lab/idemlab.conf"
"$B" "$tmp/callback.idemlab.json" >"$tmp/window.log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    grep -q "callback.idemlab.json" "$conf" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
grep -q "recentTraces=.*$tmp/callback.idemlab.json" "$conf" 2>/dev/null && ok ||
    bad "the window did not open the trace: $(cat "$conf" "$tmp/window.log" 2>&1)"
kill -0 "$pid" 2>/dev/null && ok || bad "the window is gone: $(cat "$tmp/window.log")"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=""

# A file named like a command: the command runs.
cd "$tmp" || exit 1
touch list
"$B" list >"$tmp/list.out" 2>&1 && grep -q order-create "$tmp/list.out" && ok ||
    bad "list beside a file named list: $(cat "$tmp/list.out")"

# A trace that is not there: one line naming it, bad input.
"$B" "$tmp/nowhere.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cannot open the trace \"$tmp/nowhere.json\": no such file" "$tmp/err" &&
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && ok ||
    bad "a missing trace: exit $rc, $(cat "$tmp/err")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
