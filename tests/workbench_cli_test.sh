#!/usr/bin/env bash
# `idemlab challenge` and `idemlab check` as a student and a grader use them:
# the starter fails (exit 1) with a counterexample whose trace replays, the
# reference passes (exit 0), bad input is one line and exit 2.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
export QT_QPA_PLATFORM=offscreen

"$B" challenge list | grep -q '^double-click' && ok || bad "challenge list lacks double-click"
"$B" challenge show double-click --lang zh | grep -q '双击' && ok || bad "challenge show --lang zh"
"$B" challenge show nope >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] && ok || bad "unknown challenge: not exit 2"
grep -q 'unknown challenge "nope" (allowed: .*double-click' "$tmp/err" && ok || bad "unknown challenge: $(cat "$tmp/err")"

"$B" challenge start double-click --out "$tmp/h.js" && [ -s "$tmp/h.js" ] && ok || bad "challenge start --out"
"$B" challenge start double-click --out "$tmp/h.js" 2>/dev/null; [ $? -eq 2 ] && ok || bad "start over an existing file: not exit 2"

mkdir "$tmp/traces"
"$B" check "$tmp/h.js" --trace-dir "$tmp/traces" >"$tmp/out"; code=$?
[ $code -eq 1 ] && ok || bad "the starter: exit $code, not 1: $(cat "$tmp/out")"
grep -q 'duplicated' "$tmp/out" && ok || bad "the starter's verdict: $(cat "$tmp/out")"
grep -q 'counterexample: attempts 2,' "$tmp/out" && ok || bad "not a two-attempt counterexample: $(cat "$tmp/out")"
trace="$tmp/traces/double-click-sqlite.trace.json"
[ -s "$trace" ] && ok || bad "no trace in --trace-dir"
"$B" replay "$trace" >"$tmp/replay" 2>&1 && ok || bad "the counterexample does not replay: $(cat "$tmp/replay")"

"$B" check "$tmp/h.js" --json >"$tmp/json"
python3 - "$tmp/json" <<'PY' && ok || bad "check --json"
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[0])
assert o["outcome"] == "failed" and o["verdict"] == "duplicated", o
assert o["schedules_run"] > 0 and o["counterexample"]["attempts"] == 2, o
PY

"$B" challenge show double-click >/dev/null
cat >"$tmp/ref.js" <<'JS'
// challenge: double-click
const schema = "CREATE UNIQUE INDEX uk_orders_request_id ON orders (request_id)";
function* handle(request, db) {
    const r = yield db.exec(
        "INSERT INTO orders (request_id, user_id, amount, created_at) VALUES (?, ?, ?, ?)",
        request.key, request.user_id, request.amount, now());
    if (r.error === "unique-violation") {
        const found = yield db.query("SELECT id FROM orders WHERE request_id = ?", request.key);
        return { status: "duplicate", order: found[0].id };
    }
    return { status: "created", order: r.insertId };
}
JS
"$B" check "$tmp/ref.js" >"$tmp/out"; code=$?
[ $code -eq 0 ] && ok || bad "the reference: exit $code: $(cat "$tmp/out")"
grep -q 'passed' "$tmp/out" && ok || bad "the reference: $(cat "$tmp/out")"

printf 'function* handle(request, db) {\n  let x = ;\n}\n' >"$tmp/bad.js"
"$B" check "$tmp/bad.js" >/dev/null 2>"$tmp/err"; code=$?
[ $code -eq 2 ] && ok || bad "syntax error: exit $code, not 2"
grep -q '^idemlab: bad.js:2:11: SyntaxError' "$tmp/err" && ok || bad "syntax error line: $(cat "$tmp/err")"
"$B" check "$tmp/ref.js" --challenge nope >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "unknown --challenge: not exit 2"

printf 'function* handle(request, db) {\n  while (true) {}\n}\n' >"$tmp/loop.js"
start=$(date +%s)
"$B" check "$tmp/loop.js" >/dev/null 2>"$tmp/err"; code=$?
[ $code -eq 2 ] && ok || bad "runaway: exit $code, not 2"
grep -q 'loop.js:1: .*100 ms' "$tmp/err" && ok || bad "runaway line: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -lt 30 ] && ok || bad "runaway: not stopped within seconds"

# Memory a handler keeps across its steps: stopped past 256 MiB, with its line.
cat >"$tmp/hoard.js" <<'JS'
// challenge: double-click
const kept = [];
function* handle(request, db) {
    for (let i = 0; i < 900; i++) {
        kept.push(new Array(256 * 1024).fill(i));
        yield db.query("SELECT 1");
    }
    return { status: "error" };
}
JS
"$B" check "$tmp/hoard.js" >/dev/null 2>"$tmp/err"; code=$?
[ $code -eq 2 ] && ok || bad "hoarding handler: exit $code, not 2: $(cat "$tmp/err")"
grep -q 'hoard.js:6: .*over 256 MiB of memory' "$tmp/err" && ok || bad "hoarding line: $(cat "$tmp/err")"

# Plausible wrong fixes (tests/workbench/CHALLENGE.NAME.js), each caught on
# SQLite with what it got wrong; on the servers in workbench_servers_test.
wrong() {
    local name=$1 words=$2
    local file="$(dirname "${BASH_SOURCE[0]}")/workbench/$name.js"
    "$B" check "$file" --challenge "${name%%.*}" >"$tmp/out" 2>&1; local code=$?
    [ $code -eq 1 ] && ok || bad "$name: exit $code, not 1: $(cat "$tmp/out")"
    grep -q "$words" "$tmp/out" && ok || bad "$name: not \"$words\": $(cat "$tmp/out")"
}
wrong lost-answer.response-table 'duplicated'
wrong key-reused.update-amount 'a request with other parameters under the same key'
wrong statement-budget.check-first 'sent 3 statements; the budget is 2 per request'
wrong still-running.take-over 'duplicated'
wrong days-later.per-day-key 'schedule as they arrive (gateway-retry, cross-day)'
wrong crash-before-ack.message-id 'schedule as they arrive (producer-resend'
wrong late-callback.read-then-pay 'duplicated'
wrong lease-fencing.check-owner 'pauses past its lease'
# Where a transaction hides the race: SQLite's single writer; the servers' in
# workbench_servers_test.
"$B" check "$(dirname "${BASH_SOURCE[0]}")/workbench/stock-deduct.check-status-in-tx.js" \
    --challenge stock-deduct --preemptions 1 >/dev/null 2>&1 && ok ||
    bad "check-status-in-tx fails on SQLite"
"$B" check "$(dirname "${BASH_SOURCE[0]}")/workbench/double-click.check-in-tx.js" \
    --challenge double-click >/dev/null 2>&1 && ok || bad "check-in-tx fails on SQLite"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
