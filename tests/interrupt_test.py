#!/usr/bin/env python3
"""Ctrl+C, SIGTERM and SIGHUP stop every long command at once, leave no
partial or hidden file behind (beside the outputs or in the temporary
folder) and keep the earlier outputs byte for byte. A table of commands by
signals: each command is started on work that takes a minute and signalled
mid-run, once it has worked for a while; it must end with 128 + the signal's
number, mark whatever partial result it prints as incomplete, and end well
within a bound that only catches a hang (the time it took is printed, not
judged: a busy machine stretches it). The window, signalled, quits as from
its menu and takes its run's folder with it.
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
UNDER_WAY_S = 1.0      # on the clock, and ...
UNDER_WAY_CPU_S = 0.5  # ... in CPU time, a command has run before the signal: past its start
if os.environ.get("ASAN_OPTIONS"):
    UNDER_WAY_CPU_S = 1.5  # the sanitizers' build runs a few times slower
STOPPED_S = 5.0        # after the signal, on the clock: against a hang, not a pace
HANG_S = 120           # the longest wait for a command to be under way
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


def interrupt(name, args, work, sig, prints):
    """Runs `args`, signals it mid-run with `sig` and checks how it stopped.
    prints: what it may print before it ends: None (nothing), "text" or
    "json" (a partial result, which must say it is incomplete)."""
    scratch = os.path.join(work, "tmp")
    os.makedirs(scratch, exist_ok=True)
    env = dict(os.environ, TMPDIR=scratch, QT_QPA_PLATFORM="offscreen")
    outputs = os.path.join(work, "out")
    before = listing(outputs)
    out_path, err_path = os.path.join(work, "stdout"), os.path.join(work, "stderr")
    with open(out_path, "w") as out_file, open(err_path, "w") as err_file:
        p = subprocess.Popen([IDEMLAB] + args, cwd=outputs, env=env, stdout=out_file,
                             stderr=err_file)
    started = time.monotonic()
    read = lambda path: open(path, encoding="utf-8", errors="replace").read()
    what = f"{name} {sig.name}"
    # Mid-run: once it has worked a while, however busy the machine is.
    while p.poll() is None and time.monotonic() < started + HANG_S and (
            time.monotonic() < started + UNDER_WAY_S or cpu_seconds(p.pid) < UNDER_WAY_CPU_S):
        time.sleep(0.02)
    if p.poll() is not None:
        bad(f"{what}: ended before the signal (exit {p.returncode}): {read(err_path)!r}")
        return None
    cpu_before = cpu_seconds(p.pid)
    sent = time.monotonic()
    p.send_signal(sig)
    # Reaped here, for the CPU time of the whole process (os.wait4's usage).
    status = usage = None
    while time.monotonic() < sent + HANG_S:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.005)
    else:
        p.kill()
        p.wait()
        bad(f"{what}: still running {HANG_S} s after the signal")
        return None
    took = time.monotonic() - sent
    p.returncode = os.waitstatus_to_exitcode(status)
    cpu_after = usage.ru_utime + usage.ru_stime - cpu_before
    out, err = read(out_path), read(err_path)
    print(f"{what}: exit {p.returncode} {took:.2f} s after the signal "
          f"({cpu_after:.2f} s of CPU)")
    if p.returncode == 128 + sig.value:
        ok()
    else:
        bad(f"{what}: exit {p.returncode}, want {128 + sig.value}: {err!r}")
    if took <= STOPPED_S:
        ok()
    else:
        bad(f"{what}: still running {took:.2f} s after the signal (bound {STOPPED_S} s)")
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
    if prints is None:
        if out:
            bad(f"{what}: printed {out[:200]!r}")
        else:
            ok()
    elif out:
        # Whatever it printed is marked: on stdout in text, in the object
        # ("complete": false) as JSON, and on stderr either way.
        if prints == "json":
            try:
                marked = json.loads(out.strip().splitlines()[-1]).get("complete") is False
            except ValueError:
                marked = False
        else:
            marked = "INCOMPLETE" in out or "不完整" in out  # run --lang zh: in Chinese
        if marked and "incomplete" in err:
            ok()
        else:
            bad(f"{what}: partial output not marked incomplete: {out[-300:]!r} {err!r}")
    return took


def window_signals():
    """The window, sent each signal while it shows a run: it quits as from
    its menu (exit 128 + the number) and its run's folder goes with it (it
    stayed behind when SIGTERM ended the window)."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TMPDIR=tmp)
            p = subprocess.Popen([IDEMLAB], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            prefix = f"idemlab-run-{p.pid}-"
            deadline = time.monotonic() + HANG_S
            while p.poll() is None and time.monotonic() < deadline and \
                    not any(n.startswith(prefix) for n in os.listdir(tmp)):
                time.sleep(0.05)
            if p.poll() is not None or not any(n.startswith(prefix) for n in os.listdir(tmp)):
                p.kill()
                p.wait()
                bad(f"window {sig.name}: no run folder of the window's in {HANG_S} s")
                continue
            signalled = time.monotonic()
            p.send_signal(sig)
            try:
                p.wait(timeout=STOPPED_S)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                bad(f"window {sig.name}: still open {STOPPED_S} s after the signal")
                continue
            print(f"window {sig.name}: exit {p.returncode} in {time.monotonic() - signalled:.2f} s")
            if p.returncode != 128 + sig:
                bad(f"window {sig.name}: exit {p.returncode}, want {128 + sig}")
            else:
                ok()
            left = [n for n in os.listdir(tmp) if n.startswith(prefix)]
            if left:
                bad(f"window {sig.name}: left {left}")
            else:
                ok()


def main():
    window_signals()
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
        # A lesson whose one frame runs for a minute: above the limit of what
        # a run keeps in memory, so checked and exported with --allow-large.
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
        long_run = ["run", "--scenario", "order-create", "--intents", "100000"]
        experiment = ["experiment", "--scenario", "order-create", "--intents", "100000",
                      "--allow-large"]
        # Every long command, as it prints: None, "text" or "json".
        commands = [
            ("run", long_run, "text"),
            ("run --json --db --trace", long_run + ["--db", keep("keep.sqlite"), "--trace",
                                                    keep("keep.json"), "--force", "--json"],
             "json"),
            # Narrated, a run this long keeps more than the limit allows.
            ("run --narrate", long_run + ["--narrate", "--allow-large"], "text"),
            ("run --narrate --trace", long_run + ["--narrate", "--allow-large", "--lang", "zh",
                                                  "--trace", keep("keep.json"), "--force"],
             "text"),
            ("experiment", experiment, "text"),
            ("experiment --json", experiment + ["--json"], "json"),
            ("replay", ["replay", trace], None),
            ("export html", ["export", trace, "--format", "html", "--out", keep("keep.html"),
                             "--force"], None),
            ("export csv", ["export", trace, "--format", "csv", "--out", keep("keep.csv"),
                            "--force"], None),
            ("export shiviz", ["export", trace, trace, "--format", "shiviz", "--out",
                               keep("keep.shiviz"), "--force"], None),
            ("shot", ["shot", "--scenario", "order-create", "--intents", "100000", "--out",
                      keep("keep.png"), "--force"], None),
            ("lesson check", ["lesson", "check", lesson, "--allow-large"], "text"),
            ("lesson export", ["lesson", "export", lesson, "--format", "html", "--out",
                               keep("keep.html"), "--force", "--allow-large"], None),
            ("lesson export --lang zh", ["lesson", "export", lesson, "--format", "html", "--lang",
                                         "zh", "--out", keep("keep.html"), "--force",
                                         "--allow-large"], None),
        ]
        signals = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
        times = {}
        for name, args, prints in commands:
            for sig in signals:
                times[(name, sig)] = interrupt(name, args, work, sig, prints)
        # The table, for the record (seconds from the signal to the exit).
        print(f"{'':26}" + "".join(f"{s.name:>9}" for s in signals))
        for name, _, _ in commands:
            cells = [times[(name, s)] for s in signals]
            print(f"{name:26}" + "".join(
                f"{'-':>9}" if t is None else f"{t:9.2f}" for t in cells))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


sys.exit(main())
