#!/usr/bin/env python3
"""Scenario knowledge lives in scenarios/: the window (app/, views/) reads what
a scenario declares and never names one. No string literal in app/ or views/
may hold a scenario id as a word ("order-create", "QLatin1String(\"tcc\")"),
nor be exactly a variant id ("none", "keyset"). Comments may name them.

The ids come from `idemlab list --json`, so a new scenario is checked too.
Allowed: "pagination" as the name of the Pagination page (`shot --view
pagination`, the tab's accessible name) in the files that name the pages.

Before scanning, the scanner is run on a sample with known offences: a check
that cannot fail proves nothing.

Usage: scenario_names_test.py IDEMLAB SOURCE_DIR
"""

import json
import os
import re
import subprocess
import sys

# id -> the files where it may appear as a word of a literal, and why.
ALLOWED = {
    "pagination": {"app/mainwindow.cpp", "app/mainmenus.cpp"},  # the page's name
}

TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def literals(text):
    """(line, content) of every string literal outside comments, raw strings
    included; character literals are skipped."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and not text[i - 1:i].isalnum():
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            close = text.find(")" + delim + '"', open_paren)
            body = text[open_paren + 1:close]
            out.append((line, body))
            line += body.count("\n")
            i = close + len(delim) + 2
        elif c == "'" and text[i - 1:i].isdigit():
            i += 1  # a digit separator: 1'000
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append((line, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def offences(path, text, scenarios, variants):
    found = []
    for line, literal in literals(text):
        for token in TOKEN.findall(literal):
            if token in scenarios and path not in ALLOWED.get(token, ()):
                found.append(f"{path}:{line}: scenario id {token!r} in \"{literal}\"")
        if literal in variants:
            found.append(f"{path}:{line}: variant id \"{literal}\"")
    return found


def self_check(scenarios, variants):
    sample = '\n'.join([
        '// order-create is named in a comment: fine',
        '/* so is "keyset" */',
        'if (id == QLatin1String("order-create")) {}',  # offence 1
        'const char c = \'"\'; const int n = 100\'000;',
        'auto s = QStringLiteral("tab-pagination");',
        'auto v = u"keyset";',  # offence 2
        'auto r = QStringLiteral(R"(SELECT 1 -- tcc)");',  # offence 3
        'auto t = tr("the keyset way");',
    ])
    got = offences("views/sample.cpp", sample, scenarios, variants)
    want = ["views/sample.cpp:3:", "views/sample.cpp:6:", "views/sample.cpp:7:"]
    if [g.split(" ")[0] for g in got] != want:
        print("scanner self-check failed:\n  " + "\n  ".join(got), file=sys.stderr)
        return False
    return True


def main():
    idemlab, source = sys.argv[1], sys.argv[2]
    listed = json.loads(subprocess.run([idemlab, "list", "--json"], check=True,
                                       capture_output=True, text=True).stdout)
    scenarios = {s["id"] for s in listed["scenarios"]}
    variants = {v["id"] for s in listed["scenarios"] for v in s["variants"]}
    if len(scenarios) < 13 or not {"order-create", "tcc", "pagination"} <= scenarios:
        print(f"unexpected scenario list: {sorted(scenarios)}", file=sys.stderr)
        return 1
    if not self_check(scenarios, variants):
        return 1
    found = []
    files = 0
    for folder in ("app", "views"):
        for root, _, names in os.walk(os.path.join(source, folder)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, source)
                with open(path, encoding="utf-8") as f:
                    found += offences(rel, f.read(), scenarios, variants)
                files += 1
    if found:
        print("scenario knowledge in the window's code:\n  " + "\n  ".join(found),
              file=sys.stderr)
        return 1
    print(f"{files} files, {len(scenarios)} scenario ids, {len(variants)} variant ids: none named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
