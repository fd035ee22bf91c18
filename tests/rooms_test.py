#!/usr/bin/env python3
"""The rooms of models/ are link and include boundaries (docs/ARCHITECTURE.md).

For every room, a scratch file compiled exactly as the room's own sources are
(their command from compile_commands.json, with -fsyntax-only) must find a
header of its own room, and must fail to find a header of any room above it
or beside it: an arrow that runs up cannot be written, so the linker never
meets one. (That the rooms below are found, every build shows.)

usage: rooms_test.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# Each room and the rooms it sits above (cmake/IdemRoom.cmake's ABOVE, with
# what those rooms sit above in turn).
BELOW = {
    "core": [],
    "live": ["core"],
    "database": ["core", "live"],
    "redis": ["core", "live"],
    "words": ["core", "live", "database"],
    "engine": ["core", "live", "database", "redis", "words"],
    "guards": ["core", "live", "database", "redis", "words", "engine"],
    "exports": ["core", "live", "database", "redis", "words", "engine"],
    "playing": ["core", "live", "database", "redis", "words", "engine"],
}


def room_dir(src, room):
    return os.path.join(src, "models", "database", "live") if room == "live" else \
        os.path.join(src, "models", room)


def main():
    src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    headers = {}
    for room in BELOW:
        names = sorted(n for n in os.listdir(room_dir(src, room)) if n.endswith(".h"))
        if not names:
            print(f"room {room} has no header")
            return 1
        headers[room] = names[0]
    failures = 0
    probes = 0
    with tempfile.TemporaryDirectory() as scratch:
        for room, below in BELOW.items():
            folder = room_dir(src, room)
            entry = next((c for c in commands
                          if os.path.dirname(os.path.abspath(c["file"])) == folder), None)
            if entry is None:
                print(f"no compile command for a source of room {room}")
                failures += 1
                continue
            args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
            # The compiler and every flag, without ccache, the output and the source.
            if os.path.basename(args[0]) == "ccache":
                args = args[1:]
            kept, skip = [], False
            for a in args:
                if skip:
                    skip = False
                    continue
                if a in ("-o", "-MF", "-MT", "-MQ"):
                    skip = True
                    continue
                if a in ("-c", "-MD") or os.path.abspath(os.path.join(entry["directory"], a)) == \
                        os.path.abspath(os.path.join(entry["directory"], entry["file"])):
                    continue
                kept.append(a)
            for other, header in headers.items():
                if other in below:
                    continue
                expect = other == room
                probe = os.path.join(scratch, f"{room}-{other}.cpp")
                with open(probe, "w", encoding="utf-8") as f:
                    f.write(f'#include "{header}"\n')
                r = subprocess.run(kept + ["-fsyntax-only", probe], cwd=entry["directory"],
                                   capture_output=True, text=True)
                probes += 1
                found = r.returncode == 0
                missing = f"{header}: No such file or directory" in r.stderr
                if expect and not found:
                    print(f"room {room} cannot include {header} of room {other}:\n{r.stderr}")
                    failures += 1
                elif not expect and not missing:
                    print(f"room {room} can include {header} of room {other}, above or beside it")
                    failures += 1
    print(f"rooms: {probes} probes, {failures} wrong")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
