#!/usr/bin/env python3
"""The trace and lesson loaders under failing allocations and a failing disk.

A small library loaded with LD_PRELOAD (tests/faults/faultshim.c) makes the
N-th allocation after the input file is opened return NULL, or a read of the
input fail with EIO after N bytes. For every N tried, the command must end
as idemlab's commands end: exit 0 with exactly the output of a run without
the fault, or exit 1 (out of memory, the disk: with the path and the
system's words) or 2 (bad input) with one line on stderr. Never a crash,
never an output that is wrong, never an output file left half-written.
The one exception is Qt's own: an allocation that fails inside Qt code
declared noexcept (QHash, the JSON parser) ends the program with abort(),
as Qt documents; that is counted and allowed as long as nothing was written.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

IDEMLAB = os.environ["IDEMLAB"]
SHIM = os.environ["FAULT_SHIM"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = aborted = 0


def ok():
    global passed
    passed += 1


def bad(message):
    global failed
    failed += 1
    print("FAIL:", message)


def run(args, work, **faults):
    env = dict(os.environ, LD_PRELOAD=SHIM, QT_QPA_PLATFORM="offscreen", TMPDIR=work)
    env.update({k: str(v) for k, v in faults.items()})
    return subprocess.run([IDEMLAB] + args, capture_output=True, text=True, env=env, cwd=work,
                          timeout=120)


def outputs(work):
    return {n: open(os.path.join(work, n), "rb").read()
            for n in sorted(os.listdir(work)) if os.path.isfile(os.path.join(work, n))}


def spread(total, count=45):
    """1 to 20 one by one, then points spread evenly up to total."""
    points = set(range(1, min(total, 20) + 1))
    for i in range(count):
        points.add(max(1, total * (i + 1) // count))
    return sorted(points)


def check(name, args, work, fault, expected_out, expected_files, before):
    r = run(args, work, **fault)
    what = f"{name} with {fault}"
    if r.returncode == -signal.SIGABRT and ("bad_alloc" in r.stderr or "out of memory" in r.stderr):
        # Qt gives up on an allocation inside its own noexcept code (QHash,
        # QJsonDocument): an abort, as Qt documents; the outputs are
        # unnamed work files never committed (models/core/outputfile.h), so nothing
        # is written.
        global aborted
        aborted += 1
        if outputs(work) != before:
            bad(f"{what}: aborted and the folder holds {sorted(outputs(work))}")
        return
    if r.returncode < 0:
        bad(f"{what}: killed by {signal.Signals(-r.returncode).name}: {r.stderr[-300:]!r}")
        return
    if r.returncode == 0:
        now = outputs(work)
        good = r.stdout == expected_out and now == expected_files
        if good:
            ok()
        else:
            changed = [k for k in set(now) | set(expected_files) if now.get(k) != expected_files.get(k)]
            bad(f"{what}: exit 0 with another result: {r.stdout[:200]!r}, files {changed}")
        return
    lines = r.stderr.strip().splitlines()
    if r.returncode in (1, 2) and len(lines) == 1 and lines[0].startswith("idemlab: "):
        ok()
    else:
        bad(f"{what}: exit {r.returncode}, stderr {r.stderr[-300:]!r}, stdout {r.stdout[-300:]!r}")
    # A failure writes nothing: only what was there before.
    if outputs(work) != before:
        bad(f"{what}: the folder holds {sorted(outputs(work))}, want {sorted(before)}")


def main():
    with tempfile.TemporaryDirectory() as work:
        trace = os.path.join(work, "t.json")
        subprocess.run([IDEMLAB, "run", "--scenario", "payment-callback", "--trace", trace],
                       check=True, stdout=subprocess.DEVNULL)
        lesson = os.path.join(work, "l.json")
        lessons = os.path.join(ROOT, "resources", "lessons")
        shutil.copy(os.path.join(lessons, sorted(os.listdir(lessons))[0]), lesson)
        commands = [
            ("replay", ["replay", "t.json"], "t.json"),
            ("export", ["export", "t.json", "--format", "csv", "--out", "t.csv"], "t.json"),
            ("lesson check", ["lesson", "check", "l.json"], "l.json"),
        ]
        for name, args, watched in commands:
            count = os.path.join(work, "count")
            clean = run(args, work, IDEM_FAULT_PATH=watched, IDEM_FAULT_COUNT=count)
            if clean.returncode != 0:
                bad(f"{name} without a fault: exit {clean.returncode}: {clean.stderr!r}")
                continue
            total = int(open(count).read()) if os.path.exists(count) else 0
            print(f"{name}: {total} allocations after the input is opened")
            os.remove(count)
            files = outputs(work)
            if os.path.exists(os.path.join(work, "t.csv")):
                os.remove(os.path.join(work, "t.csv"))
            before = {k: v for k, v in files.items() if k != "t.csv"}
            for n in spread(total):
                check(name, args, work, {"IDEM_FAULT_PATH": watched, "IDEM_FAULT_ALLOC": n},
                      clean.stdout, files, before)
                for leftover in ("t.csv",):
                    if os.path.exists(os.path.join(work, leftover)):
                        os.remove(os.path.join(work, leftover))
            size = os.path.getsize(os.path.join(work, watched))
            for n in sorted({0, 1, 100, 4096, size // 2, size - 1}):
                r = run(args, work, IDEM_FAULT_PATH=watched, IDEM_FAULT_READ=n)
                what = f"{name} with a read error after {n} bytes"
                lines = r.stderr.strip().splitlines()
                if r.returncode == 1 and len(lines) == 1 and "Input/output error" in lines[0] \
                        and watched in lines[0]:
                    ok()
                else:
                    bad(f"{what}: exit {r.returncode}, stderr {r.stderr[-300:]!r}")
                if outputs(work) != before:
                    bad(f"{what}: the folder holds {sorted(outputs(work))}")
    print(f"{aborted} allocation failures ended in Qt's abort (allowed, nothing written)")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


sys.exit(main())
