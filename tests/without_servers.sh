#!/usr/bin/env bash
# Runs a test as on a machine without the servers' packages (the databases,
# Redis): their programs are hidden in a mount namespace of the test's own
# (the machine keeps them). Skips (77) where no such namespace can be made.
set -euo pipefail
programs=(/usr/sbin/mariadbd /usr/bin/mariadb-install-db
    /usr/lib/postgresql/15/bin/postgres /usr/lib/postgresql/15/bin/initdb
    /usr/bin/redis-server)
present=()
for p in "${programs[@]}"; do
    [ -e "$p" ] && present+=("$p")
done
[ ${#present[@]} -eq 0 ] && exec "$@"
if ! unshare --mount --propagation private true 2>/dev/null; then
    echo "SKIP: a mount namespace needs root (or user namespaces); the servers stay visible"
    exit 77
fi
# In the namespace each program becomes an empty, non-executable file.
exec unshare --mount --propagation private bash -c '
    n=$1; shift
    for ((i = 0; i < n; i++)); do mount --bind /dev/null "$1"; shift; done
    exec "$@"' hide "${#present[@]}" "${present[@]}" "$@"
