#!/usr/bin/env python3
"""Package closure: ./run.sh and ./test.sh install, on a fresh Debian 12, every
package they need. Each file the configure step found (the CMake package
configs of CMakeCache.txt's *_DIR entries, the programs and libraries of its
FILEPATH entries) and each program the tests and the packaging run is owned by
a Debian package; that package must be reachable from idem_packages in
scripts/setup.sh through Depends and Pre-Depends alone (apt-cache depends), or
be part of every Debian system (Essential, or Priority required).

The test also removes libqt6opengl6-dev from the list and checks that it is
named as missing: a check that cannot fail proves nothing.

IDEM_SETUP_SH=FILE checks the list in FILE instead, and only that.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

# Programs the tests and the packaging run, besides the ones the project
# builds. The scan below adds every program that a test script calls.
TOOLS = [
    "bash", "python3", "sqlite3", "cmake", "ctest", "cpack", "gzip", "date",
    "dpkg-deb", "dpkg-shlibdeps", "desktop-file-validate", "appstreamcli", "man",
    "apt-cache", "dpkg-query",
]
# Files the tests load at run time, which no link line names.
RUNTIME_FILES = [
    "/usr/lib/*/qt6/plugins/platforms/libqoffscreen.so",
    "/usr/lib/*/qt6/plugins/sqldrivers/libqsqlite.so",
    "/usr/lib/*/qt6/plugins/iconengines/libqsvgicon.so",
    "/usr/share/qt6/translations/qtbase_zh_CN.qm",
]
# FindOpenGL also looks for EGL and GLU. Nothing links them (checked against
# build.ninja below), so a machine without them configures all the same.
OPTIONAL_FINDS = {"OPENGL_egl_LIBRARY", "OPENGL_glu_LIBRARY"}
# Where Debian's own programs live; /usr/local and $HOME hold none.
DEBIAN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
# The package whose removal the negative case expects to be named.
PROBE = "libqt6opengl6-dev"


def run(args, check=True):
    return subprocess.run(args, check=check, capture_output=True, text=True).stdout


def setup_packages(setup_sh):
    """The idem_packages array of a setup.sh."""
    out = run(["bash", "-c", 'source "$1" && printf "%s\\n" "${idem_packages[@]}"', "_", setup_sh])
    return [p for p in out.split() if p]


def dependency_graph(packages):
    """What apt-cache depends shows from `packages`: each package (virtual
    ones as well) to the packages its Depends and Pre-Depends name, and each
    virtual package to its providers; without architecture suffixes."""
    out = run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
               "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"] + packages,
              check=False)
    graph = {}
    package = target = None
    clean = lambda word: word.strip().strip("<>").split(":")[0]
    for line in out.splitlines():
        dep = re.match(r"^\s+\|?(?:Pre)?Depends:\s*(\S+)", line)
        if not line.startswith(" "):
            package = clean(line)
            graph.setdefault(package, set())
        elif dep:
            target = clean(dep.group(1))
            graph[package].add(target)
        elif line.startswith("    ") and target:  # a provider of the virtual target
            graph.setdefault(target, set()).add(clean(line))
    return graph


def reachable(graph, roots):
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(graph.get(p, ()))
    return seen


def base_system():
    """Packages on every Debian system: Essential, or Priority required."""
    out = run(["dpkg-query", "-W", "-f", "${Package}\\t${Essential}\\t${Priority}\\n"])
    base = set()
    for line in out.splitlines():
        name, essential, priority = (line.split("\t") + ["", ""])[:3]
        if essential == "yes" or priority == "required":
            base.add(name)
    return base


def twins(path):
    """The path and its merged-/usr twin: dpkg knows /bin/bash, not /usr/bin/bash."""
    for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/")):
        if path.startswith(a):
            return [path, b + path[len(a):]]
        if path.startswith(b):
            return [path, a + path[len(b):]]
    return [path]


def owners(paths):
    """For each path, the packages owning it or the file its symlinks and
    alternatives lead to (one dpkg-query for all)."""
    candidates = {path: [c for p in dict.fromkeys([path, os.path.realpath(path)]) for c in twins(p)]
                  for path in paths}
    every = sorted({c for cs in candidates.values() for c in cs})
    out = subprocess.run(["dpkg-query", "-S"] + every, capture_output=True, text=True).stdout
    owned = {}
    for line in out.splitlines():
        if line.startswith("diversion by") or ": " not in line:
            continue
        pkgs, path = line.rsplit(": ", 1)
        owned.setdefault(path, set()).update(x.strip().split(":")[0] for x in pkgs.split(","))
    return {path: set().union(*(owned.get(c, set()) for c in cs)) for path, cs in candidates.items()}


def configure_files(build_dir):
    """(what, file) for each file the configure step found."""
    files = []
    with open(os.path.join(build_dir, "build.ninja"), encoding="utf-8") as ninja:
        link_lines = ninja.read()
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as cache:
        for line in cache:
            m = re.match(r"^([A-Za-z0-9_]+):(PATH|FILEPATH)=(.*)$", line.rstrip("\n"))
            if not m:
                continue
            name, kind, value = m.groups()
            if not value.startswith("/") or value.endswith("NOTFOUND") or not os.path.exists(value):
                continue
            if kind == "PATH" and name.endswith("_DIR") and os.path.isdir(value):
                package = name[: -len("_DIR")]
                for config in (f"{package}Config.cmake", f"{package.lower()}-config.cmake"):
                    if os.path.isfile(os.path.join(value, config)):
                        files.append((name, os.path.join(value, config)))
                        break
            elif kind == "FILEPATH" and os.path.isfile(value):
                if name in OPTIONAL_FINDS and os.path.basename(value) not in link_lines:
                    continue
                files.append((name, value))
    return files


def called_programs(root):
    """The programs the test scripts call: the first word of each command, in
    tests/*.sh and scripts/*.sh, outside comments, here-documents and
    single-quoted text over several lines (a python3 -c program)."""
    words = set()
    for folder in ("tests", "scripts"):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith(".sh"):
                continue
            heredoc = None
            quoted = False  # inside a single-quoted string over several lines (python3 -c '...')
            with open(os.path.join(root, folder, name), encoding="utf-8") as script:
                for line in script:
                    if heredoc:
                        if line.strip() == heredoc:
                            heredoc = None
                        continue
                    if not quoted:
                        line = re.sub(r"(^|\s)#.*", "", line)  # a comment's apostrophes count for nothing
                    if quoted:
                        if "'" not in line:
                            continue
                        line = line.split("'", 1)[1]
                        quoted = False
                    if line.count("'") % 2 == 1:
                        line = line.rsplit("'", 1)[0]
                        quoted = True
                    m = re.search(r"<<-?\s*'?\"?(\w+)", line)
                    if m:
                        heredoc = m.group(1)
                    code = re.sub(r"(^|\s)#.*", "", line)
                    for segment in re.split(r"\|\||&&|[|;({]|\$\(|\bthen\b|\bdo\b|\belse\b|!", code):
                        first = segment.split()
                        while first and (re.match(r"^\w+=", first[0]) or first[0] in ("if", "while", "until", "exec", "sudo", "$sudo", "time", "command")):
                            first = first[1:]
                        if first and re.match(r"^[a-z][a-z0-9.+-]*$", first[0]):
                            words.add(first[0])
    found = sorted(w for w in words if shutil.which(w, path=DEBIAN_PATH))
    kinds = run(["bash", "-c", 'for w; do echo "$w $(type -t "$w")"; done', "_"] + found).split("\n")
    return {k.split()[0] for k in kinds if k.strip() and k.split()[-1] == "file"}


def needs(build_dir, root):
    """(what, path, owners) for every file the build and the tests use."""
    wanted = configure_files(build_dir)
    for pattern in RUNTIME_FILES:
        matches = glob.glob(pattern)
        wanted.append(("loaded by the tests", matches[0] if matches else pattern))
    for tool in sorted(set(TOOLS) | called_programs(root)):
        wanted.append((tool, shutil.which(tool, path=DEBIAN_PATH) or tool))
    found = owners([path for _, path in wanted if os.path.isabs(path) and os.path.exists(path)])
    return [(what, path, found.get(path, set())) for what, path in wanted]


def problems(installed, used, label):
    """One line for each package that `installed` misses."""
    lines = []
    for what, path, found in used:
        if not os.path.isabs(path) or not os.path.exists(path):
            lines.append(f"{what}: {path} is not installed")
        elif not found:
            lines.append(f"{what}: {path} belongs to no Debian package")
        for package in sorted(found - installed):
            lines.append(f"{package} is missing from {label} (it owns {path}, used as {what})")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the build folder (CMakeCache.txt)")
    parser.add_argument("--root", required=True, help="the source folder")
    args = parser.parse_args()
    override = os.environ.get("IDEM_SETUP_SH")
    setup_sh = override or os.path.join(args.root, "scripts", "setup.sh")
    packages = setup_packages(setup_sh)
    passed = failed = 0

    used = needs(args.build, args.root)
    graph = dependency_graph(packages)
    unknown = [p for p in packages if p not in graph]
    if unknown:
        print(f"FAIL: apt-cache does not know {', '.join(unknown)} (apt-get update first?)")
        print("0 passed, 1 failed")
        return 1
    base = base_system()
    found = problems(reachable(graph, packages) | base, used, f"idem_packages in {setup_sh}")
    for line in found:
        print("FAIL:", line)
    if found:
        failed += 1
    else:
        passed += 1
        print(f"every package used is reachable from the {len(packages)} in {setup_sh}")

    if not override:
        # The negative case: without the probe the check must name it.
        reduced = [p for p in packages if p != PROBE]
        found = problems(reachable(graph, reduced) | base, used, "the list without " + PROBE)
        named = [line for line in found if line.startswith(PROBE + " is missing")]
        if named:
            passed += 1
            print(f"without {PROBE} the check fails: {named[0]}")
        else:
            failed += 1
            print(f"FAIL: removing {PROBE} from the list went unnoticed: {found}")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
