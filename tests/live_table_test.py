#!/usr/bin/env python3
"""SPEC section 8's table on real servers: each configuration on SQLite,
PostgreSQL and MariaDB, for seeds 1-5 (IDEM_LIVE_SEEDS narrows it), read
from `idemlab run --json`; and no server of the lab's left afterwards."""
import json
import os
import subprocess
import sys

IDEMLAB = sys.argv[1]
SEEDS = [int(s) for s in os.environ.get("IDEM_LIVE_SEEDS", "1,2,3,4,5").split(",")]
# Two duplicates (three sessions) for the first two seeds.
SEEDS_TWO = SEEDS[:2]
# With three sessions InnoDB does not always see the cycle of gap locks: for
# some seeds the INSERTs wait until the lock wait timeout (1205) instead of a
# deadlock (1213). The verdict holds; the deadlock count is not asked there.
NO_DEADLOCK_COUNT_WITH_THREE = {("check-in-tx", "serializable"), ("check-for-update", None)}

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


def run(scenario, variant, backend, isolation, seed, duplicates):
    cmd = [IDEMLAB, "run", "--scenario", scenario, "--variant", variant, "--timing",
           "concurrent", "--backend", backend, "--seed", str(seed), "--json",
           "--duplicates", str(duplicates)]
    if isolation:
        cmd += ["--isolation", isolation]
    return cmd, subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def lab_servers():
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines()
            if ("postgres" in line or "mariadbd" in line) and "idemlab-" in line]


failures = []
for scenario, variant, isolation, cells in TABLE:
    for backend, expected in cells.items():
        for seed, duplicates in [(s, 1) for s in SEEDS] + [(s, 2) for s in SEEDS_TWO]:
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
            for field, (op, number) in counts.items():
                if (field == "deadlocks" and duplicates == 2 and backend == "mariadb"
                        and (variant, isolation) in NO_DEADLOCK_COUNT_WITH_THREE):
                    continue
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
