#!/usr/bin/env python3
"""Every export format of every scenario's traces, read back by a real parser:
jq for the history and the Chrome trace events, PlantUML's own checker and
Mermaid's own parser where they are installed (skipped, and said so, where
they are not); every trace, the golden ones of versions 1 and 2 too, valid
against docs/idemlab-trace.schema.json; and the golden traces of every
version exported in every format, the CSV's counts named for what they count.

Traces of real MariaDB and PostgreSQL runs (tests/locktraces: a gap-lock
deadlock, a wait on a unique key, serialization failures) are exported without
a server: every format must tell their lock waits, deadlocks and serialization
failures as its tool's users expect (checked below, format by format), and
their diagrams go through the same parsers.

Mermaid's parser comes from npm and runs under node with a DOM from jsdom:
    npm install --prefix ~/.cache/idemlab-node mermaid jsdom
(IDEM_NODE_DIR names another folder holding node_modules/mermaid and jsdom).
IDEM_THIRD_PARTY_PARSERS=0 skips PlantUML's and Mermaid's parsers (the
sanitizer stage of CI, whose first stage already ran them on the same files):
every export is still made and checked here. IDEM_EXPORTS_VARIANTS=first
traces each scenario's first variant only (the same stage: the writers are
the same for every variant, and every variant runs in the scenarios' tests).
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema

IDEMLAB = os.environ["IDEMLAB"]
THIRD_PARTY = os.environ.get("IDEM_THIRD_PARTY_PARSERS", "1") != "0"
FIRST_VARIANTS_ONLY = os.environ.get("IDEM_EXPORTS_VARIANTS", "all") == "first"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = 0
failed = 0


def ok():
    global passed
    passed += 1


def bad(message):
    global failed
    failed += 1
    print("FAIL:", message)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


# Traces whose diagrams are also checked in Chinese: each scenario's first
# variant and the crash (the rest in English only, to keep the test short).
CHINESE = set()


def traces(folder):
    """A trace of every variant of every scenario, and a crash with a lost answer."""
    listing = json.loads(run([IDEMLAB, "list", "--json"], check=True).stdout)
    paths = []
    for scenario in listing["scenarios"]:
        CHINESE.add(os.path.join(folder, f"{scenario['id']}-{scenario['variants'][0]['id']}.json"))
        # A variant that needs a server is traced on SQLite by nobody (live_table_test runs it).
        variants = [v for v in scenario["variants"] if not v.get("server_only")]
        variants = variants[:1] if FIRST_VARIANTS_ONLY else variants
        for variant in variants:
            path = os.path.join(folder, f"{scenario['id']}-{variant['id']}.json")
            r = run([IDEMLAB, "run", "--scenario", scenario["id"], "--variant", variant["id"],
                     "--trace", path])
            if r.returncode != 0:
                bad(f"run {scenario['id']}/{variant['id']}: {r.stderr.strip()}")
                continue
            paths.append(path)
    crash = os.path.join(folder, "crash.json")
    run([IDEMLAB, "run", "--scenario", "order-create", "--variant", "dedup-no-recheck",
         "--timing", "retry", "--crash", "after-business", "--seed", "7", "--trace", crash],
        check=True)
    paths.append(crash)
    CHINESE.add(crash)
    return paths


def export(trace, fmt, out, *more):
    r = run([IDEMLAB, "export", trace, "--format", fmt, "--out", out, *more])
    if r.returncode != 0:
        bad(f"export {os.path.basename(trace)} --format {fmt}: {r.stderr.strip()}")
        return False
    return True


def jq(expression, path, *args):
    return run(["jq", "-e", *args, expression, path])


HISTORY = r'''
  all(.[]; (.type | IN("invoke", "ok", "fail", "info")) and (.process | type == "number")
           and (.time | type == "number") and (.f | type == "string"))
  and ([.[].index] == [range(0; length)])
  and (group_by(.process) | all(.[]; length == 2 and .[0].type == "invoke"
                                     and .[1].type != "invoke" and .[1].time >= .[0].time))
  and (map(select(.type == "invoke")) | length) == $attempts
'''

# Chrome's trace: every span's begin has its end, paired as Perfetto and
# DevTools pair them: by category, id, name and thread; a complete slice has
# a duration; every flow that starts ("s") ends ("f"), paired by category,
# name and id.
CHROME = r'''
  (.traceEvents | type == "array")
  and all(.traceEvents[]; (.ph | IN("M", "i", "b", "e", "n", "X", "s", "f"))
                          and (.pid | type == "number") and (.tid | type == "number")
                          and (.ph == "M" or ((.ts | type == "number") and .ts >= 0))
                          and (.ph != "X" or ((.dur | type == "number") and .dur >= 0)))
  and ([.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name] | sort)
      == $actors
  and ([.traceEvents[] | select(.ph == "b") | [.cat, .id, .name, .tid]] | sort)
      == ([.traceEvents[] | select(.ph == "e") | [.cat, .id, .name, .tid]] | sort)
  and ([.traceEvents[] | select(.ph == "s") | [.cat, .name, .id]] | sort)
      == ([.traceEvents[] | select(.ph == "f") | [.cat, .name, .id]] | sort)
'''


def attempt_of(e):
    """The attempt ("i1#2") a Chrome event belongs to, or None."""
    if e.get("cat") == "attempt" and "id" in e:
        return e["id"]
    args = e.get("args", {})
    if "attempt_id" in args:
        return args["attempt_id"]
    if isinstance(args.get("attempt"), int) and args["attempt"] > 0 and "intent" in args:
        return f"i{args['intent'] + 1}#{args['attempt']}"
    return None


def chrome_after_end(chrome):
    """Events of an attempt after its span ended, in the file or in time."""
    ends = {}
    for i, e in enumerate(chrome):
        if e["ph"] == "e" and e.get("cat") == "attempt" and e["name"].startswith("attempt "):
            ends[e["id"]] = (i, e["ts"])
    late = []
    for i, e in enumerate(chrome):
        a = attempt_of(e)
        if a in ends and (i > ends[a][0] or e["ts"] + e.get("dur", 0) > ends[a][1]):
            late.append(f"{e['ph']} {e['name']} of {a} at {e['ts']}")
    return late


def check_history_and_chrome(folder, paths):
    for trace in paths:
        events = json.load(open(trace))["events"]
        attempts = len({(e["intent"], e["attempt"]) for e in events if e["kind"] == "fire"})
        actors = sorted({e["actor"] or "database" for e in events})
        name = os.path.basename(trace)
        history = os.path.join(folder, name + ".history")
        if export(trace, "history", history):
            r = jq(HISTORY, history, "-s", "--argjson", "attempts", str(attempts))
            ok() if r.returncode == 0 else bad(f"history of {name}: {r.stdout}{r.stderr}")
        chrome = os.path.join(folder, name + ".chrome.json")
        if export(trace, "chrome", chrome):
            r = jq(CHROME, chrome, "--argjson", "actors", json.dumps(actors))
            ok() if r.returncode == 0 else bad(f"chrome trace of {name}: {r.stdout}{r.stderr}")
            late = chrome_after_end(json.load(open(chrome))["traceEvents"])
            ok() if not late else bad(f"chrome trace of {name}: after the attempt's end: {late}")
    # The crash's first attempt got no answer: Jepsen's indeterminate info.
    crash = os.path.join(folder, "crash.json.history")
    r = jq('[.[] | select(.attempt == 1) | .type] == ["invoke", "info"]', crash, "-s")
    ok() if r.returncode == 0 else bad("the lost answer is not an info: " + open(crash).read())


def check_plantuml(folder, paths, more=()):
    files = list(more)
    for trace in paths:
        for lang in ("en", "zh") if trace in CHINESE else ("en",):
            out = os.path.join(folder, f"{os.path.basename(trace)}.{lang}.puml")
            if export(trace, "plantuml", out, "--lang", lang):
                text = open(out, encoding="utf-8").read()
                if text.startswith("@startuml\n") and text.endswith("@enduml\n"):
                    ok()
                    files.append(out)
                else:
                    bad(f"{out} is not one @startuml ... @enduml")
                # The lanes are named in the export's language.
                lanes = [line for line in text.splitlines()
                         if line.startswith(("participant ", "actor ", "database "))]
                english = [line for line in lanes if re.search(r'"(client|service|database)"', line)]
                ok() if lang == "en" or (lanes and not english) else bad(
                    f"{out}: lanes not in Chinese: {english or 'none'}")
                # PlantUML cuts an image at 4,096 px: a long diagram is split
                # into pages (newpage) of at most 80 rows, none lost.
                header = ("@startuml", "@enduml", "'", "title ", "participant ", "actor ",
                          "database ")
                rows = [line for line in text.splitlines() if not line.startswith(header)]
                pages = [[]]
                for line in rows:
                    if line.startswith("newpage"):
                        pages.append([])
                    else:
                        pages[-1].append(line)
                longest = max(len(p) for p in pages)
                total = sum(len(p) for p in pages)
                ok() if longest <= 80 and (total <= 80 or len(pages) > 1) and all(pages) else bad(
                    f"{out}: {len(pages)} pages for {total} rows, the longest {longest}")
    if not THIRD_PARTY:
        print("SKIP: IDEM_THIRD_PARTY_PARSERS=0; PlantUML's checker not run")
        return
    if not shutil.which("plantuml"):
        print("SKIP: plantuml is not installed; PlantUML's checker not run")
        return
    r = run(["plantuml", "-checkonly", "-failfast2", "-charset", "UTF-8", *files], timeout=600)
    ok() if r.returncode == 0 else bad(f"plantuml -checkonly: {r.stdout}{r.stderr}")


MERMAID = r'''
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';
const dom = new JSDOM('<!DOCTYPE html><body></body>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
let failures = 0;
for (const file of process.argv.slice(1)) {
  try {
    const r = await mermaid.parse(readFileSync(file, 'utf8'));
    if (r.diagramType !== 'sequence') throw new Error('not a sequence diagram: ' + r.diagramType);
  } catch (e) {
    failures++;
    console.log(file + ': ' + e.message);
  }
}
process.exit(failures ? 1 : 0);
'''


def check_mermaid(folder, paths, more=()):
    files = list(more)
    for trace in paths:
        for lang in ("en", "zh") if trace in CHINESE else ("en",):
            out = os.path.join(folder, f"{os.path.basename(trace)}.{lang}.mmd")
            if export(trace, "mermaid", out, "--lang", lang):
                text = open(out, encoding="utf-8").read()
                if text.startswith("sequenceDiagram\n"):
                    ok()
                    files.append(out)
                else:
                    bad(f"{out} is not a sequenceDiagram")
    # Notes for the guard decisions and the crash, the lost answer as a lost arrow.
    crash = open(os.path.join(folder, "crash.json.en.mmd"), encoding="utf-8").read()
    for line in ("Note over p1: #35;1 dedup table: claimed",
                 "Note over p1: #35;1 ✕ crash: after the business commit",
                 "p1--xp0: #35;1 no answer (lost)"):
        ok() if line in crash else bad(f"the crash's Mermaid diagram lacks {line!r}")
    if not THIRD_PARTY:
        print("SKIP: IDEM_THIRD_PARTY_PARSERS=0; Mermaid's parser not run")
        return
    node_dir = os.environ.get("IDEM_NODE_DIR", os.path.expanduser("~/.cache/idemlab-node"))
    modules = os.path.join(node_dir, "node_modules")
    if not shutil.which("node") or not all(
            os.path.isdir(os.path.join(modules, m)) for m in ("mermaid", "jsdom")):
        print(f"SKIP: node, mermaid or jsdom missing under {node_dir}; Mermaid's parser not run")
        return
    # Evaluated as a module in node_dir, so that its imports find node_modules there.
    r = run(["node", "--input-type=module", "-e", MERMAID, "--", *files], cwd=node_dir,
            timeout=600)
    ok() if r.returncode == 0 else bad(f"mermaid.parse: {r.stdout}{r.stderr}")


def check_schema(paths, more=()):
    schema = json.load(open(os.path.join(ROOT, "docs", "idemlab-trace.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    golden = os.path.join(ROOT, "tests", "golden")
    for path in paths + list(more) + sorted(os.path.join(golden, f) for f in os.listdir(golden)):
        error = jsonschema.exceptions.best_match(validator.iter_errors(json.load(open(path))))
        ok() if error is None else bad(f"{os.path.basename(path)}: {error.message} at "
                                       f"{'/'.join(map(str, error.absolute_path))}")
    # And the schema refuses what a reader refuses.
    trace = json.load(open(paths[-1]))
    sql = next(i for i, e in enumerate(trace["events"]) if e["kind"] == "sql"
               and "rows_changed" in e)
    transition = next(i for i, e in enumerate(trace["events"]) if e["kind"] == "transition")
    broken = {
        "a v2 transition with v1's from/to": ("transition", lambda e: e.update(
            {"from": e.pop("from_state"), "to": e.pop("to_state")})),
        "an sql event without code": ("sql", lambda e: e.pop("code")),
        "a v3 sql event with v2's rows": ("sql", lambda e: e.update(
            {"rows": e.pop("rows_changed")})),
        "an sql event with both counts": ("sql", lambda e: e.update({"rows_returned": 0})),
        "a negative count": ("sql", lambda e: e.update({"rows_changed": -1})),
        "a text t_ms": ("sql", lambda e: e.update({"t_ms": "5"})),
        "an intent below -1": ("sql", lambda e: e.update({"intent": -2})),
    }
    for what, (kind, change) in broken.items():
        copy = json.loads(json.dumps(trace))
        change(copy["events"][sql if kind == "sql" else transition])
        ok() if not validator.is_valid(copy) else bad(f"the schema accepts {what}")


CONTROL = ("BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE")


def check_golden_exports(folder):
    """Traces of every version export in every format; the CSV gives a count
    only where the statement has one, in the column that says what it counts."""
    golden = os.path.join(ROOT, "tests", "golden")
    for name in sorted(os.listdir(golden)):
        trace = os.path.join(golden, name)
        for fmt in ("csv", "html", "shiviz", "mermaid", "plantuml", "history", "chrome"):
            out = os.path.join(folder, f"golden-{name}.{fmt}")
            if export(trace, fmt, out):
                ok() if os.path.getsize(out) > 0 else bad(f"{name} exported as an empty {fmt}")
        stored = [e for e in json.load(open(trace))["events"] if e["kind"] == "sql"]
        rows = [r for r in csv.DictReader(io.StringIO(
            open(os.path.join(folder, f"golden-{name}.csv"), encoding="utf-8", newline="").read()))
            if r["kind"] == "sql"]
        if len(rows) != len(stored) or "rows" in (rows[0] if rows else {}):
            bad(f"{name}: the CSV's sql rows and columns {list(rows[0]) if rows else []}")
            continue
        for e, r in zip(stored, rows):
            verb = e["sql"].split()[0].upper()
            count = e.get("rows", e.get("rows_returned", e.get("rows_changed")))
            if verb in CONTROL:
                want = ("", "")
            elif verb == "SELECT" or "RETURNING" in e["sql"] or "rows_returned" in e:
                want = (str(count), "")
            elif verb in ("INSERT", "UPDATE", "DELETE"):
                want = ("", str(count))
            else:
                continue
            got = (r["rows_returned"], r["rows_changed"])
            ok() if got == want else bad(f"{name} seq {e['seq']} {verb}: CSV counts {got}, "
                                         f"expected {want}")


LOCKS = os.path.join(ROOT, "tests", "locktraces")
# What each server trace holds, counted from its events (never from the
# exports), and the words its diagrams must say.
LOCK_DIAGRAM_LINES = {
    "mariadb-check-for-update-deadlock.json": {
        "en": ["Note over p1: #35;1 waits for #35;2, #35;3: gap lock on uk_orders_request_id",
               "Note over p1: Deadlock: InnoDB rolled back #35;3's transaction (1213)",
               "Note over p1: #35;1 goes on: #35;2's transaction ended"],
        "zh": ["Note over p1: #35;1 等待 #35;2、#35;3：uk_orders_request_id 上的间隙锁",
               "Note over p1: 死锁：InnoDB 回滚了 #35;3 的事务 (1213)",
               "Note over p1: #35;1 继续执行：#35;2 的事务已结束"],
    },
    "postgres-check-for-update-wait.json": {
        "en": ["Note over p1: #35;3 waits for #35;1: the same key, not committed yet",
               "Note over p1: #35;3 goes on: #35;1's transaction ended"],
        "zh": ["Note over p1: #35;3 等待 #35;1：同一键值（尚未提交）",
               "Note over p1: #35;3 继续执行：#35;1 的事务已结束"],
    },
    "postgres-check-in-tx-serializable.json": {
        "en": ["Note over p1: Serialization failure: PostgreSQL refused #35;1's statement (40001)"],
        "zh": ["Note over p1: 序列化失败：PostgreSQL 拒绝了 #35;1 的语句 (40001)"],
    },
}


def lock_facts(trace):
    """The waits and refusals a trace's own events hold: per wait, the
    waiting attempt; per refused statement, its attempt and outcome."""
    events = json.load(open(trace))["events"]
    waits = [e["attempt"] for e in events if e["kind"] == "lock-wait" and e.get("lock")]
    refused = [(e["attempt"], e["outcome"]) for e in events if e["kind"] == "sql"
               and e.get("outcome") in ("deadlock", "serialization-failure", "lock-timeout")]
    return events, waits, refused


def wait_spans(events):
    """Each wait: its attempt, start, end (the statement it held, or the
    attempt's answer, or the run's end) and that statement's outcome."""
    spans = []
    for i, e in enumerate(events):
        if e["kind"] == "lock-wait" and e.get("lock"):
            mine = [x for x in events[i + 1:] if (x["intent"], x["attempt"]) == (
                e["intent"], e["attempt"]) and x["kind"] in ("sql", "response")]
            end = mine[0] if mine else events[-1]
            outcome = end.get("outcome", "ok") if end["kind"] == "sql" else None
            spans.append((e["attempt"], e["t_ms"], end["t_ms"], outcome))
    return spans


def chrome_arrows(chrome):
    """Each flow: the holder whose slice it leaves (the slice of the same
    time and track just before its start), the waiter whose grant it ends
    at, and the grant's time."""
    def owner(i):
        e = chrome[i]
        before = [x for x in chrome[:i] if x["ph"] == "X" and x["tid"] == e["tid"]
                  and x["ts"] == e["ts"]]
        return before[-1]["args"].get("attempt_id") if before else None
    starts = {(e["cat"], e["name"], e["id"]): owner(i) for i, e in enumerate(chrome)
              if e["ph"] == "s"}
    return sorted((starts.get((e["cat"], e["name"], e["id"])), owner(i), e["ts"])
                  for i, e in enumerate(chrome) if e["ph"] == "f")


def check_lock_exports(folder):
    """Server traces: each export tells the waits, deadlocks and serialization
    failures; the diagrams go to the parsers with the others (returned)."""
    diagrams = {"mmd": [], "puml": []}
    for name in sorted(f for f in os.listdir(LOCKS) if f.endswith(".json")):
        trace = os.path.join(LOCKS, name)
        events, waits, refused = lock_facts(trace)
        summary = json.load(open(trace))["summary"]
        ok() if (len(waits), sum(o == "deadlock" for _, o in refused),
                 sum(o == "serialization-failure" for _, o in refused)) == (
            summary["lock_waits"], summary["deadlocks"], summary["serialization_failures"]) \
            else bad(f"{name}: the fixture's events disagree with its summary")
        out = os.path.join(folder, "locks-" + name)
        # Chrome: a complete slice per wait on the waiting attempt's track,
        # from the blocked statement to the statement's grant (or the
        # deadlock or error that ended it), an instant per refusal on the
        # victim's attempt, an arrow from the holder's statement to the grant.
        if export(trace, "chrome", out + ".chrome.json"):
            actors = sorted({e["actor"] or "database" for e in events})
            r = jq(CHROME, out + ".chrome.json", "--argjson", "actors", json.dumps(actors))
            ok() if r.returncode == 0 else bad(f"chrome trace of {name}: {r.stdout}{r.stderr}")
            chrome = json.load(open(out + ".chrome.json"))["traceEvents"]
            slices = sorted((e["args"]["attempt_id"], e["ts"], e["ts"] + e["dur"])
                            for e in chrome if e["ph"] == "X" and e["name"].startswith("lock wait")
                            and e["args"]["holders"])
            want = sorted((f"i1#{a}", start * 1000, end * 1000)
                          for a, start, end, _ in wait_spans(events))
            ok() if slices == want else bad(
                f"{name}: chrome wait slices {slices}, expected (attempt, start, grant) {want}")
            instants = sorted((e["id"], e["name"]) for e in chrome if e["ph"] == "n"
                              and e["name"] in ("deadlock", "serialization failure"))
            want = sorted((f"i1#{a}", o.replace("-", " ")) for a, o in refused)
            ok() if instants == want else bad(f"{name}: chrome refusals {instants}, not {want}")
            # An arrow for each wait a holder let go (not one the server broke
            # off): it starts on the holder's statement and ends at the grant.
            arrows = chrome_arrows(chrome)
            let_go = sorted((f"i1#{a}", end * 1000) for a, _, end, outcome in wait_spans(events)
                            if outcome not in ("deadlock", "serialization-failure", "lock-timeout"))
            ok() if sorted((waiter, ts) for _, waiter, ts in arrows) == let_go and (
                let_go or not waits) and all(h and h != w for h, w, _ in arrows) else bad(
                f"{name}: flow arrows (holder, waiter, ts) {arrows}, expected into {let_go}")
            late = chrome_after_end(chrome)
            ok() if not late else bad(f"{name}: chrome events after the attempt's end: {late}")
        # History: a refused transaction fails with the server's error; the
        # waits are listed on the operation that went through them.
        if export(trace, "history", out + ".history"):
            attempts = len({(e["intent"], e["attempt"]) for e in events if e["kind"] == "fire"})
            r = jq(HISTORY, out + ".history", "-s", "--argjson", "attempts", str(attempts))
            ok() if r.returncode == 0 else bad(f"history of {name}: {r.stdout}{r.stderr}")
            ops = [json.loads(line) for line in open(out + ".history", encoding="utf-8")]
            fails = sorted((o["attempt"], o["error"]) for o in ops if o["type"] == "fail")
            want = sorted(set(refused))
            ok() if fails == want and all(isinstance(o.get("code"), int) for o in ops
                                          if o["type"] == "fail") else bad(
                f"{name}: history fails {fails}, expected {want}")
            listed = sorted(o["attempt"] for o in ops for _ in o.get("lock_waits", []))
            ok() if listed == sorted(waits) else bad(f"{name}: history waits {listed}, not {waits}")
        # CSV: the server's columns, a row per wait naming its holders.
        if export(trace, "csv", out + ".csv"):
            rows = list(csv.DictReader(open(out + ".csv", encoding="utf-8", newline="")))
            ok() if rows and all(k in rows[0] for k in ("outcome", "waiting_for", "lock",
                                                         "waited_ms")) else bad(
                f"{name}: CSV columns {list(rows[0]) if rows else []}")
            csv_waits = [int(r["attempt"]) for r in rows if r["waiting_for"]]
            csv_refused = [(int(r["attempt"]), r["outcome"]) for r in rows
                           if r["outcome"] in ("deadlock", "serialization-failure")]
            ok() if csv_waits == waits and csv_refused == refused else bad(
                f"{name}: CSV waits {csv_waits}, refusals {csv_refused}")
        # The report: the story of the locks, in both languages, with tables.
        for lang, words in (("en", ("Locks: waits, deadlocks and serialization failures",
                                    "Locks at the end of the run:")),
                            ("zh", ("锁：等待、死锁与序列化失败", "运行结束时的锁："))):
            if export(trace, "html", f"{out}.{lang}.html", "--lang", lang):
                html = open(f"{out}.{lang}.html", encoding="utf-8").read()
                items = html.count("<li class='wait'>"), html.count("<li class='refused'>")
                ok() if all(w in html for w in words) and items == (len(waits), len(refused)) \
                    else bad(f"{name}: the {lang} report tells {items} waits and refusals")
        # Sequence diagrams: a note per wait, release and refusal, both languages.
        for lang, lines in LOCK_DIAGRAM_LINES[name].items():
            mmd = f"{out}.{lang}.mmd"
            puml = f"{out}.{lang}.puml"
            if export(trace, "mermaid", mmd, "--lang", lang) and export(
                    trace, "plantuml", puml, "--lang", lang):
                text = open(mmd, encoding="utf-8").read()
                missing = [line for line in lines if line not in text]
                ok() if not missing else bad(f"{name}: the {lang} Mermaid lacks {missing}")
                notes = sum(1 for line in text.splitlines() if line.startswith("    Note over p1:")
                            and ("waits for" in line or "等待 #" in line))
                ok() if notes == len(waits) else bad(f"{name}: {notes} wait notes, {len(waits)} waits")
                # PlantUML's notes say the same, its escapes (~) aside.
                plant = re.sub(r"~(.)", r"\1", open(puml, encoding="utf-8").read())
                missing = [line for line in lines if "note over p1 : " + line.split(": ", 1)[1]
                           .replace("#35;", "#") not in plant]
                ok() if not missing else bad(f"{name}: the {lang} PlantUML lacks {missing}")
                diagrams["mmd"].append(mmd)
                diagrams["puml"].append(puml)
    return diagrams


def main():
    with tempfile.TemporaryDirectory() as folder:
        paths = traces(folder)
        check_schema(paths, sorted(os.path.join(LOCKS, f) for f in os.listdir(LOCKS)
                                   if f.endswith(".json")))
        check_golden_exports(folder)
        check_history_and_chrome(folder, paths)
        diagrams = check_lock_exports(folder)
        check_plantuml(folder, paths, diagrams["puml"])
        check_mermaid(folder, paths, diagrams["mmd"])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
