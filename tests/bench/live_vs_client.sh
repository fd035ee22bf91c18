#!/usr/bin/env bash
# A live run against a plain client loop (SPEC section 8, "Speed": at most
# 2x): for each server and size, order-create unique-key (no lock waits: each
# INSERT commits alone) run by `idemlab run --connect` on a kept private
# server, and by `idemlab run --backend` on a private server of its own (its
# start included), against rawserver sending the same statements (taken from
# the run's trace) with plain libpq / libmariadb over the same socket, its
# database made and dropped as --connect makes and drops the lab's. Wall
# time of the whole process, several rounds in turn; prints each round and
# the median ratios.
#
# Usage: tests/bench/live_vs_client.sh BUILD_DIR [ROUNDS]
# Not part of ctest (timings need a quiet machine); see README.md here.
set -euo pipefail
build="${1:?usage: live_vs_client.sh BUILD_DIR [ROUNDS]}"
rounds="${2:-5}"
idemlab="$build/app/idemlab"
raw="$build/tests/bench/rawserver"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp=$(mktemp -d)
kept=()
cleanup() {
    for entry in "${kept[@]}"; do
        kill "${entry%% *}" 2>/dev/null || true
        sleep 1
        rm -rf "${entry#* }"
    done
    rm -rf "$tmp"
}
trap cleanup EXIT

wall() {  # wall seconds of one command
    /usr/bin/time -f "%e" -o "$tmp/time" "$@" >/dev/null 2>&1
    cat "$tmp/time"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

for backend in postgres mariadb; do
    "$idemlab" run --scenario order-create --variant none --duplicates 0 --backend "$backend" \
        --keep --json 2>"$tmp/kept" >/dev/null
    stop=$(sed -n 's/.*stop: *kill \([0-9]*\) (then remove \(.*\))/\1 \2/p' "$tmp/kept")
    kept+=("$stop")
    if [ "$backend" = postgres ]; then
        socket=$(grep -o -- '-h [^ ]*' "$tmp/kept" | head -1 | cut -c4-)
        user=$(grep -o -- '-U [^ ]*' "$tmp/kept" | head -1 | cut -c4-)
        url="postgres://$user@/postgres?host=$socket"
    else
        socket=$(grep -o -- '--socket=[^ ]*' "$tmp/kept" | cut -d= -f2)
        user=$(grep -o -- '-u [^ ]*' "$tmp/kept" | head -1 | cut -c4-)
        url="mariadb://$user@localhost/?socket=$socket"
    fi
    for n in ${IDEM_BENCH_SIZES:-200 2000}; do
        run=(run --scenario order-create --variant unique-key --intents "$n" --json)
        "$idemlab" "${run[@]}" --connect "$url" --trace "$tmp/t.json" --force >/dev/null
        python3 "$here/tracescript.py" "$tmp/t.json" "$tmp/s.txt"
        : >"$tmp/connect"; : >"$tmp/private"
        for _ in $(seq "$rounds"); do
            c=$(wall "$idemlab" "${run[@]}" --connect "$url")
            p=$(wall "$idemlab" "${run[@]}" --backend "$backend")
            r=$(wall "$raw" "$backend" "$socket" "$user" "$tmp/s.txt")
            echo "$c $r" | awk '{print $1 / $2}' >>"$tmp/connect"
            echo "$p $r" | awk '{print $1 / $2}' >>"$tmp/private"
            echo "  $backend N=$n: --connect ${c}s, --backend (server start included) ${p}s, plain client ${r}s"
        done
        echo "$backend N=$n ($(wc -l <"$tmp/s.txt") statements): wall idemlab/client median" \
             "--connect $(median <"$tmp/connect"), --backend $(median <"$tmp/private")"
    done
done
