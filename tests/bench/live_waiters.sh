#!/usr/bin/env bash
# How the cost of deciding who waits grows with the sessions (SPEC section 8,
# issue: MariaDB within 2x PostgreSQL's time at each size): order-create
# check-for-update, every attempt at the same instant, with N duplicates, on
# each server; the wall time of the whole `idemlab run` (a private server
# started by the run included), the median of several rounds, and the ratio
# MariaDB / PostgreSQL per size.
#
# Usage: tests/bench/live_waiters.sh BUILD_DIR [ROUNDS] [SIZES]
#   SIZES: duplicates, comma-separated (default 16,64,250)
# Not part of ctest (timings need a quiet machine); see README.md here.
set -euo pipefail
build="${1:?usage: live_waiters.sh BUILD_DIR [ROUNDS] [SIZES]}"
rounds="${2:-3}"
sizes="${3:-16,64,250}"
idemlab="$build/app/idemlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wall() {  # wall seconds of one command
    /usr/bin/time -f "%e" -o "$tmp/time" "$@" >/dev/null 2>&1 || true
    cat "$tmp/time"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

printf '%-10s %12s %12s %8s\n' duplicates postgres_s mariadb_s ratio
for n in ${sizes//,/ }; do
    for backend in postgres mariadb; do
        : >"$tmp/$backend"
        for _ in $(seq "$rounds"); do
            wall "$idemlab" run --scenario order-create --variant check-for-update \
                --timing concurrent --seed 1 --duplicates "$n" --backend "$backend" \
                --allow-large --json >>"$tmp/$backend"
        done
    done
    pg=$(median <"$tmp/postgres")
    ma=$(median <"$tmp/mariadb")
    printf '%-10s %12s %12s %8.2f\n' "$n" "$pg" "$ma" "$(awk -v a="$ma" -v b="$pg" 'BEGIN {print a / b}')"
done
