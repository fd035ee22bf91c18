#!/usr/bin/env python3
"""Turns an idemlab trace into rawreplay's statement script: every sql event,
in order, with its connection and bound values (see rawreplay.cpp)."""
import json
import sys


def escape(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def param(v):
    if v is None:
        return "n"
    if isinstance(v, bool):
        return "i%d" % int(v)
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, float):
        return "d%r" % v
    return "s" + escape(str(v))


def main(trace_path, script_path):
    trace = json.load(open(trace_path, encoding="utf-8"))
    with open(script_path, "w", encoding="utf-8") as out:
        for e in trace["events"]:
            if e["kind"] != "sql":
                continue
            connection = int(e["connection"][1:])
            close = "\tclose" if e.get("cause") == "crash" else ""
            params = "\x1f".join(param(p) for p in e["params"])
            out.write("%d\t%s\t%s%s\n" % (connection, escape(e["sql"]), params, close))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: tracescript.py TRACE SCRIPT")
    main(sys.argv[1], sys.argv[2])
