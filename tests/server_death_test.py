#!/usr/bin/env python3
"""A server that dies in the middle of a run (SPEC section 8): the lab says
which server stopped and how, exits 1 (an environment failure), and judges
nothing: no verdict, no summary drawn from a database that went away. The
server is killed with SIGKILL, as the machine's OOM killer would, on both
servers: mid-run, and as soon as a process of its program appears (the
lab asking its version, or the server starting): the machine's failure,
exit 1, never the user's 2. A killed PostgreSQL leaves no shared memory
segment in /dev/shm (the lab's servers keep theirs in their data folder).
A signal while the private server starts ends the lab at once (exit 128 +
the signal), nothing of the server left. Skips a server whose program is
absent."""
import os
import signal
import subprocess
import sys
import time

IDEMLAB = sys.argv[1]
SERVERS = {
    "postgres": ("/usr/lib/postgresql/15/bin/postgres", "PostgreSQL"),
    "mariadb": ("/usr/sbin/mariadbd", "MariaDB"),
}
failed = 0


def bad(message):
    global failed
    failed += 1
    print("FAIL: " + message)


def descendants(root):
    """Every process under `root`, from /proc's parent links."""
    children = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(pid))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def server_of(lab, program):
    """The run's server: a process under the lab running `program` whose
    parent is not the same program (PostgreSQL's postmaster, not a backend)."""
    for pid in descendants(lab):
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
            with open(f"/proc/{pid}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            parent_exe = os.readlink(f"/proc/{parent}/exe")
        except OSError:
            continue
        if exe == program and parent_exe != program:
            return pid
    return None


def kill_mid_run(backend, program, name, at_once=False, tries=3):
    args = [IDEMLAB, "run", "--scenario", "order-create", "--backend", backend,
            "--intents", "5000"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Under way: the server answers and the run's statements flow.
    deadline = time.monotonic() + 120
    server = None
    while p.poll() is None and time.monotonic() < deadline:
        server = server_of(p.pid, program)
        if server:
            break
        time.sleep(0.05)
    if not server:
        p.kill()
        p.communicate()
        bad(f"{backend}: no server of the run's found")
        return
    # Found again after a while: the first may have been the program making
    # the data folder's template, or telling its version, which end by
    # themselves.
    time.sleep(0.0 if at_once else 1.5)
    server = None
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline:
        # Between the version asked and the server started, none runs.
        server = server_of(p.pid, program)
        if server:
            break
        time.sleep(0.01)
    if p.poll() is not None or not server:
        p.kill()
        p.communicate()
        bad(f"{backend}: the run ended before its server was killed")
        return
    os.kill(server, signal.SIGKILL)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        bad(f"{backend}: still running 60 s after its server died")
        return
    print(f"{backend}{' at once' if at_once else ''}: exit {p.returncode}; {err.strip()}")
    if not at_once and "stopped while starting" in err and tries > 1:
        # A loaded machine (a sanitizer build) was still starting the server
        # 1.5 s on: that is the at-once case, not this one. Again.
        print(f"{backend}: the server was still starting when killed; again")
        kill_mid_run(backend, program, name, at_once, tries - 1)
        return
    if p.returncode != 1:
        bad(f"{backend}: exit {p.returncode}, want 1")
    said = [f"{name} stopped during the run (signal 9)"]
    if at_once:
        # Killed as it started, or as the lab asked its version first.
        said += [f"{name} stopped while starting (signal 9)", "--version: it was killed"]
    if not any(s in err for s in said):
        bad(f"{backend}: stderr does not say the server stopped: {err!r}")
    if "verdict" in out or "exactly-once" in out:
        bad(f"{backend}: a verdict was printed: {out[-300:]!r}")


def servers_running(program):
    """Processes of `program` on the machine (own_processes.sh: the test's own)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and os.readlink(f"/proc/{pid}/exe") == program:
                found.append(int(pid))
        except OSError:
            continue
    return found


def folders(backend):
    """The private servers' folders (data, socket, log) of `backend`."""
    try:
        return {n for n in os.listdir("/dev/shm") if n.startswith(f"idemlab-{backend}-")}
    except OSError:
        return set()


def folder_of(pid, backend):
    """The private folder a server process was started in, from its command
    line (-D /dev/shm/idemlab-postgres-X/data, --datadir=...); None for the
    program asked its version, or a process already gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    mark = f"/dev/shm/idemlab-{backend}-"
    for word in words:
        at = word.find(mark)
        if at >= 0:
            return word[at + len("/dev/shm/"):].split("/")[0]
    return None


def signal_while_starting(backend, program, sig):
    """Ctrl+C (or SIGTERM, SIGHUP) while the lab's private server starts:
    the lab ends at once as signalled, the half-started server killed and
    its folder gone (MariaDB heeds no shutdown before it answers: the lab
    used to wait 15 s for it)."""
    args = [IDEMLAB, "run", "--scenario", "order-create", "--backend", backend]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    # The server proper, in its folder (not the program asked its version
    # first): the folder is the run's own, whatever other tests put in
    # /dev/shm meanwhile.
    folder = None
    while p.poll() is None and time.monotonic() < deadline and not folder:
        server = server_of(p.pid, program)
        folder = folder_of(server, backend) if server else None
        if not folder:
            time.sleep(0.01)
    if p.poll() is not None:
        bad(f"{backend} {sig.name}: the run ended before its server started")
        return
    signalled = time.monotonic()
    p.send_signal(sig)
    try:
        p.communicate(timeout=5)  # against a hang, not a pace
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        bad(f"{backend} {sig.name}: still running 5 s after the signal")
        return
    took = time.monotonic() - signalled
    print(f"{backend} {sig.name} while starting: exit {p.returncode} in {took:.2f} s")
    if p.returncode != 128 + sig:
        bad(f"{backend} {sig.name}: exit {p.returncode}, want {128 + sig}")
    time.sleep(0.2)  # the keeper's last moment
    if servers_running(program):
        bad(f"{backend} {sig.name}: {program} still runs: {servers_running(program)}")
    if folder in folders(backend):
        bad(f"{backend} {sig.name}: left {folder} in /dev/shm")


def segments():
    """PostgreSQL's POSIX shared memory segments, which outlive a killed server."""
    try:
        return {n for n in os.listdir("/dev/shm") if n.startswith("PostgreSQL.")}
    except OSError:
        return set()


def main():
    before = segments()
    ran = 0
    for backend, (program, name) in SERVERS.items():
        if not os.access(program, os.X_OK):
            print(f"skip {backend}: {program} is not installed")
            continue
        ran += 1
        kill_mid_run(backend, program, name)
        kill_mid_run(backend, program, name, at_once=True)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal_while_starting(backend, program, sig)
    if segments() - before:
        bad(f"left in /dev/shm: {sorted(segments() - before)}")
    print(f"{ran} servers, {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
