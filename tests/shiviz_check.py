#!/usr/bin/env python3
"""The ShiViz logs judged as ShiViz judges them, before it draws a thing.

ShiViz (its js/model/parser.js and js/model/modelGraph.js) reads an uploaded
log so: the file's first line is the parser, matched whole line by line
("^...$", multi-line), the second the delimiter between executions (empty:
one execution), the rest the log. In each execution, per host:

  1. the host's own clock entries are 1, 2 ... n (written here in that order);
  2. every host a clock names has events, and the time it gives that host is
     one of them (1 ... its count);
  3. an event's parents are the events whose entries grew since the host's
     previous event, less those some other parent already knew; ShiViz
     computes each event's clock from its parents and its host's previous
     event (component-wise max, its own entry its own time), and that must
     be the clock written, entry for entry: no entry dropped, none added.

Run by ctest (IDEMLAB set): a sweep of runs, each scenario's recommended
variant and its `none` variant (or its first, having neither), concurrent,
on SQLite, each exported alone, and the `none` ones in one file as ShiViz
executions; and the traces of real MariaDB and PostgreSQL runs kept in the
repository (tests/locktraces, the lessons' recordings), several to a file.
Each log is made by `idemlab export --format shiviz` and judged. Before
that, the judge itself on small logs: a true one passes, and the kinds of
wrong ones are each refused.

`shiviz_check.py LOG...` judges the logs given and names each problem.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKERS = 4  # idemlab processes at once: the runs and exports are short

# JavaScript's classes, where Python's differ: "." stops at any line
# terminator, "\s" includes the byte-order mark (but not \x1c-\x1f, \x85).
JS_LINE_END = "\n\r\u2028\u2029"
JS_SPACE = ("\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
            "\ufeff")


def js_regex(source, multiline=True):
    """A JavaScript regular expression (ShiViz's, named groups "(?<name>")
    as Python's re module reads it, with JavaScript's meaning of ".", "\\s",
    "\\S" and, in multi-line mode, "^" and "$"."""
    out = []
    i = 0
    in_class = False
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            n = source[i + 1]
            if n == "s":
                out.append(JS_SPACE if in_class else f"[{JS_SPACE}]")
            elif n == "S" and not in_class:
                out.append(f"[^{JS_SPACE}]")
            else:
                out.append(c + n)
            i += 2
            continue
        if in_class:
            in_class = c != "]"
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
        elif source.startswith("(?<", i) and source[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        elif c == ".":
            out.append(f"[^{JS_LINE_END}]")
        elif c == "^" and multiline:
            out.append(f"(?<![^{JS_LINE_END}])")
        elif c == "$" and multiline:
            out.append(f"(?![^{JS_LINE_END}])")
        else:
            out.append(c)
        i += 1
    return re.compile("".join(out))


class Problem(Exception):
    pass


def executions(text):
    """The log's executions as ShiViz's upload splits them: [(label, [event])],
    each event a dict of its line, host, text and clock."""
    first, second = (text.split("\n", 2) + ["", ""])[:2]
    parser = js_regex("^" + first + "$") if first.strip() else None
    if parser is None or not {"event", "host", "clock"} <= set(parser.groupindex):
        raise Problem(f"the first line is not a parser with event, host and clock: {first!r}")
    delimiter = js_regex("^" + second.strip() + "$") if second.strip() else None
    start = text.find("\n", text.find("\n") + 1)
    log = text[start + 1:].strip(JS_SPACE)
    if delimiter is None:
        pieces = [("", log)]
    else:
        labels = [""] + [m.group("trace") if "trace" in delimiter.groupindex else None
                         for m in delimiter.finditer(log)]
        pieces = list(zip(labels, _split(delimiter, log)))
    result = []
    seen = set()
    for label, piece in pieces:
        if not piece.strip(JS_SPACE):
            continue
        if label in seen:
            raise Problem(f"two executions are called {label!r}")
        seen.add(label)
        events = []
        line, at = 1, 0
        for m in parser.finditer(piece):
            line, at = line + piece.count("\n", at, m.start()), m.start()
            try:
                clock = json.loads(m.group("clock"))
            except ValueError as e:
                raise Problem(f"{label!r} line {line}: the clock is not JSON: {e}")
            host = m.group("host")
            if not isinstance(clock, dict) or host not in clock:
                raise Problem(f"{label!r} line {line}: host {host!r} is missing from {clock}")
            events.append({"line": line, "host": host, "text": m.group("event"),
                           "time": clock[host],
                           "clock": {h: t for h, t in clock.items() if t != 0}})
        if not events:
            raise Problem(f"execution {label!r} has no event")
        result.append((label, events))
    return result


def _split(regex, text):
    """String.prototype.split with a regular expression whose groups are
    left out (ShiViz splits with a copy of the delimiter without them)."""
    pieces, at = [], 0
    for m in regex.finditer(text):
        pieces.append(text[at:m.start()])
        at = m.end()
    return pieces + [text[at:]]


def judge(events):
    """ShiViz's model of one execution; raises Problem at the first rule broken."""
    hosts = {}  # host → its events by own time, hosts in order of appearance
    for i, e in enumerate(events):
        hosts.setdefault(e["host"], []).append(i)
    for host, nodes in hosts.items():
        times = [events[i]["time"] for i in nodes]
        if times != list(range(1, len(nodes) + 1)):
            raise Problem(f"{host}: own times {_short(times)}, not 1..{len(nodes)} in order")

    def where(i):
        e = events[i]
        return f"line {e['line']} ({e['host']} {json.dumps(e['clock'])})"

    # Parents: per host, the entries that grew since its previous event,
    # less those another of the candidates already knew; one parent per
    # host, and a parent has one child per host (a later one replaces it).
    parent_of = {i: {} for i in range(len(events))}
    child_of = {i: {} for i in range(len(events))}
    for host, nodes in hosts.items():
        known = {}
        for i in nodes:
            clock = events[i]["clock"]
            known[host] = events[i]["time"]
            candidates = []
            for other, t in clock.items():
                if other in known and known[other] >= t:
                    continue
                known[other] = t
                if other not in hosts:
                    raise Problem(f"{where(i)}: names host {other!r}, which has no event")
                if not isinstance(t, int) or t < 1 or t > len(hosts[other]):
                    raise Problem(f"{where(i)}: gives {other!r} time {t}, which it never had")
                candidates.append(hosts[other][t - 1])
            connections = {(events[c]["host"], events[c]["time"]): c for c in candidates}
            for c in candidates:
                for other, t in events[c]["clock"].items():
                    if other != events[c]["host"]:
                        connections.pop((other, t), None)
            for p in connections.values():
                ph = events[p]["host"]
                current = parent_of[i].get(ph)
                if current is not None and events[p]["time"] <= events[current]["time"]:
                    continue
                if current is not None:
                    del child_of[current][host]
                parent_of[i][ph] = p
                replaced = child_of[p].pop(host, None)
                if replaced is not None:
                    del parent_of[replaced][ph]
                child_of[p][host] = i

    # Each event's clock as ShiViz computes it, in an order where parents
    # and a host's previous events come first.
    nxt = {}
    for nodes in hosts.values():
        for a, b in zip(nodes, nodes[1:]):
            nxt[a] = b
    prev = {b: a for a, b in nxt.items()}
    indegree = {i: len(parent_of[i]) + (i in prev) for i in parent_of}
    ready = [i for i, d in indegree.items() if d == 0]
    computed = {i: {events[i]["host"]: events[i]["time"]} for i in parent_of}
    done = 0
    while ready:
        i = ready.pop()
        done += 1
        for c in list(child_of[i].values()) + ([nxt[i]] if i in nxt else []):
            for h, t in computed[i].items():
                computed[c][h] = max(computed[c].get(h, 0), t)
            indegree[c] -= 1
            if indegree[c] == 0:
                ready.append(c)
        if computed[i] != events[i]["clock"]:
            raise Problem(f"{where(i)}: impermissible vector clock, ShiViz computes "
                          f"{json.dumps(computed[i], sort_keys=True)}")
    if done != len(events):
        raise Problem("intransitive: the messages make a cycle")


def _short(times):
    return times if len(times) < 12 else times[:10] + ["..."]


def problems(text):
    """Every execution's first problem, named by its label; [] when ShiViz
    would draw the whole log."""
    try:
        runs = executions(text)
    except Problem as e:
        return [str(e)]
    found = []
    for label, events in runs:
        try:
            judge(events)
        except Problem as e:
            found.append(f"{label or 'the execution'}: {e}")
    return found


PARSER = r"(?<event>.*)\n(?<host>\S*) (?<clock>{.*})"


def self_test():
    """The judge refuses what ShiViz refuses, and passes a true log."""
    head = PARSER + "\n\n"
    good = head + ("a sends\na {\"a\":1}\n"
                   "b receives\nb {\"a\":1,\"b\":1}\n"
                   "b sends on\nb {\"a\":1,\"b\":2}\n"
                   "c receives from b\nc {\"a\":1,\"b\":2,\"c\":1}\n"
                   "a again\na {\"a\":2}\n")
    wrong = {
        # The log: the host's next event drops what it had heard.
        "dropped": head + ("db\nd {\"d\":1}\ns gets\ns {\"d\":1,\"s\":1}\n"
                           "s next\ns {\"s\":2}\n"),
        # It names only the sender, not what the sender had heard.
        "not merged": head + ("a\na {\"a\":1}\nb\nb {\"a\":1,\"b\":1}\n"
                              "c\nc {\"b\":1,\"c\":1}\n"),
        "own time": head + "a\na {\"a\":1}\na\na {\"a\":3}\n",
        "unknown host": head + "a\na {\"a\":1,\"x\":1}\n",
        "out of range": head + "a\na {\"a\":1}\nb\nb {\"a\":2,\"b\":1}\n",
        "no parser": "\n\na\na {\"a\":1}\n",
    }
    failures = []
    if problems(good):
        failures.append(f"a true log refused: {problems(good)}")
    for name, log in wrong.items():
        if not problems(log):
            failures.append(f"the {name} log passed")
    two = PARSER + "\n=== (?<trace>.*) ===\n=== x ===\n" + good[len(head):] + \
        "=== y ===\n" + good[len(head):]
    runs = executions(two)
    if [label for label, _ in runs] != ["x", "y"] or problems(two):
        failures.append(f"two executions: {[label for label, _ in runs]} {problems(two)}")
    return failures


def sweep(folder, idemlab):
    """The traces to export: (name, [trace path]) of runs and recordings."""
    def run(args):
        return subprocess.run([idemlab, *args], capture_output=True, text=True)

    listing = json.loads(run(["list", "--json"]).stdout)
    cells = []
    for scenario in listing["scenarios"]:
        variants = [v for v in scenario["variants"] if not v.get("server_only")]
        chosen = [v["id"] for v in variants if v.get("recommended")] + \
            [v["id"] for v in variants if v["id"] == "none" and not v.get("recommended")]
        # A scenario with neither (natural-ops: every operation is a lesson
        # of its own) goes in with its first variant.
        cells += [(scenario["id"], variant) for variant in chosen or [variants[0]["id"]]]

    def trace(cell):
        path = os.path.join(folder, f"{cell[0]}-{cell[1]}.json")
        r = run(["run", "--scenario", cell[0], "--variant", cell[1], "--timing", "concurrent",
                 "--trace", path])
        if r.returncode != 0:
            raise SystemExit(f"run {cell[0]}/{cell[1]}: {r.stderr.strip()}")
        return path

    with ThreadPoolExecutor(WORKERS) as pool:
        traces = list(pool.map(trace, cells))
    recorded = []
    for sub in ("tests/locktraces", "resources/lessons/traces"):
        d = os.path.join(ROOT, sub)
        recorded += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json"))
    # A recording's export re-runs it on a private server of its kind, the
    # longest step here: they go in a few exports of several executions each.
    groups = [recorded[k::WORKERS] for k in range(WORKERS) if recorded[k::WORKERS]]
    # Several runs in one file, each an execution whose clocks start afresh:
    # the `none` variants' (the others are as short, and one is long).
    nones = [t for t, (_, variant) in zip(traces, cells) if variant == "none"]
    return [(os.path.basename(t), [t]) for t in traces] + [("the none runs together", nones)] + [
        (f"recordings {', '.join(os.path.basename(t) for t in g)}", g) for g in groups]


def main(argv):
    if len(argv) > 1:
        bad = 0
        for path in argv[1:]:
            found = problems(open(path, encoding="utf-8", newline="").read())
            bad += bool(found)
            print(f"{path}: " + ("; ".join(found) if found else "ShiViz draws it"))
        return 1 if bad else 0
    failures = self_test()
    for f in failures:
        print("FAIL: the judge itself:", f)
    idemlab = os.environ["IDEMLAB"]
    passed = 0
    with tempfile.TemporaryDirectory() as folder:
        exports = sweep(folder, idemlab)

        def export(i):
            out = os.path.join(folder, f"{i}.shiviz")
            return out, subprocess.run([idemlab, "export", *exports[i][1], "--format", "shiviz",
                                        "--out", out], capture_output=True, text=True)

        with ThreadPoolExecutor(WORKERS) as pool:
            done = list(pool.map(export, range(len(exports))))
        for (name, traces), (out, r) in zip(exports, done):
            if r.returncode != 0:
                failures.append(f"export {name}: {r.stderr.strip()}")
                continue
            found = problems(open(out, encoding="utf-8", newline="").read())
            for f in found:
                failures.append(f"{name}: {f}")
            passed += not found
            if not found and len(traces) > 1 and len(executions(open(out).read())) != len(traces):
                failures.append(f"{name}: not {len(traces)} executions")
        print(f"{passed} of {len(exports)} ShiViz logs as ShiViz reads them")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
