#!/usr/bin/env python3
"""The closure test's own test: closure_test.py must not fail for what a
machine has installed by hand, and must still fail for what idem_packages
lacks. Each case runs closure_test.py on a copy of the scripts, on a machine
played in a temporary folder through its IDEM_CLOSURE_* hooks: stand-in
programs in front of Debian's folders, alternatives in a folder of their own
(update-alternatives --altdir/--admindir), and dpkg-query -S answers naming
packages outside the list. Nothing is installed, no alternative of this
machine changes, and no root is needed.

1. A hand-installed alternative in front: `awk` leads through the temporary
   alternatives to a stand-in owned by a package outside the list (as gawk
   takes awk over), with mawk a candidate as on a fresh machine; and words
   that name stand-ins without running them (in a string, a here-document,
   an embedded Python program, a file name, a function of the same name).
   The check passes.
2. The same stand-ins really run (`open`, and `frob`, an alternative whose
   only candidate is outside the list): the check fails naming each package,
   the script and the line.
3. qt6-charts-dev taken out of the list: the check fails naming it, and
   nothing else.
Before these, the script reader on short programs.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ left in the source folder
import closure_test  # noqa: E402  (beside this file)

CLOSURE_TEST = os.path.join(HERE, "closure_test.py")

# Short programs and the commands they run, in order.
READER_CASES = [
    ('echo "open the door"', ["echo"]),
    ("python3 - <<'PY'\nopen('x')\nPY\nls", ["python3", "ls"]),
    ("python3 -c 'import sys\nopen(sys.argv[1])' f && ok", ["python3", "ok"]),
    ('python3 -c "import json; print(open(1))"', ["python3"]),
    ("cat <<EOF\nopen $(date)\nEOF\nwc", ["cat", "date", "wc"]),
    ("ls open awk >open.txt 2>&1", ["ls"]),
    ("x=$(a | b) y=2 c d", ["a", "b", "c"]),
    ("f() { g; }\nf", ["g"]),
    ("for w in open awk; do n; done", ["n"]),
    ("case $x in a|b) j ;; *) k ;; esac; m", ["j", "k", "m"]),
    ("[[ $a == b || c ]] && p", ["p"]),
    ("r $((s + 1)) <t; $sudo apt-get install", ["r", "apt-get"]),
    ("list=(open awk\n  # (a comment)\n  frob)\nq", ["q"]),
    ("trap 'rm -rf \"$tmp\"' EXIT", ["trap", "rm"]),
    ('u "$(v "$(w)")" <(y)', ["u", "v", "w", "y"]),
]


def reader_problems():
    lines = []
    for text, want in READER_CASES:
        scanner = closure_test.ShellCommands(text)
        scanner.program()
        got = [name for name, _ in scanner.runs if name not in scanner.functions]
        if got != want:
            lines.append(f"the script reader finds {got} in {text!r}, not {want}")
    return lines


def program(path):
    """A stand-in program that does nothing."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(path, 0o755)


class Machine:
    """A machine with packages beyond idem_packages, played in `folder`."""

    def __init__(self, folder):
        self.bin = os.path.join(folder, "bin")
        self.standin = os.path.join(folder, "standin")
        self.altdir = os.path.join(folder, "alternatives")
        self.admindir = os.path.join(folder, "admin")
        self.log = os.path.join(folder, "alternatives.log")
        for d in (self.bin, self.standin, self.altdir, self.admindir):
            os.makedirs(d)
        for name in ("gawk", "frob"):
            program(os.path.join(self.standin, name))
        for name in ("open", "report"):
            program(os.path.join(self.bin, name))
        # awk: mawk on a fresh machine; the stand-in gawk, with the higher
        # priority, is what this machine's link leads to.
        self.alternative("awk", os.path.join(self.standin, "gawk"), 50)
        self.alternative("awk", "/usr/bin/mawk", 5)
        # frob: only a package outside the list provides it.
        self.alternative("frob", os.path.join(self.standin, "frob"), 50)
        self.owners = os.path.join(folder, "owners")
        with open(self.owners, "w", encoding="utf-8") as f:
            f.write(f"standin-gawk: {self.standin}/gawk\n"
                    f"standin-frob: {self.standin}/frob\n"
                    f"standin-xdg-utils: {self.bin}/open\n"
                    f"standin-report: {self.bin}/report\n")

    def alternative(self, name, path, priority):
        subprocess.run(["update-alternatives", "--altdir", self.altdir, "--admindir", self.admindir,
                        "--log", self.log, "--install", os.path.join(self.bin, name), name, path,
                        str(priority)], check=True, capture_output=True, text=True)

    def env(self):
        env = dict(os.environ, IDEM_CLOSURE_PATH=f"{self.bin}:{closure_test.DEBIAN_PATH}",
                   IDEM_CLOSURE_ALTDIR=self.altdir, IDEM_CLOSURE_ADMINDIR=self.admindir,
                   IDEM_CLOSURE_OWNERS=self.owners)
        env.pop("IDEM_SETUP_SH", None)
        return env


def copy_scripts(root, dest, extra=None):
    """The scripts closure_test.py reads, copied from `root` to `dest`, with
    `extra` ({relative path: text}) added."""
    for folder in closure_test.SCRIPT_FOLDERS:
        os.makedirs(os.path.join(dest, folder), exist_ok=True)
        for name in os.listdir(os.path.join(root, folder)):
            if name.endswith(".sh"):
                shutil.copy(os.path.join(root, folder, name), os.path.join(dest, folder, name))
    for path, text in (extra or {}).items():
        with open(os.path.join(dest, path), "w", encoding="utf-8") as f:
            f.write(text)


def closure(build, root, env, *more):
    result = subprocess.run([sys.executable, CLOSURE_TEST, "--build", build, "--root", root, *more],
                            env=env, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


MENTIONS = """\
#!/usr/bin/env bash
# Words that name the stand-ins without running them.
echo "open the report, or frob it"
python3 - /dev/null <<'PY'
report = open("/dev/null")
PY
python3 -c 'import sys
print(open(sys.argv[1]).read())' /dev/null
cat <<EOF
open, frob and report: $(echo words)
EOF
ls open frob 2>/dev/null
report() { echo "a function, not the program"; }
report
awk 'BEGIN { exit 0 }'
"""

RUNS = """\
#!/usr/bin/env bash
# The stand-ins, really run.
open "$1"
frob --now
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the build folder (CMakeCache.txt)")
    parser.add_argument("--root", required=True, help="the source folder")
    args = parser.parse_args()
    passed = failed = 0

    def judge(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok:", what)
        else:
            failed += 1
            print("FAIL:", what)
            if detail:
                print("    " + detail.rstrip().replace("\n", "\n    "))

    found = reader_problems()
    judge(not found, "the script reader tells commands from other words", "\n".join(found))

    with tempfile.TemporaryDirectory() as tmp:
        try:
            machine = Machine(os.path.join(tmp, "machine"))
        except (OSError, subprocess.CalledProcessError) as e:
            judge(False, "setting up the stand-in machine", getattr(e, "stderr", "") or str(e))
            print(f"{passed} passed, {failed} failed")
            return 1
        env = machine.env()
        gawk = os.path.join(machine.standin, "gawk")
        judge(os.path.realpath(os.path.join(machine.bin, "awk")) == gawk,
              "the stand-in machine's awk leads to the stand-in gawk")

        # 1. A hand-installed alternative, and words that are not commands.
        root = os.path.join(tmp, "mentions")
        copy_scripts(args.root, root, {"tests/mentions.sh": MENTIONS})
        rc, out = closure(args.build, root, env, "--commands")
        commands = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
        judge(rc == 0 and "awk" in commands and not {"open", "frob", "report"} & set(commands),
              "awk is read as run; open, frob and report, only named, are not", out)
        rc, out = closure(args.build, root, env)
        judge(rc == 0 and "FAIL" not in out,
              "with a hand-installed awk alternative and named stand-ins the check passes", out)

        # 2. The stand-ins really run.
        root = os.path.join(tmp, "runs")
        copy_scripts(args.root, root, {"tests/runs.sh": RUNS})
        rc, out = closure(args.build, root, env)
        label = f"idem_packages in {root}/scripts/setup.sh"
        want = [
            f"FAIL: standin-frob is missing from {label} (it provides {machine.bin}/frob through "
            f"the frob alternative, run as frob at tests/runs.sh:4)",
            f"FAIL: standin-xdg-utils is missing from {label} (it owns {machine.bin}/open, "
            f"run as open at tests/runs.sh:3)",
        ]
        fails = sorted(line for line in out.splitlines() if line.startswith("FAIL"))
        judge(rc == 1 and fails == want,
              "programs really run, outside the list, are named with their script line",
              f"wanted:\n{chr(10).join(want)}\ngot:\n{out}")

        # 3. A real dependency taken out of the list.
        root = os.path.join(tmp, "reduced")
        copy_scripts(args.root, root)
        setup_sh = os.path.join(root, "scripts", "setup.sh")
        with open(setup_sh, encoding="utf-8") as f:
            text = f.read()
        with open(setup_sh, "w", encoding="utf-8") as f:
            f.write(re.sub(r"(?<![\w.+-])" + re.escape(closure_test.PROBE) + r"(?![\w.+-])", "", text))
        original = closure_test.setup_packages(os.path.join(args.root, "scripts", "setup.sh"))
        reduced = closure_test.setup_packages(setup_sh)
        judge(closure_test.PROBE in original and reduced == [p for p in original if p != closure_test.PROBE],
              f"the copy of setup.sh lists all but {closure_test.PROBE}", f"{reduced}")
        rc, out = closure(args.build, root, env)
        fails = [line for line in out.splitlines() if line.startswith("FAIL")]
        named = f"FAIL: {closure_test.PROBE} is missing from idem_packages in {setup_sh} ("
        judge(rc == 1 and fails and all(line.startswith(named) for line in fails),
              f"without {closure_test.PROBE} the check fails naming it, and only it", out)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
