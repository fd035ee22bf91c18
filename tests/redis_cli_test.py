#!/usr/bin/env python3
"""Real Redis through the command line (SPEC section 10): ttl-window's
ttl-cache and scheduled-task's Redis locks with --redis private give the
simulation's verdicts, three runs
write the same trace byte for byte, the trace replays without Redis, --keep
leaves a server that redis-cli reaches, SIGKILL of the lab leaves none, and
bad --redis values exit 2 with one line. Skips without redis-server. It
counts the lab's redis-servers among the processes of its own
(tests/own_processes.sh)."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

IDEMLAB = sys.argv[1]
SERVER = "/usr/bin/redis-server"


def lab_servers():
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if cmd.startswith(SERVER) and "idemlab-redis-" in cmd:
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


def ttl_run(timing, *extra):
    return [IDEMLAB, "run", "--scenario", "ttl-window", "--variant", "ttl-cache", "--timing",
            timing, "--duplicates", "2", "--redis", "private", *extra]


def three_runs(folder, name, args, expected, problems):
    """Runs `args` three times with --json and --trace FOLDER/NAME-i.json; adds
    to `problems` a verdict other than `expected` and traces that differ.
    The first trace's events, the last verdict and run's seconds; None when
    a run failed (said in `problems`)."""
    traces = []
    for i in range(3):
        trace = os.path.join(folder, f"{name}-{i}.json")
        started = time.monotonic()
        done = subprocess.run([*args, "--json", "--trace", trace], capture_output=True,
                              text=True, timeout=120)
        took = time.monotonic() - started
        if done.returncode != 0:
            problems.append(f"{name}: exit {done.returncode}: {done.stderr}")
            return None
        verdict = json.loads(done.stdout)["verdict"]
        if verdict != expected:
            problems.append(f"{name}: {verdict}, expected {expected}")
        with open(trace, "rb") as f:
            traces.append(f.read())
    if traces.count(traces[0]) != 3:
        problems.append(f"{name}: three runs wrote different traces")
    return json.loads(traces[0])["events"], verdict, took


def verdicts(folder):
    problems = []
    for timing, expected in (("concurrent", "exactly-once"), ("retry", "exactly-once"),
                             ("compensation", "duplicated"), ("cross-day", "duplicated")):
        ran = three_runs(folder, timing, ttl_run(timing), expected, problems)
        if ran is None:
            return problems
        events, verdict, took = ran
        redis = [e for e in events if e.get("kind") == "redis"]
        expiry = [e for e in redis if e.get("cause") == "expiry"]
        if not redis:
            problems.append(f"{timing}: no redis events in the trace")
        if (expected == "duplicated") != bool(expiry):
            problems.append(f"{timing}: {len(expiry)} waits for Redis to expire a key")
        replay = subprocess.run([IDEMLAB, "replay", os.path.join(folder, f"{timing}-0.json")],
                                capture_output=True, text=True, timeout=120)
        if replay.returncode != 0 or "identical" not in replay.stdout:
            problems.append(f"{timing}: replay: {replay.stdout} {replay.stderr}")
        print(f"ok: {timing}: {verdict}, {len(redis)} redis events ({len(expiry)} expiry "
              f"waits), last run {took:.2f} s, three traces identical, replayed")
    return problems


def locks(folder):
    """scheduled-task's Redis locks under a long pause: the lock alone pays
    twice, the fencing token once; three runs write the same trace; A's
    compare-and-delete answers 0 (its lease ran out); replayed without Redis."""
    problems = []
    for variant, expected in (("redis-lock", "duplicated"), ("redis-lock-fenced", "exactly-once")):
        ran = three_runs(folder, variant,
                         [IDEMLAB, "run", "--scenario", "scheduled-task", "--variant", variant,
                          "--crash", "long-pause", "--redis", "private"], expected, problems)
        if ran is None:
            return problems
        events, verdict, _ = ran
        redis = [e for e in events if e.get("kind") == "redis"]
        freed = [e for e in redis if e.get("command", "").startswith("EVAL ")]
        lost = [e for e in freed if e.get("actor") == "node-a" and e.get("reply") == 0]
        if not lost:
            problems.append(f"{variant}: node A's compare-and-delete did not answer 0: {freed}")
        incr = [e for e in redis if e.get("command", "").startswith("INCR ")]
        if (variant == "redis-lock-fenced") != bool(incr):
            problems.append(f"{variant}: {len(incr)} INCR commands")
        for extra in ([], ["--redis", "private"]):
            replay = subprocess.run([IDEMLAB, "replay", os.path.join(folder, f"{variant}-0.json"),
                                     *extra], capture_output=True, text=True, timeout=120)
            if replay.returncode != 0 or "identical" not in replay.stdout:
                problems.append(f"{variant}: replay {extra}: {replay.stdout} {replay.stderr}")
        print(f"ok: {variant} long-pause: {verdict}, {len(redis)} redis events, node A's "
              f"compare-and-delete answered 0, three traces identical, replayed from the "
              f"trace and on a real Redis again")
    # The experiment: one private Redis for all its runs, the same verdicts
    # as the simulation's for the same inputs.
    counts = {}
    for redis in ("off", "private"):
        done = subprocess.run([IDEMLAB, "experiment", "--scenario", "scheduled-task",
                               "--variants", "redis-lock,redis-lock-fenced", "--intents", "30",
                               "--redis", redis, "--json"],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            return problems + [f"experiment --redis {redis}: exit {done.returncode}: {done.stderr}"]
        counts[redis] = {v: t["verdicts"] for v, t in json.loads(done.stdout)["variants"].items()}
    if counts["off"] != counts["private"]:
        problems.append(f"experiment: {counts['private']} on Redis, {counts['off']} simulated")
    if set(counts["private"]["redis-lock-fenced"]) != {"exactly-once"}:
        problems.append(f"experiment: redis-lock-fenced {counts['private']['redis-lock-fenced']}")
    print(f"ok: experiment --redis private: {counts['private']}, as simulated")
    return problems


def kept():
    done = subprocess.run(ttl_run("retry", "--keep", "--json"), capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0:
        return f"--keep: exit {done.returncode}: {done.stderr}"
    found = re.search(r"redis-cli -s (\S+)", done.stderr)
    if not found:
        return f"--keep printed no redis-cli line: {done.stderr!r}"
    socket = found.group(1)
    try:
        got = subprocess.run(["redis-cli", "-s", socket, "GET", "dedup:points:O70000001"],
                             capture_output=True, text=True, timeout=30)
        print(f"ok: --keep: redis-cli -s {socket} GET dedup:points:O70000001 -> "
              f"{got.stdout.strip()!r}")
        if got.returncode != 0:
            return f"--keep: redis-cli failed: {got.stderr}"
    finally:
        subprocess.run(["redis-cli", "-s", socket, "shutdown", "nosave"], capture_output=True,
                       timeout=30)
        left = gone_within(10)
        subprocess.run(["rm", "-rf", os.path.dirname(socket)])
    return f"the kept server did not stop: {left}" if left else None


def killed():
    args = ttl_run("compensation", "--intents", "200", "--json")
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not lab_servers() and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.02)
    if p.poll() is not None or not lab_servers():
        return "the run ended before it could be killed"
    p.send_signal(signal.SIGKILL)
    p.wait()
    started = time.monotonic()
    left = gone_within(10)
    if left:
        return f"redis-servers left after SIGKILL of the lab: {left}"
    print(f"ok: SIGKILL: no redis-server left {time.monotonic() - started:.2f} s after")
    return None


def refused():
    problems = []
    for extra, words in ((["--redis", "http://x"], "redis://"),
                         (["--redis", "private", "--variant", "dedup-table"], "keeps nothing")):
        args = [IDEMLAB, "run", "--scenario", "ttl-window", *extra]
        done = subprocess.run(args, capture_output=True, text=True, timeout=60)
        if done.returncode != 2 or words not in done.stderr:
            problems.append(f"{' '.join(extra)}: exit {done.returncode}: {done.stderr}")
    return problems


def missing_package():
    """Without redis-server (a file that is not a program bind-mounted over
    it, in a mount namespace of the test's own): exit 2 naming the package.
    Skipped where no such namespace can be made."""
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        print("skip: no mount namespace for the missing-package check")
        return None
    with tempfile.NamedTemporaryFile() as stand_in:
        os.chmod(stand_in.name, 0o644)
        script = (f"mount --bind {stand_in.name} {SERVER} && exec \"$@\"")
        args = ["unshare", "--mount", "sh", "-c", script, "sh", *ttl_run("retry")]
        done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if done.returncode != 2 or "redis-server" not in done.stderr:
        return f"without redis-server: exit {done.returncode}: {done.stderr}"
    lines = done.stderr.strip().splitlines()
    if len(lines) != 1:
        return f"without redis-server: {len(lines)} lines: {done.stderr}"
    print(f"ok: without redis-server: exit 2, {lines[0]!r}")
    return None


def main():
    if not os.path.exists(SERVER):
        print("SKIP: redis-server is not installed")
        return 0
    if lab_servers():
        print("FAIL: redis-servers of the lab's were running before the test:", lab_servers())
        return 1
    problems = refused()
    with tempfile.TemporaryDirectory() as folder:
        problems += verdicts(folder)
        problems += locks(folder)
    for check in (kept, killed, missing_package):
        problem = check()
        if problem:
            problems.append(problem)
    left = gone_within(5)
    if left:
        problems.append(f"redis-servers left: {left}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
