#!/usr/bin/env python3
"""A run on a server is as repeatable as one on SQLite: the same
configuration run three times gives the same events, in the same order, at
the same virtual instants, with the same outcome classes, lock waits and
summary. Only the servers' own wording (an error message naming a process
id) and ids (a transaction's, in a locks event; the run's own schema, in
what the sessions were told) may differ. The summary says what every session
was told, the isolation level among it, and on MariaDB each statement with
values says the text the server received, the values in it. Covers a deadlock on MariaDB, a wait then a unique violation
on PostgreSQL, and serialization failures at PostgreSQL's serializable level.
Skips when the servers' programs are absent."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

IDEMLAB = sys.argv[1]
CASES = [
    ("mariadb", ["--scenario", "order-create", "--variant", "check-for-update",
                 "--timing", "concurrent", "--duplicates", "1"]),
    ("postgres", ["--scenario", "order-create", "--variant", "check-for-update",
                  "--timing", "concurrent", "--duplicates", "2"]),
    ("postgres", ["--scenario", "order-create", "--variant", "check-in-tx",
                  "--timing", "concurrent", "--isolation", "serializable"]),
    ("mariadb", ["--scenario", "payment-callback", "--variant", "unique-and-state",
                 "--timing", "concurrent"]),
]


def comparable(path):
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    events = []
    for e in trace["events"]:
        e = dict(e)
        e.pop("error", None)  # the server's words: may name a process id
        if e["kind"] == "locks":  # a transaction's id is the server's
            e["locks"] = [{k: v for k, v in row.items() if k != "xid"} for row in e["locks"]]
        events.append(e)
    summary = dict(trace["summary"])
    # What the sessions were told names the run's own schema on PostgreSQL,
    # made afresh each run.
    summary["session_settings"] = [re.sub(r"\bidemlab_[0-9a-f]+\b", "idemlab_...", s)
                                   for s in summary.get("session_settings", [])]
    return trace["config"], events, summary


def main():
    if not (shutil.which("mariadbd") or os.path.exists("/usr/sbin/mariadbd")) or \
            not os.path.exists("/usr/lib/postgresql/15/bin/postgres"):
        print("SKIP: the servers' programs are not installed")
        return 0
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for backend, args in CASES:
            runs = []
            for i in range(3):
                path = os.path.join(tmp, f"t{i}.json")
                cmd = [IDEMLAB, "run", "--backend", backend, "--seed", "3", "--json",
                       "--force", "--trace", path] + args
                done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                if done.returncode != 0:
                    print("FAIL:", " ".join(cmd[1:]), "exit", done.returncode, done.stderr)
                    failures += 1
                    break
                runs.append(comparable(path))
            if len(runs) < 3:
                continue
            name = backend + " " + " ".join(args)
            first = runs[0]
            # The summary says what each session was told, the isolation
            # level first among it (SPEC section 8, what the server was told).
            told = first[2].get("session_settings", [])
            level = first[2]["isolation"].replace("-", " ").upper()
            if not any("ISOLATION LEVEL " + level in s for s in told):
                print(f"FAIL: {name}: session_settings {told} do not set {level}")
                failures += 1
            # MariaDB's client puts the values into the text: the event says
            # what the server received; PostgreSQL gets them apart.
            with_values = [e for e in first[1] if e["kind"] == "sql" and e["params"]]
            for e in with_values:
                sent = e.get("sent")
                if backend == "postgres" and sent is not None:
                    print(f"FAIL: {name}: a PostgreSQL statement says sent: {e}")
                    failures += 1
                    break
                value = e["params"][0]
                shown = f"'{value}'" if isinstance(value, str) else str(value)
                if backend == "mariadb" and (sent is None or shown not in sent):
                    print(f"FAIL: {name}: not the text MariaDB received: {e}")
                    failures += 1
                    break
            waits = sum(1 for e in first[1] if e["kind"] == "lock-wait")
            for i, other in enumerate(runs[1:], start=2):
                for what, a, b in (("config", first[0], other[0]),
                                   ("summary", first[2], other[2])):
                    if a != b:
                        print(f"FAIL: {name}: run {i}'s {what} differs:\n  {a}\n  {b}")
                        failures += 1
                if first[1] != other[1]:
                    for n, (a, b) in enumerate(zip(first[1], other[1])):
                        if a != b:
                            print(f"FAIL: {name}: run {i}'s event {n} differs:\n  {a}\n  {b}")
                            break
                    else:
                        print(f"FAIL: {name}: run {i} has {len(other[1])} events, not "
                              f"{len(first[1])}")
                    failures += 1
            print(f"ok: {name}: 3 runs, {len(first[1])} events, {waits} lock waits, "
                  f"verdict {first[2]['verdict']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
