#!/usr/bin/env python3
"""Package closure: ./run.sh and ./test.sh install, on a fresh Debian 12, every
package they need. Each file the configure step found (the CMake package
configs of CMakeCache.txt's *_DIR entries, the programs and libraries of its
FILEPATH entries) and each program the tests and the packaging run is owned by
a Debian package; that package must be reachable from idem_packages in
scripts/setup.sh through Depends and Pre-Depends alone (apt-cache depends), or
be part of every Debian system (Essential, or Priority required).

What this machine has installed by hand must not decide the answer:
- The programs the scripts (*.sh at the top, in tests/ and in scripts/) run
  are read as bash reads them: the first word of each command, also inside
  $(...), `...`, <(...), a trap's handler, an `sh -c` program and the
  substitutions of an unquoted here-document. A word in quotes, in a
  here-document (the program of `python3 - <<EOF` or `python3 -c '...'`), in
  a comment, an argument, a file name or an array is not run, nor is a
  function the script defines. A failure names the script and line that run
  the program.
- A path that leads through Debian's alternatives (a link into
  /etc/alternatives) is provided by any of the alternative's candidates
  (update-alternatives --query): one of them in the closure, or part of every
  system, is enough. Which candidate this machine chose does not matter.

The test also removes qt6-charts-dev from the list and checks that it is
named as missing: a check that cannot fail proves nothing.

IDEM_SETUP_SH=FILE checks the list in FILE instead, and only that.
--commands prints the programs the scripts run, and where, and stops.

For tests/closure_selftest.py, which plays a machine with extra packages
without changing this one:
IDEM_CLOSURE_PATH=DIRS  looks programs up in DIRS (colon-separated) instead
                        of /usr/sbin:/usr/bin:/sbin:/bin;
IDEM_CLOSURE_ALTDIR=DIR, IDEM_CLOSURE_ADMINDIR=DIR  are the alternatives'
                        links and records (update-alternatives --altdir and
                        --admindir) instead of /etc/alternatives and
                        /var/lib/dpkg/alternatives;
IDEM_CLOSURE_OWNERS=FILE  adds lines in dpkg-query -S's form
                        ("package: /path") to what dpkg says owns which file.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

# Programs the tests and the packaging run, besides the ones the project
# builds. The scan below adds every program that a shell script runs; the
# Python tests' programs are named here (jq: tests/exports_test.py).
TOOLS = [
    "bash", "python3", "sqlite3", "cmake", "ctest", "cpack", "gzip", "date",
    "dpkg-deb", "dpkg-shlibdeps", "desktop-file-validate", "appstreamcli", "man",
    "apt-cache", "dpkg-query", "jq",
]
# Files the tests load at run time, which no link line names.
RUNTIME_FILES = [
    "/usr/lib/*/qt6/plugins/platforms/libqoffscreen.so",
    "/usr/lib/*/qt6/plugins/sqldrivers/libqsqlite.so",
    "/usr/lib/*/qt6/plugins/iconengines/libqsvgicon.so",
    "/usr/share/qt6/translations/qtbase_zh_CN.qm",
    # live_test's private servers and what makes their data directories
    # (models/database/live/privateserver.cpp)
    "/usr/lib/postgresql/15/bin/postgres",
    "/usr/lib/postgresql/15/bin/initdb",
    "/usr/sbin/mariadbd",
    "/usr/bin/mariadb-install-db",
    "/usr/bin/my_print_defaults",
]
# FindOpenGL also looks for EGL and GLU. Nothing links them (checked against
# build.ninja below), so a machine without them configures all the same.
OPTIONAL_FINDS = {"OPENGL_egl_LIBRARY", "OPENGL_glu_LIBRARY"}
# Where Debian's own programs live; /usr/local and $HOME hold none.
DEBIAN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
# The package whose removal the negative case expects to be named.
PROBE = "qt6-charts-dev"
# The folders (under the source folder) whose *.sh scripts are read for the
# programs they run: ./test.sh and ./run.sh, the tests, the set-up and CI.
SCRIPT_FOLDERS = ("tests", "scripts", "")

# The machine the check reads; the self-test points these elsewhere.
SEARCH_PATH = os.environ.get("IDEM_CLOSURE_PATH", DEBIAN_PATH)
ALTDIR = os.environ.get("IDEM_CLOSURE_ALTDIR", "/etc/alternatives")
ADMINDIR = os.environ.get("IDEM_CLOSURE_ADMINDIR", "/var/lib/dpkg/alternatives")
OWNERS_FILE = os.environ.get("IDEM_CLOSURE_OWNERS")


def run(args, check=True):
    return subprocess.run(args, check=check, capture_output=True, text=True).stdout


# --- The programs a script runs ---------------------------------------------

# Shell operators, the longest first so that "&&" is not read as two "&".
OPERATORS = sorted([";;&", ";;", ";&", "&&", "||", "|&", "&>>", "&>", "<<<", "<<-", "<<",
                    "<>", "<&", ">&", ">>", ">|", ";", "&", "|", "(", ")", "<", ">"],
                   key=len, reverse=True)
# After these the next word names a file (or a here-document's end), not a command.
REDIRECTIONS = {"<", ">", ">>", ">|", "<>", "<&", ">&", "&>", "&>>", "<<<", "<<", "<<-"}
# Reserved words after which the next word names a command again.
LEADING_KEYWORDS = {"if", "then", "else", "elif", "do", "while", "until", "{", "!", "time"}
# Reserved words that end a compound command: what follows are redirections.
CLOSING_KEYWORDS = {"fi", "done", "}", "esac"}
# Programs that run the command named after them (and their own options).
WRAPPERS = {"exec", "command", "builtin", "nohup", "env", "sudo"}
# setup.sh runs `$sudo apt-get ...`: $sudo holds sudo, or nothing for root.
SUDO_VARIABLES = {"$sudo", '"$sudo"', "${sudo}", '"${sudo}"'}
# What a program's name looks like; anything else ("$B", ./x, [) is no
# Debian package's program.
PROGRAM_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
# NAME=, NAME+= or NAME[i]= at the start of a word: an assignment.
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
SHELL_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]")


class Word:
    """A shell word: as written (raw), with the quotes removed but expansions
    left as written (text), whether it has no expansion (literal), whether any
    part was quoted, and the line it starts on."""

    def __init__(self, raw, text, literal, quoted, line):
        self.raw, self.text, self.literal, self.quoted, self.line = raw, text, literal, quoted, line


class ShellCommands:
    """The commands a shell program runs, read the way bash reads it.
    After program(): runs, the (name, line) of each command whose name is a
    literal word, and functions, the names the program defines as functions."""

    def __init__(self, text, line=1):
        self.text, self.i, self.line = text, 0, line
        self.runs = []
        self.functions = set()
        self.heredocs = []  # (delimiter, strip tabs, expands) begun on the current line

    # Characters.

    def peek(self, ahead=0):
        at = self.i + ahead
        return self.text[at] if at < len(self.text) else ""

    def step(self):
        if self.peek() == "\n":
            self.line += 1
        self.i += 1

    def advance(self, to):
        to = min(to, len(self.text))
        self.line += self.text.count("\n", self.i, to)
        self.i = to

    def skip_blanks(self):
        while True:
            if self.peek() in (" ", "\t"):
                self.i += 1
            elif self.peek() == "\\" and self.peek(1) == "\n":
                self.advance(self.i + 2)
            else:
                return

    def take(self, inner):
        """Adopt what a program read on its own (a `...`, a trap's handler) found."""
        self.runs += inner.runs
        self.functions |= inner.functions

    def scan(self, text, line):
        inner = ShellCommands(text, line)
        inner.program()
        self.take(inner)

    # Tokens: a Word, an operator, "\n", or None at the end.

    def token(self):
        while True:
            self.skip_blanks()
            c = self.peek()
            if not c:
                return None
            if c == "#":
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
                continue
            if c == "\n":
                self.step()
                self.read_heredocs()
                return "\n"
            if c in "<>" and self.peek(1) == "(":
                return self.word()  # <(...) and >(...): a word whose commands run
            operator = next((op for op in OPERATORS if self.text.startswith(op, self.i)), None)
            if operator:
                self.i += len(operator)
                return operator
            word = self.word()
            if word.raw.isdigit() and self.peek() in ("<", ">"):
                continue  # 2>file: the descriptor of the redirection that follows
            return word

    def word(self):
        start, line = self.i, self.line
        parts, literal, quoted = [], True, False
        while self.i < len(self.text):
            c = self.text[self.i]
            before = self.text[start:self.i]
            if c in "<>" and self.peek(1) == "(" and not before:
                self.i += 2
                self.program(closer=")")
                literal = False
                parts.append(self.text[start:self.i])
                continue
            if c == "(" and ASSIGNMENT.fullmatch(before):
                self.i += 1
                self.array()
                literal = False
                continue
            if c == "(" and before and before[-1] in "@*+?!":
                self.extglob()
                literal = False
                continue
            if c in " \t\n;&|()<>":
                break
            if c == "\\":
                if self.peek(1) == "\n":
                    self.advance(self.i + 2)
                    continue
                parts.append(self.peek(1))
                self.i += 2
                quoted = True
            elif c == "'":
                end = self.text.find("'", self.i + 1)
                end = len(self.text) if end < 0 else end
                parts.append(self.text[self.i + 1:end])
                self.advance(end + 1)
                quoted = True
            elif c == '"':
                self.i += 1
                text, plain = self.double_quoted()
                parts.append(text)
                literal &= plain
                quoted = True
            elif c == "$":
                text, plain, was_quoted = self.dollar(in_double=False)
                parts.append(text)
                literal &= plain
                quoted |= was_quoted
            elif c == "`":
                parts.append(self.backquoted())
                literal = False
            else:
                parts.append(c)
                self.i += 1
        return Word(self.text[start:self.i], "".join(parts), literal, quoted, line)

    def double_quoted(self):
        """Read up to the closing double quote: (text, whether literal)."""
        parts, literal = [], True
        while self.i < len(self.text):
            c = self.text[self.i]
            if c == '"':
                self.i += 1
                break
            if c == "\\" and self.peek(1) in ('$', '`', '"', '\\', '\n'):
                if self.peek(1) != "\n":
                    parts.append(self.peek(1))
                self.advance(self.i + 2)
            elif c == "$":
                text, plain, _ = self.dollar(in_double=True)
                parts.append(text)
                literal &= plain
            elif c == "`":
                parts.append(self.backquoted())
                literal = False
            else:
                parts.append(c)
                self.step()
        return "".join(parts), literal

    def dollar(self, in_double):
        """Read what starts at a $: (text, whether literal, whether quoted).
        Command substitutions are read as programs: their commands run."""
        start, after = self.i, self.peek(1)
        if self.text.startswith("$((", self.i):
            self.i += 3
            self.arithmetic()
        elif after == "(":
            self.i += 2
            self.program(closer=")")
        elif after == "{":
            self.i += 2
            self.parameter(in_double)
        elif after == "'" and not in_double:  # $'...': escapes, no expansion
            end = self.i + 2
            while end < len(self.text) and self.text[end] != "'":
                end += 2 if self.text[end] == "\\" else 1
            text = self.text[self.i + 2:end]
            self.advance(end + 1)
            return text, True, True
        elif after == '"' and not in_double:  # $"...": a translatable string
            self.i += 2
            text, plain = self.double_quoted()
            return text, plain, True
        elif SHELL_VARIABLE.match(after):
            self.i = SHELL_VARIABLE.match(self.text, self.i + 1).end()
        elif after and after in "@*#?$!-":
            self.i += 2
        else:
            self.i += 1
            return "$", True, False  # a $ that starts nothing is itself
        return self.text[start:self.i], False, False

    def arithmetic(self):
        """Skip to the end of $(( or (( : numbers and names, no commands."""
        depth = 2
        while self.i < len(self.text) and depth:
            depth += {"(": 1, ")": -1}.get(self.peek(), 0)
            self.step()

    def parameter(self, in_double):
        """Read ${...} up to its closing brace; a substitution inside still runs."""
        depth = 1
        while self.i < len(self.text) and depth:
            c = self.peek()
            if c == "\\":
                self.step()
                self.step()
            elif c == "'" and not in_double:
                end = self.text.find("'", self.i + 1)
                self.advance(len(self.text) if end < 0 else end + 1)
            elif c == '"':
                self.i += 1
                self.double_quoted()
            elif c == "$":
                self.dollar(in_double)
            elif c == "`":
                self.backquoted()
            else:
                depth += {"{": 1, "}": -1}.get(c, 0)
                self.step()

    def extglob(self):
        """Skip a pattern such as @(a|b) or *(x): part of a word."""
        depth = 0
        while self.i < len(self.text):
            depth += {"(": 1, ")": -1}.get(self.peek(), 0)
            self.step()
            if depth == 0:
                return

    def backquoted(self):
        """Read `...`, the older $(...): a program of its own."""
        start, line = self.i, self.line
        end, body = self.i + 1, []
        while end < len(self.text) and self.text[end] != "`":
            if self.text[end] == "\\" and self.text[end + 1:end + 2] in ("`", "\\", "$"):
                body.append(self.text[end + 1])
                end += 2
            else:
                body.append(self.text[end])
                end += 1
        self.advance(end + 1)
        self.scan("".join(body), line)
        return self.text[start:self.i]

    def array(self):
        """Read the elements of NAME=(...): values, not commands."""
        while True:
            token = self.token()
            if token is None or token == ")":
                return

    def read_heredocs(self):
        """Read the bodies of the here-documents begun on the line just ended.
        A body is text for the program that reads it; only with an unquoted
        delimiter do its $(...) and `...` run, in the shell."""
        pending, self.heredocs = self.heredocs, []
        for delimiter, strip_tabs, expands in pending:
            start, line = self.i, self.line
            end_of_body = len(self.text)
            while self.i < len(self.text):
                end = self.text.find("\n", self.i)
                end = len(self.text) if end < 0 else end
                current = self.text[self.i:end]
                if (current.lstrip("\t") if strip_tabs else current) == delimiter:
                    end_of_body = self.i
                    self.advance(end + 1)
                    break
                self.advance(end + 1)
            if expands:
                inner = ShellCommands(self.text[start:end_of_body], line)
                inner.substitutions()
                self.take(inner)

    def substitutions(self):
        """Read a here-document body with an unquoted delimiter."""
        while self.i < len(self.text):
            c = self.peek()
            if c == "\\":
                self.step()
                self.step()
            elif c == "$":
                self.dollar(in_double=True)
            elif c == "`":
                self.backquoted()
            else:
                self.step()

    def skip_to(self, end):
        """Skip the words up to `end`: the subject of a case, the test of [[ ]]."""
        while True:
            token = self.token()
            if token is None or (isinstance(token, Word) and token.raw == end):
                return

    def for_header(self):
        """Skip `NAME in WORDS;` or `((...))` after for or select: values, not commands."""
        self.skip_blanks()
        if self.text.startswith("((", self.i):
            self.i += 2
            self.arithmetic()
            return
        while True:
            token = self.token()
            if token in (None, ";", "\n") or (isinstance(token, Word) and token.raw == "do"):
                return

    def function_parens(self):
        """Read the () after a function's name, if it is there."""
        at = self.i
        while self.text[at:at + 1] in (" ", "\t"):
            at += 1
        if self.text[at:at + 1] != "(":
            return False
        at += 1
        while self.text[at:at + 1] in (" ", "\t"):
            at += 1
        if self.text[at:at + 1] != ")":
            return False
        self.i = at + 1
        return True

    def argument(self, name, args, word):
        """An argument is not run, except a trap's handler and an sh -c program."""
        if name == "trap" and not args and not word.text.startswith("-"):
            self.scan(word.text, word.line)
        elif name in ("sh", "bash", "dash") and args and re.fullmatch(r"-[a-z]*c[a-z]*", args[-1].text):
            self.scan(word.text, word.line)

    def program(self, closer=None):
        """Read commands to the end of the text, or to the `closer` ")" of a $(...)."""
        command = True      # the next word names a command
        depth = 0           # subshells "(" opened in this program
        cases = []          # each open case: "pattern" or "body"
        redirection = None  # the redirection whose file the next word names
        wrapper = None      # exec, command, sudo...: the next word names the command
        name, args = None, []  # the command being read and its arguments so far
        while True:
            if command:
                self.skip_blanks()
                if self.text.startswith("((", self.i):  # (( arithmetic ))
                    self.i += 2
                    self.arithmetic()
                    command, name = False, None
                    continue
            token = self.token()
            if token is None:
                return
            if not isinstance(token, Word):  # an operator or a new line
                redirection = None
                if cases and cases[-1] == "pattern":
                    if token == ")":
                        cases[-1] = "body"
                        command, wrapper = True, None
                    continue  # "(", "|" and new lines between patterns
                if token in REDIRECTIONS:
                    redirection = token
                    continue
                if token == ")":
                    if depth == 0:
                        if closer:
                            return
                        continue
                    depth -= 1
                    command, name = False, None
                    continue
                if token == "(":
                    depth += 1
                elif token in (";;", ";&", ";;&") and cases:
                    cases[-1] = "pattern"
                command, name, wrapper = True, None, None
                continue
            word = token
            if redirection:
                if redirection in ("<<", "<<-"):
                    self.heredocs.append((word.text, redirection == "<<-", not word.quoted))
                redirection = None
                continue
            if cases and cases[-1] == "pattern":
                if word.raw == "esac":
                    cases.pop()
                    command, name = False, None
                continue
            if not command:
                self.argument(name, args, word)
                args.append(word)
                continue
            keyword = word.raw if word.literal and not word.quoted and not wrapper else None
            if keyword in LEADING_KEYWORDS:
                continue
            if keyword in CLOSING_KEYWORDS:
                if keyword == "esac" and cases:
                    cases.pop()
                command, name = False, None
                continue
            if keyword == "case":
                self.skip_to("in")
                cases.append("pattern")
                continue
            if keyword in ("for", "select"):
                self.for_header()
                continue
            if keyword == "[[":
                self.skip_to("]]")
                command, name = False, None
                continue
            if keyword == "function":
                token = self.token()
                if isinstance(token, Word):
                    self.functions.add(token.text)
                    self.function_parens()
                continue
            if ASSIGNMENT.match(word.raw):
                continue  # NAME=value before the command, or env's
            if wrapper and word.text.startswith("-"):
                if wrapper == "command" and word.text in ("-v", "-V"):
                    command, name, wrapper = False, None, None  # a look-up, not a run
                continue  # the wrapper's own option
            if word.raw in SUDO_VARIABLES or (word.literal and word.text in WRAPPERS):
                if word.literal and PROGRAM_NAME.fullmatch(word.text):
                    self.runs.append((word.text, word.line))  # sudo and env are programs too
                wrapper = word.text
                continue
            if not wrapper and self.function_parens():
                self.functions.add(word.text)  # NAME () { ... }: the body follows
                continue
            if word.literal and PROGRAM_NAME.fullmatch(word.text):
                self.runs.append((word.text, word.line))
            name = word.text if word.literal else None
            args, command, wrapper = [], False, None


def script_commands(root):
    """The programs the scripts run: {name: "script:line" of its first run}.
    Shell builtins and keywords, functions a script defines and names found in
    none of SEARCH_PATH's folders are left out."""
    first = {}
    for folder in SCRIPT_FOLDERS:
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if not name.endswith(".sh") or not os.path.isfile(path):
                continue
            with open(path, encoding="utf-8") as script:
                scanner = ShellCommands(script.read())
            scanner.program()
            where = os.path.relpath(path, root)
            for command, line in scanner.runs:
                if command not in scanner.functions:
                    first.setdefault(command, f"{where}:{line}")
    builtins = set(run(["bash", "-c", "compgen -b -k"]).split())
    return {command: where for command, where in sorted(first.items())
            if command not in builtins and shutil.which(command, path=SEARCH_PATH)}


# --- The packages that provide a file ----------------------------------------

def parse_query(text):
    """update-alternatives --query's answer: the group's slave link names, and
    each candidate's path with the paths of its slaves."""
    slaves, candidates = set(), []
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    for n, paragraph in enumerate(paragraphs):
        path, links, in_slaves = None, {}, False
        for line in paragraph.splitlines():
            if line.startswith(" ") and in_slaves:
                link, _, target = line.strip().partition(" ")
                links[link] = target.strip()
                continue
            key, _, value = line.partition(":")
            in_slaves = key == "Slaves"
            if key == "Alternative":
                path = value.strip()
        if n == 0:
            slaves = set(links)
        elif path:
            candidates.append((path, links))
    return slaves, candidates


class Alternatives:
    """Debian's alternatives: every file a link name may stand for on some
    machine (each candidate update-alternatives knows), not only the one this
    machine chose."""

    def __init__(self, altdir, admindir):
        self.altdir = os.path.realpath(altdir)
        self.admindir = admindir
        self.groups = {}     # name -> parse_query(), or None when it is no group's master
        self.masters = None  # the groups' names, read once a slave link is met

    def ask(self, *args):
        return subprocess.run(["update-alternatives", "--altdir", self.altdir,
                               "--admindir", self.admindir, *args], capture_output=True, text=True)

    def group(self, name):
        if name not in self.groups:
            answer = self.ask("--query", name)
            self.groups[name] = parse_query(answer.stdout) if answer.returncode == 0 else None
        return self.groups[name]

    def candidates(self, name):
        """The files the link `name` in the alternatives folder may stand for."""
        if self.group(name):
            return [path for path, _ in self.group(name)[1]]
        # A slave link (nawk follows awk): its group's candidates that have it.
        if self.masters is None:
            self.masters = [line.split()[0] for line in self.ask("--get-selections").stdout.splitlines()
                            if line.strip()]
        for master in self.masters:
            group = self.group(master)
            if group and name in group[0]:
                return [links[name] for _, links in group[1] if name in links]
        return []


def resolve(path, alternatives, seen=frozenset()):
    """(alternative, chains): the ways a machine may provide `path`, each the
    files along one chain of symbolic links, whose owners it needs together.
    A link into the alternatives folder branches to every candidate of that
    alternative, which is named; any other path has one chain."""
    chain, current = [path], path
    for _ in range(40):  # a loop of links ends here
        if not os.path.islink(current):
            break
        target = os.path.normpath(os.path.join(os.path.realpath(os.path.dirname(current)),
                                               os.readlink(current)))
        name = os.path.basename(target)
        if os.path.dirname(target) == alternatives.altdir and name not in seen:
            candidates = alternatives.candidates(name)
            if candidates:  # an unknown group: follow this machine's link, as before
                ways = []
                for candidate in candidates:
                    ways += [chain + more for more in resolve(candidate, alternatives, seen | {name})[1]]
                return name, ways
        chain.append(target)
        current = target
    return None, [chain]


def twins(path):
    """The path and its merged-/usr twin: dpkg knows /bin/bash, not /usr/bin/bash."""
    for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/")):
        if path.startswith(a):
            return [path, b + path[len(a):]]
        if path.startswith(b):
            return [path, a + path[len(b):]]
    return [path]


def owners(paths):
    """For each path, the packages owning it (one dpkg-query for all)."""
    every = sorted({twin for path in paths for twin in twins(path)})
    out = subprocess.run(["dpkg-query", "-S"] + every, capture_output=True, text=True).stdout if every else ""
    if OWNERS_FILE:
        with open(OWNERS_FILE, encoding="utf-8") as extra:
            out += "\n" + extra.read()
    owned = {}
    for line in out.splitlines():
        if line.startswith("diversion by") or ": " not in line:
            continue
        pkgs, path = line.rsplit(": ", 1)
        owned.setdefault(path, set()).update(x.strip().split(":")[0] for x in pkgs.split(","))
    return {path: set().union(*(owned.get(twin, set()) for twin in twins(path))) for path in paths}


class Need:
    """A file the build, the tests or the packaging use, and why (how). ways:
    for each way a machine may provide it, the packages that way needs; none
    when the file is not there. alternative: the alternative it goes through."""

    def __init__(self, path, how):
        self.path, self.how = path, how
        self.ways, self.alternative = [], None


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


def needs(build_dir, root):
    """A Need for every file the build and the tests use."""
    wanted = [(path, f"used as {what}") for what, path in configure_files(build_dir)]
    for pattern in RUNTIME_FILES:
        matches = glob.glob(pattern)
        wanted.append((matches[0] if matches else pattern, "loaded by the tests"))
    scripts = script_commands(root)
    for tool in sorted(set(TOOLS) | set(scripts)):
        where = scripts.get(tool)
        how = f"run as {tool} at {where}" if where else f"run as {tool} by the build, the tests or the packaging"
        wanted.append((shutil.which(tool, path=SEARCH_PATH) or tool, how))

    alternatives = Alternatives(ALTDIR, ADMINDIR)
    result, chains = [], []
    for path, how in wanted:
        need = Need(path, how)
        if os.path.isabs(path) and os.path.exists(path):
            need.alternative, need_chains = resolve(path, alternatives)
            chains.append(need_chains)
        else:
            chains.append([])
        result.append(need)
    found = owners(sorted({f for need_chains in chains for chain in need_chains for f in chain}))
    for need, need_chains in zip(result, chains):
        need.ways = [set().union(*(found[f] for f in chain)) for chain in need_chains]
    return result


# --- The check -----------------------------------------------------------------

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


def problems(available, used, label):
    """One line for each need that the packages `available` do not meet."""
    lines = []
    for need in used:
        if not need.ways:
            lines.append(f"{need.path} is not installed ({need.how})")
            continue
        if any(way and way <= available for way in need.ways):
            continue
        owned = [way for way in need.ways if way]
        if not owned:
            lines.append(f"{need.path} belongs to no Debian package ({need.how})")
        elif need.alternative is None:
            for package in sorted(owned[0] - available):
                lines.append(f"{package} is missing from {label} (it owns {need.path}, {need.how})")
        else:
            choices = sorted({" and ".join(sorted(way - available)) for way in owned})
            which = "it provides" if len(choices) == 1 else "each provides"
            lines.append(f"{' or '.join(choices)} is missing from {label} ({which} {need.path} "
                         f"through the {need.alternative} alternative, {need.how})")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the build folder (CMakeCache.txt)")
    parser.add_argument("--root", required=True, help="the source folder")
    parser.add_argument("--commands", action="store_true",
                        help="print the programs the scripts run, and where, and stop")
    args = parser.parse_args()
    if args.commands:
        for command, where in script_commands(args.root).items():
            print(f"{command}\t{where}")
        return 0
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
