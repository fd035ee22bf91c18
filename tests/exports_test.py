#!/usr/bin/env python3
"""Every export format of every scenario's traces, read back by a real parser:
jq for the history and the Chrome trace events, PlantUML's own checker and
Mermaid's own parser where they are installed (skipped, and said so, where
they are not); every trace, the golden ones of versions 1 and 2 too, valid
against docs/idemlab-trace.schema.json; and the golden traces of every
version exported in every format, the CSV's counts named for what they count.

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
# DevTools pair them: by category, id, name and thread.
CHROME = r'''
  (.traceEvents | type == "array")
  and all(.traceEvents[]; (.ph | IN("M", "i", "b", "e")) and (.pid | type == "number")
                          and (.tid | type == "number")
                          and (.ph == "M" or ((.ts | type == "number") and .ts >= 0)))
  and ([.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name] | sort)
      == $actors
  and ([.traceEvents[] | select(.ph == "b") | [.cat, .id, .name, .tid]] | sort)
      == ([.traceEvents[] | select(.ph == "e") | [.cat, .id, .name, .tid]] | sort)
'''


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
    # The crash's first attempt got no answer: Jepsen's indeterminate info.
    crash = os.path.join(folder, "crash.json.history")
    r = jq('[.[] | select(.attempt == 1) | .type] == ["invoke", "info"]', crash, "-s")
    ok() if r.returncode == 0 else bad("the lost answer is not an info: " + open(crash).read())


def check_plantuml(folder, paths):
    files = []
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


def check_mermaid(folder, paths):
    files = []
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


def check_schema(paths):
    schema = json.load(open(os.path.join(ROOT, "docs", "idemlab-trace.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    golden = os.path.join(ROOT, "tests", "golden")
    for path in paths + sorted(os.path.join(golden, f) for f in os.listdir(golden)):
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


def main():
    with tempfile.TemporaryDirectory() as folder:
        paths = traces(folder)
        check_schema(paths)
        check_golden_exports(folder)
        check_history_and_chrome(folder, paths)
        check_plantuml(folder, paths)
        check_mermaid(folder, paths)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
