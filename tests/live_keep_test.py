#!/usr/bin/env python3
"""A server's lifetime (SPEC section 8): with --keep the server and the run's
database stay, and psql / mariadb on the printed command count the rows the
summary reports; without it nothing of the lab's is left after the run, nor
after the lab is killed with SIGKILL in the middle of one. Skips when the
servers' programs are absent. It counts every server of the lab's it can
see: tests/own_processes.sh shows it only its own processes (else it runs
alone)."""
import json
import os
import re
import signal
import subprocess
import sys
import time

IDEMLAB = sys.argv[1]
SERVERS = {"postgres": "/usr/lib/postgresql/15/bin/postgres", "mariadb": "/usr/sbin/mariadbd"}


def lab_servers():
    """The server processes of the lab's: their data folders are its own."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if ("postgres" in cmd or "mariadbd" in cmd) and "idemlab-" in cmd:
            found.append((int(pid), cmd.strip()))
    return found


def gone_within(seconds, pids=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in lab_servers() if pids is None or p[0] in pids]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in lab_servers() if pids is None or p[0] in pids]


def kept(backend):
    args = [IDEMLAB, "run", "--scenario", "order-create", "--variant", "none", "--duplicates",
            "2", "--seed", "1", "--backend", backend, "--keep", "--json"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return f"{backend}: --keep run failed ({done.returncode}): {done.stderr}"
    summary = json.loads(done.stdout)
    orders = summary["effects"]["orders"] if "effects" in summary else None
    connect = re.search(r"connect: (.+)", done.stderr)
    stop = re.search(r"stop:\s+kill (\d+) \(then remove (\S+)\)", done.stderr)
    if not connect or not stop:
        return f"{backend}: --keep printed no connect and stop lines: {done.stderr!r}"
    pid, folder = int(stop.group(1)), stop.group(2)
    problem = None
    try:
        if not any(p == pid for p, _ in lab_servers()):
            return f"{backend}: the kept server {pid} is not running"
        command = connect.group(1)
        query = "SELECT COUNT(*) FROM orders"
        if backend == "postgres":
            command += f" -tAc '{query}'"
        else:
            command += f" -N -e '{query}'"
        counted = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60)
        rows = counted.stdout.strip()
        if counted.returncode != 0:
            problem = f"{backend}: `{command}` failed: {counted.stderr}"
        elif not rows.isdigit():
            problem = f"{backend}: `{command}` printed {rows!r}"
        else:
            print(f"ok: {backend}: --keep, {command!r} counts {rows} orders, the summary "
                  f"{orders} (verdict {summary['verdict']})")
            if int(rows) != orders:
                problem = f"{backend}: {rows} orders in the kept database, the summary says {orders}"
    finally:
        os.kill(pid, signal.SIGTERM)
        if gone_within(15, {pid}):
            os.kill(pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", folder])
    return problem


def killed(backend):
    args = [IDEMLAB, "run", "--scenario", "order-create", "--variant", "dedup-table",
            "--intents", "5000", "--backend", backend, "--json", "--allow-large"]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not lab_servers() and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    time.sleep(0.5)
    if p.poll() is not None:
        return f"{backend}: the run ended before it could be killed"
    p.send_signal(signal.SIGKILL)
    p.wait()
    started = time.monotonic()
    left = gone_within(10)
    if left:
        return f"{backend}: servers left after SIGKILL of the lab: {left}"
    print(f"ok: {backend}: nothing left {time.monotonic() - started:.2f} s after SIGKILL")
    return None


def main():
    missing = [b for b, path in SERVERS.items() if not os.path.exists(path)]
    if missing:
        print("SKIP: not installed:", ", ".join(missing))
        return 0
    if lab_servers():
        print("FAIL: servers of the lab's were running before the test:", lab_servers())
        return 1
    problems = []
    for backend in SERVERS:
        for check in (kept, killed):
            problem = check(backend)
            if problem:
                problems.append(problem)
    left = gone_within(5)
    if left:
        problems.append(f"servers left: {left}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
