#!/usr/bin/env bash
# Records the trace of every lesson frame that runs on a server (a frame
# whose "load" names "backend": "mariadb" or "postgres") into
# resources/lessons/traces/<lesson id>-<n>.json, n the frame's 1-based
# number: the window and the hand-out play a frame from it where that server
# is not installed. Run it after editing such a frame, or after the trace
# format gains fields; lesson_test checks that every trace's configuration is
# still its frame's. Same configuration and seed, same trace.
#
#   scripts/record-lesson-traces.sh [path/to/idemlab]   (default: build/app/idemlab)
#
# Needs both servers' packages (scripts/setup.sh installs them); the lab
# starts its own private servers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
idemlab=${1:-$root/build/app/idemlab}
lessons=$root/resources/lessons
out=$lessons/traces
mkdir -p "$out"
rm -f "$out"/*.json
# One line per server frame: the trace's name, then idemlab run's options
# (each load field as its option; params as --param key=value).
python3 - "$lessons" <<'PY' |
import json, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    lesson = json.loads(path.read_text(encoding="utf-8"))
    for n, frame in enumerate(lesson["frames"], start=1):
        load = frame.get("load")
        if not load or (load.get("backend", "sqlite") == "sqlite"
                        and load.get("redis", "off") == "off"):
            continue
        args = []
        for key, value in load.items():
            if key == "params":
                for k, v in value.items():
                    args += ["--param", f"{k}={v}"]
            else:
                args += ["--" + key.replace("_", "-"), str(value)]
        print("\t".join([f"{lesson['id']}-{n}.json"] + args))
PY
while IFS=$'\t' read -r -a line; do
    name=${line[0]}
    "$idemlab" run "${line[@]:1}" --trace "$out/$name" < /dev/null > /dev/null
    echo "$name: $(wc -c < "$out/$name") bytes"
done
