#!/usr/bin/env bash
# The engine against plain SQLite: for each scenario and size, `idemlab run`
# (the whole process) against rawreplay running the same statements through
# libsqlite3, side by side, several times, with the CPU time and peak memory
# of each process. Prints one line per pair and the median ratios.
#
# Usage: tests/bench/engine_vs_sqlite.sh BUILD_DIR [ROUNDS]
# Not part of ctest (timings need a quiet machine); see README "Performance".
set -euo pipefail
build="${1:?usage: engine_vs_sqlite.sh BUILD_DIR [ROUNDS]}"
rounds="${2:-5}"
idemlab="$build/app/idemlab"
raw="$build/tests/bench/rawreplay"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu seconds and peak KiB of one command
measure() {
    /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$@" >/dev/null 2>&1
    awk '{printf "%.3f %d\n", $1 + $2, $3}' "$tmp/time"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

compare() {  # name, then idemlab run arguments
    local name="$1"; shift
    "$idemlab" run "$@" --allow-large --trace "$tmp/t.json" >/dev/null
    python3 "$here/tracescript.py" "$tmp/t.json" "$tmp/s.txt"
    : >"$tmp/plain" ; : >"$tmp/traced"
    for _ in $(seq "$rounds"); do
        read -r a am < <(measure "$idemlab" run "$@" --allow-large --json)
        read -r t tm < <(measure "$idemlab" run "$@" --allow-large --json --trace "$tmp/u.json")
        read -r b bm < <(measure "$raw" "$tmp/s.txt" "$tmp/raw.sqlite")
        echo "$a $b" | awk '{print $1 / $2}' >>"$tmp/plain"
        echo "$t $b" | awk '{print $1 / $2}' >>"$tmp/traced"
        echo "  $name: idemlab ${a}s ${am}KiB, with --trace ${t}s ${tm}KiB, sqlite ${b}s ${bm}KiB"
    done
    echo "$name: cpu idemlab/sqlite median $(median <"$tmp/plain"), with --trace $(median <"$tmp/traced")"
}

for n in ${IDEM_BENCH_SIZES:-1000 10000 100000}; do
    compare "order-create N=$n" --scenario order-create --intents "$n"
    compare "payment-callback N=$n" --scenario payment-callback --intents "$n"
    compare "mq-consume N=$n" --scenario mq-consume --intents "$n"
done

# Memory: a run ten times larger must not need ten times the memory.
for trace in "" "--trace $tmp/m.json"; do
    read -r _ small < <(measure "$idemlab" run --scenario order-create --intents 2000 --json $trace)
    read -r _ large < <(measure "$idemlab" run --scenario order-create --intents 20000 --json $trace)
    echo "peak memory 20000 / 2000 intents ${trace:+(with --trace)}: ${large} / ${small} KiB = $(echo "$large $small" | awk '{printf "%.2f", $1 / $2}')"
done
