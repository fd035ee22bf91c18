#!/usr/bin/env python3
"""Mutation fuzzing of the trace and lesson loaders: damaged files must be refused, never crash.

Takes the real traces in tests/fuzz/corpus and the bundled lessons, damages
them (truncation, flipped and deleted bytes, values swapped for other types,
huge and fractional numbers, formulas and line breaks in text, events
dropped, doubled or reordered, a configuration or a frame's run made far
larger than the cost limit) and runs `idemlab replay` and `idemlab export`
on each trace, `idemlab lesson check` on each lesson. A signal, a sanitizer
report, a time-out or an exit code other than 0, 1 or 2 is a failure, and
so is an over-limit mutant that is not refused (exit 2) within a couple of
seconds: the mutant is kept in the work folder and printed at the end.

Deterministic: the same --seed gives the same mutants in the same order;
--seconds only decides how many of them run.

    tests/fuzz/fuzz_traces.py --idemlab build-asan/app/idemlab --seconds 60

The corpus was made with `idemlab run ... --trace` on small configurations
(one intent, few duplicates): one per scenario in the format's version 1,
and those named *-v3 in version 3 (the field names and SQLite's result code
of version 2, and sql events that say what their number counts:
rows_returned, rows_changed); any trace can be added.
"""

import argparse
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Values that have broken number handling before: beyond int, uint32, 2^53,
# int64, fractions, signs, exponents; and every other JSON type.
NUMBERS = [0, -1, 1, 2, 7, 1000, 1001, 2**31 - 1, 2**31, 2**32 - 1, 2**32 + 1, 2**53 + 1,
           2**63 - 1, 2**63, 2**64 + 1, -(2**63), -(2**63) - 1, 10**20, 1.5, -0.5, 1e3,
           1e300, -1e300, 0.1]
OTHERS = [None, True, False, "", "3", "-1", "1e3", "=HYPERLINK(\"http://x\")", "a\nb\r\nc",
          "\u2028", "x" * 5000, "中文", [], [1, 2], {}, {"a": 1}]
TEXT_EDITS = ["=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1)", "\t=1", "line\nbreak",
              "\"quoted\", comma", "</td><script>alert(1)</script>", "\x00nul"]
# A sanitizer build is a few times slower; an over-limit refusal takes a
# fraction of a second in a plain one.
SLOW = 4 if os.environ.get("ASAN_OPTIONS") else 1
SANITIZER_MARKS = ["ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "SUMMARY: UndefinedBehaviorSanitizer", "SUMMARY: AddressSanitizer"]


def paths(value, prefix=()):
    """Every (path, value) inside a JSON document."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def set_at(doc, path, value):
    if not path:
        return value
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def delete_at(doc, path):
    target = doc
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return doc


def mutate_json(rng, doc):
    doc = copy.deepcopy(doc)
    what = rng.randrange(8)
    # Prefer the places the loader reads: the config and the events.
    if rng.random() < 0.4 and isinstance(doc, dict) and isinstance(doc.get("config"), dict):
        candidates = [("config",) + p for p, _ in paths(doc["config"]) if p]
    else:
        candidates = [p for p, _ in paths(doc) if p]
    if not candidates:
        return doc
    path = rng.choice(candidates)
    if what <= 2:
        return set_at(doc, path, rng.choice(NUMBERS))
    if what == 3:
        return set_at(doc, path, copy.deepcopy(rng.choice(OTHERS)))
    if what == 4:
        return delete_at(doc, path)
    if what == 5:
        return set_at(doc, path, rng.choice(TEXT_EDITS))
    events = doc.get("events") if isinstance(doc, dict) else None
    if isinstance(events, list) and events:
        if what == 6:
            i = rng.randrange(len(events))
            events.insert(rng.randrange(len(events) + 1), copy.deepcopy(events[i]))
        else:
            rng.shuffle(events)
    return doc


def mutate_bytes(rng, data):
    data = bytearray(data)
    what = rng.randrange(5)
    if not data:
        return bytes(data)
    if what == 0:  # truncate
        return bytes(data[: rng.randrange(len(data))])
    if what == 1:  # flip bytes
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return bytes(data)
    if what == 2:  # delete a range
        i = rng.randrange(len(data))
        return bytes(data[:i] + data[i + rng.randint(1, 64):])
    if what == 3:  # copy a range elsewhere
        i = rng.randrange(len(data))
        piece = data[i: i + rng.randint(1, 128)]
        j = rng.randrange(len(data))
        return bytes(data[:j] + piece + data[j:])
    # a digit run made huge
    digits = [i for i, b in enumerate(data) if 0x30 <= b <= 0x39]
    if not digits:
        return bytes(data)
    i = rng.choice(digits)
    return bytes(data[:i] + b"99999999999999999999" + data[i:])


LIMIT = 20_000_000  # the cost limit in SQL statements (models/engine/configcheck.h)


def over_limit(rng, doc):
    """A configuration far above the cost limit: many intents, many duplicates."""
    doc = copy.deepcopy(doc)
    big = {"intents": rng.randint(5_000, 100_000), "duplicates": rng.randint(500, 1_000)}
    if isinstance(doc.get("config"), dict):  # a trace
        doc["config"].update(big)
        return doc
    frames = doc.get("frames")
    if isinstance(frames, list) and frames:  # a lesson: one frame's run
        frame = rng.choice(frames)
        if isinstance(frame, dict):
            load = frame.get("load") if isinstance(frame.get("load"), dict) else {}
            load.setdefault("scenario", "order-create")
            load.update(big)
            frame["load"] = load
    return doc


def estimate(doc):
    """The run estimate of a configuration as idemlab makes it (its default
    scenario's eight statements an attempt), or 0 when it is not one."""
    configs = []
    if isinstance(doc, dict) and isinstance(doc.get("config"), dict):
        configs.append(doc["config"])
    if isinstance(doc, dict) and isinstance(doc.get("frames"), list):
        configs += [f["load"] for f in doc["frames"] if isinstance(f, dict) and isinstance(f.get("load"), dict)]
    most = 0
    for c in configs:
        try:
            n = int(c.get("intents", 1)) * (int(c.get("duplicates", 2)) + 1) * \
                (int(c.get("max_retries", 3)) + 1) * 8
        except (TypeError, ValueError):
            continue
        most = max(most, n)
    return most


def mutant(rng, corpus):
    """A damaged file and, when its run is far above the cost limit, True."""
    name, raw, doc = rng.choice(corpus)
    if rng.random() < 0.15:
        doc = over_limit(rng, doc)
        return name, json.dumps(doc).encode("utf-8"), estimate(doc) > LIMIT
    if rng.random() < 0.6:
        for _ in range(rng.randint(1, 3)):
            doc = mutate_json(rng, doc)
        data = json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8")
        if rng.random() < 0.2:
            data = mutate_bytes(rng, data)
    else:
        data = raw
        for _ in range(rng.randint(1, 3)):
            data = mutate_bytes(rng, data)
    return name, data, False


def run(cmd, timeout, env):
    started = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout, timeout
    return p.returncode, p.stderr.decode("utf-8", "replace"), time.monotonic() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idemlab", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--iterations", type=int, default=0, help="stop after N mutants (0: no limit)")
    ap.add_argument("--timeout", type=float, default=60, help="per command")
    ap.add_argument("--keep", help="folder for failing mutants "
                    "(default: idemlab-fuzz-failures in the temporary folder)")
    args = ap.parse_args()

    corpus = []
    lessons = os.path.join(os.path.dirname(os.path.dirname(HERE)), "resources", "lessons")
    for folder in (args.corpus, lessons):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), "rb") as f:
                    raw = f.read()
                corpus.append((name, raw, json.loads(raw)))
    if not corpus:
        sys.exit("no traces in %s" % args.corpus)

    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    work = tempfile.mkdtemp(prefix="idemlab-fuzz-")
    keep = args.keep or os.path.join(tempfile.gettempdir(), "idemlab-fuzz-failures")
    rng = random.Random(args.seed)
    formats = ["csv", "csv", "csv", "shiviz", "html", "mermaid", "plantuml", "history", "chrome"]
    failures, codes = [], {}
    deadline = time.monotonic() + args.seconds
    n = 0
    try:
        while time.monotonic() < deadline and (not args.iterations or n < args.iterations):
            n += 1
            name, data, huge = mutant(rng, corpus)
            fmt = rng.choice(formats)
            path = os.path.join(work, "mutant.json")
            with open(path, "wb") as f:
                f.write(data)
            out = os.path.join(work, "out." + fmt)
            lesson = b'"idemlab-lesson"' in data[:200]
            commands = ([[args.idemlab, "lesson", "check", path]] if lesson else
                        [[args.idemlab, "replay", path],
                         [args.idemlab, "export", path, "--format", fmt, "--out", out, "--force"]])
            for cmd in commands:
                code, err, took = run(cmd, args.timeout, env)
                codes[(cmd[1], code)] = codes.get((cmd[1], code), 0) + 1
                marks = [m for m in SANITIZER_MARKS if m in err]
                # Above the cost limit: refused before anything runs.
                refused = not huge or (code == 2 and took < 2 * SLOW)
                if code in (0, 1, 2) and not marks and refused:
                    continue
                if not refused:
                    marks.append("an over-limit run not refused at once (%.1f s)" % took)
                os.makedirs(keep, exist_ok=True)
                kept = os.path.join(keep, "seed%d-mutant%04d-from-%s" % (args.seed, n, name))
                with open(kept, "wb") as f:
                    f.write(data)
                why = "signal %d" % -code if code is not None and code < 0 else (
                    "exit %s" % code if code is not None else "no exit")
                failures.append("mutant %d (from %s, kept as %s): `%s` %s%s\n%s" % (
                    n, name, kept, " ".join(cmd[1:2] + ["MUTANT"] + cmd[3:]), why,
                    ", " + ", ".join(marks) if marks else "", err[-3000:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    summary = ", ".join("%s exit %s: %d" % (c, code, k) for (c, code), k in sorted(
        codes.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))))
    print("fuzz: %d mutants of %d traces and lessons (seed %d); %s" % (
        n, len(corpus), args.seed, summary))
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
