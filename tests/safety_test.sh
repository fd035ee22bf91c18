#!/usr/bin/env bash
# A student's file can never take the teacher's machine: every way a run
# starts is held to one cost limit before anything runs, a run that cannot
# start says so with the path and the system's words, and no command writes
# over a file the lab did not write or over one of its inputs.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp=$(mktemp -d)
mounted=""
trap '[ -n "$mounted" ] && umount "$mounted"; rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE "what stderr names" args...: the exit code, one line on stderr
# naming the value, nothing on stdout, under 1 GB of address space and 20 s
# of CPU (a refused run must not have started: one that did would take
# gigabytes and minutes; neither bound is a pace, so a busy machine passes).
# AddressSanitizer reserves terabytes of address space: under it the memory
# limit is left out.
limit=1048576
if [ -n "${ASAN_OPTIONS:-}" ]; then limit=unlimited; fi
expect() {
    local code="$1" want="$2"; shift 2
    local rc
    (ulimit -v "$limit" -t 20; exec "$B" "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$code" ]; then bad "$* exited $rc, not $code: $(cat "$tmp/err")"; return; fi
    if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "$*: stderr is not one line: $(cat "$tmp/err")"; return; fi
    if ! grep -qF -- "$want" "$tmp/err"; then bad "$*: stderr lacks '$want': $(cat "$tmp/err")"; return; fi
    if [ -s "$tmp/out" ]; then bad "$* printed on stdout: $(head -c 200 "$tmp/out")"; return; fi
    ok
}

# --- One cost rule for every way a run starts --------------------------------
# A lesson of a few hundred bytes whose frame loads 100,000 intents x 1,000
# duplicates, and a small trace whose configuration says the same.
big_lesson="$here/safety/over-limit-lesson.json"
"$B" run --scenario order-create --trace "$tmp/small.json" >/dev/null
python3 - "$tmp/small.json" "$tmp/big.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"].update(intents=100000, duplicates=1000)
json.dump(d, open(sys.argv[2], "w"))
PY
estimate='about 3,203,200,000 SQL statements estimated (100,000 intents x 1,001 deliveries x 4 tries x 8 statements), above the limit of 20,000,000'
expect 2 "frame 2 (Everyone at once), load: $estimate" lesson check "$big_lesson"
expect 2 "frame 2 (Everyone at once)" lesson check --json "$big_lesson"
expect 2 "frame 2 (Everyone at once)" lesson export "$big_lesson" --format html --out "$tmp/h.html"
expect 2 "frame 2 (Everyone at once)" shot --lesson "$big_lesson" --out "$tmp/s.png"
expect 2 "its config (intents 100000, duplicates 1000, max_retries 3) is too large to run again: $estimate" \
    export "$tmp/big.json" --format csv --out "$tmp/x.csv"
expect 2 "$estimate" replay "$tmp/big.json"
expect 2 'this experiment is too large: about 128,000,000 SQL statements' \
    experiment --scenario order-create --intents 100000 --json
# Pagination's parameters are part of the estimate: a reader of 10,000 rows
# one at a time under 100 inserts a page runs two million statements.
expect 2 '2,080,105 statements), above the limit of 20,000,000; lower --intents, --duplicates, --max-retries or the --param values' \
    run --scenario pagination --intents 10 --param rows=10000 --param page-size=1 --param inserts-per-page=100
[ ! -e "$tmp/h.html" ] && [ ! -e "$tmp/s.png" ] && [ ! -e "$tmp/x.csv" ] && ok || bad "a refused command wrote its output"
# --allow-large lifts the limit: the next check speaks (no such output folder).
expect 1 'does not exist' lesson export "$big_lesson" --allow-large --format html --out "$tmp/none/h.html"

# --- What a run keeps in memory is part of its cost ---------------------------
# 100,000 intents with 5 duplicates is within the statements' limit, and a
# plain run of it stays small; kept step by step (captions, a lesson's
# frame) it would take gigabytes. A lesson's frames count added up: 40
# frames of 10,000 intents (each within the limit), or one such run that
# 39 frames go on with (each frame's check runs it again).
kept='about 19,200,000 SQL statements estimated (100,000 intents x 6 deliveries x 4 tries x 8 statements), whose events kept in memory would take about 3,515 MB, above the limit of 512 MB'
kept_lesson="$here/safety/kept-events-lesson.json"
expect 2 "frame 1 (A hundred thousand intents), load: $kept" lesson check "$kept_lesson"
expect 2 "frame 1 (A hundred thousand intents), load: $kept" lesson export "$kept_lesson" --format html --lang zh --out "$tmp/h.html"
expect 2 "frame 1 (A hundred thousand intents), load: $kept" shot --lesson "$kept_lesson" --out "$tmp/s.png"
expect 2 "this run is too large: $kept" run --scenario order-create --intents 100000 --duplicates 5 --narrate
together='the lesson'"'"'s runs up to this frame come to about 3,840,000 SQL statements estimated, whose events kept in memory would take about 703 MB, above the limit of 512 MB for a lesson'"'"'s runs together'
expect 2 "frame 2 (Round 2): $together" lesson check "$here/safety/many-frames-lesson.json"
expect 2 "frame 2 (Round 2): $together" lesson export "$here/safety/many-frames-lesson.json" --format html --out "$tmp/h.html"
expect 2 "frame 2 (Look again 1): $together" lesson check "$here/safety/same-run-lesson.json"
expect 2 "frame 2 (Look again 1): $together" shot --lesson "$here/safety/same-run-lesson.json" --frame 3 --out "$tmp/s.png"
[ ! -e "$tmp/h.html" ] && [ ! -e "$tmp/s.png" ] && ok || bad "a refused command wrote its output"
# A frame that only shows its settings ("fire": false) runs nothing in the
# check, but the window loads its run to show its start: it counts too.
unfired="$here/safety/unfired-lesson.json"
expect 2 "frame 1 (The settings), load: $kept" shot --lesson "$unfired" --frame 1 --out "$tmp/s.png"
expect 2 "frame 1 (The settings), load: $kept" lesson check "$unfired"

# --- A run that cannot start: exit 1, the folder and the system's words ------
touch "$tmp/a-file"
for dir in /nonexistent "$tmp/a-file"; do
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" experiment --scenario order-create --intents 20 --json
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" run --scenario order-create
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" lesson check unique-key
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" lesson export unique-key --format html --out "$tmp/h.html"
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" shot --scenario order-create --out "$tmp/s.png"
    TMPDIR="$dir" expect 1 "cannot create a temporary folder in $dir" shot --lesson unique-key --frame 2 --out "$tmp/s.png"
done 2>/dev/null
# A full temporary folder: the database file's path and SQLite's words.
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
    dd if=/dev/zero of="$tmp/full/fill" bs=4k count=100 2>/dev/null
    TMPDIR="$tmp/full" expect 1 "$tmp/full/idemlab-run-" experiment --scenario order-create --intents 20 --json
    TMPDIR="$tmp/full" expect 1 'could not be written: database or disk is full' lesson check unique-key
    TMPDIR="$tmp/full" expect 1 'could not be written: database or disk is full' shot --scenario order-create --out "$tmp/s.png"
    TMPDIR="$tmp/full" expect 1 'could not be written: database or disk is full' shot --lesson unique-key --frame 2 --out "$tmp/s.png"
    rm -f "$tmp/full/fill"
    [ -z "$(ls -A "$tmp/full" | grep -v '^idemlab-runtime-')" ] && ok || bad "a failed run left $(ls -A "$tmp/full")"
    umount "$tmp/full"
else
    echo "SKIP: cannot mount a small tmpfs here (needs root); a full temporary folder is untested"
fi

# --- No file replaced that the lab did not write; an input is never an output
# expect_kept CODE "what stderr names" FILE args...: as expect, and FILE is
# byte for byte what it was.
expect_kept() {
    local code="$1" want="$2" file="$3"; shift 3
    cp -p "$file" "$tmp/before"
    expect "$code" "$want" "$@"
    cmp -s "$file" "$tmp/before" && ok || bad "$*: $file changed"
}
lesson="$tmp/my.json"
cp "$here/../resources/lessons/$(ls "$here/../resources/lessons" | head -1)" "$lesson"
sqlite3 "$tmp/user.db" 'CREATE TABLE thesis(c); INSERT INTO thesis VALUES (42)'
printf 'chapter one\n' >"$tmp/notes.txt"
printf '\x89PNG\r\n\x1a\n a holiday picture' >"$tmp/photo.png"
not_ours='already exists and was not written by idemlab; it is left as it is'
for force in "" --force; do
    expect_kept 2 "is the input" "$lesson" shot --lesson "$lesson" --out "$lesson" $force
    expect_kept 2 "$not_ours" "$tmp/user.db" run --scenario order-create --trace "$tmp/user.db" $force
    expect_kept 2 "$not_ours" "$tmp/notes.txt" export "$tmp/small.json" --format csv --out "$tmp/notes.txt" $force
    expect_kept 2 "$not_ours" "$tmp/notes.txt" lesson export unique-key --format html --out "$tmp/notes.txt" $force
    expect_kept 2 "$not_ours" "$tmp/photo.png" shot --scenario order-create --out "$tmp/photo.png" $force
    expect_kept 2 "$not_ours" "$tmp/notes.txt" lesson export "$lesson" --format html --out "$tmp/notes.txt" $force
done
# The same file under another name: a hard link, "..", a link to the folder.
ln "$tmp/small.json" "$tmp/hard.json"
mkdir -p "$tmp/sub"
ln -s "$tmp" "$tmp/sub/up"
for out in "$tmp/hard.json" "$tmp/sub/../small.json" "$tmp/sub/up/small.json"; do
    expect_kept 2 "is the input" "$tmp/small.json" export "$tmp/small.json" --format csv --out "$out" --force
done
ln "$lesson" "$tmp/lesson-link.json"
expect_kept 2 "is the input" "$lesson" lesson export "$lesson" --format html --out "$tmp/lesson-link.json" --force
expect_kept 2 "is the input" "$lesson" shot --lesson "$lesson" --out "$tmp/lesson-link.json" --force
# An earlier output of the lab's: replaced only with --force, whatever it was.
earlier='holds an earlier output of idemlab; add --force to replace it'
"$B" export "$tmp/small.json" --format csv --out "$tmp/out.csv" 2>/dev/null
"$B" shot --scenario order-create --out "$tmp/out.png" 2>/dev/null
"$B" lesson export unique-key --format html --out "$tmp/out.html" 2>/dev/null
cp "$tmp/small.json" "$tmp/r.json"
for f in out.csv out.png out.html small.json; do
    expect_kept 2 "$earlier" "$tmp/$f" export "$tmp/r.json" --format mermaid --out "$tmp/$f"
    expect_kept 2 "$earlier" "$tmp/$f" shot --scenario order-create --out "$tmp/$f"
    expect_kept 2 "$earlier" "$tmp/$f" lesson export unique-key --format html --out "$tmp/$f"
    expect_kept 2 "$earlier" "$tmp/$f" run --scenario order-create --trace "$tmp/$f"
done
for fmt in csv shiviz html mermaid plantuml history chrome; do
    "$B" export "$tmp/r.json" --format $fmt --out "$tmp/each.$fmt" 2>/dev/null
    expect_kept 2 "$earlier" "$tmp/each.$fmt" export "$tmp/r.json" --format csv --out "$tmp/each.$fmt"
    "$B" export "$tmp/r.json" --format csv --out "$tmp/each.$fmt" --force 2>/dev/null && ok || bad "--force over an earlier $fmt export"
    head -1 "$tmp/each.$fmt" | grep -q '^seq,t_ms' && ok || bad "--force did not replace the earlier $fmt export"
done
"$B" run --scenario order-create --trace "$tmp/out.png" --force >/dev/null && head -c 25 "$tmp/out.png" | grep -q idemlab-trace \
    && ok || bad "run --trace --force over an earlier picture"

# --- Every output whole or not at all, on a full disk --------------------------
# A 64 KiB disk filled to its last 4 KiB: every output that does not fit ends
# with exit 1, the system's words and its path, under 16 KiB (what Qt's file
# buffers) as over; the path keeps what it had (nothing, or with --force an
# earlier output of the lab's), and no work file stays beside it.
disk="$tmp/disk"
mkdir -p "$disk"
if mount -t tmpfs -o size=64k tmpfs "$disk" 2>/dev/null; then
    mounted="$disk"
    for n in 1 3 8 16; do "$B" run --scenario order-create --intents $n --trace "$tmp/t$n.json" >/dev/null; done
    "$B" export "$tmp/t1.json" --format mermaid --out "$tmp/earlier.mmd" 2>/dev/null
    # intents KIND SIZE: how many intents make a small (4 to 16 KiB) or a
    # large (over 16 KiB) output of that kind; a report is never small.
    intents() {
        case "$1 $2" in
            "mermaid small" | "plantuml small" | "history small") echo 8 ;;
            "mermaid large" | "plantuml large" | "history large") echo 16 ;;
            *" small") echo 1 ;;
            *) echo 3 ;;
        esac
    }
    # write KIND SIZE PATH [--force]: one output of that kind and size.
    write() {
        local kind="$1" n
        n=$(intents "$1" "$2")
        local path="$3"
        shift 3
        case "$kind" in
            trace) "$B" run --scenario order-create --intents "$n" --trace "$path" "$@" >/dev/null ;;
            png) "$B" shot --scenario order-create --view tables \
                     --size "$([ "$n" = 1 ] && echo 320x240 || echo 1600x1200)" --out "$path" "$@" ;;
            *) "$B" export "$tmp/t$n.json" --format "$kind" --out "$path" "$@" ;;
        esac
    }
    for kind in csv shiviz chrome html mermaid plantuml history trace png; do
        for size in small large; do
            [ "$kind $size" = "html small" ] && continue
            for force in "" --force; do
                find "$disk" -mindepth 1 -delete
                # With --force, the earlier output is the same one written
                # whole while the disk had room (a report never fits: an
                # earlier diagram then); either way its size is measured.
                if [ -n "$force" ]; then
                    if write "$kind" "$size" "$disk/out" 2>/dev/null; then
                        bytes=$(stat -c %s "$disk/out")
                    else
                        rm -f "$disk/out"
                        write "$kind" "$size" "$tmp/whole" 2>/dev/null
                        bytes=$(stat -c %s "$tmp/whole")
                        rm -f "$tmp/whole"
                        cp "$tmp/earlier.mmd" "$disk/out"
                    fi
                    cp "$disk/out" "$tmp/earlier"
                    if [ "$size" = small ] && { [ "$bytes" -le 4096 ] || [ "$bytes" -ge 16384 ]; }; then
                        bad "the small $kind output is $bytes bytes, not between 4 and 16 KiB"
                    elif [ "$size" = large ] && [ "$bytes" -le 16384 ]; then
                        bad "the large $kind output is $bytes bytes, not over 16 KiB"
                    fi
                fi
                what="$kind, $size${force:+ ($bytes bytes), over an earlier output with --force}"
                dd if=/dev/zero of="$disk/fill" bs=4k 2>/dev/null
                truncate -s -4096 "$disk/fill"
                write "$kind" "$size" "$disk/out" $force 2>"$tmp/err"
                rc=$?
                if [ $rc -ne 1 ] || ! grep -q 'No space left on device' "$tmp/err" || ! grep -qF "$disk/out" "$tmp/err"; then
                    bad "full disk, $what: exit $rc, $(cat "$tmp/err")"
                elif [ -n "$force" ] && ! cmp -s "$disk/out" "$tmp/earlier"; then
                    bad "full disk, $what: the earlier output changed ($(stat -c %s "$disk/out") bytes)"
                elif [ -z "$force" ] && [ -e "$disk/out" ]; then
                    bad "full disk, $what: a file of $(stat -c %s "$disk/out") bytes was left"
                elif [ "$(ls -A "$disk" | grep -vcx -e fill -e out)" -ne 0 ]; then
                    bad "full disk, $what: left $(ls -A "$disk")"
                else
                    ok
                fi
            done
        done
    done
    umount "$disk" && mounted=""
else
    echo "SKIP: cannot mount a small tmpfs here (needs root); a full disk is untested"
fi

# --- Nothing lands on a file that appeared while the tool worked -----------------
# A file put at the output path during the run stays, and the command says so
# on one line (exit 2), with or without --force. started PID FILE: once the
# command holds its work file for FILE open (unnamed, or hidden beside it).
started() {
    local dir i
    dir=$(dirname "$2")
    for i in $(seq 500); do
        ls -l "/proc/$1/fd" 2>/dev/null | grep -qF -- "-> $dir/#" && return
        compgen -G "$dir/.$(basename "$2").*" >/dev/null && return
        sleep 0.02
    done
}
"$B" run --scenario order-create --intents 500 --trace "$tmp/long.json" >/dev/null
# during PATH WORDS command...: the command in the background, "mine" written
# to PATH once it has started, while it is stopped.
during() {
    local path="$1" words="$2"; shift 2
    "$B" "$@" >/dev/null 2>"$tmp/err" &
    local pid=$!
    started $pid "$path"
    kill -STOP $pid  # however fast the machine, the file comes mid-run
    echo mine >"$path"
    kill -CONT $pid
    wait $pid
    local rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF "$path $words" "$tmp/err"; then
        bad "$* with $path written meanwhile: exit $rc, $(cat "$tmp/err")"
    elif [ "$(cat "$path")" != mine ] || compgen -G "$(dirname "$path")/.$(basename "$path").*" >/dev/null; then
        bad "$* replaced $path written meanwhile, or left its work file"
    else
        ok
    fi
}
created='was created by someone else while idemlab worked; it is left as it is'
changed='was replaced or changed by someone else while idemlab worked; it is left as it is'
during "$tmp/mid.json" "$created" run --scenario order-create --intents 500 --trace "$tmp/mid.json"
during "$tmp/mid.csv" "$created" export "$tmp/long.json" --format csv --out "$tmp/mid.csv"
"$B" export "$tmp/small.json" --format csv --out "$tmp/mid-earlier.csv" 2>/dev/null
during "$tmp/mid-earlier.csv" "$changed" export "$tmp/long.json" --format csv --out "$tmp/mid-earlier.csv" --force

# --- The lab deletes only what it made ---------------------------------------
# Files beside a run database that are not its journal stay when --force
# replaces it; its own WAL and index go with it.
"$B" run --scenario order-create --db "$tmp/r.sqlite" >/dev/null
printf 'my write-ahead notes\n' >"$tmp/r.sqlite-wal"
printf 'my shared notes\n' >"$tmp/r.sqlite-shm"
"$B" run --scenario order-create --db "$tmp/r.sqlite" --force >/dev/null 2>"$tmp/err" \
    && [ "$(cat "$tmp/r.sqlite-wal")" = 'my write-ahead notes' ] && [ "$(cat "$tmp/r.sqlite-shm")" = 'my shared notes' ] \
    && ok || bad "run --db --force removed files beside the database that were not its own: $(cat "$tmp/err")"
rm -f "$tmp/r.sqlite-wal" "$tmp/r.sqlite-shm"
python3 - "$tmp/r.sqlite" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA journal_mode=WAL")
c.execute("CREATE TABLE remark(t)")
c.commit()
os._exit(0)  # the WAL and its index stay, as after a crash
PY
[ -s "$tmp/r.sqlite-wal" ] && [ -e "$tmp/r.sqlite-shm" ] || bad "could not leave a WAL beside r.sqlite"
"$B" run --scenario order-create --db "$tmp/r.sqlite" --force >/dev/null 2>"$tmp/err" \
    && [ ! -e "$tmp/r.sqlite-wal" ] && [ ! -e "$tmp/r.sqlite-shm" ] \
    && ok || bad "run --db --force kept the replaced database's own WAL: $(cat "$tmp/err")"
# A folder of the user's named like a run's is not a stale run folder; one a
# run left (its alive.lock, no process) is.
mkdir -p "$tmp/scratch/idemlab-run-999999-myproject" "$tmp/scratch/idemlab-run-999999-AbCdEf"
printf 'chapter two\n' >"$tmp/scratch/idemlab-run-999999-myproject/notes.txt"
touch "$tmp/scratch/idemlab-run-999999-AbCdEf/alive.lock" "$tmp/scratch/idemlab-run-999999-AbCdEf/run.sqlite"
TMPDIR="$tmp/scratch" "$B" run --scenario order-create >/dev/null
[ "$(cat "$tmp/scratch/idemlab-run-999999-myproject/notes.txt" 2>/dev/null)" = 'chapter two' ] \
    && ok || bad "a run removed the user's folder idemlab-run-999999-myproject"
[ ! -e "$tmp/scratch/idemlab-run-999999-AbCdEf" ] && ok || bad "a stale run folder stayed"
# Refusing a user's WAL-mode database leaves nothing beside it.
sqlite3 "$tmp/wal.db" 'PRAGMA journal_mode=WAL; CREATE TABLE thesis(c);' >/dev/null
expect_kept 2 'already exists and is not a database of an earlier run' "$tmp/wal.db" \
    run --scenario order-create --db "$tmp/wal.db" --force
[ ! -e "$tmp/wal.db-wal" ] && [ ! -e "$tmp/wal.db-shm" ] && ok || bad "refusing --db left $(ls "$tmp" | grep wal.db-)"

# --- A trace's closed vocabularies are checked on load ---------------------------
python3 - "$tmp/small.json" "$tmp/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["isolation"] = "serializable; DROP DATABASE mysql"
json.dump(d, open(sys.argv[2], "w"))
PY
hostile='config field "isolation" is the text "serializable; DROP DATABASE mysql", not a level of sqlite (allowed: serializable)'
expect 2 "$hostile" replay "$tmp/hostile.json"
expect 2 "$hostile" export "$tmp/hostile.json" --format csv --out "$tmp/hostile.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
