#!/usr/bin/env python3
"""Ctrl+C, SIGTERM and SIGHUP stop every long command at once, leave no
partial or hidden file behind (beside the outputs or in the temporary
folder) and keep the earlier outputs byte for byte. Each command is started
on work that takes a minute and signalled mid-run, once it has worked for a
while; what it does after the signal is counted in CPU time, which a busy
machine does not stretch (wall-clock time is printed, not judged).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

IDEMLAB = os.environ["IDEMLAB"]
UNDER_WAY_CPU_S = 0.5  # CPU time a command has used before the signal: past its start
WITHIN_CPU_S = 1.0     # CPU time it may use after the signal, until it has ended
if os.environ.get("ASAN_OPTIONS"):
    UNDER_WAY_CPU_S = 1.5  # the sanitizers' build runs a few times slower
    WITHIN_CPU_S = 3.0
HANG_S = 120           # a bound against a hang, not a pace
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
passed = failed = 0


def ok():
    global passed
    passed += 1


def bad(message):
    global failed
    failed += 1
    print("FAIL:", message)


def listing(folder):
    """Every file and folder under `folder`, hidden ones too, with its bytes."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            if rel.startswith("idemlab-runtime-"):
                continue  # Qt's runtime folder for off-screen drawing, kept on purpose
            found[rel] = open(path, "rb").read() if os.path.isfile(path) else None
    return found


def cpu_seconds(pid):
    """The CPU time, user and system, that every thread of a process not yet
    reaped has used (utime and stime, fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def interrupt(name, args, work, sig, expect_stdout=False):
    scratch = os.path.join(work, "tmp")
    os.makedirs(scratch, exist_ok=True)
    env = dict(os.environ, TMPDIR=scratch, QT_QPA_PLATFORM="offscreen")
    outputs = os.path.join(work, "out")
    before = listing(outputs)
    out_path, err_path = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    with open(out_path, "w") as out_file, open(err_path, "w") as err_file:
        p = subprocess.Popen([IDEMLAB] + args, cwd=outputs, env=env, stdout=out_file,
                             stderr=err_file)
    read = lambda path: open(path).read()
    # Mid-run: once it has worked a while, however busy the machine is.
    hang = time.monotonic() + HANG_S
    while p.poll() is None and cpu_seconds(p.pid) < UNDER_WAY_CPU_S and time.monotonic() < hang:
        time.sleep(0.02)
    if p.poll() is not None:
        bad(f"{name}: ended before the signal (exit {p.returncode}): {read(err_path)!r}")
        return
    cpu_before = cpu_seconds(p.pid)
    sent = time.monotonic()
    p.send_signal(sig)
    what = f"{name} {sig.name}"
    # Reaped here, for the CPU time of the whole process (os.wait4's usage).
    status = usage = None
    while time.monotonic() < sent + HANG_S:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.01)
    else:
        p.kill()
        p.wait()
        bad(f"{what}: still running {HANG_S} s after the signal")
        return
    p.returncode = os.waitstatus_to_exitcode(status)
    took = time.monotonic() - sent
    cpu_after = usage.ru_utime + usage.ru_stime - cpu_before
    out, err = read(out_path), read(err_path)
    print(f"{what}: stopped after {cpu_after:.2f} s of CPU ({took:.2f} s on the clock)")
    if p.returncode == 128 + sig.value:
        ok()
    else:
        bad(f"{what}: exit {p.returncode}, want {128 + sig.value}: {err!r}")
    if cpu_after <= WITHIN_CPU_S:
        ok()
    else:
        bad(f"{what}: worked {cpu_after:.2f} s of CPU after the signal")
    after = listing(outputs)
    if after == before:
        ok()
    else:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        bad(f"{what}: the output folder changed: {changed}")
    left = listing(scratch)
    if not left:
        ok()
    else:
        bad(f"{what}: left in the temporary folder: {sorted(left)}")
    if not expect_stdout and out:
        bad(f"{what}: printed {out[:200]!r}")


def main():
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        data = os.path.join(work, "data")
        os.makedirs(out)
        os.makedirs(data)
        # Earlier outputs of the lab's at every path the commands write, with
        # --force: what is there must still be there, whole, after a stop.
        trace = os.path.join(data, "big.json")
        subprocess.run([IDEMLAB, "run", "--scenario", "order-create", "--intents", "12500",
                        "--trace", trace], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([IDEMLAB, "run", "--scenario", "order-create", "--db",
                        os.path.join(out, "keep.sqlite"), "--trace",
                        os.path.join(out, "keep.json")], check=True, stdout=subprocess.DEVNULL)
        for fmt in ("csv", "html", "shiviz"):
            subprocess.run([IDEMLAB, "export", os.path.join(out, "keep.json"), "--format", fmt,
                            "--out", os.path.join(out, "keep." + fmt)], check=True)
        subprocess.run([IDEMLAB, "shot", "--scenario", "order-create", "--out",
                        os.path.join(out, "keep.png")], check=True)
        # A lesson whose one frame runs for a minute, within the cost limit.
        lesson = os.path.join(data, "long.json")
        json.dump({"format": "idemlab-lesson", "version": 1, "id": "long",
                   "title": {"zh": "长", "en": "Long"}, "summary": {"zh": "长", "en": "Long"},
                   "frames": [{"title": {"zh": "长", "en": "Long"},
                               "narration": {"zh": "长", "en": "Long"},
                               "load": {"scenario": "order-create", "intents": 100000},
                               "pause": "end",
                               "question": {"prompt": {"zh": "?", "en": "?"},
                                            "answer": "verdict",
                                            "choices": [{"value": "exactly-once",
                                                         "label": {"zh": "是", "en": "yes"}},
                                                        {"value": "duplicated",
                                                         "label": {"zh": "否", "en": "no"}}]}}]},
                  open(lesson, "w"), ensure_ascii=False)
        keep = lambda name: os.path.join(out, name)
        cases = [
            ("run", ["run", "--scenario", "order-create", "--intents", "100000", "--db",
                     keep("keep.sqlite"), "--trace", keep("keep.json"), "--force", "--json"],
             [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], True),
            ("replay", ["replay", trace], [signal.SIGINT, signal.SIGTERM], False),
            ("export", ["export", trace, "--format", "html", "--out", keep("keep.html"),
                        "--force"], [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], False),
            ("export csv", ["export", trace, "--format", "csv", "--out", keep("keep.csv"),
                            "--force"], [signal.SIGINT], False),
            ("export shiviz", ["export", trace, trace, "--format", "shiviz", "--out",
                               keep("keep.shiviz"), "--force"], [signal.SIGINT], False),
            ("experiment", ["experiment", "--scenario", "order-create", "--intents", "100000",
                            "--allow-large", "--json"], [signal.SIGINT, signal.SIGTERM], True),
            ("lesson check", ["lesson", "check", lesson], [signal.SIGINT, signal.SIGTERM], True),
            ("lesson export", ["lesson", "export", lesson, "--format", "html", "--out",
                               keep("keep.html"), "--force"], [signal.SIGINT], False),
            ("shot", ["shot", "--scenario", "order-create", "--intents", "100000", "--out",
                      keep("keep.png"), "--force"], [signal.SIGINT, signal.SIGTERM], False),
        ]
        for name, args, signals, prints in cases:
            for sig in signals:
                interrupt(name, args, work, sig, prints)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


sys.exit(main())
