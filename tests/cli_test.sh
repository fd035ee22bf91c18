#!/usr/bin/env bash
# The command line of SPEC section 4: exit codes, one clear line on stderr for
# each bad input, JSON output, --db and --trace.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_bad_input "what it must name" args...
expect_bad_input() {
    local want="$1"; shift
    "$B" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ]; then bad "$* exited $rc, not 2"; return; fi
    if [ "$lines" -ne 1 ]; then bad "$* printed $lines lines on stderr"; return; fi
    if ! grep -qF -- "$want" "$tmp/err"; then bad "$*: stderr lacks '$want': $(cat "$tmp/err")"; return; fi
    if [ -s "$tmp/out" ]; then bad "$* printed on stdout"; return; fi
    ok
}

# Bad input on the command line alone (an unknown id, a number out of range,
# a missing option) is checked by the golden cases in tests/cli/cases.txt,
# which compare the whole of stdout and stderr and the exit code; here only
# what they cannot: inputs that need a file or folder made first.
expect_bad_input 'is a directory' run --scenario order-create --db "$tmp"

# A run with --json prints exactly one JSON object with the SPEC's fields.
"$B" run --scenario order-create --variant dedup-no-recheck --timing retry --crash after-business --json >"$tmp/run.json"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "run exited $rc"
python3 - "$tmp/run.json" <<'PY' && ok || bad "run --json fields"
import json, sys
lines = open(sys.argv[1]).read().strip().splitlines()
assert len(lines) == 1, lines
d = json.loads(lines[0])
for k in ["scenario", "variant", "timing", "source", "crash", "crash_attempt", "duplicates", "seed",
          "attempts", "effects", "expected_effects", "responses", "alerts", "verdict", "integrity"]:
    assert k in d, k
assert d["verdict"] == "duplicated", d
assert d["effects"]["orders"] == 2, d
assert d["integrity"] == "ok"
assert set(d["responses"]) == {"success", "in-progress", "rejected", "error", "none"}
PY

# --expect: 0 when it matches, 3 when it differs.
"$B" run --scenario order-create --variant dedup-table --timing retry --crash after-business --expect exactly-once >/dev/null 2>&1
[ $? -eq 0 ] && ok || bad "--expect exactly-once should exit 0"
"$B" run --scenario order-create --variant none --expect exactly-once >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && ok || bad "--expect mismatch should exit 3"

# --db leaves a database that sqlite3 opens, with the rows as the run left them.
"$B" run --scenario order-create --variant dedup-no-recheck --timing retry --crash after-business --db "$tmp/run.sqlite" >/dev/null
tables=$(sqlite3 "$tmp/run.sqlite" '.tables')
echo "$tables" | grep -q dedup && echo "$tables" | grep -q orders && ok || bad "--db tables: $tables"
[ "$(sqlite3 "$tmp/run.sqlite" 'SELECT COUNT(*) FROM orders')" = "2" ] && ok || bad "--db orders"
[ "$(sqlite3 "$tmp/run.sqlite" 'SELECT status FROM dedup')" = "SUCCESS" ] && ok || bad "--db dedup"
# The file stands alone: no journal beside it, readable as any file the
# user creates (the umask decides, not the temporary file's 0600).
[ ! -e "$tmp/run.sqlite-wal" ] && [ ! -e "$tmp/run.sqlite-journal" ] && ok || bad "--db left a journal"
[ "$(sqlite3 "$tmp/run.sqlite" 'PRAGMA journal_mode')" = "delete" ] && ok || bad "--db journal mode"
[ "$(umask 022; "$B" run --scenario order-create --db "$tmp/mode.sqlite" >/dev/null; stat -c %a "$tmp/mode.sqlite")" = "644" ] \
    && ok || bad "--db file mode: $(stat -c %a "$tmp/mode.sqlite")"

# A file that is not an earlier run's database survives byte for byte, with
# or without --force: a user's own SQLite database and a text file.
sqlite3 "$tmp/thesis.sqlite" 'CREATE TABLE thesis(c); INSERT INTO thesis VALUES (42)'
printf 'chapter one\n' >"$tmp/notes.txt"
for own in "$tmp/thesis.sqlite" "$tmp/notes.txt"; do
    cp "$own" "$tmp/own.orig"
    for force in "" --force; do
        # shellcheck disable=SC2086
        expect_bad_input 'is not a database of an earlier run' run --scenario order-create --db "$own" $force
        cmp -s "$own" "$tmp/own.orig" && ok || bad "--db $own $force changed the file"
    done
done
[ -z "$(find "$tmp" -name '*.partial*')" ] && ok || bad "a refused --db left a work file"
# An earlier run's database is replaced only with --force.
expect_bad_input 'add --force to replace it' run --scenario order-create --db "$tmp/run.sqlite"
[ "$(sqlite3 "$tmp/run.sqlite" 'SELECT COUNT(*) FROM orders')" = "2" ] && ok || bad "--db replaced without --force"
"$B" run --scenario order-create --db "$tmp/run.sqlite" --force >/dev/null && ok || bad "--force"
[ "$(sqlite3 "$tmp/run.sqlite" 'SELECT COUNT(*) FROM orders')" = "1" ] && ok || bad "--force did not replace"

# --trace writes the JSON trace; the same run twice gives the same bytes.
"$B" run --scenario payment-callback --timing concurrent --duplicates 3 --seed 9 --trace "$tmp/a.json" >/dev/null
"$B" run --scenario payment-callback --timing concurrent --duplicates 3 --seed 9 --trace "$tmp/b.json" >/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json" && ok || bad "traces differ"
python3 - "$tmp/a.json" <<'PY' && ok || bad "trace format"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "idemlab-trace" and d["version"] == 7
assert d["config"]["scenario"] == "payment-callback"
kinds = {e["kind"] for e in d["events"]}
assert {"fire", "sql", "response", "transition", "effect"} <= kinds, kinds
for e in d["events"]:
    for k in ["seq", "t_ms", "attempt", "actor", "kind"]:
        assert k in e
    if e["kind"] == "sql":
        for k in ["connection", "sql", "params", "code", "error"]:
            assert k in e
        # one count, named for what it counts; none on BEGIN and COMMIT
        assert "rows" not in e and not ("rows_returned" in e and "rows_changed" in e), e
        if e["sql"].split()[0] in ("BEGIN", "COMMIT", "ROLLBACK"):
            assert "rows_returned" not in e and "rows_changed" not in e, e
PY
# An unwritable trace path is an error, not a half-written file.
"$B" run --scenario order-create --trace "$tmp/no/such/dir/t.json" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/no/such/dir/t.json" ] && ok || bad "unwritable trace path"

# list --json names both scenarios with variants, crash points, recommended flags.
"$B" list --json >"$tmp/list.json" && python3 - "$tmp/list.json" <<'PY' && ok || bad "list --json"
import json, sys
d = json.load(open(sys.argv[1]))
ids = [s["id"] for s in d["scenarios"]]
assert "order-create" in ids and "payment-callback" in ids, ids
for s in d["scenarios"]:
    want = 0 if s["group"] == "natural" else 1  # natural ops: nothing to recommend
    assert sum(v["recommended"] for v in s["variants"]) == want, s["id"]
    for v in s["variants"]:
        assert "crash_points" in v
oc = next(s for s in d["scenarios"] if s["id"] == "order-create")
assert next(v for v in oc["variants"] if v["id"] == "dedup-table")["recommended"]
PY
# list: every variant's summary starts in one column, apart from the longest name.
"$B" list >"$tmp/list.txt" && python3 - "$tmp/list.txt" <<'PY' && ok || bad "list: columns run together"
import re, sys
rows = [l for l in open(sys.argv[1]) if re.match(r"^  [ *] [a-z]", l) and not l.startswith("    sources:")]
assert len(rows) > 40, rows
assert all(re.match(r"^  [ *] \S+  +\S", l) for l in rows), [l for l in rows if not re.match(r"^  [ *] \S+  +\S", l)]
starts = {re.match(r"^  [ *] \S+ +", l).end() for l in rows}
assert len(starts) == 1, starts
PY

# Ten thousand intents of the recommended variant, judged one by one.
"$B" run --scenario order-create --intents 10000 --json >"$tmp/many.json"
python3 -c "import json,sys; d=json.load(open('$tmp/many.json')); assert d['verdicts']=={'exactly-once':10000}, d['verdicts']" && ok || bad "10000 intents"

# 误区四: a hundred concurrent duplicates of one payment raise exactly one alert
# that names the payment and the count; the charge still happens once.
"$B" run --scenario duplicate-alert --variant alerting --duplicates 100 --timing concurrent --json >"$tmp/alert.json"
python3 - "$tmp/alert.json" <<'PY' && ok || bad "duplicate-alert alert JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "exactly-once" and d["effects"]["charges"] == 1, d
assert len(d["alerts"]) == 1, d["alerts"]
a = d["alerts"][0]
assert a["key"] == "PAY90000001" and 5 < a["count"] <= 100, a
assert a["key"] in a["message"] and str(a["count"]) in a["message"], a
PY

# replay: identical for an untouched trace; a changed one differs; a damaged one is bad input.
"$B" run --scenario order-create --variant dedup-table --timing retry --crash after-guard --trace "$tmp/r.json" >/dev/null
"$B" replay "$tmp/r.json" >/dev/null && ok || bad "replay of an untouched trace"
sed 's/"rows_returned":1,/"rows_returned":7,/' "$tmp/r.json" > "$tmp/r2.json"
"$B" replay "$tmp/r2.json" >"$tmp/r2.out" 2>&1; [ $? -eq 1 ] && ok || bad "replay of a changed trace should exit 1"
grep -qx 'differs at event 1, rows_returned: stored 7, replay 1' "$tmp/r2.out" && ok || bad "replay names the changed count: $(cat "$tmp/r2.out")"
head -c 300 "$tmp/r.json" > "$tmp/cut.json"
expect_bad_input 'truncated' replay "$tmp/cut.json"
sed 's/"version":7/"version":9/' "$tmp/r.json" > "$tmp/new.json"
expect_bad_input 'newer than this program reads' replay "$tmp/new.json"

# export: csv, shiviz and html, each a whole file; bad format and unwritable path refused.
for f in csv shiviz html; do
    "$B" export "$tmp/r.json" --format $f --out "$tmp/r.$f" >/dev/null 2>&1 && [ -s "$tmp/r.$f" ] && ok || bad "export $f"
done
head -1 "$tmp/r.csv" | grep -q '^seq,t_ms,intent,attempt,actor,kind' && ok || bad "csv header"
# --excel: the same rows after a UTF-8 byte-order mark.
"$B" export "$tmp/r.json" --format csv --excel --out "$tmp/excel.csv" >/dev/null 2>&1 && ok || bad "export csv --excel"
[ "$(head -c 3 "$tmp/excel.csv" | od -An -tx1 | tr -d ' ')" = "efbbbf" ] && cmp -s <(tail -c +4 "$tmp/excel.csv") "$tmp/r.csv" && ok || bad "csv --excel is the csv after a BOM"
expect_bad_input '--excel applies to --format csv only' export "$tmp/r.json" --format html --excel --out "$tmp/x"
# ShiViz: its parser on the first line and an empty delimiter line (the upload
# reads them), one host per attempt, the database a host of its own.
[ "$(head -1 "$tmp/r.shiviz")" = '(?<event>.*)\n(?<host>\S*) (?<clock>{.*})' ] && ok || bad "shiviz parser line"
[ -z "$(sed -n 2p "$tmp/r.shiviz")" ] && ok || bad "shiviz empty delimiter line"
grep -q '^service#1 {' "$tmp/r.shiviz" && grep -q '^database {' "$tmp/r.shiviz" && ok || bad "shiviz hosts"
# Several traces: one execution each, under the delimiter, labels unique.
"$B" export "$tmp/r.json" "$tmp/r.json" --format shiviz --out "$tmp/two.shiviz" >/dev/null 2>&1 && ok || bad "export shiviz of two traces"
[ "$(sed -n 2p "$tmp/two.shiviz")" = '=== (?<trace>.*) ===' ] && ok || bad "shiviz delimiter line"
[ "$(grep -c '^=== r.json: order-create/dedup-table' "$tmp/two.shiviz")" -eq 2 ] && grep -q '^=== .* (2) ===$' "$tmp/two.shiviz" && ok || bad "shiviz execution labels"
expect_bad_input 'takes one trace' export "$tmp/r.json" "$tmp/r.json" --format csv --out "$tmp/x"
expect_bad_input 'unknown --lang "fr" (allowed: zh, en)' export "$tmp/r.json" --format html --lang fr --out "$tmp/x"
grep -q '<svg' "$tmp/r.html" && ok || bad "html diagrams"
# The report in Chinese, and made to print: headers repeated, rows and diagram
# parts kept whole, a long sequence diagram in parts that each name the lanes.
"$B" run --scenario order-create --intents 5 --trace "$tmp/five.json" >/dev/null
"$B" export "$tmp/five.json" --format html --lang zh --out "$tmp/five.html" >/dev/null 2>&1 && ok || bad "export html --lang zh"
grep -q "<html lang='zh-CN'>" "$tmp/five.html" && grep -q '<h2>配置</h2>' "$tmp/five.html" && grep -q '<h2>时序图</h2>' "$tmp/five.html" && ok || bad "html in Chinese"
grep -q '<html lang=.en.>' "$tmp/r.html" && grep -q '<h2>Configuration</h2>' "$tmp/r.html" && ok || bad "html in English by default"
grep -q '@media print' "$tmp/five.html" && grep -q 'thead{display:table-header-group}' "$tmp/five.html" && grep -q '<thead>' "$tmp/five.html" && ok || bad "html print rules"
[ "$(grep -o '<figure><svg' "$tmp/five.html" | wc -l)" -ge 4 ] && [ "$(grep -o 'viewBox=' "$tmp/five.html" | wc -l)" -ge 4 ] && ok || bad "the sequence diagram in parts"
expect_bad_input 'unknown --format "pdf"' export "$tmp/r.json" --format pdf --out "$tmp/x"
"$B" export "$tmp/r.json" --format csv --out "$tmp/none/x.csv" >/dev/null 2>&1
[ $? -eq 1 ] && [ ! -e "$tmp/none/x.csv" ] && ok || bad "export to an unwritable path"

# Numbers are validated, not coerced: each bad form refused with the typed
# value quoted (the golden cases hold --duplicates' forms, --intents' and
# --seed's beyond 32 bits; here every other numeric option).
expect_bad_input '--duplicates abc is not a whole number' run --scenario order-create --duplicates abc
for opt in duplicates crash-attempt interval-ms max-retries intents seed expiry-ms retention-ms \
           ttl-ms lease-ms visibility-ms; do
    expect_bad_input "--$opt 1.5 is not a whole number" run --scenario order-create --$opt 1.5
    expect_bad_input "--$opt 18446744073709551617 is out of range" \
        run --scenario order-create --$opt 18446744073709551617
done
expect_bad_input '--param rows=abc is not a whole number (allowed: 1 to 10000)' \
    run --scenario pagination --param rows=abc
expect_bad_input '--param rows=99999999999999999999 is out of range' \
    run --scenario pagination --param rows=99999999999999999999
expect_bad_input '--step abc is not a whole number' shot --scenario order-create --step abc --out "$tmp/s.png"
expect_bad_input '--size 1600x1000x is not WxH' shot --scenario order-create --size 1600x1000x --out "$tmp/s.png"

# A trace's config is checked the same way before anything runs.
python3 - "$tmp/r.json" "$tmp/bign.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text.replace('"intents":1,', '"intents":4294967297,', 1))
PY
expect_bad_input 'config field "intents" is 4294967297, out of range (allowed: 1 to 100000)' replay "$tmp/bign.json"
python3 - "$tmp/r.json" "$tmp/halfdup.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["duplicates"] = 1.5
json.dump(d, open(sys.argv[2], "w"))
PY
expect_bad_input 'config field "duplicates" is 1.5, not a whole number' replay "$tmp/halfdup.json"

# Bounded runs: a cost estimate above the limit is refused unless
# --allow-large (`run`'s refusals are golden cases: cost-limit, cost-limit-large).
expect_bad_input 'add --allow-large' shot --scenario order-create --intents 1000 --duplicates 1000 --out "$tmp/s.png"
python3 - "$tmp/r.json" "$tmp/large.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"].update(intents=1000, duplicates=1000)
json.dump(d, open(sys.argv[2], "w"))
PY
expect_bad_input 'add --allow-large' replay "$tmp/large.json"

# --allow-large lifts the limit: the next check refuses (an unknown verdict), nothing runs.
expect_bad_input 'unknown verdict "fine"' \
    run --scenario order-create --intents 1000 --duplicates 1000 --allow-large --expect fine

# With --allow-large the estimate no longer stops it: the next check does
# (an output folder that does not exist), before anything runs.
"$B" run --scenario order-create --intents 1000 --duplicates 1000 --allow-large \
    --trace "$tmp/none/t.json" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'the folder .* does not exist' "$tmp/err" && ! grep -q 'too large' "$tmp/err" \
    && ok || bad "--allow-large: exit $rc, $(cat "$tmp/err")"

# Output paths: never an input, never twice the same file, never through a
# link (an empty --db or --trace is a golden case: db-empty, trace-empty).
cp "$tmp/r.json" "$tmp/r.orig"
for out in "$tmp/r.json" "$tmp/./r.json" "$tmp/none/../r.json"; do
    expect_bad_input 'is the input' export "$tmp/r.json" --format csv --out "$out"
done
(cd "$tmp" && "$B" export r.json --format csv --out ./r.json >/dev/null 2>&1); [ $? -eq 2 ] && ok || bad "export --out ./r.json"
ln -s r.json "$tmp/r-link.json"
expect_bad_input 'is the input' export "$tmp/r.json" --format csv --out "$tmp/r-link.json"
expect_bad_input 'is the input' export "$tmp/r-link.json" --format csv --out "$tmp/r.json"
cmp -s "$tmp/r.json" "$tmp/r.orig" && ok || bad "the input of export changed"
echo "keep me" >"$tmp/victim.txt"
ln -s victim.txt "$tmp/link.csv"
expect_bad_input 'is a symbolic link' export "$tmp/r.json" --format csv --out "$tmp/link.csv"
expect_bad_input 'is a symbolic link' run --scenario order-create --trace "$tmp/link.csv"
[ "$(cat "$tmp/victim.txt")" = "keep me" ] && [ -L "$tmp/link.csv" ] && ok || bad "symlink target changed"
ln -s "$tmp/nowhere.csv" "$tmp/dangling.csv"
expect_bad_input 'is a symbolic link' export "$tmp/r.json" --format csv --out "$tmp/dangling.csv"
[ ! -e "$tmp/nowhere.csv" ] && ok || bad "a dangling link's target was created"
mkfifo "$tmp/fifo"
expect_bad_input 'is not a regular file' export "$tmp/r.json" --format csv --out "$tmp/fifo"
expect_bad_input 'is a directory' run --scenario order-create --trace "$tmp"
expect_bad_input '--db X and --trace X are the same file' run --scenario order-create --db X --trace X
expect_bad_input 'are the same file' run --scenario order-create --db "$tmp/same" --trace "$tmp/./same"
[ ! -e X ] && [ ! -e "$tmp/same" ] && ok || bad "--db X --trace X created a file"
# An unwritable --trace is found before the run: the run's --db never appears.
"$B" run --scenario order-create --db "$tmp/early.sqlite" --trace "$tmp/no/dir/t.json" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/early.sqlite" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
    && ok || bad "unwritable --trace: exit $rc, $(cat "$tmp/err")"
"$B" export "$tmp/r.json" --format csv --out "$tmp/no/dir/x.csv" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -qF "$tmp/no/dir" "$tmp/err" && ok || bad "unwritable --out: $(cat "$tmp/err")"

# A read-only folder and a full disk: exit 1 with the system's words, the old file intact.
mkdir -p "$tmp/ro" "$tmp/full"
if mount -t tmpfs -o ro,size=16k tmpfs "$tmp/ro" 2>/dev/null; then
    "$B" run --scenario order-create --trace "$tmp/ro/t.json" >/dev/null 2>"$tmp/err"
    [ $? -eq 1 ] && grep -q 'Read-only file system' "$tmp/err" && ok || bad "read-only --trace: $(cat "$tmp/err")"
    "$B" run --scenario order-create --db "$tmp/ro/t.sqlite" >/dev/null 2>"$tmp/err"
    [ $? -eq 1 ] && grep -q 'Read-only file system' "$tmp/err" && ok || bad "read-only --db: $(cat "$tmp/err")"
    umount "$tmp/ro"
else
    echo "SKIP: cannot mount a read-only tmpfs here (needs root)"
fi
if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
    # An earlier output of the lab's, replaced with --force: a small one first.
    "$B" export "$tmp/r.json" --format csv --out "$tmp/full/r.html" >/dev/null 2>&1
    cp "$tmp/full/r.html" "$tmp/r.previous"
    "$B" export "$tmp/r.json" --format html --out "$tmp/full/r.html" --force >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'No space left on device' "$tmp/err" && grep -qF "$tmp/full/r.html" "$tmp/err" \
        && ok || bad "full disk: exit $rc, $(cat "$tmp/err")"
    cmp -s "$tmp/full/r.html" "$tmp/r.previous" && [ "$(ls -A "$tmp/full" | wc -l)" -eq 1 ] \
        && ok || bad "full disk: the previous file changed or a temporary file stayed"
    "$B" run --scenario order-create --trace "$tmp/full/t.json" >/dev/null 2>&1
    cp "$tmp/full/t.json" "$tmp/t.previous"
    "$B" run --scenario order-create --intents 200 --trace "$tmp/full/t.json" --force >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'No space left on device' "$tmp/err" && ok || bad "full disk --trace: exit $rc, $(cat "$tmp/err")"
    cmp -s "$tmp/full/t.json" "$tmp/t.previous" && [ "$(ls -A "$tmp/full" | wc -l)" -eq 2 ] \
        && ok || bad "full disk --trace: the previous trace changed or a temporary file stayed"
    umount "$tmp/full"
fi
# A disk that fills during the run stops it with the disk's words; the
# failures are not judged as the scenario's (exit 1, not a verdict).
if mount -t tmpfs -o size=400k tmpfs "$tmp/full" 2>/dev/null; then
    TMPDIR="$tmp/full" "$B" run --scenario order-create --intents 5000 --expect exactly-once >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'disk is full' "$tmp/err" && [ ! -s "$tmp/out" ] \
        && ok || bad "disk full during a run: exit $rc, $(cat "$tmp/err")"
    [ -z "$(ls -A "$tmp/full")" ] && ok || bad "disk full during a run left $(ls -A "$tmp/full")"
    umount "$tmp/full"
else
    echo "SKIP: cannot mount a small tmpfs here (needs root); full disk untested"
fi

# CSV for spreadsheets: a formula in a text field comes out neutralised.
python3 - "$tmp/r.json" "$tmp/formula.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["events"][0]["actor"] = '=HYPERLINK("http://x")'
json.dump(d, open(sys.argv[2], "w"))
PY
"$B" export "$tmp/formula.json" --format csv --out "$tmp/formula.csv" >/dev/null 2>&1
grep -qF ",\"'=HYPERLINK(\"\"http://x\"\")\"," "$tmp/formula.csv" && ! grep -q ',=HYPERLINK' "$tmp/formula.csv" \
    && ok || bad "csv formula: $(sed -n 2p "$tmp/formula.csv")"

# --help documents the limit, the way past it and every exit code.
"$B" --help >"$tmp/help" && grep -q -- '--allow-large' "$tmp/help" && grep -q '20,000,000' "$tmp/help" \
    && grep -q '1 an I/O or internal failure' "$tmp/help" && grep -q '3 the verdict differs' "$tmp/help" \
    && ok || bad "--help lacks the cost limit or the exit codes"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
