#!/usr/bin/env python3
"""`idemlab TRACE` as a screen reader meets it, on a real X screen.

Starts Xvfb with openbox, a D-Bus session and the AT-SPI bus, opens the
window on a trace the way a file manager does (`idemlab FILE`), in English,
and reads back through the accessibility tree (the one Orca reads):
- the window shows the trace's run (its variant, then its verdict at End);
- the state and sequence diagrams have their names from the start;
- Tab reaches the verdict, whose description says what the database shows.
Not part of ctest (it needs a display server); run it by hand:

    tests/screenreader_check.py [path/to/idemlab]

Needs xvfb openbox xdotool x11-utils dbus-x11 at-spi2-core python3-pyatspi.
Prints what it read; exits 1 on the first thing the window does not show.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

DISPLAY = ":96"
APP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/app/idemlab")
procs = []


def start(cmd, env=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    procs.append(p)
    return p


def cleanup():
    for p in reversed(procs):
        p.terminate()
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()


def fail(message):
    print("FAIL:", message)
    cleanup()
    sys.exit(1)


def key(name, pause=0.3):
    subprocess.run(["xdotool", "key", "--clearmodifiers", name], check=True)
    time.sleep(pause)


for tool in ("Xvfb", "openbox", "xdotool", "xwininfo", "xprop", "dbus-launch"):
    if not shutil.which(tool):
        print("missing:", tool)
        sys.exit(2)
home = tempfile.mkdtemp(prefix="idemlab-reader-")
trace = os.path.join(home, "callback.idemlab.json")
subprocess.run([APP, "run", "--scenario", "payment-callback", "--variant", "none", "--trace",
                trace], check=True, stdout=subprocess.DEVNULL)

os.environ["DISPLAY"] = DISPLAY
start(["Xvfb", DISPLAY, "-screen", "0", "1280x720x24", "-nolisten", "tcp"])
for _ in range(50):
    if subprocess.run(["xwininfo", "-root"], capture_output=True).returncode == 0:
        break
    time.sleep(0.1)
out = subprocess.run(["dbus-launch", "--sh-syntax"], capture_output=True, text=True).stdout
for line in out.splitlines():
    if line.startswith("DBUS_SESSION_BUS_ADDRESS="):
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = line.split("=", 1)[1].rstrip(";").strip("'")
start(["openbox"])
for _ in range(100):
    if "_NET_SUPPORTING_WM_CHECK(WINDOW)" in subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.1)
start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])
time.sleep(1.5)
# A first start in English, the welcome offer already made: nothing but the trace.
os.makedirs(home + "/.config/Idempotency Lab")
with open(home + "/.config/Idempotency Lab/idemlab.conf", "w") as conf:
    conf.write("[start]\nfirstLessonOffered=true\n")
env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home + "/.config", LANG="en_US.UTF-8",
           LANGUAGE="en", QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
           QT_ACCESSIBILITY="1")
start([APP, trace], env)

import pyatspi  # noqa: E402  (needs the session bus set above)


def app_root():
    for _ in range(60):
        for a in pyatspi.Registry.getDesktop(0):
            if a is not None and "idemlab" in (a.name or ""):
                return a
        time.sleep(0.5)
    fail("the window never appeared on the accessibility bus")


def walk(a, depth=0):
    yield a
    if depth > 40:
        return
    try:
        n = a.childCount
    except Exception:
        return
    for i in range(n):
        try:
            c = a.getChildAtIndex(i)
        except Exception:
            continue
        if c is not None:
            yield from walk(c, depth + 1)


def find(pred):
    for a in walk(app_root()):
        try:
            if a.getState().contains(pyatspi.STATE_SHOWING) and pred(a):
                return a
        except Exception:
            continue
    return None


def wait(what, pred, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        a = find(pred)
        if a is not None:
            return a
        time.sleep(0.3)
    fail(what)


def focused():
    return find(lambda a: a.getState().contains(pyatspi.STATE_FOCUSED)
                and a.getRoleName() not in ("table cell", "list item", "page tab"))


print("== idemlab", trace)
frame = wait("no main frame", lambda a: a.getRoleName() == "frame" and "Idempotency Lab" in a.name)
variant = wait("the window does not show the trace's variant (none)",
               lambda a: a.getRoleName() == "combo box" and "No guard" in (a.name or ""))
print("variant:", variant.name)

print("== the diagrams, named from the start")
for name in ("State diagram", "Sequence diagram"):
    a = wait("no accessible named " + name, lambda a, n=name: (a.name or "") == n)
    print(f"{a.getRoleName()}: {a.name}")

print("== End, then Tab to the verdict")
for _ in range(50):
    if focused() is not None:
        break
    time.sleep(0.3)
key("End")
wait("the verdict is not DUPLICATED",
     lambda a: a.getRoleName() == "label" and (a.name or "") == "DUPLICATED")
seen = []
for _ in range(120):
    f = focused()
    if f is not None and "Verdict:" in (f.description or ""):
        break
    seen.append(f"{f.getRoleName()} {f.name!r}" if f is not None else "nothing")
    key("Tab", pause=0.15)
else:
    fail("Tab never reached the verdict; passed: " + "; ".join(seen[:40]))
print(f"after {len(seen)} Tab: {f.getRoleName()} {f.name!r}")
print("description:", f.description)
if "happened 3 times, expected 1" not in f.description:
    fail("the description does not say what the database shows")
print("ok")
cleanup()
