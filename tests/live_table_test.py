#!/usr/bin/env python3
"""SPEC section 8's table on real servers: each configuration on SQLite,
PostgreSQL and MariaDB, for seeds 1-5 (IDEM_LIVE_SEEDS narrows it, seeds()), read
from `idemlab run --json`; and no server of the lab's left afterwards."""
import json
import os
import subprocess
import sys
import tempfile

IDEMLAB = sys.argv[1]

def seeds():
    """Seeds 1-5; IDEM_LIVE_SEEDS names some ("1,3") or counts them ("2"),
    counted from IDEM_LIVE_FIRST_SEED (as the scenarios' tables count)."""
    asked = os.environ.get("IDEM_LIVE_SEEDS", "1,2,3,4,5")
    if "," in asked:
        return [int(s) for s in asked.split(",")]
    count = max(1, min(5, int(asked)))
    first = max(1, min(5 - count + 1, int(os.environ.get("IDEM_LIVE_FIRST_SEED", "1"))))
    return list(range(first, first + count))


SEEDS = seeds()
# Two duplicates (three sessions) for the first two seeds.
SEEDS_TWO = SEEDS[:2]
# Where sessions deadlock on MariaDB, every seed with one to three duplicates:
# with three sessions InnoDB misses some cycles of gap locks until the next
# lock request arrives, and the lab must send it and let the server decide
# (SPEC section 8), never cancel a wait the server would still end.
EVERY_SIZE = {("check-in-tx", "serializable"), ("check-for-update", None)}

# (scenario, variant, isolation, {backend: expectation}); an expectation is
# "exit2" or (verdict, {field: (op, number)}).
GE, EQ = ">=", "=="
TABLE = [
    ("order-create", "check-then-insert", None, {
        "sqlite": ("duplicated", {}),
        "postgres": ("duplicated", {}),
        "mariadb": ("duplicated", {})}),
    ("order-create", "unique-key", None, {
        "sqlite": ("exactly-once", {}),
        "postgres": ("exactly-once", {"lock_waits": (EQ, 0)}),
        "mariadb": ("exactly-once", {"lock_waits": (EQ, 0)})}),
    ("order-create", "check-in-tx", None, {
        "sqlite": ("exactly-once", {}),
        "postgres": ("duplicated", {}),
        "mariadb": ("duplicated", {})}),
    ("order-create", "check-in-tx", "serializable", {
        "sqlite": ("exactly-once", {}),
        "postgres": ("exactly-once", {"serialization_failures": (GE, 1)}),
        "mariadb": ("exactly-once", {"deadlocks": (GE, 1)})}),
    ("order-create", "check-for-update", None, {
        "sqlite": "exit2",
        "postgres": ("exactly-once", {"lock_waits": (GE, 1), "deadlocks": (EQ, 0)}),
        "mariadb": ("exactly-once", {"deadlocks": (GE, 1)})}),
    ("order-create", "check-for-update", "read-committed", {
        "sqlite": "exit2",
        "postgres": ("exactly-once", {"lock_waits": (GE, 1), "deadlocks": (EQ, 0)}),
        "mariadb": ("exactly-once", {"lock_waits": (GE, 1), "deadlocks": (EQ, 0)})}),
]


TRACE = os.path.join(tempfile.mkdtemp(prefix="live-table-"), "run.json")


def run(scenario, variant, backend, isolation, seed, duplicates):
    cmd = [IDEMLAB, "run", "--scenario", scenario, "--variant", variant, "--timing",
           "concurrent", "--backend", backend, "--seed", str(seed), "--json",
           "--duplicates", str(duplicates)]
    if isolation:
        cmd += ["--isolation", isolation]
    if os.path.exists(TRACE):
        os.remove(TRACE)
    traced = cmd + ["--trace", TRACE] if backend != "sqlite" else cmd
    return cmd, subprocess.run(traced, capture_output=True, text=True, timeout=300)


def lab_cancels():
    """The statements whose wait the lab ended, read from the trace: without
    --lock-timeout-ms there must be none where the server would end it."""
    found = []
    with open(TRACE, encoding="utf-8") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if not line.startswith("{") or '"kind":"sql"' not in line.replace(" ", ""):
                continue
            e = json.loads(line)
            code, state = e.get("code"), e.get("state")
            if e.get("cause") in ("lab-cancel", "lock-timeout") or code == 1317 \
                    or state == "57014":
                found.append(f"#{e.get('attempt')} {e.get('cause') or code or state}")
    return found


def lab_servers():
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines()
            if ("postgres" in line or "mariadbd" in line) and "idemlab-" in line]


failures = []
for scenario, variant, isolation, cells in TABLE:
    for backend, expected in cells.items():
        sizes = [(s, 1) for s in SEEDS] + [(s, 2) for s in SEEDS_TWO]
        if backend == "mariadb" and (variant, isolation) in EVERY_SIZE:
            sizes = [(s, d) for s in SEEDS for d in (1, 2, 3)]
        for seed, duplicates in sizes:
            cmd, p = run(scenario, variant, backend, isolation, seed, duplicates)
            where = " ".join(cmd[1:])
            if expected == "exit2":
                if p.returncode != 2 or not p.stderr.strip():
                    failures.append(f"{where}: exit {p.returncode}, expected 2 with a message")
                if seed != SEEDS[0] or duplicates != 1:
                    break
                continue
            if p.returncode not in (0, 3):
                failures.append(f"{where}: exit {p.returncode}: {p.stderr.strip()[:300]}")
                continue
            summary = json.loads(p.stdout)
            verdict, counts = expected
            if summary.get("verdict") != verdict:
                failures.append(f"{where}: verdict {summary.get('verdict')}, expected {verdict}")
            if backend != "sqlite":
                for field in ("backend", "server_version", "isolation"):
                    if not summary.get(field):
                        failures.append(f"{where}: no \"{field}\" in the summary")
                if summary.get("integrity") != "ok":
                    failures.append(f"{where}: integrity {summary.get('integrity')}")
                cancels = lab_cancels()
                if cancels:
                    failures.append(f"{where}: the lab cancelled waits the server would end: "
                                    + ", ".join(cancels))
            for field, (op, number) in counts.items():
                value = summary.get(field)
                good = value is not None and (value >= number if op == GE else value == number)
                if not good:
                    failures.append(f"{where}: {field} {value}, expected {op} {number}")
            print(f"ok {where}: {summary.get('verdict')} lock_waits={summary.get('lock_waits')} "
                  f"deadlocks={summary.get('deadlocks')} "
                  f"serialization_failures={summary.get('serialization_failures')}", flush=True)

left = lab_servers()
if left:
    failures.append("servers left running: " + "; ".join(left))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
