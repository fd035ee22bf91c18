#!/usr/bin/env python3
"""Forges a trace the way a careful student would: changes what an event or
the summary says and writes the digest again, so that only a re-run can tell.

    forge.py IN OUT event N FIELD VALUE   (VALUE as JSON)
    forge.py IN OUT summary-dup-verdict   (the summary names "verdict" twice)
"""
import hashlib
import json
import sys


def lines_of(text):
    head, rest = text.split('\n"events":[\n', 1)
    events_text, tail = rest.split('\n],\n', 1)
    return head, events_text.split(',\n'), tail


def digest(events, summary_raw):
    h = hashlib.sha256()
    for e in events:
        h.update(e.encode() + b"\n")
    h.update(summary_raw.encode())
    return "sha256:" + h.hexdigest()


def main():
    src, dst, what = sys.argv[1:4]
    text = open(src, encoding="utf-8").read()
    head, events, tail = lines_of(text)
    summary_raw = tail[len('"summary":'):tail.index(',\n"digest"')]
    if what == "event":
        n, field, value = int(sys.argv[4]), sys.argv[5], json.loads(sys.argv[6])
        e = json.loads(events[n - 1])
        e[field] = value
        events[n - 1] = json.dumps(e, separators=(",", ":"), ensure_ascii=False)
    elif what == "summary-dup-verdict":
        summary_raw = summary_raw[:-1] + ',"verdict":"exactly-once"}'
    else:
        sys.exit("unknown forgery " + what)
    out = (head + '\n"events":[\n' + ",\n".join(events) + '\n],\n"summary":' + summary_raw +
           ',\n"digest":"' + digest(events, summary_raw) + '"}')
    open(dst, "w", encoding="utf-8").write(out)


main()
