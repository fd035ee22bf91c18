#!/usr/bin/env python3
"""The spreadsheet export read back by a real reader: every .xlsx opens in
openpyxl (the library Python's data tools read Excel files with) and holds,
cell for cell, what the CSV export of the same trace holds, numbers as
numbers and every character right, in English and in Chinese, for a run on
SQLite and for the traces of real MariaDB and PostgreSQL runs (their four
columns more); its ZIP's every entry passes its CRC; its "run" sheet names
the scenario and the verdict. Where LibreOffice is installed, its own import
reads the workbook too, headless, and gives back the same cells (skipped,
and said so, where it is not).
"""
import csv
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import openpyxl

IDEMLAB = os.environ["IDEMLAB"]
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


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def csv_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def plain(cell):
    """A CSV cell as the spreadsheet holds it: the formula guard's quote off."""
    if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell


def as_text(value):
    return "" if value is None else str(value)


def compare(name, expected, got):
    """expected: the CSV's rows; got: the workbook's, as text."""
    if len(expected) != len(got):
        bad(f"{name}: {len(got)} rows, the CSV has {len(expected)}")
        return
    for r, (want, have) in enumerate(zip(expected, got), 1):
        want = [plain(c) for c in want]
        have = have + [""] * (len(want) - len(have))
        if want != have[:len(want)]:
            cells = [(i, w, h) for i, (w, h) in enumerate(zip(want, have)) if w != h]
            bad(f"{name}: row {r} differs, (column, CSV, workbook): {cells[:3]}")
            return
    ok()


def check(trace, lang, folder, libreoffice):
    base = os.path.join(folder, os.path.basename(trace).replace(".json", "") + "-" + lang)
    for fmt in ("csv", "xlsx"):
        r = run([IDEMLAB, "export", trace, "--format", fmt, "--lang", lang,
                 "--out", f"{base}.{fmt}", "--force"])
        if r.returncode != 0:
            bad(f"export {trace} --format {fmt}: {r.stderr.strip()}")
            return
    expected = csv_rows(f"{base}.csv")
    with zipfile.ZipFile(f"{base}.xlsx") as z:
        broken = z.testzip()
        ok() if broken is None else bad(f"{base}.xlsx: entry {broken} fails its CRC")
        first = z.infolist()[0]
        ok() if first.filename == "docProps/app.xml" and first.compress_type == 0 else bad(
            f"{base}.xlsx: the first entry is {first.filename}, not the stored mark")
    book = openpyxl.load_workbook(f"{base}.xlsx")
    ok() if book.sheetnames == ["events", "run"] else bad(f"{base}.xlsx: sheets {book.sheetnames}")
    events = book["events"]
    got = [[as_text(v) for v in row] for row in events.iter_rows(values_only=True)]
    compare(f"{base}.xlsx", expected, got)
    # Numbers are numbers: seq and t_ms of every event.
    numeric = all(isinstance(row[0], int) and isinstance(row[1], int)
                  for row in events.iter_rows(min_row=2, values_only=True))
    ok() if numeric else bad(f"{base}.xlsx: seq and t_ms are not all numbers")
    ok() if events.freeze_panes == "A2" and events.auto_filter.ref else bad(
        f"{base}.xlsx: the header is not frozen and filtered")
    if lang == "zh":
        captions = [row[expected[0].index("caption")] for row in got[1:]]
        ok() if any(any("\u4e00" <= ch <= "\u9fff" for ch in c) for c in captions) else bad(
            f"{base}.xlsx: no Chinese caption")
    settings = {row[0]: row[1] for row in book["run"].iter_rows(min_row=2, values_only=True)}
    ok() if settings.get("config.scenario") and settings.get("summary.verdict") else bad(
        f"{base}.xlsx: the run sheet lacks the scenario or the verdict: {list(settings)[:8]}")
    if libreoffice:
        out = os.path.join(folder, "lo")
        r = run([libreoffice, f"-env:UserInstallation=file://{folder}/lo-profile", "--headless",
                 "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true",
                 "--outdir", out, f"{base}.xlsx"])
        converted = os.path.join(out, os.path.basename(base) + ".csv")
        if r.returncode != 0 or not os.path.exists(converted):
            bad(f"LibreOffice could not read {base}.xlsx: {r.stderr.strip()}")
            return
        compare(f"{base}.xlsx in LibreOffice", expected, csv_rows(converted))


def main():
    libreoffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not libreoffice:
        print("skipped: LibreOffice's own import (not installed: apt install libreoffice-calc-nogui)")
    with tempfile.TemporaryDirectory() as folder:
        trace = os.path.join(folder, "order-create.json")
        r = run([IDEMLAB, "run", "--scenario", "order-create", "--variant", "check-then-insert",
                 "--timing", "concurrent", "--crash", "before-response", "--trace", trace])
        if r.returncode not in (0, 1):
            bad(f"run: {r.stderr.strip()}")
        traces = [trace] + sorted(glob.glob(os.path.join(ROOT, "tests", "locktraces", "*.json")))
        for t in traces:
            for lang in ("en", "zh"):
                check(t, lang, folder, libreoffice)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
