#!/usr/bin/env bash
# Export time and peak memory per format over traces of about 1, 10 and
# 100 MB (order-create with 125, 1,250 and 12,500 intents): every export
# reads the trace as a stream, so both columns should grow with the trace
# (time) or not at all (memory).
#   tests/bench/export_bench.sh build/app/idemlab [sizes...]
# Prints one line per trace and format: intents, trace MB, format, wall
# seconds, peak RSS in MB (GNU time's figures for the whole process, the
# export's re-run of the trace's configuration included).
set -euo pipefail
B="$(realpath "${1:?usage: export_bench.sh IDEMLAB [INTENTS...]}")"
shift
sizes=("${@:-125 1250 12500}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-8s %9s  %-9s %9s %9s\n' intents "trace MB" format "wall s" "peak MB"
for n in ${sizes[@]}; do
    trace="$work/t$n.json"
    "$B" run --scenario order-create --intents "$n" --trace "$trace" >/dev/null
    mb=$(awk -v b="$(stat -c %s "$trace")" 'BEGIN { printf "%.1f", b / 1e6 }')
    for format in csv shiviz html mermaid plantuml history chrome; do
        /usr/bin/time -f '%e %M' -o "$work/time" \
            "$B" export "$trace" --format "$format" --out "$work/out.$format" --force >/dev/null
        read -r wall kb <"$work/time"
        printf '%-8s %9s  %-9s %9s %9.0f\n' "$n" "$mb" "$format" "$wall" "$((kb / 1024))"
    done
done
