#!/usr/bin/env bash
# The whole check of each workbench challenge's reference handler on each
# database, at the default preemption bound (SPEC section 9's goal: under
# 10 s on SQLite, under 60 s on each server). The wall time of the whole
# `idemlab check` (the private server's start included; a challenge checked
# at every isolation level counts all its levels), the schedules run, and
# the schedules run per second.
#
# Usage: tests/bench/challenge_checks.sh BUILD_DIR [BACKENDS]
#   BACKENDS: comma-separated (default sqlite,mariadb,postgres)
# Not part of ctest (timings need a quiet machine); see README.md here.
set -euo pipefail
build="${1:?usage: challenge_checks.sh BUILD_DIR [BACKENDS]}"
backends="${2:-sqlite,mariadb,postgres}"
idemlab="$build/app/idemlab"
challenges="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../resources/challenges" && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%-18s %-9s %9s %10s %9s  %s\n' challenge backend seconds schedules per_s outcome
for c in $("$idemlab" challenge list | awk '{print $1}'); do
    for b in ${backends//,/ }; do
        /usr/bin/time -f "%e" -o "$tmp/time" \
            "$idemlab" check "$challenges/$c.reference.js" --challenge "$c" --backend "$b" \
            --json >"$tmp/out" 2>/dev/null || true
        python3 - "$c" "$b" "$(cat "$tmp/time")" "$tmp/out" <<'PY'
import json, sys
name, backend, seconds, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
rows = [json.loads(line) for line in open(path) if line.strip()]
run = sum(r.get("schedules_run", 0) for r in rows)
outcome = ",".join(sorted({r.get("outcome", "?") for r in rows})) or "no output"
print(f"{name:<18} {backend:<9} {seconds:9.1f} {run:10d} {run / seconds if seconds else 0:9.0f}  {outcome}")
PY
    done
done
