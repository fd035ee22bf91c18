#!/usr/bin/env python3
"""--connect URL (SPEC section 8, "Servers"): a run on a server the user
already runs. A private server started with --keep plays the user's server;
on it the test makes a user with a password and the right to create
databases, as a department's administrator would, and one without that
right. Then, on PostgreSQL and MariaDB:
- runs with --connect give the verdicts and counts of the same runs on a
  private server (check-for-update concurrent: MariaDB deadlocks, PostgreSQL
  waits), through a unix socket and with the password from the URL or from
  PGPASSWORD / MYSQL_PWD;
- afterwards the server's databases are exactly those it had before;
- with --keep the run's database stays, and the printed command counts the
  rows the summary reports;
- a run killed (SIGKILL), or interrupted twice 10-90 ms apart, leaves no
  database: the guard it left behind drops it (IDEM_CONNECT_KILLS tries of
  each, default 2);
- a wrong password, an unreachable socket, a user who may not create
  databases and a --backend that disagrees with the URL are each one line,
  exit 2, never the password, and leave the databases as they were.
Every server it starts is stopped and its folder removed. Skips when the
servers' programs are absent."""
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

IDEMLAB = sys.argv[1]
SERVERS = {"postgres": "/usr/lib/postgresql/15/bin/postgres", "mariadb": "/usr/sbin/mariadbd"}
PASSWORD = "s3cret-Pw"
WRONG = "not-the-Pw"
SCENARIO = ["--scenario", "order-create", "--variant", "check-for-update", "--timing",
            "concurrent", "--seed", "2"]
COMPARED = ["verdict", "backend", "isolation", "lock_waits", "deadlocks",
            "serialization_failures", "effects", "integrity"]


def run(args, env=None, timeout=300):
    return subprocess.run([IDEMLAB] + args, capture_output=True, text=True, timeout=timeout,
                          env=env)


class UserServer:
    """A private server left running with --keep: the user's server."""

    def __init__(self, backend):
        self.backend = backend
        done = run(["run", "--scenario", "order-create", "--variant", "none", "--duplicates",
                    "0", "--backend", backend, "--keep", "--json"])
        if done.returncode != 0:
            raise RuntimeError(f"{backend}: --keep failed ({done.returncode}): {done.stderr}")
        stop = re.search(r"stop:\s+kill (\d+) \(then remove (\S+)\)", done.stderr)
        connect = re.search(r"connect: (.+)", done.stderr)
        if not stop or not connect:
            raise RuntimeError(f"{backend}: no connect and stop lines: {done.stderr!r}")
        self.pid, self.folder = int(stop.group(1)), stop.group(2)
        line = connect.group(1)
        if backend == "postgres":
            self.socket = re.search(r"-h (\S+)", line).group(1)
            self.admin = ["psql", "-h", self.socket, "-U", re.search(r"-U (\S+)", line).group(1),
                          "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-tA"]
        else:
            self.socket = re.search(r"--socket=(\S+)", line).group(1)
            self.admin = ["mariadb", f"--socket={self.socket}",
                          "-u", re.search(r"-u (\S+)", line).group(1), "-N", "-B"]

    def sql(self, statement):
        flag = "-c" if self.backend == "postgres" else "-e"
        done = subprocess.run(self.admin + [flag, statement], capture_output=True, text=True,
                              timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{self.backend}: `{statement}` failed: {done.stderr}")
        return done.stdout

    def log(self):
        with open(os.path.join(self.folder, "server.log"), encoding="utf-8",
                  errors="replace") as f:
            return f.read()

    def databases(self):
        query = ("SELECT datname FROM pg_database ORDER BY 1" if self.backend == "postgres"
                 else "SHOW DATABASES")
        return sorted(self.sql(query).split())

    def add_users(self):
        """A user with a password who may create databases, one who may not."""
        if self.backend == "postgres":
            self.sql(f"CREATE ROLE student LOGIN CREATEDB PASSWORD '{PASSWORD}'")
            self.sql(f"CREATE ROLE visitor LOGIN PASSWORD '{PASSWORD}'")
            # Passwords count for everyone but the server's own administrator.
            hba = self.sql("SHOW hba_file").strip()
            admin = self.admin[self.admin.index("-U") + 1]
            with open(hba, "w", encoding="utf-8") as f:
                f.write(f"local all {admin} trust\nlocal all all scram-sha-256\n")
            self.sql("SELECT pg_reload_conf()")
            time.sleep(0.5)
        else:
            for user in ("student", "visitor"):
                self.sql(f"CREATE USER {user}@localhost IDENTIFIED BY '{PASSWORD}'")
                # Lock waits are read from InnoDB's status: PROCESS.
                self.sql(f"GRANT PROCESS ON *.* TO {user}@localhost")
            self.sql("GRANT ALL ON `idemlab\\_%`.* TO student@localhost")

    def url(self, user, password=None):
        secret = f":{password}" if password else ""
        if self.backend == "postgres":
            return f"postgres://{user}{secret}@/postgres?host={self.socket}"
        return f"mariadb://{user}{secret}@localhost/?socket={self.socket}"

    def stop(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and os.path.exists(f"/proc/{self.pid}"):
                time.sleep(0.05)
            if os.path.exists(f"/proc/{self.pid}"):
                os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        subprocess.run(["rm", "-rf", self.folder])


def same_as_private(server, problems):
    private = run(["run", "--backend", server.backend, "--json"] + SCENARIO)
    if private.returncode != 0:
        problems.append(f"{server.backend}: the private run failed: {private.stderr}")
        return
    expected = json.loads(private.stdout)
    env = dict(os.environ)
    variable = "PGPASSWORD" if server.backend == "postgres" else "MYSQL_PWD"
    env.pop(variable, None)
    ways = [("the password in the URL", server.url("student", PASSWORD), env,
             ["--backend", server.backend]),
            (variable, server.url("student"), dict(env, **{variable: PASSWORD}), [])]
    for how, url, environment, extra in ways:
        done = run(["run", "--connect", url, "--json"] + extra + SCENARIO, env=environment)
        if done.returncode != 0:
            problems.append(f"{server.backend} ({how}): exit {done.returncode}: {done.stderr}")
            continue
        got = json.loads(done.stdout)
        for key in COMPARED:
            if got.get(key) != expected.get(key):
                problems.append(f"{server.backend} ({how}): {key} {got.get(key)!r}, on a private "
                                f"server {expected.get(key)!r}")
        print(f"ok: {server.backend} ({how}): {got['verdict']}, lock_waits {got['lock_waits']}, "
              f"deadlocks {got['deadlocks']}, as on a private server")
    if server.backend == "mariadb" and expected["deadlocks"] < 1:
        problems.append(f"mariadb: check-for-update concurrent had no deadlock: {expected}")
    if server.backend == "postgres" and (expected["lock_waits"] < 1 or expected["deadlocks"]):
        problems.append(f"postgres: check-for-update concurrent: {expected}")


def kept(server, problems):
    done = run(["run", "--scenario", "order-create", "--variant", "none", "--duplicates", "2",
                "--connect", server.url("student", PASSWORD), "--keep", "--json"])
    if done.returncode != 0:
        problems.append(f"{server.backend}: --connect --keep failed: {done.stderr}")
        return None
    if PASSWORD in done.stderr or PASSWORD in done.stdout:
        problems.append(f"{server.backend}: --keep printed the password: {done.stderr!r}")
    connect = re.search(r"connect: (.+)", done.stderr)
    drop = re.search(r"drop:\s+(.+)", done.stderr)
    database = re.search(r"database (idemlab_[0-9a-f]+)", done.stderr)
    if not connect or not drop or not database:
        problems.append(f"{server.backend}: --keep printed no connect and drop lines: "
                        f"{done.stderr!r}")
        return None
    orders = json.loads(done.stdout)["effects"]["orders"]
    query = "SELECT COUNT(*) FROM orders"
    # -p asks for the password on a terminal; here it comes from MYSQL_PWD.
    command = connect.group(1).replace(" -p ", " ") + (f" -tAc '{query}'" if server.backend == "postgres"
                                  else f" -N -e '{query}'")
    env = dict(os.environ, PGPASSWORD=PASSWORD, MYSQL_PWD=PASSWORD)
    counted = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60,
                             env=env)
    rows = counted.stdout.strip()
    if counted.returncode != 0 or rows != str(orders):
        problems.append(f"{server.backend}: `{command}` gave {rows!r} ({counted.stderr.strip()}), "
                        f"the summary {orders} orders")
    else:
        print(f"ok: {server.backend}: --keep left {database.group(1)}; {command!r} counts "
              f"{rows} orders, as the summary")
    cleaned = run(["run", "--scenario", "order-create", "--variant", "unique-key", "--json",
                   "--clean", "--connect", server.url("student", PASSWORD)])
    if cleaned.returncode != 0 or database.group(1) not in server.databases():
        problems.append(f"{server.backend}: --clean dropped the kept {database.group(1)} "
                        f"({cleaned.returncode}): {cleaned.stderr!r}")
    dropped = subprocess.run(drop.group(1).replace(" -p ", " "), shell=True,
                             capture_output=True, text=True, timeout=60, env=env)
    if dropped.returncode != 0:
        problems.append(f"{server.backend}: `{drop.group(1)}` failed: {dropped.stderr}")
    return database.group(1)


def leftovers(server, problems):
    """Databases earlier runs left: a --connect run names them; with --clean
    it drops them, and only them: not one kept with --keep, not one a run
    made a moment ago, not one a session is in, not one of another name."""
    old = "idemlab run 2020-01-01T00:00:00Z"
    young = "idemlab run " + time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    made = {"idemlab_0000000000a1": None,  # an older version's: no comment
            "idemlab_0000000000b2": "idemlab kept 2020-01-01T00:00:00Z",
            "idemlab_0000000000c3": young,
            "idemlab_0000000000d4": old,  # a session is in it
            "idemlab_0000000000e5": old,
            "idemlab_extra": old}  # not a name the lab gives
    left = ["idemlab_0000000000a1", "idemlab_0000000000e5"]
    for name, comment in made.items():
        if server.backend == "postgres":
            server.sql(f"CREATE DATABASE {name} OWNER student")
            if comment:
                server.sql(f"COMMENT ON DATABASE {name} IS '{comment}'")
        else:
            server.sql(f"CREATE DATABASE {name}" + (f" COMMENT '{comment}'" if comment else ""))
    if server.backend == "postgres":
        inside = server.admin[:server.admin.index("-d")] + ["-d", "idemlab_0000000000d4", "-c",
                                                           "SELECT pg_sleep(60)"]
    else:
        inside = server.admin + ["idemlab_0000000000d4", "-e", "SELECT SLEEP(60)"]
    sleeper = subprocess.Popen(inside, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        url = server.url("student", PASSWORD)
        plain = ["run", "--scenario", "order-create", "--variant", "unique-key", "--json",
                 "--connect", url]
        said = run(plain)
        line = f"2 databases earlier runs left on "
        if said.returncode != 0 or line not in said.stderr or ", ".join(left) not in said.stderr:
            problems.append(f"{server.backend}: a run did not name what earlier runs left "
                            f"({said.returncode}): {said.stderr!r}")
        cleaned = run(plain + ["--clean"])
        there = set(server.databases())
        if (cleaned.returncode != 0 or "dropped 2 databases earlier runs left on" not in
                cleaned.stderr or any(n in there for n in left)
                or any(n not in there for n in made if n not in left)):
            problems.append(f"{server.backend}: --clean ({cleaned.returncode}) said "
                            f"{cleaned.stderr!r}; the server has {sorted(there)}")
        else:
            print(f"ok: {server.backend}: --clean dropped {left}, left the kept, the young, "
                  f"the busy and the other names")
        again = run(plain + ["--clean"])
        if "no database earlier runs left on" not in again.stderr:
            problems.append(f"{server.backend}: a second --clean said {again.stderr!r}")
        alone = run(["run", "--scenario", "order-create", "--clean"])
        if alone.returncode != 2 or "--clean" not in alone.stderr:
            problems.append(f"{server.backend}: --clean without --connect: exit "
                            f"{alone.returncode}: {alone.stderr!r}")
    finally:
        sleeper.kill()
        sleeper.wait()
    for name in made:
        if name not in left:
            # (The killed client's backend may still be in its sleep.)
            server.sql(f"DROP DATABASE IF EXISTS {name}" +
                       (" WITH (FORCE)" if server.backend == "postgres" else ""))


def killed(server, problems, tries):
    """A run killed (SIGKILL) or interrupted twice 10-90 ms apart while its
    database is there: the database is gone soon after, and stderr says so."""
    rng = random.Random(7)
    before = server.databases()
    args = [IDEMLAB, "run", "--scenario", "order-create", "--variant", "check-for-update",
            "--timing", "concurrent", "--duplicates", "60", "--json",
            "--connect", server.url("student", PASSWORD)]
    for how in ("SIGKILL", "two SIGINTs"):
        for attempt in range(tries):
            lab = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and lab.poll() is None:
                if len(server.databases()) > len(before):
                    break
                time.sleep(0.02)
            # Somewhere in the run: set-up, stepping or the judge.
            time.sleep(rng.uniform(0, 0.3))
            if lab.poll() is not None:
                problems.append(f"{server.backend}: the run ended before the {how}: "
                                f"{lab.stderr.read()}")
                continue
            if how == "SIGKILL":
                lab.kill()
            else:
                lab.send_signal(signal.SIGINT)
                time.sleep(rng.uniform(0.01, 0.09))
                lab.send_signal(signal.SIGINT)
            killed_at = time.monotonic()
            # stderr ends when the guard left behind has said its word.
            said = lab.communicate(timeout=120)[1]
            left = server.databases()
            while left != before and time.monotonic() < killed_at + 30:
                time.sleep(0.1)
                left = server.databases()
            took = time.monotonic() - killed_at
            if left != before:
                problems.append(f"{server.backend}, {how} #{attempt + 1}: databases {left} "
                                f"after {took:.1f} s, before {before}; stderr {said!r}")
            elif PASSWORD in said:
                problems.append(f"{server.backend}, {how}: stderr shows the password: {said!r}")
            # 130, or SIGINT itself when the second came after the tidy stop.
            elif how != "SIGKILL" and lab.returncode not in (130, -signal.SIGINT):
                problems.append(f"{server.backend}, {how}: exit {lab.returncode}: {said!r}")
            else:
                print(f"ok: {server.backend}, {how} #{attempt + 1}: no database left "
                      f"{took:.2f} s after; {said.strip().splitlines()[-1] if said.strip() else ''}")


def refused(server, problems):
    """Each is one line, exit 2, without the password."""
    cases = [
        ("a wrong password", ["--connect", server.url("student", WRONG)]),
        ("an unreachable socket",
         ["--connect", server.url("student", PASSWORD).replace(server.socket,
                                                               "/nonexistent/idemlab")]),
        ("no right to create databases", ["--connect", server.url("visitor", PASSWORD)]),
        ("a --backend that disagrees",
         ["--connect", server.url("student", PASSWORD), "--backend",
          "mariadb" if server.backend == "postgres" else "postgres"]),
        ("--backend sqlite", ["--connect", server.url("student", PASSWORD), "--backend",
                              "sqlite"]),
    ]
    for how, args in cases:
        done = run(["run", "--json"] + SCENARIO + args)
        lines = done.stderr.strip().splitlines()
        if done.returncode != 2 or len(lines) != 1 or done.stdout:
            problems.append(f"{server.backend}, {how}: exit {done.returncode}, stderr "
                            f"{done.stderr!r}, stdout {done.stdout!r}")
        elif WRONG in done.stderr or PASSWORD in done.stderr:
            problems.append(f"{server.backend}, {how}: the message shows the password: "
                            f"{done.stderr!r}")
        else:
            print(f"ok: {server.backend}, {how}: exit 2: {lines[0]}")


def main():
    missing = [b for b, path in SERVERS.items() if not os.path.exists(path)]
    if missing:
        print("SKIP: not installed:", ", ".join(missing))
        return 0
    problems = []
    for backend in SERVERS:
        server = None
        try:
            server = UserServer(backend)
            server.add_users()
            before = server.databases()
            same_as_private(server, problems)
            refused(server, problems)
            # Runs without a crash: each connection said goodbye.
            for line in server.log().splitlines():
                if "Aborted connection" in line:
                    problems.append(f"{backend}: the server logged: {line}")
            # An experiment: a database for each of its runs, all dropped.
            done = run(["experiment", "--scenario", "order-create", "--variants",
                        "unique-key,check-for-update", "--intents", "20", "--json",
                        "--connect", server.url("student", PASSWORD)])
            if done.returncode != 0:
                problems.append(f"{backend}: experiment --connect: {done.stderr}")
            kept(server, problems)
            leftovers(server, problems)
            killed(server, problems, int(os.environ.get("IDEM_CONNECT_KILLS", "2")))
            # A shared server's log: nothing the lab tried that this user may
            # not do (PostgreSQL: deadlock_timeout, CREATE EXTENSION).
            for line in server.log().splitlines():
                # (The visitor's CREATE DATABASE is refused on purpose, above;
                # the experiment's crashed attempts end without a goodbye.)
                if ("permission denied" in line and "create database" not in line
                        or "must be superuser" in line):
                    problems.append(f"{backend}: the server logged: {line}")
            after = server.databases()
            if after != before:
                problems.append(f"{backend}: databases before {before}, after {after}")
            else:
                print(f"ok: {backend}: the server's databases are as before: {after}")
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            problems.append(str(e))
        finally:
            if server:
                server.stop()
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
