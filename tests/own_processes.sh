#!/usr/bin/env bash
# Runs a test that counts the lab's servers in a process namespace of its
# own: it sees the processes it started (a server left behind included), not
# those of a test or a person running servers on the machine meanwhile.
# Where no such namespace can be made (neither root nor user namespaces), the
# test runs as it is, seeing every process: then it must run alone.
set -euo pipefail
if unshare --pid --fork --mount-proc true 2>/dev/null; then
    exec unshare --pid --fork --mount-proc "$@"
fi
exec "$@"
